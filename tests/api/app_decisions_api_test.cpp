// Decisions made with an app's key (docs/apps.md, "How an app's policy
// applies"): the app's default policy tightens, never loosens, and
// policySource says so; a request on another channel than the app's is
// judged by the stricter of the two with the app_channel_mismatch reason;
// the ledger record keeps the app as it was; changes to the app apply to the
// next decision. Runs on SQLite and PostgreSQL (CREDENCE_TEST_BACKEND).
#include <boost/json/serialize.hpp>

#include <string>
#include <vector>

#include "core/clock.h"
#include "support/clock_fixture.h"
#include "support/kb_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

class AppDecisions : public ClockedApiTest {
 protected:
  struct World {
    TestTenant t;
    std::string entry;  // published, fully reviewed, sensitivity Internal (the default)
  };

  World Make(const std::string& prefix) {
    World w{CreateTenant(api(), prefix), ""};
    w.entry = MakeReviewedEntry(api(), w.t, "kb", "refunds", {"Refunds take 5 days."});
    return w;
  }

  // Registers an app and mints a key for it; returns {app id, secret}.
  std::pair<std::string, std::string> App(const TestTenant& t, const std::string& name, const std::string& channel,
                                          json::object policy = {}) {
    auto app =
        api().Post("/trust-admin/apps",
                   {{"name", name}, {"channel", channel}, {"risk", "high"}, {"defaultPolicy", std::move(policy)}},
                   t.token("admin"));
    EXPECT_EQ(app.status, 201) << app.body;
    const std::string id = Str(app.Json(), "id");
    auto key = api().Post("/trust-admin/apps/" + id + "/keys",
                          {{"name", "prod"}, {"expiresAt", FormatTimestamp(CurrentTime() + 30 * kMsPerDay)}},
                          t.token("admin"));
    EXPECT_EQ(key.status, 201) << key.body;
    return {id, Str(key.Json(), "clientSecret")};
  }

  TimeMs CurrentTime() { return *ParseTimestamp(ServerTime(api())); }

  Response Evaluate(const std::string& credential, const std::string& source, json::object context = {}) {
    return api().Post("/api/trust/evaluate", {{"sources", json::array{json::value(source)}}, {"context", context}},
                      credential);
  }
};

TEST_F(AppDecisions, TheAppsPolicyTightensAndPolicySourceSaysSo) {
  auto w = Make("appdec-policy");
  const std::string source = "entry:" + w.entry;
  auto [strict_id, strict] = App(w.t, "Public bot", "internal", {{"maxSensitivityForAi", "Public"}});
  auto [loose_id, loose] = App(w.t, "Loose bot", "internal", {{"maxReviewAgeDays", 3650}, {"aiRetrievable", true}});

  auto by_user = Evaluate(w.t.token("viewer"), source, {{"channel", "internal"}});
  ASSERT_EQ(by_user.status, 200) << by_user.body;
  const json::value plain = by_user.Json().at("results").at(0);
  EXPECT_EQ(Str(plain, "decision"), "allow");
  EXPECT_EQ(Str(plain, "policySource"), "tenant-default");

  auto by_strict = Evaluate(strict, source, {{"channel", "internal"}});
  ASSERT_EQ(by_strict.status, 200) << by_strict.body;
  const json::value tightened = by_strict.Json().at("results").at(0);
  EXPECT_EQ(Str(tightened, "decision"), "block");
  EXPECT_EQ(Codes(tightened), std::vector<std::string>{"sensitivity_above_ai_limit"});
  EXPECT_EQ(Str(tightened, "policySource"), "app");

  // An app cannot loosen what the tenant decided.
  auto by_loose = Evaluate(loose, source, {{"channel", "internal"}});
  ASSERT_EQ(by_loose.status, 200) << by_loose.body;
  EXPECT_EQ(Str(by_loose.Json().at("results").at(0), "decision"), "allow");
  EXPECT_EQ(Str(by_loose.Json().at("results").at(0), "policySource"), "tenant-default");
}

TEST_F(AppDecisions, AnotherChannelThanTheAppsIsJudgedByTheStricterOne) {
  auto w = Make("appdec-channel");
  const std::string source = "entry:" + w.entry;
  // Internal-only content: fine for an internal app, blocked on a customer-facing channel.
  ASSERT_EQ(api()
                .Put("/trust-admin/policies/sources?sourceId=entry%3A" + w.entry, {{"internalOnly", true}},
                     w.t.token("admin"))
                .status,
            200);
  auto [internal_id, internal_key] = App(w.t, "Helpdesk", "internal");
  auto [public_id, public_key] = App(w.t, "Storefront", "public_support_chat");

  // No channel in the request: the app's.
  auto own = Evaluate(internal_key, source);
  ASSERT_EQ(own.status, 200) << own.body;
  EXPECT_EQ(Str(own.Json().at("results").at(0), "decision"), "allow");
  EXPECT_TRUE(Codes(own.Json().at("results").at(0)).empty());

  // An internal app claiming a customer-facing channel: customer-facing.
  auto claims_public = Evaluate(internal_key, source, {{"channel", "public_support_chat"}});
  const json::value up = claims_public.Json().at("results").at(0);
  EXPECT_EQ(Str(up, "decision"), "block");
  EXPECT_EQ(Codes(up), (std::vector<std::string>{"internal_only_external_channel", "app_channel_mismatch"}));

  // A customer-facing app claiming an internal channel: still customer-facing.
  auto claims_internal = Evaluate(public_key, source, {{"channel", "internal"}});
  const json::value down = claims_internal.Json().at("results").at(0);
  EXPECT_EQ(Str(down, "decision"), "block");
  EXPECT_EQ(Codes(down), (std::vector<std::string>{"internal_only_external_channel", "app_channel_mismatch"}));
  const json::value mismatch = down.at("reasons").at(1);
  EXPECT_EQ(Str(mismatch, "severity"), "warn");
  EXPECT_EQ(Str(mismatch.at("data"), "requestChannel"), "internal");
  EXPECT_EQ(Str(mismatch.at("data"), "appChannel"), "public_support_chat");
}

TEST_F(AppDecisions, TheLedgerKeepsTheAppAsItWasAndChangesApplyToTheNextDecision) {
  auto w = Make("appdec-ledger");
  const std::string source = "entry:" + w.entry;
  auto [app_id, secret] = App(w.t, "Helpdesk", "internal");

  auto first = Evaluate(secret, source);
  ASSERT_EQ(first.status, 200) << first.body;
  EXPECT_EQ(Str(first.Json(), "overallDecision"), "allow");
  const std::string first_id = Str(first.Json(), "decisionId");

  // The app changes: a new name, a stricter policy.
  auto changed =
      api().Patch("/trust-admin/apps/" + app_id,
                  json::object{{"name", "Helpdesk v2"}, {"defaultPolicy", json::object{{"aiRetrievable", false}}}},
                  w.t.token("admin"));
  ASSERT_EQ(changed.status, 200) << changed.body;
  auto second = Evaluate(secret, source);
  ASSERT_EQ(second.status, 200) << second.body;
  EXPECT_EQ(Codes(second.Json().at("results").at(0)), std::vector<std::string>{"not_ai_retrievable"});
  const std::string second_id = Str(second.Json(), "decisionId");

  auto then = api().Get("/api/trust/decisions/" + first_id, secret);
  ASSERT_EQ(then.status, 200) << then.body;
  const json::value then_record = then.Json();
  const json::value& app_then = then_record.at("app");
  EXPECT_EQ(Str(then_record, "appId"), app_id);
  EXPECT_EQ(Str(app_then, "id"), app_id);
  EXPECT_EQ(Str(app_then, "name"), "Helpdesk");
  EXPECT_EQ(Str(app_then, "channel"), "internal");
  EXPECT_EQ(Str(app_then, "risk"), "high");
  EXPECT_EQ(Str(app_then, "ownerId"), w.t.user_ids.at("admin"));
  EXPECT_EQ(Str(then.Json().at("sources").at(0).at("state"), "policySource"), "tenant-default");

  auto now = api().Get("/api/trust/decisions/" + second_id, w.t.token("admin"));
  ASSERT_EQ(now.status, 200) << now.body;
  EXPECT_EQ(Str(now.Json().at("app"), "name"), "Helpdesk v2");
  const json::value now_record = now.Json();
  const json::value& state = now_record.at("sources").at(0).at("state");
  EXPECT_EQ(Str(state, "policySource"), "app");
  EXPECT_FALSE(state.at("policy").at("aiRetrievable").as_bool());

  // Decisions without an app say so.
  auto by_user = Evaluate(w.t.token("viewer"), source);
  auto record = api().Get("/api/trust/decisions/" + Str(by_user.Json(), "decisionId"), w.t.token("admin"));
  EXPECT_TRUE(record.Json().at("app").is_null());
  EXPECT_TRUE(record.Json().at("appId").is_null());

  // The chain still verifies.
  auto verify = api().Get("/trust-admin/ledger/verify", w.t.token("admin"));
  ASSERT_EQ(verify.status, 200) << verify.body;
  EXPECT_TRUE(verify.Json().at("ok").as_bool()) << verify.body;
}

}  // namespace
}  // namespace credence::test
