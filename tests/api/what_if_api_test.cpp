// Policy what-if (issue 28; docs/what-if.md) over real HTTP: recorded
// decisions replayed from their frozen evidence come back as recorded when
// nothing changes; a hub policy, an app policy and a sensitivity change
// move exactly the decisions they touch, per app and channel, with the
// reasons that appear and examples; a policy changed since the decisions
// is drift, not the change's doing; records older than the context columns
// replay from their header; nothing is written; tenant admins only,
// other tenants' decisions, hubs and apps are out of reach, bad input is a
// 400 naming the field. SQLite and PostgreSQL (CREDENCE_TEST_BACKEND).
#include <boost/json/parse.hpp>

#include <string>
#include <vector>

#include "support/kb_fixture.h"
#include "support/server_process.h"
#include "support/store_sql.h"

namespace credence::test {
namespace {

namespace json = boost::json;

class WhatIf : public ApiTest {
 protected:
  // The shared server's, unless a test set its own.
  HttpClient& client() { return own_client_ != nullptr ? *own_client_ : api(); }
  HttpClient* own_client_ = nullptr;

  struct World {
    TestTenant t;
    std::string entry;        // in hub kb
    std::string app, secret;  // an app on the internal channel and its key's secret
  };

  World Make(const std::string& prefix) {
    World w{CreateTenant(client(), prefix), "", "", ""};
    w.entry = MakeReviewedEntry(client(), w.t, "kb", "refunds", {"Refunds take 5 days."});
    auto app = client().Post("/trust-admin/apps",
                             {{"name", "Support bot"},
                              {"channel", "internal"},
                              {"risk", "high"},
                              {"ownerUserId", w.t.user_ids.at("editor")}},
                             w.t.token("admin"));
    EXPECT_EQ(app.status, 201) << app.body;
    w.app = Str(app.Json(), "id");
    const TimeMs now = *ParseTimestamp(ServerTime(client()));
    auto key =
        client().Post("/trust-admin/apps/" + w.app + "/keys",
                      {{"name", "prod"}, {"expiresAt", FormatTimestamp(now + 30 * kMsPerDay)}}, w.t.token("admin"));
    EXPECT_EQ(key.status, 201) << key.body;
    w.secret = Str(key.Json(), "clientSecret");
    return w;
  }

  std::string Evaluate(const std::string& credential, const std::vector<std::string>& sources,
                       const std::string& channel) {
    json::array list;
    for (const auto& s : sources) list.emplace_back(s);
    json::object context;
    if (!channel.empty()) context["channel"] = channel;
    auto r = client().Post("/api/trust/evaluate", {{"sources", std::move(list)}, {"context", std::move(context)}},
                           credential);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 ? Str(r.Json(), "decisionId") : "";
  }

  // Three app decisions on its channel (one with an unknown source), two
  // of the admin's on the internal channel.
  void Record(const World& w) {
    const std::string source = "entry:" + w.entry;
    Evaluate(w.secret, {source}, "");
    Evaluate(w.secret, {source, "wiki:unknown"}, "");
    Evaluate(w.secret, {source}, "");
    Evaluate(w.t.token("admin"), {source}, "internal");
    Evaluate(w.t.token("admin"), {source}, "internal");
  }

  Response WhatIfOf(const World& w, json::array changes, json::object extra = {}) {
    extra["changes"] = std::move(changes);
    return client().Post("/trust-admin/what-if", extra, w.t.token("admin"));
  }

  static int64_t Moves(const json::value& moves, const std::string& from, const std::string& to) {
    for (const auto& m : moves.as_array())
      if (Str(m, "from") == from && Str(m, "to") == to) return m.at("decisions").as_int64();
    return 0;
  }

  static const json::value* Group(const json::value& result, const json::value& app_id) {
    for (const auto& g : result.at("groups").as_array())
      if (g.at("appId") == app_id) return &g;
    return nullptr;
  }

  static int64_t LedgerSize(HttpClient& api, const TestTenant& t) {
    auto r = api.Get("/trust-admin/ledger/decisions?limit=200", t.token("admin"));
    EXPECT_EQ(r.status, 200) << r.body;
    return static_cast<int64_t>(r.Json().at("decisions").as_array().size());
  }
};

TEST_F(WhatIf, AReplayWithoutAChangeGivesBackWhatWasRecorded) {
  World w = Make("whatif-same");
  Record(w);
  // Today's tenant policy set again as it is: the decisions replay exactly.
  auto r = WhatIfOf(w, {json::object{{"target", "tenant-policy"}, {"policy", json::object{}}}});
  ASSERT_EQ(r.status, 200) << r.body;
  const json::value result = r.Json();
  EXPECT_EQ(result.at("replayed").as_int64(), 5);
  EXPECT_EQ(result.at("changed").as_int64(), 0);
  EXPECT_EQ(result.at("sourcesChanged").as_int64(), 0);
  EXPECT_EQ(result.at("drifted").as_int64(), 0) << r.body;
  EXPECT_TRUE(result.at("moves").as_array().empty());
  EXPECT_TRUE(result.at("examples").as_array().empty());
  EXPECT_TRUE(result.at("reasonsAppearing").as_array().empty());
  // One group for the app on its channel, one for the admin's requests.
  ASSERT_EQ(result.at("groups").as_array().size(), 2u) << r.body;
  const json::value* app = Group(result, json::value(w.app));
  ASSERT_NE(app, nullptr);
  EXPECT_EQ(Str(*app, "appName"), "Support bot");
  EXPECT_EQ(Str(*app, "channel"), "internal");
  EXPECT_EQ(app->at("replayed").as_int64(), 3);
}

TEST_F(WhatIf, AHubPolicyMovesTheDecisionsOfItsEntriesAndNothingIsWritten) {
  World w = Make("whatif-hub");
  Record(w);
  const int64_t ledger_before = LedgerSize(api(), w.t);

  auto r = WhatIfOf(
      w,
      {json::object{{"target", "hub-policy"}, {"hubKey", "kb"}, {"policy", json::object{{"aiRetrievable", false}}}}});
  ASSERT_EQ(r.status, 200) << r.body;
  const json::value result = r.Json();
  EXPECT_EQ(result.at("replayed").as_int64(), 5);
  EXPECT_EQ(result.at("changed").as_int64(), 4) << "the decision with the unknown source was blocked already";
  EXPECT_EQ(Moves(result.at("moves"), "allow", "block"), 4) << r.body;
  EXPECT_EQ(Moves(result.at("moves"), "block", "block"), 0);
  EXPECT_EQ(Moves(result.at("sourceMoves"), "allow", "block"), 5);
  EXPECT_EQ(result.at("sourcesChanged").as_int64(), 5);
  ASSERT_EQ(result.at("reasonsAppearing").as_array().size(), 1u) << r.body;
  const json::value& reason = result.at("reasonsAppearing").at(0);
  EXPECT_EQ(Str(reason, "code"), "not_ai_retrievable");
  EXPECT_EQ(Str(reason, "dimension"), "policy");
  EXPECT_EQ(reason.at("sources").as_int64(), 5);
  EXPECT_EQ(reason.at("decisions").as_int64(), 5);
  const json::value* app = Group(result, json::value(w.app));
  ASSERT_NE(app, nullptr);
  EXPECT_EQ(app->at("changed").as_int64(), 2);
  const json::value* admin = Group(result, json::value(nullptr));
  ASSERT_NE(admin, nullptr);
  EXPECT_EQ(admin->at("changed").as_int64(), 2);

  const auto& examples = result.at("examples").as_array();
  ASSERT_EQ(examples.size(), 5u);
  const json::value& first = examples.at(0);
  EXPECT_EQ(Str(first, "recorded"), "allow");
  EXPECT_EQ(Str(first, "before"), "allow");
  EXPECT_EQ(Str(first, "after"), "block");
  ASSERT_EQ(first.at("sources").as_array().size(), 1u);
  const json::value& source = first.at("sources").at(0);
  EXPECT_EQ(Str(source, "sourceId"), "entry:" + w.entry);
  EXPECT_EQ(Str(source, "title"), "Entry refunds");
  EXPECT_EQ(source.at("reasonsAdded"), json::parse(R"(["not_ai_retrievable"])"));
  // The decision with the unknown source: blocked either way, its entry moved.
  EXPECT_EQ(Str(examples.at(1), "before"), "block");
  EXPECT_EQ(Str(examples.at(1), "after"), "block");

  // Only the app's decisions; only those on another channel (none).
  json::array hub{
      json::object{{"target", "hub-policy"}, {"hubKey", "kb"}, {"policy", json::object{{"aiRetrievable", false}}}}};
  auto only_app = WhatIfOf(w, hub, {{"appId", w.app}});
  ASSERT_EQ(only_app.status, 200) << only_app.body;
  EXPECT_EQ(only_app.Json().at("replayed").as_int64(), 3);
  auto other_channel = WhatIfOf(w, hub, {{"channel", "public_support_chat"}});
  ASSERT_EQ(other_channel.status, 200) << other_channel.body;
  EXPECT_EQ(other_channel.Json().at("replayed").as_int64(), 0);

  // Nothing was written: no decision, and the hub still has no policy.
  EXPECT_EQ(LedgerSize(api(), w.t), ledger_before);
  auto policy = api().Get("/trust-admin/policies/hubs/kb", w.t.token("admin"));
  ASSERT_EQ(policy.status, 200) << policy.body;
  EXPECT_TRUE(policy.Json().at("policy").as_object().empty()) << policy.body;
  EXPECT_TRUE(policy.Json().at("effective").at("aiRetrievable").as_bool());
}

TEST_F(WhatIf, AnAppPolicyMovesOnlyThatAppsDecisionsAndSensitivityMovesTheSources) {
  World w = Make("whatif-app");
  Record(w);
  // The app may only use Public knowledge: its entry is Internal.
  auto r = WhatIfOf(w, {json::object{{"target", "app-policy"},
                                     {"appId", w.app},
                                     {"defaultPolicy", json::object{{"maxSensitivityForAi", "Public"}}}}});
  ASSERT_EQ(r.status, 200) << r.body;
  json::value result = r.Json();
  EXPECT_EQ(result.at("changed").as_int64(), 2) << r.body;
  EXPECT_EQ(Group(result, json::value(w.app))->at("changed").as_int64(), 2);
  EXPECT_EQ(Group(result, json::value(nullptr))->at("changed").as_int64(), 0);
  ASSERT_FALSE(result.at("reasonsAppearing").as_array().empty());
  EXPECT_EQ(Str(result.at("reasonsAppearing").at(0), "dimension"), "sensitivity") << r.body;

  // Restricted facts on the entry: every decision that used it is blocked;
  // removing facts that were never set changes nothing.
  const std::string source = "entry:" + w.entry;
  r = WhatIfOf(
      w, {json::object{
             {"target", "sensitivity"},
             {"sourceId", source},
             {"sensitivity", {{"classification", "Restricted"}, {"hasSecrets", false}, {"hasPersonalData", false}}}}});
  ASSERT_EQ(r.status, 200) << r.body;
  result = r.Json();
  EXPECT_EQ(Moves(result.at("sourceMoves"), "allow", "block"), 5) << r.body;
  r = WhatIfOf(w, {json::object{{"target", "sensitivity"}, {"sourceId", source}, {"sensitivity", nullptr}}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.Json().at("sourcesChanged").as_int64(), 0) << r.body;
}

TEST_F(WhatIf, APolicyChangedSinceIsDriftAndTheChangeIsComparedWithToday) {
  World w = Make("whatif-drift");
  Record(w);
  // Published after the decisions: today's configuration blocks them all.
  ASSERT_EQ(api().Put("/trust-admin/policies/tenant", {{"aiRetrievable", false}}, w.t.token("admin")).status, 200);
  auto r = WhatIfOf(
      w,
      {json::object{{"target", "hub-policy"}, {"hubKey", "kb"}, {"policy", json::object{{"citationRequired", true}}}}});
  ASSERT_EQ(r.status, 200) << r.body;
  json::value result = r.Json();
  EXPECT_EQ(result.at("drifted").as_int64(), 5) << r.body;
  EXPECT_EQ(result.at("changed").as_int64(), 0) << "blocked today, blocked with the change";
  // Taking today's tenant policy back out would allow them again.
  r = WhatIfOf(w, {json::object{{"target", "tenant-policy"}, {"policy", json::object{}}}});
  ASSERT_EQ(r.status, 200) << r.body;
  result = r.Json();
  EXPECT_EQ(Moves(result.at("moves"), "block", "allow"), 4) << r.body;
  EXPECT_EQ(Str(result.at("reasonsVanishing").at(0), "code"), "not_ai_retrievable");
}

// A replay reads the ledger in pages of 2,000 sequences, several at once:
// across pages every decision is replayed exactly once, in order (the
// examples are the oldest moved), and an app filter skips the others'.
TEST_F(WhatIf, ALedgerOfSeveralPagesReplaysEveryDecisionOnce) {
  // Its own server: 4,500 requests in a row are over the shared one's rate limits.
  ServerOptions options = SharedServerOptions();
  for (const char* arg : {"--rate-limit-key-rps", "0", "--rate-limit-user-rps", "0", "--rate-limit-address-rps", "0"})
    options.extra_args.emplace_back(arg);
  ServerProcess server(options);
  HttpClient own(server.base_url());
  own_client_ = &own;
  World w = Make("whatif-pages");
  const std::string source = "entry:" + w.entry;
  std::vector<std::string> ids;
  for (int i = 0; i < 4'500; ++i) ids.push_back(Evaluate(i % 3 == 0 ? w.secret : w.t.token("admin"), {source}, ""));
  auto r = WhatIfOf(
      w,
      {json::object{{"target", "hub-policy"}, {"hubKey", "kb"}, {"policy", json::object{{"aiRetrievable", false}}}}});
  ASSERT_EQ(r.status, 200) << r.body.substr(0, 400);
  json::value result = r.Json();
  EXPECT_EQ(result.at("replayed").as_int64(), 4'500);
  EXPECT_EQ(result.at("changed").as_int64(), 4'500);
  EXPECT_EQ(result.at("drifted").as_int64(), 0);
  ASSERT_EQ(result.at("examples").as_array().size(), 20u);
  for (size_t i = 0; i < 20; ++i) EXPECT_EQ(Str(result.at("examples").at(i), "decisionId"), ids[i]) << i;
  r = WhatIfOf(
      w, {json::object{{"target", "hub-policy"}, {"hubKey", "kb"}, {"policy", json::object{{"aiRetrievable", false}}}}},
      {{"appId", w.app}});
  ASSERT_EQ(r.status, 200) << r.body.substr(0, 400);
  result = r.Json();
  EXPECT_EQ(result.at("replayed").as_int64(), 1'500);
  EXPECT_EQ(Str(result.at("examples").at(1), "decisionId"), ids[3]);
}

// externalModel and language are columns since migration 510; rows written
// before it have NULL there and replay from their hashed header. Verify
// holds the columns against the header, since a replay believes them.
TEST_F(WhatIf, RecordsWithoutContextColumnsReplayFromTheirHeaderAndVerifyChecksTheColumns) {
  ServerProcess server(SharedServerOptions());
  HttpClient client(server.base_url());
  const TestTenant t = CreateTenant(client, "whatif-legacy");
  const std::string source = "entry:" + MakeReviewedEntry(client, t, "kb", "refunds", {"Refunds take 5 days."});
  std::vector<std::string> ids;
  for (json::object context :
       {json::object{{"externalModel", true}, {"language", "es"}}, json::object{{"externalModel", true}},
        json::object{{"language", "es"}}, json::object{}}) {
    auto r =
        client.Post("/api/trust/evaluate", {{"sources", json::array{source}}, {"context", context}}, t.token("admin"));
    ASSERT_EQ(r.status, 200) << r.body;
    ids.push_back(Str(r.Json(), "decisionId"));
  }
  const json::object forbid{
      {"changes", json::array{json::object{{"target", "tenant-policy"},
                                           {"policy", json::object{{"externalModelAllowed", false}}}}}}};
  // The two decisions for an external model move, named by their ids; the
  // Spanish ones were warned (no translation), and replay so (no drift).
  auto expect_external_ones_blocked = [&](HttpClient& c) {
    auto r = c.Post("/trust-admin/what-if", forbid, t.token("admin"));
    ASSERT_EQ(r.status, 200) << r.body;
    const json::value result = r.Json();
    EXPECT_EQ(result.at("replayed").as_int64(), 4);
    EXPECT_EQ(result.at("drifted").as_int64(), 0) << r.body;
    EXPECT_EQ(result.at("changed").as_int64(), 2) << r.body;
    EXPECT_EQ(Moves(result.at("moves"), "warn", "block"), 1) << r.body;
    EXPECT_EQ(Moves(result.at("moves"), "allow", "block"), 1) << r.body;
    ASSERT_EQ(result.at("examples").as_array().size(), 2u) << r.body;
    EXPECT_EQ(Str(result.at("examples").at(0), "decisionId"), ids[0]);
    EXPECT_EQ(Str(result.at("examples").at(1), "decisionId"), ids[1]);
  };
  expect_external_ones_blocked(client);

  server.Terminate();
  RunSqlBehindTheServer(server.database_url(), "UPDATE trust_decisions SET external_model = NULL, language = NULL");
  server.Restart();
  HttpClient older(server.base_url());
  expect_external_ones_blocked(older);
  auto verify = older.Get("/trust-admin/ledger/verify", t.token("admin"));
  ASSERT_EQ(verify.status, 200) << verify.body;
  EXPECT_TRUE(verify.Json().at("ok").as_bool()) << verify.body;

  // A column that says otherwise than the header is caught.
  server.Terminate();
  RunSqlBehindTheServer(server.database_url(),
                        "UPDATE trust_decisions SET external_model = 1, language = 'es' WHERE id = '" + ids[3] + "'");
  server.Restart();
  HttpClient tampered(server.base_url());
  verify = tampered.Get("/trust-admin/ledger/verify", t.token("admin"));
  ASSERT_EQ(verify.status, 200) << verify.body;
  EXPECT_FALSE(verify.Json().at("ok").as_bool());
  EXPECT_EQ(Str(verify.Json().at("firstInvalid"), "decisionId"), ids[3]) << verify.body;
  EXPECT_NE(Str(verify.Json().at("firstInvalid"), "problem").find("context"), std::string::npos) << verify.body;
}

TEST_F(WhatIf, BadChangesAreRefusedNamingTheFieldAndOnlyTenantAdminsReplay) {
  World w = Make("whatif-bad");
  World other = Make("whatif-other");
  Record(other);
  auto hub = [](const std::string& key) {
    return json::object{{"target", "hub-policy"}, {"hubKey", key}, {"policy", json::object{{"aiRetrievable", false}}}};
  };
  ExpectValidation(WhatIfOf(w, {}), "changes");
  ExpectValidation(WhatIfOf(w, {json::object{{"target", "everything"}}}), "changes[0].target");
  ExpectValidation(WhatIfOf(w, {json::object{{"target", "hub-policy"}, {"policy", json::object{}}}}),
                   "changes[0].hubKey");
  ExpectValidation(WhatIfOf(w, {json::object{{"target", "tenant-policy"}}}), "changes[0].policy");
  ExpectValidation(
      WhatIfOf(w, {json::object{{"target", "tenant-policy"}, {"policy", json::object{{"aiRetrievable", "no"}}}}}),
      "changes[0].policy.aiRetrievable");
  ExpectValidation(WhatIfOf(w, {json::object{{"target", "sensitivity"}, {"sourceId", "entry:x"}}}),
                   "changes[0].sensitivity");
  ExpectValidation(WhatIfOf(w, {hub("kb")}, {{"from", "yesterday"}}), "from");
  ExpectValidation(WhatIfOf(w, {hub("nope")}), "changes[0].hubKey");
  EXPECT_EQ(api().Send("POST", "/trust-admin/what-if", "{not json", w.t.token("admin")).status, 400);

  // Another tenant's hub, app and entry are unknown here; its decisions
  // are not replayed.
  ExpectValidation(
      WhatIfOf(w, {json::object{{"target", "app-policy"}, {"appId", other.app}, {"defaultPolicy", json::object{}}}}),
      "changes[0].appId");
  ExpectValidation(
      WhatIfOf(w, {json::object{
                      {"target", "source-policy"}, {"sourceId", "entry:" + other.entry}, {"policy", json::object{}}}}),
      "changes[0].sourceId");
  ExpectValidation(WhatIfOf(w, {hub("kb")}, {{"appId", other.app}}), "appId");
  auto mine = WhatIfOf(w, {hub("kb")});
  ASSERT_EQ(mine.status, 200) << mine.body;
  EXPECT_EQ(mine.Json().at("replayed").as_int64(), 0);

  auto body = json::object{{"changes", json::array{hub("kb")}}};
  ExpectProblem(api().Post("/trust-admin/what-if", body, w.t.token("editor")), 403, "forbidden");
  EXPECT_EQ(api().Post("/trust-admin/what-if", body, "").status, 401);
  EXPECT_EQ(api().Post("/trust-admin/what-if", body, other.secret).status, 403);
}

}  // namespace
}  // namespace credence::test
