// The rule catalog, table-driven: a healthy source in an internal context
// raises no reason; each row changes one thing and expects exactly its rule
// to fire (and the decision it justifies). docs/trust-rules.md is checked
// against the catalog so the two cannot drift.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "trust/config.h"
#include "trust/engine.h"
#include "trust/rules.h"

namespace credence::trust {
namespace {

const TimeMs kNow = *ParseTimestamp("2031-06-01T00:00:00Z");

SourceState Healthy() {
  SourceState s;
  s.source_id = "entry:01a204d3-bf54-7c1e-9708-cc44a97afaf9";
  s.resolved = true;
  s.entry_id = "01a204d3-bf54-7c1e-9708-cc44a97afaf9";
  s.title = "Refund policy";
  s.status = kb::EntryStatus::kPublished;
  s.version = 3;
  s.content_updated_at = kNow - 20 * kMsPerDay;
  s.expiry_at = kNow + 200 * kMsPerDay;
  s.days_until_expiry = 200;
  s.last_reviewed_at = kNow - 10 * kMsPerDay;
  s.last_review = ReviewStrength::kFull;
  s.owner_id = "owner";
  s.owner_active = true;
  return s;
}

Context Internal() {
  Context c;
  c.actor_type = "ai_agent";
  c.action = "answer_employee";
  c.channel = "internal";
  return c;
}

Context CustomerFacing() {
  Context c = Internal();
  c.action = "answer_customer";
  c.channel = "public_support_chat";
  c.customer_facing = true;
  return c;
}

struct Case {
  std::string rule;
  std::function<void(SourceState&, Policy&, Context&)> change;
  Decision expected;
};

std::vector<std::string> Codes(const SourceDecision& d) {
  std::vector<std::string> out;
  for (const auto& r : d.reasons) out.push_back(r.code);
  return out;
}

TEST(TrustRules, AHealthySourceInAnInternalContextIsAllowedWithoutReasons) {
  const auto d = Decide(Healthy(), Policy{}, kPolicyTenantDefault, Internal(), kNow);
  EXPECT_EQ(d.decision, Decision::kAllow);
  EXPECT_TRUE(d.reasons.empty()) << ::testing::PrintToString(Codes(d));
  EXPECT_EQ(d.classification, "Published");
  EXPECT_EQ(d.policy_source, "tenant-default");
  EXPECT_EQ(d.recommended_action, "none");
  EXPECT_FALSE(d.requirements.citation_required);
  EXPECT_GT(d.freshness_score, 90);
  // ...and in a customer-facing one too (it is reviewed and not sensitive).
  EXPECT_TRUE(Decide(Healthy(), Policy{}, kPolicyTenantDefault, CustomerFacing(), kNow).reasons.empty());
}

TEST(TrustRules, PersonalDataInternallyIsAllowedWhenThePolicySaysSo) {
  SourceState s = Healthy();
  s.has_personal_data = true;
  Policy p;
  p.warn_on_personal_data = false;
  EXPECT_TRUE(Decide(s, p, kPolicyTenantDefault, Internal(), kNow).reasons.empty());
  // The customer-facing and external-model blocks stay.
  EXPECT_EQ(Decide(s, p, kPolicyTenantDefault, CustomerFacing(), kNow).decision, Decision::kBlock);
  Context external = Internal();
  external.external_model = true;
  EXPECT_EQ(Decide(s, p, kPolicyTenantDefault, external, kNow).decision, Decision::kBlock);
}

TEST(TrustRules, EachRuleFiresAloneOnItsTrigger) {
  const std::vector<Case> cases = {
      {"source_unresolved", [](SourceState& s, Policy&, Context&) { s.resolved = false; }, Decision::kBlock},
      {"not_published", [](SourceState& s, Policy&, Context&) { s.status = kb::EntryStatus::kDraft; },
       Decision::kBlock},
      {"source_removed", [](SourceState& s, Policy&, Context&) { s.removed = true; }, Decision::kBlock},
      {"connected_never_reviewed",
       [](SourceState& s, Policy&, Context&) {
         s.origin = Origin::kConnected;
         s.last_reviewed_at.reset();
         s.last_review = ReviewStrength::kNone;
       },
       Decision::kWarn},
      {"expired", [](SourceState& s, Policy&, Context&) { s.status = kb::EntryStatus::kExpired; }, Decision::kBlock},
      {"expiry_passed", [](SourceState& s, Policy&, Context&) { s.status = kb::EntryStatus::kWarning; },
       Decision::kWarn},
      {"expiring_soon",
       [](SourceState& s, Policy&, Context&) {
         s.expiry_at = kNow + 5 * kMsPerDay;
         s.days_until_expiry = 5;
       },
       Decision::kWarn},
      {"never_reviewed",
       [](SourceState& s, Policy&, Context&) {
         s.last_reviewed_at.reset();
         s.last_review = ReviewStrength::kNone;
       },
       Decision::kWarn},
      {"review_too_old", [](SourceState&, Policy& p, Context&) { p.max_review_age_days = 5; }, Decision::kWarn},
      {"source_changed_after_review",
       [](SourceState& s, Policy&, Context&) { s.content_updated_at = kNow - 1 * kMsPerDay; }, Decision::kWarn},
      {"translation_missing",
       [](SourceState& s, Policy&, Context&) {
         s.language = "de";
         s.translation_missing = true;
       },
       Decision::kWarn},
      {"stale_translation",
       [](SourceState& s, Policy&, Context&) {
         s.language = "es";
         s.stale_translation_blocks = 2;
       },
       Decision::kWarn},
      {"machine_translation_unreviewed",
       [](SourceState& s, Policy&, Context& c) {
         s.language = "es";
         s.machine_translation_blocks = 3;
         c = CustomerFacing();
       },
       Decision::kWarn},
      {"no_owner", [](SourceState& s, Policy&, Context&) { s.owner_id.reset(); }, Decision::kWarn},
      {"owner_inactive", [](SourceState& s, Policy&, Context&) { s.owner_active = false; }, Decision::kWarn},
      {"not_ai_retrievable", [](SourceState&, Policy& p, Context&) { p.ai_retrievable = false; }, Decision::kBlock},
      {"internal_only_external_channel",
       [](SourceState&, Policy& p, Context& c) {
         p.internal_only = true;
         c = CustomerFacing();
       },
       Decision::kBlock},
      {"customer_facing_not_allowed",
       [](SourceState&, Policy& p, Context& c) {
         p.customer_facing_allowed = false;
         c = CustomerFacing();
       },
       Decision::kBlock},
      {"external_model_not_allowed",
       [](SourceState&, Policy& p, Context& c) {
         p.external_model_allowed = false;
         c.external_model = true;
       },
       Decision::kBlock},
      {"customer_facing_unreviewed",
       [](SourceState& s, Policy& p, Context& c) {
         p.max_review_age_days = 90;
         s.last_reviewed_at = kNow - 95 * kMsPerDay;  // too old for customer-facing use
         s.content_updated_at = kNow - 120 * kMsPerDay;
         c = CustomerFacing();
       },
       Decision::kBlock},
      {"sensitivity_above_ai_limit",
       [](SourceState& s, Policy&, Context&) { s.sensitivity = Sensitivity::kConfidential; }, Decision::kBlock},
      {"secrets_present", [](SourceState& s, Policy&, Context&) { s.has_secrets = true; }, Decision::kBlock},
      {"personal_data_customer_facing",
       [](SourceState& s, Policy&, Context& c) {
         s.has_personal_data = true;
         c = CustomerFacing();
       },
       Decision::kBlock},
      {"personal_data_external_model",
       [](SourceState& s, Policy&, Context& c) {
         s.has_personal_data = true;
         c.external_model = true;
       },
       Decision::kBlock},
      {"personal_data_present", [](SourceState& s, Policy&, Context&) { s.has_personal_data = true; }, Decision::kWarn},
      {"action_needs_stronger_review",
       [](SourceState& s, Policy&, Context& c) {
         s.last_review = ReviewStrength::kQuick;
         c.action = "ship_release";
         c.action_requires = ReviewStrength::kFull;
       },
       Decision::kBlock},
      {"unknown_channel", [](SourceState&, Policy&, Context& c) { c.channel_known = false; }, Decision::kAllow},
      {"app_channel_mismatch", [](SourceState&, Policy&, Context& c) { c.app_channel = "internal"; }, Decision::kWarn},
  };
  std::set<std::string> covered;
  for (const auto& c : cases) {
    SCOPED_TRACE(c.rule);
    SourceState s = Healthy();
    Policy p;
    Context ctx = Internal();
    c.change(s, p, ctx);
    auto d = Decide(s, p, kPolicyTenantDefault, ctx, kNow);
    std::vector<std::string> codes = Codes(d);
    // review_too_old and customer_facing_unreviewed share a trigger (an old
    // review); everything else fires alone.
    std::erase_if(codes, [&](const std::string& code) {
      return code != c.rule && (code == "review_too_old" || code == "customer_facing_unreviewed");
    });
    EXPECT_EQ(codes, std::vector<std::string>{c.rule});
    EXPECT_EQ(d.decision, c.expected);
    covered.insert(c.rule);
  }
  std::set<std::string> catalog;
  for (const Rule& r : RuleCatalog()) catalog.insert(std::string(r.code));
  EXPECT_EQ(covered, catalog) << "every rule of the catalog has a row here";
}

TEST(TrustRules, TheMostSevereReasonDecidesAndComesFirst) {
  SourceState s = Healthy();
  s.owner_id.reset();                    // warn
  s.has_secrets = true;                  // block, escalate
  s.status = kb::EntryStatus::kWarning;  // warn
  const auto d = Decide(s, Policy{}, kPolicyHub, Internal(), kNow);
  EXPECT_EQ(d.decision, Decision::kBlock);
  EXPECT_TRUE(d.escalated);
  ASSERT_FALSE(d.reasons.empty());
  EXPECT_EQ(d.reasons.front().code, "secrets_present");
  EXPECT_EQ(d.recommended_action, "remove_secrets");
  EXPECT_EQ(d.policy_source, "hub");
  EXPECT_FALSE(d.requirements.citation_required) << "a blocked source carries no obligations";
}

TEST(TrustRules, WarnedSourcesCarryCitationAndThePolicysDisclaimer) {
  SourceState s = Healthy();
  s.owner_id.reset();
  Policy p;
  p.disclaimer_text = "Check with support before quoting.";
  const auto d = Decide(s, p, kPolicyTenantDefault, Internal(), kNow);
  EXPECT_EQ(d.decision, Decision::kWarn);
  EXPECT_EQ(d.recommended_action, "assign_owner");
  EXPECT_TRUE(d.requirements.citation_required);
  EXPECT_TRUE(d.requirements.disclaimer_required);
  EXPECT_EQ(d.requirements.disclaimer_text, p.disclaimer_text);
  // Allowed: citation only when policy asks for it, no disclaimer.
  p.citation_required = true;
  const auto allowed = Decide(Healthy(), p, kPolicyTenantDefault, Internal(), kNow);
  EXPECT_TRUE(allowed.requirements.citation_required);
  EXPECT_FALSE(allowed.requirements.disclaimer_required);
}

TEST(TrustRules, SourceChangedAfterReviewCarriesWhenItChanged) {
  SourceState s = Healthy();
  s.content_updated_at = kNow - kMsPerDay;
  const auto d = Decide(s, Policy{}, kPolicyTenantDefault, Internal(), kNow);
  ASSERT_EQ(d.reasons.size(), 1u);
  const auto data = boost::json::parse(d.reasons[0].data_json);
  EXPECT_EQ(data.at("sourceChangedAt").as_string(), FormatTimestamp(kNow - kMsPerDay));
  EXPECT_EQ(d.reasons[0].dimension, Dimension::kFreshness);
  EXPECT_EQ(d.recommended_action, "request_review");
}

TEST(TrustRules, UnresolvedSourcesAreBlockedWithOneReason) {
  SourceState s;
  s.source_id = "wiki:nope";
  const auto d = Decide(s, Policy{}, kPolicyTenantDefault, Internal(), kNow);
  EXPECT_EQ(Codes(d), std::vector<std::string>{"source_unresolved"});
  EXPECT_EQ(d.decision, Decision::kBlock);
  EXPECT_EQ(d.classification, "Unresolved");
  EXPECT_EQ(d.freshness_score, 0);
  EXPECT_EQ(d.recommended_action, "check_source_id");
}

TEST(TrustRules, FreshnessScoreDecaysWithTheReviewAndIsCappedByState) {
  Policy p;
  p.max_review_age_days = 100;
  SourceState s = Healthy();
  s.last_reviewed_at = kNow;
  s.content_updated_at = kNow - kMsPerDay;
  EXPECT_EQ(FreshnessScore(s, p, kNow), 100);
  s.last_reviewed_at = kNow - 50 * kMsPerDay;
  s.content_updated_at = kNow - 60 * kMsPerDay;
  EXPECT_EQ(FreshnessScore(s, p, kNow), 50);
  s.last_reviewed_at = kNow - 150 * kMsPerDay;
  s.content_updated_at = kNow - 160 * kMsPerDay;
  EXPECT_EQ(FreshnessScore(s, p, kNow), 0);
  s = Healthy();
  s.last_reviewed_at.reset();
  s.content_updated_at = kNow;
  EXPECT_EQ(FreshnessScore(s, p, kNow), 50) << "never reviewed: at most 50";
  s = Healthy();
  s.status = kb::EntryStatus::kWarning;
  EXPECT_EQ(FreshnessScore(s, p, kNow), 20);
  s.status = kb::EntryStatus::kExpired;
  EXPECT_EQ(FreshnessScore(s, p, kNow), 0);
}

// docs/trust-rules.md's table: | `code` | dimension | severity | trigger |.
// docs/apps.md: an app's default policy only ever tightens a source's.
TEST(AppPolicy, TightensFieldByFieldAndNeverLoosens) {
  Policy source;
  source.ai_retrievable = true;
  source.max_sensitivity_for_ai = Sensitivity::kConfidential;
  source.max_review_age_days = 90;
  source.warn_before_expiry_days = 14;
  source.disclaimer_text = "Internal guidance.";
  PolicyOverride app;
  app.ai_retrievable = true;                          // permits: changes nothing
  app.max_sensitivity_for_ai = Sensitivity::kPublic;  // stricter: applies
  app.max_review_age_days = 365;                      // looser: ignored
  app.warn_before_expiry_days = 30;                   // warns earlier: applies
  app.citation_required = true;
  app.disclaimer_text = "Answers may be incomplete.";
  Policy p = source;
  EXPECT_TRUE(Tighten(app, p));
  EXPECT_TRUE(p.ai_retrievable);
  EXPECT_EQ(p.max_sensitivity_for_ai, Sensitivity::kPublic);
  EXPECT_EQ(p.max_review_age_days, 90);
  EXPECT_EQ(p.warn_before_expiry_days, 30);
  EXPECT_TRUE(p.citation_required);
  EXPECT_EQ(*p.disclaimer_text, "Internal guidance.\n\nAnswers may be incomplete.");

  PolicyOverride looser;
  looser.internal_only = false;
  looser.customer_facing_allowed = true;
  looser.max_review_age_days = 1000;
  Policy q = source;
  EXPECT_FALSE(Tighten(looser, q));
  EXPECT_EQ(q, source);
}

TEST(AppPolicy, ARequestOnAnotherChannelIsJudgedByTheStricterOfTheTwo) {
  const ContextConfig config;  // internal: internal, ci, employee_chat; customer-facing: public_support_chat, ...
  AppProfile internal_app;
  internal_app.channel = "internal";
  AppProfile public_app;
  public_app.channel = "public_support_chat";

  Context none;  // no channel: the app's
  ClassifyForApp(config, internal_app, none);
  EXPECT_EQ(none.channel, "internal");
  EXPECT_FALSE(none.customer_facing);
  EXPECT_FALSE(none.app_channel);

  Context claims_internal;
  claims_internal.channel = "ci";
  ClassifyForApp(config, public_app, claims_internal);
  EXPECT_TRUE(claims_internal.customer_facing);  // the app's channel is customer-facing
  EXPECT_EQ(claims_internal.app_channel, "public_support_chat");

  Context claims_public;
  claims_public.channel = "customer_email";
  ClassifyForApp(config, internal_app, claims_public);
  EXPECT_TRUE(claims_public.customer_facing);  // the request's is
  EXPECT_EQ(claims_public.app_channel, "internal");
}

TEST(TrustRules, TheDocumentedTableMatchesTheCatalog) {
  std::ifstream in(std::string(CREDENCE_SOURCE_DIR) + "/docs/trust-rules.md");
  ASSERT_TRUE(in) << "docs/trust-rules.md is missing";
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> cells;
    std::stringstream ss(line.substr(1));
    std::string cell;
    while (std::getline(ss, cell, '|')) {
      const auto b = cell.find_first_not_of(' ');
      const auto e = cell.find_last_not_of(' ');
      cells.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
    }
    rows.push_back(cells);
  }
  const auto catalog = RuleCatalog();
  ASSERT_EQ(rows.size(), catalog.size()) << "one documented row per rule";
  for (size_t i = 0; i < catalog.size(); ++i) {
    SCOPED_TRACE(std::string(catalog[i].code));
    ASSERT_GE(rows[i].size(), 4u);
    EXPECT_EQ(rows[i][0], "`" + std::string(catalog[i].code) + "`");
    EXPECT_EQ(rows[i][1], DimensionName(catalog[i].dimension));
    EXPECT_EQ(rows[i][2], DecisionName(catalog[i].severity));
    EXPECT_EQ(rows[i][3], catalog[i].trigger);
  }
}

}  // namespace
}  // namespace credence::trust
