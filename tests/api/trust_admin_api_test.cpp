// Trust administration over real HTTP (/trust-admin/...): policies at the
// three levels, the context vocabulary, human sensitivity facts, connected
// documents and entries' source links. Each change is checked where it
// matters, in POST /api/trust/evaluate; then bad input for every body,
// access (tenant admins on a session only) and isolation. Runs on SQLite
// and PostgreSQL (CREDENCE_TEST_BACKEND).
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include "support/clock_fixture.h"
#include "support/kb_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

constexpr char kNow[] = "2030-01-01T00:00:00.000Z";

bool Has(const std::vector<std::string>& codes, const std::string& code) {
  return std::find(codes.begin(), codes.end(), code) != codes.end();
}

class TrustAdmin : public ClockedApiTest {
 protected:
  struct World {
    TestTenant t;
    std::string entry;  // published, FullReview, in hub kb
    std::string other;  // published, FullReview, in hub docs
  };

  void SetUp() override {
    ClockedApiTest::SetUp();
    if (IsSkipped()) return;
    SetServerTime(api(), "2030-01-01T00:00:00Z");
  }

  std::string PublishedEntry(const TestTenant& t, const std::string& hub, const std::string& key,
                             const std::string& review_type = "FullReview") {
    const std::string id = Str(MakeEntry(api(), t.token("editor"), hub, key, {"Text of " + key + "."}), "id");
    EXPECT_EQ(api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor")).status, 200);
    auto review = api().Post("/api/entries/" + id + "/review", {{"reviewType", review_type}, {"timeSpentSeconds", 60}},
                             t.token("editor"));
    EXPECT_EQ(review.status, 200) << review.body;
    return id;
  }

  World Make(const std::string& prefix) {
    World w{CreateTenant(api(), prefix), "", ""};
    for (const char* hub : {"kb", "docs"})
      EXPECT_EQ(api()
                    .Post("/api/hubs",
                          {{"key", hub}, {"name", hub}, {"defaultExpiryDays", 365}, {"defaultOrgRole", "Editor"}},
                          w.t.token("admin"))
                    .status,
                201);
    w.entry = PublishedEntry(w.t, "kb", "refunds");
    w.other = PublishedEntry(w.t, "docs", "shipping");
    return w;
  }

  // The one decision object of evaluating `source` in `channel`.
  json::value Evaluate(const TestTenant& t, const std::string& source, const std::string& channel,
                       json::object context = {}) {
    context["channel"] = channel;
    auto r = api().Post("/api/trust/evaluate", {{"sources", json::array{json::value(source)}}, {"context", context}},
                        t.token("viewer"));
    EXPECT_EQ(r.status, 200) << r.body;
    if (r.status != 200) return json::object{{"decision", "?"}, {"reasons", json::array{}}, {"policySource", "?"}};
    return r.Json().at("results").as_array()[0];
  }

  Response Put(const std::string& path, const json::value& body, const TestTenant& t,
               const std::string& persona = "admin") {
    return api().Put(path, body, t.token(persona));
  }

  static std::string SourcePath(const std::string& what, const std::string& source_id) {
    return "/trust-admin/" + what + "?sourceId=" + PercentEncode(source_id);
  }

  json::object Document(const std::string& key, const std::string& external_id) {
    return {{"connectorKey", key},
            {"externalId", external_id},
            {"title", "Page " + external_id},
            {"contentUpdatedAt", "2029-12-01T00:00:00Z"}};
  }
};

// ---- Policies.

TEST_F(TrustAdmin, HubAndEntryPoliciesDecideAndSayWhichLevelDecided) {
  auto w = Make("ta-policy");
  const std::string source = "entry:" + w.entry;

  auto tenant = api().Get("/trust-admin/policies/tenant", w.t.token("admin"));
  ASSERT_EQ(tenant.status, 200) << tenant.body;
  EXPECT_EQ(Str(tenant.Json(), "level"), "tenant");
  EXPECT_TRUE(tenant.Json().at("policy").as_object().empty());
  const json::value defaults = tenant.Json().at("effective");
  EXPECT_TRUE(defaults.at("aiRetrievable").as_bool());
  EXPECT_FALSE(defaults.at("internalOnly").as_bool());
  EXPECT_EQ(Str(defaults, "maxSensitivityForAi"), "Internal");
  EXPECT_EQ(defaults.at("warnBeforeExpiryDays").as_int64(), 14);
  EXPECT_EQ(defaults.at("maxReviewAgeDays").as_int64(), 180);
  EXPECT_TRUE(defaults.at("customerFacingRequiresReview").as_bool());
  EXPECT_TRUE(defaults.at("disclaimerText").is_null());
  EXPECT_TRUE(tenant.Json().at("updatedBy").is_null());

  json::value before = Evaluate(w.t, source, "public_support_chat");
  EXPECT_EQ(Str(before, "decision"), "allow") << json::serialize(before);
  EXPECT_EQ(Str(before, "policySource"), "tenant-default");

  // Hub level: internal only.
  auto hub = Put("/trust-admin/policies/hubs/kb", {{"internalOnly", true}}, w.t);
  ASSERT_EQ(hub.status, 200) << hub.body;
  EXPECT_EQ(Str(hub.Json(), "level"), "hub");
  EXPECT_EQ(Str(hub.Json(), "hubKey"), "kb");
  EXPECT_EQ(json::serialize(hub.Json().at("policy")), R"({"internalOnly":true})");
  EXPECT_TRUE(hub.Json().at("effective").at("internalOnly").as_bool());
  EXPECT_EQ(Str(hub.Json(), "updatedBy"), w.t.user_ids.at("admin"));
  EXPECT_EQ(Str(hub.Json(), "updatedAt"), kNow);
  EXPECT_EQ(api().Get("/trust-admin/policies/hubs/kb", w.t.token("admin")).body, hub.body);

  json::value blocked = Evaluate(w.t, source, "public_support_chat");
  EXPECT_EQ(Str(blocked, "decision"), "block");
  EXPECT_EQ(Codes(blocked), std::vector<std::string>{"internal_only_external_channel"});
  EXPECT_EQ(Str(blocked, "policySource"), "hub");
  EXPECT_EQ(Str(Evaluate(w.t, source, "internal"), "decision"), "allow");
  EXPECT_EQ(Str(Evaluate(w.t, source, "internal"), "policySource"), "hub");
  // The other hub's entry is untouched.
  json::value elsewhere = Evaluate(w.t, "entry:" + w.other, "public_support_chat");
  EXPECT_EQ(Str(elsewhere, "decision"), "allow");
  EXPECT_EQ(Str(elsewhere, "policySource"), "tenant-default");

  // Entry level wins over the hub.
  auto entry = Put(SourcePath("policies/sources", "entry:" + w.entry), {{"internalOnly", false}}, w.t);
  ASSERT_EQ(entry.status, 200) << entry.body;
  EXPECT_EQ(Str(entry.Json(), "level"), "entry");
  EXPECT_EQ(Str(entry.Json(), "sourceId"), source);
  EXPECT_FALSE(entry.Json().at("effective").at("internalOnly").as_bool());
  json::value allowed = Evaluate(w.t, source, "public_support_chat");
  EXPECT_EQ(Str(allowed, "decision"), "allow") << json::serialize(allowed);
  EXPECT_EQ(Str(allowed, "policySource"), "entry");

  // Ids are accepted in any case and answered canonical.
  std::string upper = w.entry;
  std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
  auto read = api().Get(SourcePath("policies/sources", "entry:" + upper), w.t.token("admin"));
  ASSERT_EQ(read.status, 200) << read.body;
  EXPECT_EQ(Str(read.Json(), "sourceId"), source);
  EXPECT_EQ(json::serialize(read.Json().at("policy")), R"({"internalOnly":false})");

  // The tenant level shows through where nothing below sets a field.
  auto t2 =
      Put("/trust-admin/policies/tenant", {{"citationRequired", true}, {"disclaimerText", "Check with support."}}, w.t);
  ASSERT_EQ(t2.status, 200) << t2.body;
  EXPECT_EQ(Str(t2.Json(), "updatedBy"), w.t.user_ids.at("admin"));
  json::value cited = Evaluate(w.t, "entry:" + w.other, "internal");
  EXPECT_EQ(Str(cited, "decision"), "allow");
  EXPECT_TRUE(cited.at("requirements").at("citationRequired").as_bool());
  EXPECT_EQ(Str(cited, "policySource"), "tenant-default");
  auto hub_view = api().Get("/trust-admin/policies/hubs/kb", w.t.token("admin")).Json();
  EXPECT_TRUE(hub_view.at("effective").at("citationRequired").as_bool());
  EXPECT_EQ(Str(hub_view.at("effective"), "disclaimerText"), "Check with support.");

  // disclaimerText null at a level clears a lower level's text; other nulls
  // are the same as leaving the field out.
  auto cleared = Put("/trust-admin/policies/hubs/kb",
                     {{"internalOnly", true}, {"disclaimerText", nullptr}, {"aiRetrievable", nullptr}}, w.t);
  ASSERT_EQ(cleared.status, 200) << cleared.body;
  EXPECT_EQ(json::serialize(cleared.Json().at("policy")), R"({"internalOnly":true,"disclaimerText":null})");
  EXPECT_TRUE(cleared.Json().at("effective").at("disclaimerText").is_null());

  // Removing the entry's override gives the hub back the decision.
  EXPECT_EQ(api().Delete(SourcePath("policies/sources", source), w.t.token("admin")).status, 204);
  EXPECT_EQ(api().Delete(SourcePath("policies/sources", source), w.t.token("admin")).status, 204);
  EXPECT_EQ(Str(Evaluate(w.t, source, "public_support_chat"), "policySource"), "hub");
  auto gone = api().Get(SourcePath("policies/sources", source), w.t.token("admin"));
  EXPECT_TRUE(gone.Json().at("policy").as_object().empty());
  EXPECT_TRUE(gone.Json().at("updatedBy").is_null());
  EXPECT_TRUE(gone.Json().at("effective").at("internalOnly").as_bool());

  // An empty hub override is no override: the tenant default decides again.
  auto emptied = Put("/trust-admin/policies/hubs/kb", json::object{}, w.t);
  ASSERT_EQ(emptied.status, 200);
  EXPECT_TRUE(emptied.Json().at("policy").as_object().empty());
  EXPECT_TRUE(emptied.Json().at("updatedAt").is_null());
  json::value back = Evaluate(w.t, source, "public_support_chat");
  EXPECT_EQ(Str(back, "decision"), "allow");
  EXPECT_EQ(Str(back, "policySource"), "tenant-default");
  ASSERT_EQ(Put("/trust-admin/policies/hubs/kb", {{"aiRetrievable", false}}, w.t).status, 200);
  EXPECT_EQ(Codes(Evaluate(w.t, source, "internal")), std::vector<std::string>{"not_ai_retrievable"});
  EXPECT_EQ(api().Delete("/trust-admin/policies/hubs/kb", w.t.token("admin")).status, 204);
  EXPECT_EQ(Str(Evaluate(w.t, source, "internal"), "decision"), "allow");

  // {} clears the tenant's override.
  auto reset = Put("/trust-admin/policies/tenant", json::object{}, w.t);
  ASSERT_EQ(reset.status, 200);
  EXPECT_EQ(json::serialize(reset.Json().at("effective")), json::serialize(defaults));
}

TEST_F(TrustAdmin, PolicyFieldsReachTheirRules) {
  auto w = Make("ta-fields");
  const std::string source = "entry:" + w.entry;
  const std::string path = SourcePath("policies/sources", source);
  ASSERT_EQ(Put(path, {{"customerFacingAllowed", false}}, w.t).status, 200);
  EXPECT_EQ(Codes(Evaluate(w.t, source, "customer_email")), std::vector<std::string>{"customer_facing_not_allowed"});
  EXPECT_TRUE(Codes(Evaluate(w.t, source, "internal")).empty());

  ASSERT_EQ(Put(path, {{"externalModelAllowed", false}}, w.t).status, 200);
  EXPECT_EQ(Codes(Evaluate(w.t, source, "internal", {{"externalModel", true}})),
            std::vector<std::string>{"external_model_not_allowed"});

  // The entry was created and reviewed a day ago with 365 days to live.
  AdvanceServerDays(api(), 1);
  ASSERT_EQ(Put(path, {{"warnBeforeExpiryDays", 365}}, w.t).status, 200);
  EXPECT_TRUE(Has(Codes(Evaluate(w.t, source, "internal")), "expiring_soon"));
  ASSERT_EQ(Put(path, {{"maxReviewAgeDays", 0}, {"customerFacingRequiresReview", false}}, w.t).status, 200);
  EXPECT_EQ(Codes(Evaluate(w.t, source, "public_support_chat")), std::vector<std::string>{"review_too_old"});
  ASSERT_EQ(Put(path, {{"maxReviewAgeDays", 0}}, w.t).status, 200);
  json::value unreviewed = Evaluate(w.t, source, "public_support_chat");
  EXPECT_TRUE(Has(Codes(unreviewed), "customer_facing_unreviewed")) << json::serialize(unreviewed);

  ASSERT_EQ(
      Put(path, {{"maxReviewAgeDays", 0}, {"customerFacingRequiresReview", false}, {"disclaimerText", "Old."}}, w.t)
          .status,
      200);
  json::value warned = Evaluate(w.t, source, "internal");
  EXPECT_EQ(Str(warned, "decision"), "warn");
  EXPECT_TRUE(warned.at("requirements").at("disclaimerRequired").as_bool());
  EXPECT_EQ(Str(warned.at("requirements"), "disclaimerText"), "Old.");
}

// ---- Sensitivity facts.

TEST_F(TrustAdmin, HumanSensitivityFactsDecide) {
  auto w = Make("ta-sens");
  const std::string source = "entry:" + w.entry;
  const std::string path = SourcePath("sensitivity", source);

  auto none = api().Get(path, w.t.token("admin"));
  ASSERT_EQ(none.status, 200) << none.body;
  EXPECT_EQ(Str(none.Json(), "sourceId"), source);
  EXPECT_EQ(Str(none.Json(), "classification"), "Internal");
  EXPECT_FALSE(none.Json().at("hasSecrets").as_bool());
  EXPECT_FALSE(none.Json().at("hasPersonalData").as_bool());
  EXPECT_TRUE(none.Json().at("setBy").is_null());
  EXPECT_TRUE(none.Json().at("setByUser").is_null());
  EXPECT_TRUE(none.Json().at("updatedAt").is_null());

  auto set = Put(path, {{"classification", "Confidential"}, {"hasSecrets", false}, {"hasPersonalData", false}}, w.t);
  ASSERT_EQ(set.status, 200) << set.body;
  EXPECT_EQ(Str(set.Json(), "classification"), "Confidential");
  EXPECT_EQ(Str(set.Json(), "setBy"), "human");
  EXPECT_EQ(Str(set.Json(), "setByUser"), w.t.user_ids.at("admin"));
  EXPECT_EQ(Str(set.Json(), "updatedAt"), kNow);
  EXPECT_EQ(api().Get(path, w.t.token("admin")).body, set.body);
  json::value confidential = Evaluate(w.t, source, "internal");
  EXPECT_EQ(Str(confidential, "decision"), "block");
  EXPECT_EQ(Codes(confidential), std::vector<std::string>{"sensitivity_above_ai_limit"});
  EXPECT_EQ(Str(confidential, "sensitivity"), "Confidential");
  // A hub that allows Confidential material lifts the block.
  ASSERT_EQ(Put("/trust-admin/policies/hubs/kb", {{"maxSensitivityForAi", "Confidential"}}, w.t).status, 200);
  EXPECT_EQ(Str(Evaluate(w.t, source, "internal"), "decision"), "allow");

  ASSERT_EQ(Put(path, {{"classification", "Internal"}, {"hasSecrets", true}, {"hasPersonalData", false}}, w.t).status,
            200);
  json::value secret = Evaluate(w.t, source, "internal");
  EXPECT_EQ(Str(secret, "decision"), "block");
  EXPECT_TRUE(secret.at("escalated").as_bool());
  EXPECT_EQ(Codes(secret), std::vector<std::string>{"secrets_present"});
  EXPECT_EQ(Str(secret, "recommendedAction"), "remove_secrets");

  ASSERT_EQ(Put(path, {{"classification", "Public"}, {"hasSecrets", false}, {"hasPersonalData", true}}, w.t).status,
            200);
  // Personal data warns internally, and blocks customer-facing.
  EXPECT_EQ(Codes(Evaluate(w.t, source, "internal")), std::vector<std::string>{"personal_data_present"});
  EXPECT_EQ(Codes(Evaluate(w.t, source, "public_support_chat")),
            std::vector<std::string>{"personal_data_customer_facing"});

  EXPECT_EQ(api().Delete(path, w.t.token("admin")).status, 204);
  EXPECT_EQ(api().Delete(path, w.t.token("admin")).status, 204);
  EXPECT_TRUE(api().Get(path, w.t.token("admin")).Json().at("setBy").is_null());
  json::value plain = Evaluate(w.t, source, "public_support_chat");
  EXPECT_EQ(Str(plain, "decision"), "allow");
  EXPECT_EQ(Str(plain, "sensitivity"), "Internal");
}

// ---- Context vocabulary.

TEST_F(TrustAdmin, TheContextVocabularyClassifiesChannelsAndActions) {
  auto w = Make("ta-context");
  const std::string source = "entry:" + w.entry;
  const std::string quick = "entry:" + PublishedEntry(w.t, "kb", "quick", "QuickReview");

  auto defaults = api().Get("/trust-admin/context", w.t.token("admin"));
  ASSERT_EQ(defaults.status, 200) << defaults.body;
  EXPECT_EQ(Strings(defaults.Json().at("customerFacingChannels")),
            (std::vector<std::string>{"customer_email", "public_support_chat", "public_website"}));
  EXPECT_EQ(Strings(defaults.Json().at("internalChannels")),
            (std::vector<std::string>{"ci", "employee_chat", "internal"}));
  EXPECT_EQ(json::serialize(defaults.Json().at("actionRequiresReview")), R"({"ship_release":"FullReview"})");

  // Unknown channels are accepted, evaluated as customer-facing, and say so.
  json::value unknown = Evaluate(w.t, source, "slack_ops");
  EXPECT_EQ(Str(unknown, "decision"), "allow");
  EXPECT_EQ(Codes(unknown), std::vector<std::string>{"unknown_channel"});
  EXPECT_EQ(Codes(Evaluate(w.t, quick, "internal", {{"action", "ship_release"}})),
            std::vector<std::string>{"action_needs_stronger_review"});

  auto set = Put(
      "/trust-admin/context",
      {{"internalChannels", {"internal", "slack_ops"}}, {"actionRequiresReview", {{"answer_customer", "FullReview"}}}},
      w.t);
  ASSERT_EQ(set.status, 200) << set.body;
  EXPECT_EQ(Strings(set.Json().at("customerFacingChannels")),
            (std::vector<std::string>{"customer_email", "public_support_chat", "public_website"}));
  EXPECT_EQ(Strings(set.Json().at("internalChannels")), (std::vector<std::string>{"internal", "slack_ops"}));
  EXPECT_EQ(api().Get("/trust-admin/context", w.t.token("admin")).body, set.body);

  EXPECT_TRUE(Codes(Evaluate(w.t, source, "slack_ops")).empty());
  // ci is no longer listed: unknown again.
  EXPECT_EQ(Codes(Evaluate(w.t, source, "ci")), std::vector<std::string>{"unknown_channel"});
  json::value weak = Evaluate(w.t, quick, "internal", {{"action", "answer_customer"}});
  EXPECT_EQ(Str(weak, "decision"), "block");
  EXPECT_EQ(Codes(weak), std::vector<std::string>{"action_needs_stronger_review"});
  EXPECT_EQ(Str(weak.at("reasons").as_array()[0].at("data"), "requiredReview"), "FullReview");
  EXPECT_EQ(Str(Evaluate(w.t, source, "internal", {{"action", "answer_customer"}}), "decision"), "allow");
  // The replaced configuration no longer names ship_release.
  EXPECT_TRUE(Codes(Evaluate(w.t, quick, "internal", {{"action", "ship_release"}})).empty());

  // What GET answers can be sent back as it is.
  auto again = Put("/trust-admin/context", set.Json(), w.t);
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(again.body, set.body);
  // A customer-facing list of its own; unknown channels stay conservative.
  auto own =
      Put("/trust-admin/context", {{"customerFacingChannels", {"kiosk"}}, {"actionRequiresReview", nullptr}}, w.t);
  ASSERT_EQ(own.status, 200) << own.body;
  EXPECT_EQ(json::serialize(own.Json().at("actionRequiresReview")), R"({"ship_release":"FullReview"})");
  ASSERT_EQ(Put(SourcePath("policies/sources", source), {{"internalOnly", true}}, w.t).status, 200);
  EXPECT_EQ(Codes(Evaluate(w.t, source, "kiosk")), std::vector<std::string>{"internal_only_external_channel"});
  EXPECT_EQ(Codes(Evaluate(w.t, source, "public_support_chat")),
            (std::vector<std::string>{"internal_only_external_channel", "unknown_channel"}));
}

// ---- Connected documents.

TEST_F(TrustAdmin, ConnectedDocumentsRegisterResolveAndCarryTheirReviewState) {
  auto w = Make("ta-docs");
  json::object doc{{"connectorKey", "wiki"},
                   {"externalId", "SPACE:42"},
                   {"url", "https://wiki.example.com/pages/42"},
                   {"title", "  Refund policy  "},
                   {"contentHash", "sha256:abc"},
                   {"contentUpdatedAt", "2029-12-01T00:00:00Z"},
                   {"ownerId", w.t.user_ids.at("editor")}};
  auto created = Put("/trust-admin/connected-documents", doc, w.t);
  ASSERT_EQ(created.status, 201) << created.body;
  const json::value c = created.Json();
  const std::string id = Str(c, "id");
  EXPECT_EQ(id.size(), 36u);
  EXPECT_EQ(Str(c, "sourceId"), "wiki:SPACE:42");
  EXPECT_EQ(Str(c, "title"), "Refund policy");
  EXPECT_EQ(Str(c, "status"), "Published");
  EXPECT_EQ(c.at("version").as_int64(), 1);
  EXPECT_EQ(Str(c, "contentUpdatedAt"), "2029-12-01T00:00:00.000Z");
  EXPECT_EQ(Str(c, "lastSyncedAt"), kNow);
  EXPECT_EQ(Str(c, "createdAt"), kNow);
  EXPECT_EQ(Str(c, "ownerId"), w.t.user_ids.at("editor"));
  EXPECT_TRUE(c.at("lastReviewedAt").is_null());
  EXPECT_TRUE(c.at("lastReviewType").is_null());
  EXPECT_EQ(api().Get("/trust-admin/connected-documents/" + id, w.t.token("admin")).body, created.body);

  for (const std::string& source : {std::string("wiki:SPACE:42"), std::string("https://wiki.example.com/pages/42")}) {
    json::value r = Evaluate(w.t, source, "internal");
    EXPECT_TRUE(r.at("resolved").as_bool()) << source;
    EXPECT_EQ(Str(r, "origin"), "Connected");
    EXPECT_EQ(Str(r, "entryId"), id);
    EXPECT_EQ(Str(r, "title"), "Refund policy");
    EXPECT_EQ(Str(r, "decision"), "warn");
    EXPECT_EQ(Codes(r), std::vector<std::string>{"connected_never_reviewed"});
  }

  // A review recorded by the connector: same document, same version.
  AdvanceServerDays(api(), 1);
  doc["lastReviewedAt"] = "2029-12-15T00:00:00Z";
  doc["lastReviewType"] = "FullReview";
  doc["lastSyncedAt"] = "2029-12-31T12:00:00Z";
  auto reviewed = Put("/trust-admin/connected-documents", doc, w.t);
  ASSERT_EQ(reviewed.status, 200) << reviewed.body;
  EXPECT_EQ(Str(reviewed.Json(), "id"), id);
  EXPECT_EQ(reviewed.Json().at("version").as_int64(), 1);
  EXPECT_EQ(Str(reviewed.Json(), "createdAt"), kNow);
  EXPECT_EQ(Str(reviewed.Json(), "updatedAt"), "2030-01-02T00:00:00.000Z");
  EXPECT_EQ(Str(reviewed.Json(), "lastSyncedAt"), "2029-12-31T12:00:00.000Z");
  EXPECT_EQ(Str(reviewed.Json(), "lastReviewType"), "FullReview");
  json::value fine = Evaluate(w.t, "wiki:SPACE:42", "public_support_chat");
  EXPECT_EQ(Str(fine, "decision"), "allow") << json::serialize(fine);
  EXPECT_TRUE(Codes(fine).empty());
  EXPECT_EQ(Str(Evaluate(w.t, "wiki:SPACE:42", "internal", {{"action", "ship_release"}}), "decision"), "allow");

  // Content changed after the review: a new version, and a warning.
  doc["contentUpdatedAt"] = "2029-12-20T00:00:00Z";
  auto changed = Put("/trust-admin/connected-documents", doc, w.t);
  ASSERT_EQ(changed.status, 200);
  EXPECT_EQ(changed.Json().at("version").as_int64(), 2);
  doc["contentHash"] = "sha256:def";
  EXPECT_EQ(Put("/trust-admin/connected-documents", doc, w.t).Json().at("version").as_int64(), 3);
  EXPECT_EQ(Codes(Evaluate(w.t, "wiki:SPACE:42", "internal")), std::vector<std::string>{"source_changed_after_review"});

  // An attestation is weaker than what ship_release needs.
  doc["lastReviewedAt"] = "2029-12-21T00:00:00Z";
  doc["lastReviewType"] = "Attestation";
  ASSERT_EQ(Put("/trust-admin/connected-documents", doc, w.t).status, 200);
  EXPECT_EQ(Codes(Evaluate(w.t, "wiki:SPACE:42", "internal", {{"action", "ship_release"}})),
            std::vector<std::string>{"action_needs_stronger_review"});

  // Left-out optional fields take their defaults: no owner, no review, a draft.
  json::object bare = Document("wiki", "SPACE:42");
  bare["status"] = "Draft";
  auto replaced = Put("/trust-admin/connected-documents", bare, w.t);
  ASSERT_EQ(replaced.status, 200) << replaced.body;
  EXPECT_TRUE(replaced.Json().at("url").is_null());
  EXPECT_TRUE(replaced.Json().at("ownerId").is_null());
  EXPECT_TRUE(replaced.Json().at("lastReviewedAt").is_null());
  EXPECT_TRUE(replaced.Json().at("contentHash").is_null());
  EXPECT_EQ(Str(replaced.Json(), "lastSyncedAt"), "2030-01-02T00:00:00.000Z");
  json::value draft = Evaluate(w.t, "wiki:SPACE:42", "internal");
  EXPECT_EQ(Str(draft, "decision"), "block");
  EXPECT_TRUE(Has(Codes(draft), "not_published"));
  EXPECT_TRUE(Has(Codes(draft), "no_owner"));
  EXPECT_TRUE(Has(Codes(draft), "connected_never_reviewed"));
  EXPECT_FALSE(Evaluate(w.t, "https://wiki.example.com/pages/42", "internal").at("resolved").as_bool());
}

TEST_F(TrustAdmin, ConnectedDocumentsTakePoliciesAndFactsListAndDelete) {
  auto w = Make("ta-docs2");
  json::object first = Document("wiki", "SPACE:42");
  first["url"] = "https://wiki.example.com/42";
  first["lastReviewedAt"] = "2029-12-15T00:00:00Z";
  first["ownerId"] = w.t.user_ids.at("editor");
  auto created = Put("/trust-admin/connected-documents", first, w.t);
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id = Str(created.Json(), "id");
  ASSERT_EQ(Put("/trust-admin/connected-documents", Document("jira", "ABC-1"), w.t).status, 201);
  ASSERT_EQ(Put("/trust-admin/connected-documents", Document("wiki", "A"), w.t).status, 201);

  auto list = api().Get("/trust-admin/connected-documents", w.t.token("admin"));
  ASSERT_EQ(list.status, 200) << list.body;
  std::vector<std::string> ids;
  const json::value listed = list.Json();
  for (const auto& d : listed.as_array()) ids.push_back(Str(d, "sourceId"));
  EXPECT_EQ(ids, (std::vector<std::string>{"jira:ABC-1", "wiki:A", "wiki:SPACE:42"}));
  EXPECT_EQ(
      api().Get("/trust-admin/connected-documents?connectorKey=wiki", w.t.token("admin")).Json().as_array().size(), 2u);
  EXPECT_TRUE(
      api().Get("/trust-admin/connected-documents?connectorKey=zendesk", w.t.token("admin")).Json().as_array().empty());

  // One URL names one document.
  json::object clash = Document("jira", "ABC-1");
  clash["url"] = "https://wiki.example.com/42";
  ExpectProblem(Put("/trust-admin/connected-documents", clash, w.t), 409, "url_taken");

  // A policy override and a human fact on the document.
  const std::string source = "wiki:SPACE:42";
  auto policy = Put(SourcePath("policies/sources", source), {{"aiRetrievable", false}}, w.t);
  ASSERT_EQ(policy.status, 200) << policy.body;
  EXPECT_EQ(Str(policy.Json(), "sourceId"), source);
  json::value r = Evaluate(w.t, source, "internal");
  EXPECT_EQ(Codes(r), std::vector<std::string>{"not_ai_retrievable"});
  EXPECT_EQ(Str(r, "policySource"), "entry");
  ASSERT_EQ(api().Delete(SourcePath("policies/sources", source), w.t.token("admin")).status, 204);
  auto fact = Put(SourcePath("sensitivity", source),
                  {{"classification", "Restricted"}, {"hasSecrets", false}, {"hasPersonalData", false}}, w.t);
  ASSERT_EQ(fact.status, 200) << fact.body;
  EXPECT_EQ(Str(fact.Json(), "sourceId"), source);
  EXPECT_EQ(Codes(Evaluate(w.t, source, "internal")), std::vector<std::string>{"sensitivity_above_ai_limit"});
  ASSERT_EQ(Put(SourcePath("policies/sources", source), {{"citationRequired", true}}, w.t).status, 200);

  // Deleting the document takes its override and facts with it.
  EXPECT_EQ(api().Delete("/trust-admin/connected-documents/" + id, w.t.token("admin")).status, 204);
  ExpectProblem(api().Get("/trust-admin/connected-documents/" + id, w.t.token("admin")), 404, "not_found");
  ExpectProblem(api().Delete("/trust-admin/connected-documents/" + id, w.t.token("admin")), 404, "not_found");
  EXPECT_FALSE(Evaluate(w.t, source, "internal").at("resolved").as_bool());
  ExpectProblem(api().Get(SourcePath("policies/sources", source), w.t.token("admin")), 404, "not_found");
  ExpectProblem(api().Get(SourcePath("sensitivity", source), w.t.token("admin")), 404, "not_found");
  auto again = Put("/trust-admin/connected-documents", first, w.t);
  ASSERT_EQ(again.status, 201) << again.body;
  EXPECT_NE(Str(again.Json(), "id"), id);
  json::value fresh = Evaluate(w.t, source, "internal");
  EXPECT_EQ(Str(fresh, "decision"), "allow") << json::serialize(fresh);
  EXPECT_EQ(Str(fresh, "policySource"), "tenant-default");
  EXPECT_EQ(Str(fresh, "sensitivity"), "Internal");
}

TEST_F(TrustAdmin, ConcurrentRegistrationsOfANewDocumentLeaveOne) {
  auto t = CreateTenant(api(), "ta-race");
  const std::string token = t.token("admin");
  const json::object doc = Document("wiki", "race");
  auto answers = Concurrently(6, [&](HttpClient& c) { return c.Put("/trust-admin/connected-documents", doc, token); });
  int created = 0;
  std::set<std::string> ids;
  for (const auto& a : answers) {
    ASSERT_TRUE(a.status == 200 || a.status == 201) << a.body;
    created += a.status == 201;
    ids.insert(Str(a.Json(), "id"));
  }
  EXPECT_EQ(created, 1);
  EXPECT_EQ(ids.size(), 1u);
  EXPECT_EQ(api().Get("/trust-admin/connected-documents", token).Json().as_array().size(), 1u);
}

// ---- Entries' source links.

TEST_F(TrustAdmin, SourceLinksResolveUrlsToTheEntryAfterConnectedDocuments) {
  auto w = Make("ta-links");
  const std::string path = "/trust-admin/entries/" + w.entry + "/source-links";
  auto empty = api().Get(path, w.t.token("admin"));
  ASSERT_EQ(empty.status, 200) << empty.body;
  EXPECT_EQ(Str(empty.Json(), "entryId"), w.entry);
  EXPECT_TRUE(empty.Json().at("urls").as_array().empty());
  EXPECT_FALSE(Evaluate(w.t, "https://help.example.com/refunds", "internal").at("resolved").as_bool());

  auto set = Put(
      path,
      {{"urls", {"https://help.example.com/refunds", "http://intranet.example/a", "https://help.example.com/refunds"}}},
      w.t);
  ASSERT_EQ(set.status, 200) << set.body;
  EXPECT_EQ(Strings(set.Json().at("urls")),
            (std::vector<std::string>{"http://intranet.example/a", "https://help.example.com/refunds"}));
  EXPECT_EQ(api().Get(path, w.t.token("admin")).body, set.body);
  json::value r = Evaluate(w.t, "https://help.example.com/refunds", "internal");
  EXPECT_TRUE(r.at("resolved").as_bool());
  EXPECT_EQ(Str(r, "entryId"), w.entry);
  EXPECT_EQ(Str(r, "origin"), "Native");
  EXPECT_EQ(Str(r, "decision"), "allow");
  // The entry's hub policy reaches it through the URL too.
  ASSERT_EQ(Put("/trust-admin/policies/hubs/kb", {{"internalOnly", true}}, w.t).status, 200);
  EXPECT_EQ(Str(Evaluate(w.t, "http://intranet.example/a", "customer_email"), "policySource"), "hub");

  // A connected document with the URL comes first.
  json::object doc = Document("wiki", "refunds");
  doc["url"] = "https://help.example.com/refunds";
  ASSERT_EQ(Put("/trust-admin/connected-documents", doc, w.t).status, 201);
  EXPECT_EQ(Str(Evaluate(w.t, "https://help.example.com/refunds", "internal"), "origin"), "Connected");

  // Replacing the set drops the links not named again.
  auto replaced = Put(path, {{"urls", {"http://intranet.example/a"}}}, w.t);
  ASSERT_EQ(replaced.status, 200);
  EXPECT_EQ(Strings(replaced.Json().at("urls")), std::vector<std::string>{"http://intranet.example/a"});
  auto cleared = Put(path, {{"urls", json::array{}}}, w.t);
  ASSERT_EQ(cleared.status, 200);
  EXPECT_TRUE(cleared.Json().at("urls").as_array().empty());
  EXPECT_FALSE(Evaluate(w.t, "http://intranet.example/a", "internal").at("resolved").as_bool());
  ExpectProblem(api().Get("/trust-admin/entries/" + std::string(kUnknownId) + "/source-links", w.t.token("admin")), 404,
                "not_found");
  ExpectProblem(
      Put("/trust-admin/entries/" + std::string(kUnknownId) + "/source-links", {{"urls", json::array{}}}, w.t), 404,
      "not_found");
}

TEST_F(TrustAdmin, ConcurrentLinkReplacementsLeaveOneOfTheSets) {
  auto w = Make("ta-links-race");
  const std::string path = "/trust-admin/entries/" + w.entry + "/source-links";
  const std::string token = w.t.token("admin");
  std::atomic<int> n{0};
  auto answers = Concurrently(6, [&](HttpClient& c) {
    const int i = n++;
    json::array urls;
    for (int j = 0; j < 5; ++j) urls.emplace_back("https://x.example/" + std::to_string(i) + "/" + std::to_string(j));
    return c.Put(path, {{"urls", urls}}, token);
  });
  for (const auto& a : answers) ASSERT_EQ(a.status, 200) << a.body;
  const auto final_urls = Strings(api().Get(path, token).Json().at("urls"));
  ASSERT_EQ(final_urls.size(), 5u);
  const std::string prefix = final_urls.front().substr(0, final_urls.front().rfind('/'));
  for (const auto& u : final_urls) EXPECT_EQ(u.rfind(prefix, 0), 0u) << u;
}

// ---- Bad input.

TEST_F(TrustAdmin, BadPolicyBodiesAreNamedByField) {
  auto w = Make("ta-bad-policy");
  for (const std::string& path :
       {std::string("/trust-admin/policies/tenant"), std::string("/trust-admin/policies/hubs/kb"),
        SourcePath("policies/sources", "entry:" + w.entry)}) {
    SCOPED_TRACE(path);
    ExpectValidation(Put(path, {{"aiRetrievable", "yes"}}, w.t), "aiRetrievable");
    ExpectValidation(Put(path, {{"internalOnly", 1}}, w.t), "internalOnly");
    ExpectValidation(Put(path, {{"maxSensitivityForAi", "Secret"}}, w.t), "maxSensitivityForAi");
    ExpectValidation(Put(path, {{"maxSensitivityForAi", 2}}, w.t), "maxSensitivityForAi");
    ExpectValidation(Put(path, {{"warnBeforeExpiryDays", -1}}, w.t), "warnBeforeExpiryDays");
    ExpectValidation(Put(path, {{"maxReviewAgeDays", 3651}}, w.t), "maxReviewAgeDays");
    ExpectValidation(Put(path, {{"maxReviewAgeDays", 1.5}}, w.t), "maxReviewAgeDays");
    ExpectValidation(Put(path, {{"maxReviewAgeDays", "30"}}, w.t), "maxReviewAgeDays");
    ExpectValidation(Put(path, {{"disclaimerText", 42}}, w.t), "disclaimerText");
    ExpectValidation(Put(path, {{"disclaimerText", std::string(2001, 'd')}}, w.t), "disclaimerText");
    // A misspelt field would silently inherit: refused.
    ExpectValidation(Put(path, {{"internalonly", true}}, w.t), "internalonly");
    ExpectValidation(Put(path, {{"policy", {{"internalOnly", true}}}}, w.t), "policy");
    ExpectValidation(Put(path, json::array{}, w.t), "body");
    ExpectProblem(api().Send("PUT", path, "{", w.t.token("admin"), {{"Content-Type", "application/json"}}), 400,
                  "malformed_json");
    ExpectProblem(api().Send("PUT", path, "", w.t.token("admin"), {{"Content-Type", "application/json"}}), 400,
                  "malformed_json");
  }
  // Nothing was stored by any of them.
  EXPECT_TRUE(api().Get("/trust-admin/policies/tenant", w.t.token("admin")).Json().at("policy").as_object().empty());
  EXPECT_EQ(Put("/trust-admin/policies/tenant", {{"maxReviewAgeDays", 3650}, {"warnBeforeExpiryDays", 0}}, w.t).status,
            200);

  ExpectProblem(api().Get("/trust-admin/policies/hubs/nope", w.t.token("admin")), 404, "not_found");
  ExpectProblem(Put("/trust-admin/policies/hubs/nope", {{"internalOnly", true}}, w.t), 404, "not_found");
  ExpectProblem(api().Delete("/trust-admin/policies/hubs/nope", w.t.token("admin")), 404, "not_found");
  for (const char* method : {"GET", "PUT", "DELETE"}) {
    SCOPED_TRACE(method);
    // PUT bodies are valid, so that the source id is what fails.
    auto send = [&](const std::string& path) {
      const bool fact = path.find("/sensitivity") != std::string::npos;
      const std::string body = std::string(method) != "PUT" ? ""
                               : fact ? R"({"classification":"Public","hasSecrets":false,"hasPersonalData":false})"
                                      : "{}";
      return api().Send(method, path, body, w.t.token("admin"), {{"Content-Type", "application/json"}});
    };
    ExpectValidation(send("/trust-admin/policies/sources"), "sourceId");
    ExpectValidation(send(SourcePath("policies/sources", "https://help.example.com/a")), "sourceId");
    ExpectValidation(send(SourcePath("policies/sources", "entry:not-a-uuid")), "sourceId");
    ExpectValidation(send(SourcePath("policies/sources", "")), "sourceId");
    ExpectValidation(send(SourcePath("policies/sources", "plain")), "sourceId");
    ExpectProblem(send(SourcePath("policies/sources", "entry:" + std::string(kUnknownId))), 404, "not_found");
    ExpectProblem(send(SourcePath("policies/sources", "wiki:unknown")), 404, "not_found");
    ExpectValidation(send("/trust-admin/sensitivity"), "sourceId");
    ExpectValidation(send(SourcePath("sensitivity", "https://help.example.com/a")), "sourceId");
    ExpectProblem(send(SourcePath("sensitivity", "wiki:unknown")), 404, "not_found");
  }
}

TEST_F(TrustAdmin, BadContextAndSensitivityBodiesAreNamedByField) {
  auto w = Make("ta-bad-ctx");
  const std::string ctx = "/trust-admin/context";
  ExpectValidation(Put(ctx, {{"customerFacingChannels", "public_website"}}, w.t), "customerFacingChannels");
  ExpectValidation(Put(ctx, {{"internalChannels", {""}}}, w.t), "internalChannels[0]");
  ExpectValidation(Put(ctx, {{"internalChannels", {std::string(65, 'c')}}}, w.t), "internalChannels[0]");
  ExpectValidation(Put(ctx, {{"internalChannels", {7}}}, w.t), "internalChannels[0]");
  json::array many;
  for (int i = 0; i < 101; ++i) many.emplace_back("c" + std::to_string(i));
  ExpectValidation(Put(ctx, {{"customerFacingChannels", many}}, w.t), "customerFacingChannels");
  ExpectValidation(Put(ctx, {{"customerFacingChannels", {"shared"}}, {"internalChannels", {"shared"}}}, w.t),
                   "internalChannels");
  // public_support_chat stays customer-facing by default.
  ExpectValidation(Put(ctx, {{"internalChannels", {"public_support_chat"}}}, w.t), "internalChannels");
  ExpectValidation(Put(ctx, {{"actionRequiresReview", {{"ship", "Strong"}}}}, w.t), "actionRequiresReview.ship");
  ExpectValidation(Put(ctx, {{"actionRequiresReview", {{"ship", 3}}}}, w.t), "actionRequiresReview.ship");
  ExpectValidation(Put(ctx, {{"actionRequiresReview", json::array{}}}, w.t), "actionRequiresReview");
  ExpectValidation(Put(ctx, {{"channels", json::array{}}}, w.t), "channels");
  ExpectValidation(Put(ctx, json::array{}, w.t), "body");
  EXPECT_EQ(json::serialize(api().Get(ctx, w.t.token("admin")).Json().at("internalChannels")),
            R"(["ci","employee_chat","internal"])");

  const std::string path = SourcePath("sensitivity", "entry:" + w.entry);
  const auto fields = ErrorFields(Put(path, json::object{}, w.t));
  EXPECT_EQ(fields, (std::set<std::string>{"classification", "hasSecrets", "hasPersonalData"}));
  ExpectValidation(Put(path, {{"classification", "Secret"}, {"hasSecrets", false}, {"hasPersonalData", false}}, w.t),
                   "classification");
  ExpectValidation(Put(path, {{"classification", "Public"}, {"hasSecrets", "no"}, {"hasPersonalData", false}}, w.t),
                   "hasSecrets");
  ExpectValidation(Put(path, {{"classification", "Public"}, {"hasSecrets", false}, {"hasPersonalData", nullptr}}, w.t),
                   "hasPersonalData");
  EXPECT_TRUE(api().Get(path, w.t.token("admin")).Json().at("setBy").is_null());
}

TEST_F(TrustAdmin, BadDocumentAndLinkBodiesAreNamedByField) {
  auto w = Make("ta-bad-doc");
  const std::string path = "/trust-admin/connected-documents";
  const auto missing = ErrorFields(Put(path, json::object{}, w.t));
  EXPECT_EQ(missing, (std::set<std::string>{"connectorKey", "externalId", "title", "contentUpdatedAt"}));
  auto with = [&](const char* field, json::value v) {
    json::object d = Document("wiki", "1");
    d[field] = std::move(v);
    return Put(path, d, w.t);
  };
  ExpectValidation(with("connectorKey", "Wiki"), "connectorKey");
  ExpectValidation(with("connectorKey", "entry"), "connectorKey");
  ExpectValidation(with("connectorKey", "https"), "connectorKey");
  ExpectValidation(with("connectorKey", "-wiki"), "connectorKey");
  ExpectValidation(with("connectorKey", json::value(std::string(65, 'k'))), "connectorKey");
  ExpectValidation(with("connectorKey", 7), "connectorKey");
  ExpectValidation(with("externalId", ""), "externalId");
  ExpectValidation(with("externalId", json::value(std::string(1001, 'e'))), "externalId");
  ExpectValidation(with("url", "ftp://files.example/a"), "url");
  ExpectValidation(with("url", "https://a b.example/"), "url");
  ExpectValidation(with("url", "https://"), "url");
  ExpectValidation(with("url", json::value("https://x.example/" + std::string(2040, 'u'))), "url");
  ExpectValidation(with("title", "   "), "title");
  ExpectValidation(with("title", json::value(std::string(501, 't'))), "title");
  ExpectValidation(with("contentHash", ""), "contentHash");
  ExpectValidation(with("contentHash", json::value(std::string(129, 'h'))), "contentHash");
  ExpectValidation(with("contentUpdatedAt", "yesterday"), "contentUpdatedAt");
  ExpectValidation(with("lastSyncedAt", 1767225600000), "lastSyncedAt");
  ExpectValidation(with("ownerId", "someone"), "ownerId");
  ExpectValidation(with("ownerId", kUnknownId), "ownerId");
  ExpectValidation(with("lastReviewedAt", "soon"), "lastReviewedAt");
  ExpectValidation(with("lastReviewType", "Peek"), "lastReviewType");
  ExpectValidation(with("lastReviewType", "FullReview"), "lastReviewType");  // without lastReviewedAt
  ExpectValidation(with("status", "Archived"), "status");
  ExpectValidation(Put(path, json::array{}, w.t), "body");
  EXPECT_TRUE(api().Get(path, w.t.token("admin")).Json().as_array().empty());
  ExpectValidation(api().Get(path + "?connectorKey=Not%20a%20key", w.t.token("admin")), "connectorKey");
  ExpectProblem(api().Get(path + "/not-a-uuid", w.t.token("admin")), 400, "invalid_path_parameter");
  ExpectProblem(api().Delete(path + "/not-a-uuid", w.t.token("admin")), 400, "invalid_path_parameter");
  ExpectProblem(api().Get(path + "/" + kUnknownId, w.t.token("admin")), 404, "not_found");
  // Unknown fields are ignored, as everywhere outside policies.
  auto ok = with("version", 99);
  ASSERT_EQ(ok.status, 201) << ok.body;
  EXPECT_EQ(ok.Json().at("version").as_int64(), 1);

  const std::string links = "/trust-admin/entries/" + w.entry + "/source-links";
  ExpectValidation(Put(links, json::object{}, w.t), "urls");
  ExpectValidation(Put(links, {{"urls", "https://a.example/"}}, w.t), "urls");
  json::array too_many;
  for (int i = 0; i < 21; ++i) too_many.emplace_back("https://a.example/" + std::to_string(i));
  ExpectValidation(Put(links, {{"urls", too_many}}, w.t), "urls");
  ExpectValidation(Put(links, {{"urls", {"ftp://a.example/"}}}, w.t), "urls[0]");
  ExpectValidation(Put(links, {{"urls", {"https://a.example/", "https://a b.example/"}}}, w.t), "urls[1]");
  ExpectValidation(Put(links, {{"urls", {"https://a.example/" + std::string(2040, 'u')}}}, w.t), "urls[0]");
  ExpectValidation(Put(links, {{"urls", {42}}}, w.t), "urls[0]");
  ExpectProblem(api().Get("/trust-admin/entries/not-a-uuid/source-links", w.t.token("admin")), 400,
                "invalid_path_parameter");
  EXPECT_TRUE(api().Get(links, w.t.token("admin")).Json().at("urls").as_array().empty());
}

// ---- Access and isolation.

struct Call {
  std::string method;
  std::string path;
  json::value body;
};

std::vector<Call> EveryRoute(const std::string& entry, const std::string& doc_id) {
  const std::string source = "?sourceId=entry%3A" + entry;
  const json::value fact =
      json::object{{"classification", "Public"}, {"hasSecrets", false}, {"hasPersonalData", false}};
  const json::value doc = json::object{
      {"connectorKey", "wiki"}, {"externalId", "1"}, {"title", "T"}, {"contentUpdatedAt", "2029-12-01T00:00:00Z"}};
  return {
      {"GET", "/trust-admin/policies/tenant", nullptr},
      {"PUT", "/trust-admin/policies/tenant", json::object{{"internalOnly", true}}},
      {"GET", "/trust-admin/policies/hubs/kb", nullptr},
      {"PUT", "/trust-admin/policies/hubs/kb", json::object{{"internalOnly", true}}},
      {"DELETE", "/trust-admin/policies/hubs/kb", nullptr},
      {"GET", "/trust-admin/policies/sources" + source, nullptr},
      {"PUT", "/trust-admin/policies/sources" + source, json::object{{"internalOnly", true}}},
      {"DELETE", "/trust-admin/policies/sources" + source, nullptr},
      {"GET", "/trust-admin/context", nullptr},
      {"PUT", "/trust-admin/context", json::object{{"internalChannels", {"internal"}}}},
      {"GET", "/trust-admin/sensitivity" + source, nullptr},
      {"PUT", "/trust-admin/sensitivity" + source, fact},
      {"DELETE", "/trust-admin/sensitivity" + source, nullptr},
      {"PUT", "/trust-admin/connected-documents", doc},
      {"GET", "/trust-admin/connected-documents", nullptr},
      {"GET", "/trust-admin/connected-documents/" + doc_id, nullptr},
      {"DELETE", "/trust-admin/connected-documents/" + doc_id, nullptr},
      {"GET", "/trust-admin/entries/" + entry + "/source-links", nullptr},
      {"PUT", "/trust-admin/entries/" + entry + "/source-links", json::object{{"urls", {"https://a.example/"}}}},
  };
}

Response Send(HttpClient& api, const Call& c, const std::string& token, const Headers& headers = {}) {
  Headers h = headers;
  h.emplace_back("Content-Type", "application/json");
  return api.Send(c.method, c.path, c.body.is_null() ? "" : json::serialize(c.body), token, h);
}

TEST_F(TrustAdmin, OnlyTenantAdminsOnASessionReachTheAdminRoutes) {
  auto w = Make("ta-access");
  auto doc = Put("/trust-admin/connected-documents", Document("wiki", "keep"), w.t);
  ASSERT_EQ(doc.status, 201);
  const std::string doc_id = Str(doc.Json(), "id");
  auto key = api().Post("/apikeys", {{"name", "bot"}, {"scopes", {"trust:evaluate", "trust:read", "trust:usage"}}},
                        w.t.token("admin"));
  ASSERT_EQ(key.status, 201) << key.body;
  const std::string secret = Str(key.Json(), "clientSecret");

  for (const auto& c : EveryRoute(w.entry, doc_id)) {
    SCOPED_TRACE(c.method + " " + c.path);
    ExpectProblem(Send(api(), c, ""), 401, "missing_credentials");
    ExpectProblem(Send(api(), c, "not-a-token"), 401, "invalid_token");
    for (const char* persona : {"editor", "viewer", "guest"})
      ExpectProblem(Send(api(), c, w.t.token(persona)), 403, "forbidden");
    ExpectProblem(Send(api(), c, secret), 403, "machine_credentials_not_allowed");
    ExpectProblem(Send(api(), c, "", {{"X-Api-Key", secret}}), 403, "machine_credentials_not_allowed");
  }
  // None of them changed anything.
  EXPECT_TRUE(api().Get("/trust-admin/policies/tenant", w.t.token("admin")).Json().at("policy").as_object().empty());
  EXPECT_EQ(api().Get("/trust-admin/connected-documents/" + doc_id, w.t.token("admin")).status, 200);
  // Checked before the body: a viewer's bad body is still a 403.
  ExpectProblem(api().Put("/trust-admin/policies/tenant", {{"internalOnly", "x"}}, w.t.token("viewer")), 403,
                "forbidden");
  ExpectProblem(api().Get("/trust-admin/policies/sources", w.t.token("viewer")), 403, "forbidden");
  // And every route answers the admin.
  for (const auto& c : EveryRoute(w.entry, doc_id)) {
    SCOPED_TRACE(c.method + " " + c.path);
    auto r = Send(api(), c, w.t.token("admin"));
    EXPECT_TRUE(r.status == 200 || r.status == 201 || r.status == 204) << r.status << " " << r.body;
  }
}

TEST_F(TrustAdmin, EachTenantSeesOnlyItsOwnSettings) {
  auto a = Make("ta-iso-a");
  auto b = Make("ta-iso-b");  // has hubs kb and docs too
  auto doc = Put("/trust-admin/connected-documents", Document("wiki", "shared-id"), a.t);
  ASSERT_EQ(doc.status, 201);
  const std::string doc_id = Str(doc.Json(), "id");

  // A's entry, document and their settings are 404 to B's admin.
  for (const auto& c : EveryRoute(a.entry, doc_id)) {
    const bool tenant_wide = c.path.find("/sources") == std::string::npos &&
                             c.path.find("/sensitivity") == std::string::npos &&
                             c.path.find("/entries/") == std::string::npos && c.path.find(doc_id) == std::string::npos;
    if (tenant_wide) continue;
    SCOPED_TRACE(c.method + " " + c.path);
    ExpectProblem(Send(api(), c, b.t.token("admin")), 404, "not_found");
  }
  EXPECT_TRUE(api().Get("/trust-admin/connected-documents", b.t.token("admin")).Json().as_array().empty());

  // Settings of the same names stay apart.
  ASSERT_EQ(Put("/trust-admin/policies/hubs/kb", {{"internalOnly", true}}, a.t).status, 200);
  ASSERT_EQ(Put("/trust-admin/policies/tenant", {{"citationRequired", true}}, a.t).status, 200);
  ASSERT_EQ(Put("/trust-admin/context", {{"internalChannels", {"internal", "slack_ops"}}}, a.t).status, 200);
  EXPECT_TRUE(api().Get("/trust-admin/policies/hubs/kb", b.t.token("admin")).Json().at("policy").as_object().empty());
  EXPECT_TRUE(api().Get("/trust-admin/policies/tenant", b.t.token("admin")).Json().at("policy").as_object().empty());
  EXPECT_EQ(json::serialize(api().Get("/trust-admin/context", b.t.token("admin")).Json().at("internalChannels")),
            R"(["ci","employee_chat","internal"])");
  EXPECT_EQ(Str(Evaluate(a.t, "entry:" + a.entry, "public_support_chat"), "decision"), "block");
  json::value theirs = Evaluate(b.t, "entry:" + b.entry, "public_support_chat");
  EXPECT_EQ(Str(theirs, "decision"), "allow");
  EXPECT_FALSE(theirs.at("requirements").at("citationRequired").as_bool());
  EXPECT_EQ(Codes(Evaluate(b.t, "entry:" + b.entry, "slack_ops")), std::vector<std::string>{"unknown_channel"});

  // The same connector key and external id are two documents.
  auto theirs_doc = Put("/trust-admin/connected-documents", Document("wiki", "shared-id"), b.t);
  ASSERT_EQ(theirs_doc.status, 201) << theirs_doc.body;
  EXPECT_NE(Str(theirs_doc.Json(), "id"), doc_id);
  ASSERT_EQ(Put(SourcePath("sensitivity", "wiki:shared-id"),
                {{"classification", "Restricted"}, {"hasSecrets", true}, {"hasPersonalData", true}}, b.t)
                .status,
            200);
  EXPECT_TRUE(api().Get(SourcePath("sensitivity", "wiki:shared-id"), a.t.token("admin")).Json().at("setBy").is_null());
  EXPECT_FALSE(Evaluate(a.t, "wiki:shared-id", "internal").at("escalated").as_bool());
  EXPECT_TRUE(Evaluate(b.t, "wiki:shared-id", "internal").at("escalated").as_bool());
  // A's URL on B's document is not taken: URLs are unique per tenant.
  json::object url_a = Document("wiki", "u");
  url_a["url"] = "https://same.example/page";
  ASSERT_EQ(Put("/trust-admin/connected-documents", url_a, a.t).status, 201);
  ASSERT_EQ(Put("/trust-admin/connected-documents", url_a, b.t).status, 201);
  // Owners must be members of the caller's tenant.
  json::object owned = Document("wiki", "owned");
  owned["ownerId"] = a.t.user_ids.at("editor");
  ExpectValidation(Put("/trust-admin/connected-documents", owned, b.t), "ownerId");
}

TEST_F(TrustAdmin, TheRoutesAreDocumented) {
  auto doc = api().Get("/openapi.json");
  ASSERT_EQ(doc.status, 200);
  const json::value body = doc.Json();
  const auto& paths = body.at("paths").as_object();
  for (const char* path :
       {"/trust-admin/policies/tenant", "/trust-admin/policies/hubs/{hubKey}", "/trust-admin/policies/sources",
        "/trust-admin/context", "/trust-admin/sensitivity", "/trust-admin/connected-documents",
        "/trust-admin/connected-documents/{id}", "/trust-admin/entries/{entryId}/source-links"})
    EXPECT_TRUE(paths.contains(path)) << path;
  EXPECT_TRUE(paths.at("/trust-admin/policies/sources").as_object().contains("delete"));
}

}  // namespace
}  // namespace credence::test
