// Evidence read back for replays (what_if.h): every field a rule reads comes
// back from the stored JSON, and the rule catalog fits the reason bit set.
#include "trust/recorded_evidence.h"

#include <gtest/gtest.h>

#include "trust/engine.h"
#include "trust/rules.h"

namespace credence::trust {
namespace {

constexpr char kEvidence[] = R"({"result":{"sourceId":"entry:e1","resolved":true,"entryId":"e1","title":"Refunds",
"origin":"native","decision":"warn","escalated":false,"reasons":[{"code":"no_owner","dimension":"ownership",
"severity":"warn","message":"Nobody owns the source.","data":{}},{"code":"machine_translation_unreviewed",
"dimension":"freshness","severity":"warn","message":"...","data":{"language":"de","machineTranslatedBlocks":3,
"channel":"public_website"}}],"freshnessScore":80,"classification":"Published","sensitivity":"Confidential",
"policySource":"hub","recommendedAction":"use","requirements":{"citationRequired":true,"disclaimerRequired":false,
"disclaimerText":null}},"state":{"resolved":true,"origin":"native","status":"ExpiringSoon","version":4,
"contentUpdatedAt":"2026-10-01T00:00:00Z","expiryDate":"2026-12-10T00:00:00Z","lastReviewedAt":"2026-10-02T00:00:00Z",
"lastReviewType":"Attestation","ownerId":null,"ownerActive":false,"sensitivity":"Confidential","hasSecrets":false,
"hasPersonalData":true,"language":"de","translationMissing":false,"staleTranslationBlocks":2,"externalUrl":null,
"policy":{"aiRetrievable":true,"customerFacingAllowed":false,"internalOnly":false,"externalModelAllowed":true,
"maxSensitivityForAi":"Confidential","warnBeforeExpiryDays":30,"maxReviewAgeDays":90,
"customerFacingRequiresReview":true,"citationRequired":true,"warnOnPersonalData":false,"disclaimerText":"Check."},
"policySource":"hub"}})";

TEST(RecordedEvidence, EveryFieldTheRulesReadComesBack) {
  auto r = ParseRecordedSource(kEvidence);
  ASSERT_TRUE(r.has_value());
  const SourceState& s = r->state;
  EXPECT_TRUE(s.resolved);
  EXPECT_EQ(s.source_id, "entry:e1");
  EXPECT_EQ(s.entry_id, "e1");
  EXPECT_EQ(s.title, "Refunds");
  EXPECT_EQ(s.origin, Origin::kNative);
  EXPECT_EQ(s.status, kb::EntryStatus::kExpiringSoon);
  EXPECT_EQ(s.version, 4);
  EXPECT_EQ(s.content_updated_at, *ParseTimestamp("2026-10-01T00:00:00Z"));
  EXPECT_EQ(s.expiry_at, *ParseTimestamp("2026-12-10T00:00:00Z"));
  EXPECT_EQ(s.last_reviewed_at, ParseTimestamp("2026-10-02T00:00:00Z"));
  EXPECT_EQ(s.last_review, ReviewStrength::kAttestation);
  EXPECT_FALSE(s.owner_id.has_value());
  EXPECT_EQ(s.sensitivity, Sensitivity::kConfidential);
  EXPECT_TRUE(s.has_personal_data);
  EXPECT_EQ(s.language, "de");
  EXPECT_EQ(s.stale_translation_blocks, 2);
  EXPECT_EQ(s.machine_translation_blocks, 3);  // from the reason's data

  Policy expected;
  expected.customer_facing_allowed = false;
  expected.max_sensitivity_for_ai = Sensitivity::kConfidential;
  expected.warn_before_expiry_days = 30;
  expected.max_review_age_days = 90;
  expected.citation_required = true;
  expected.warn_on_personal_data = false;
  expected.disclaimer_text = "Check.";
  EXPECT_EQ(r->policy, expected);
  EXPECT_EQ(r->policy_source, "hub");
  EXPECT_EQ(r->decision, Decision::kWarn);
  EXPECT_EQ(r->reasons, ReasonBit("no_owner") | ReasonBit("machine_translation_unreviewed"));
}

TEST(RecordedEvidence, UnresolvedAndBrokenBodies) {
  auto r = ParseRecordedSource(
      R"({"result":{"sourceId":"wiki:x","resolved":false,"decision":"block","reasons":[{"code":"source_unresolved"}]},)"
      R"("state":{"resolved":false}})");
  ASSERT_TRUE(r.has_value());
  EXPECT_FALSE(r->state.resolved);
  EXPECT_EQ(r->decision, Decision::kBlock);
  EXPECT_EQ(r->reasons, ReasonBit("source_unresolved"));
  EXPECT_FALSE(ParseRecordedSource("not json").has_value());
  EXPECT_FALSE(ParseRecordedSource(R"({"result":{}})").has_value());
}

TEST(RecordedEvidence, EveryRuleHasItsOwnReasonBit) {
  ASSERT_LE(RuleCatalog().size(), 64u) << "ReasonSet is 64 bits: widen it";
  ReasonSet all = 0;
  for (const Rule& rule : RuleCatalog()) {
    const ReasonSet bit = ReasonBit(rule.code);
    EXPECT_NE(bit, 0u) << rule.code;
    EXPECT_EQ(all & bit, 0u) << rule.code;
    all |= bit;
  }
  EXPECT_EQ(ReasonBit("no_such_rule"), 0u);
}

TEST(RecordedEvidence, DaysUntilExpiryRoundTowardsThePastAsLifecycleDoes) {
  SourceState s;
  s.origin = Origin::kNative;
  s.expiry_at = 10 * kMsPerDay;
  EXPECT_EQ(DaysUntilExpiryAt(s, 0), 10);
  EXPECT_EQ(DaysUntilExpiryAt(s, 1), 9);
  EXPECT_EQ(DaysUntilExpiryAt(s, 10 * kMsPerDay + 1), -1);
  s.origin = Origin::kConnected;
  EXPECT_EQ(DaysUntilExpiryAt(s, 0), 0);
}

}  // namespace
}  // namespace credence::trust
