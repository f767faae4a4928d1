// AI Act record-keeping exports (issue 28; docs/ai-act.md) over real HTTP:
// an app's export waits for a checkpoint covering its last decision, then
// holds a cover (app, risk, owner, period, counts, retention), every
// decision of the app and none of another app's, each evidence once before
// its first decision, the usage it logged, the
// oversight around it (the review of the entry it used, the policy change,
// the app's own and its key's audit entries, not another app's), in time
// order, and last the signed checkpoint, against which a receipt of any
// listed decision verifies; CSV carries the same lines; tenant admins only,
// other tenants' apps are 404, bad input is a 400. SQLite and PostgreSQL
// (CREDENCE_TEST_BACKEND).
#include <boost/json/parse.hpp>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/clock.h"
#include "support/clock_fixture.h"
#include "support/kb_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

std::vector<json::value> JsonLines(const std::string& body) {
  std::vector<json::value> out;
  std::istringstream in(body);
  for (std::string line; std::getline(in, line);) out.push_back(json::parse(line));
  return out;
}

class AppRecords : public ApiTest {
 protected:
  struct World {
    TestTenant t;
    std::string entry;
    std::string app, secret;  // the exported app and its key's secret
    std::string other_app, other_secret;
  };

  std::pair<std::string, std::string> App(const TestTenant& t, const std::string& name) {
    auto app = api().Post(
        "/trust-admin/apps",
        {{"name", name}, {"channel", "internal"}, {"risk", "high"}, {"ownerUserId", t.user_ids.at("editor")}},
        t.token("admin"));
    EXPECT_EQ(app.status, 201) << app.body;
    const std::string id = app.status == 201 ? Str(app.Json(), "id") : "";
    const TimeMs now = *ParseTimestamp(ServerTime(api()));
    auto key = api().Post("/trust-admin/apps/" + id + "/keys",
                          {{"name", "prod"}, {"expiresAt", FormatTimestamp(now + 30 * kMsPerDay)}}, t.token("admin"));
    EXPECT_EQ(key.status, 201) << key.body;
    return {id, key.status == 201 ? Str(key.Json(), "clientSecret") : ""};
  }

  World Make(const std::string& prefix) {
    World w{CreateTenant(api(), prefix), "", "", "", "", ""};
    w.entry = MakeReviewedEntry(api(), w.t, "kb", "refunds", {"Refunds take 5 days."});
    std::tie(w.app, w.secret) = App(w.t, "Support bot");
    std::tie(w.other_app, w.other_secret) = App(w.t, "Other bot");
    return w;
  }

  std::string Evaluate(const std::string& credential, const std::vector<std::string>& sources) {
    json::array list;
    for (const auto& s : sources) list.emplace_back(s);
    auto r = api().Post("/api/trust/evaluate", {{"sources", std::move(list)}, {"context", {{"channel", "internal"}}}},
                        credential);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 ? Str(r.Json(), "decisionId") : "";
  }

  std::string Path(const std::string& app, const std::string& query = "") {
    return "/trust-admin/apps/" + app + "/records" + query;
  }
};

TEST_F(AppRecords, AnExportHoldsTheAppsDecisionsUsageAndOversightAndEndsWithACoveringCheckpoint) {
  World w = Make("records");
  const std::string source = "entry:" + w.entry;
  const std::string first = Evaluate(w.secret, {source, "wiki:unknown"});
  ASSERT_EQ(api().Put("/trust-admin/policies/tenant", {{"citationRequired", true}}, w.t.token("admin")).status, 200);
  const std::string second = Evaluate(w.secret, {source});
  const std::string third = Evaluate(w.secret, {source});  // the same evidence as the second's
  const std::string theirs = Evaluate(w.other_secret, {source});
  ASSERT_EQ(
      api()
          .Post("/api/trust/usage",
                {{"decisionId", second}, {"sources", json::array{json::value(source)}}, {"outcome", "answer_sent"}},
                w.secret)
          .status,
      202);

  // No checkpoint covers the last decision yet: say when to come back.
  auto early = api().Get(Path(w.app), w.t.token("admin"));
  ExpectProblem(early, 409, "records_not_ready");
  EXPECT_FALSE(early.Header("retry-after").empty());
  RunJobs(api());

  auto r = api().Get(Path(w.app), w.t.token("admin"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_TRUE(r.Header("content-type").starts_with("application/jsonl")) << r.Header("content-type");
  EXPECT_NE(r.Header("content-disposition").find("attachment; filename=\"credence-app-" + w.app + "-records-"),
            std::string::npos);
  const auto lines = JsonLines(r.body);
  ASSERT_GE(lines.size(), 3u);

  const json::value& cover = lines.front();
  EXPECT_EQ(Str(cover, "type"), "cover");
  EXPECT_EQ(Str(cover, "format"), "credence-app-records/1");
  EXPECT_EQ(Str(cover.at("app"), "id"), w.app);
  EXPECT_EQ(Str(cover.at("app"), "name"), "Support bot");
  EXPECT_EQ(Str(cover.at("app"), "risk"), "high");
  EXPECT_EQ(Str(cover.at("app").at("owner"), "id"), w.t.user_ids.at("editor"));
  EXPECT_FALSE(Str(cover.at("app").at("owner"), "email").empty());
  EXPECT_EQ(cover.at("counts").at("decisions").as_int64(), 3);
  EXPECT_EQ(cover.at("counts").at("usage").as_int64(), 1);
  EXPECT_EQ(cover.at("retention").at("decisionsMonths").as_int64(), 13);  // the default
  EXPECT_EQ(Str(cover.at("period"), "to"), ServerTime(api()).substr(0, 10));

  const json::value& checkpoint = lines.back();
  ASSERT_EQ(Str(checkpoint, "type"), "checkpoint");
  EXPECT_TRUE(Str(checkpoint, "verifierKey").starts_with(Str(checkpoint, "origin") + "+"));

  std::vector<std::string> decisions, usage_of, audit_actions, oversight_kinds;
  std::set<std::string> evidence;
  std::string previous_at;
  int64_t last_leaf = -1;
  for (size_t i = 1; i + 1 < lines.size(); ++i) {
    const json::value& line = lines[i];
    EXPECT_GE(Str(line, "at"), previous_at) << "time order";
    previous_at = Str(line, "at");
    const std::string type = Str(line, "type");
    if (type == "evidence") {
      // Written once, before the first decision that references it.
      EXPECT_TRUE(evidence.insert(Str(line, "hash")).second) << line;
      const json::value& result = line.at("evidence").at("result");
      EXPECT_TRUE(result.at("reasons").is_array());
      EXPECT_TRUE(result.at("requirements").at("citationRequired").is_bool());
      EXPECT_TRUE(line.at("evidence").at("state").is_object());
    } else if (type == "decision") {
      decisions.push_back(Str(line, "decisionId"));
      const json::value& header = line.at("header");
      EXPECT_EQ(Str(header, "decisionId"), Str(line, "decisionId"));
      EXPECT_EQ(Str(header, "appId"), w.app);
      EXPECT_FALSE(Str(header, "keyId").empty());
      EXPECT_TRUE(header.at("context").is_object());
      EXPECT_FALSE(line.at("evidence").as_array().empty());
      for (const auto& hash : line.at("evidence").as_array())
        EXPECT_TRUE(evidence.contains(std::string(hash.as_string()))) << "evidence before its first decision";
      last_leaf = line.at("leafIndex").as_int64();
    } else if (type == "usage") {
      usage_of.push_back(Str(line, "decisionId"));
      EXPECT_EQ(Str(line, "outcome"), "answer_sent");
    } else {
      ASSERT_EQ(type, "oversight") << line;
      oversight_kinds.push_back(Str(line, "kind"));
      if (Str(line, "kind") == "audit") {
        audit_actions.push_back(Str(line, "action"));
        if (Str(line, "action").starts_with("app.")) {
          EXPECT_EQ(Str(line.at("target"), "id"), w.app) << line;
        }
        if (Str(line, "action").starts_with("appkey.")) {
          EXPECT_EQ(Str(line.at("details"), "appId"), w.app) << line;
        }
      }
      if (Str(line, "kind") == "review") {
        EXPECT_EQ(Str(line, "entryId"), w.entry);
      }
    }
  }
  EXPECT_EQ(decisions, (std::vector<std::string>{first, second, third}));
  EXPECT_EQ(evidence.size(), 3u) << "the third decision shares the second's evidence";
  EXPECT_EQ(usage_of, std::vector<std::string>{second});
  const std::set<std::string> actions(audit_actions.begin(), audit_actions.end());
  EXPECT_TRUE(actions.contains("app.registered"));
  EXPECT_TRUE(actions.contains("appkey.created"));
  EXPECT_TRUE(actions.contains("policy.set"));
  EXPECT_EQ(std::count(audit_actions.begin(), audit_actions.end(), "app.registered"), 1) << "not the other app's";
  EXPECT_NE(std::find(oversight_kinds.begin(), oversight_kinds.end(), "review"), oversight_kinds.end());
  EXPECT_EQ(cover.at("counts").at("oversight").as_int64(), static_cast<int64_t>(oversight_kinds.size()));
  EXPECT_LT(last_leaf, checkpoint.at("treeSize").as_int64());

  // A receipt of a listed decision verifies against the export's checkpoint.
  auto receipt = api().Get(
      "/api/trust/decisions/" + second + "/receipt?treeSize=" + std::to_string(checkpoint.at("treeSize").as_int64()),
      w.t.token("admin"));
  ASSERT_EQ(receipt.status, 200) << receipt.body;
  EXPECT_EQ(Str(receipt.Json(), "checkpoint"), Str(checkpoint, "checkpoint"));

  // CSV: the same lines, one row each.
  auto csv = api().Get(Path(w.app, "?format=csv"), w.t.token("admin"));
  ASSERT_EQ(csv.status, 200) << csv.body;
  EXPECT_TRUE(csv.Header("content-type").starts_with("text/csv"));
  EXPECT_TRUE(csv.body.starts_with("type,at,id,decisionId,record\r\ncover,"));
  size_t rows = 0;
  for (size_t at = csv.body.find("\r\n"); at != std::string::npos; at = csv.body.find("\r\n", at + 2)) ++rows;
  EXPECT_EQ(rows, lines.size() + 1);
  EXPECT_NE(csv.body.find("\r\ndecision,"), std::string::npos);
  EXPECT_NE(csv.body.find("\r\ncheckpoint,"), std::string::npos);
  EXPECT_EQ(csv.body.find(theirs), std::string::npos);
  EXPECT_EQ(r.body.find(theirs), std::string::npos);
}

TEST_F(AppRecords, AWindowWithoutDecisionsIsACoverAndTheNewestCheckpoint) {
  World w = Make("records-empty");
  auto r = api().Get(Path(w.app, "?from=2020-01-01&to=2020-01-31"), w.t.token("admin"));
  ASSERT_EQ(r.status, 200) << r.body;
  const auto lines = JsonLines(r.body);
  ASSERT_GE(lines.size(), 1u);
  EXPECT_EQ(Str(lines.front(), "type"), "cover");
  EXPECT_EQ(lines.front().at("counts").at("decisions").as_int64(), 0);
  EXPECT_EQ(Str(lines.front().at("period"), "from"), "2020-01-01");
  EXPECT_EQ(Str(lines.front().at("period"), "to"), "2020-01-31");
  for (size_t i = 1; i < lines.size(); ++i) EXPECT_EQ(Str(lines[i], "type"), "checkpoint");
}

TEST_F(AppRecords, OnlyTenantAdminsOfTheAppsTenantExportAndBadInputIsA400) {
  World w = Make("records-access");
  TestTenant other = CreateTenant(api(), "records-other");
  ExpectProblem(api().Get(Path(w.app), other.token("admin")), 404, "not_found");
  ExpectProblem(api().Get(Path(w.app), w.t.token("editor")), 403, "forbidden");
  ExpectProblem(api().Get(Path(w.app), w.secret), 403, "machine_credentials_not_allowed");
  EXPECT_EQ(api().Get(Path(w.app)).status, 401);
  ExpectProblem(api().Get(Path(kUnknownId), w.t.token("admin")), 404, "not_found");
  EXPECT_EQ(api().Get(Path("not-a-uuid"), w.t.token("admin")).status, 400);
  ExpectValidation(api().Get(Path(w.app, "?format=xml"), w.t.token("admin")), "format");
  ExpectValidation(api().Get(Path(w.app, "?from=yesterday"), w.t.token("admin")), "from");
  ExpectValidation(api().Get(Path(w.app, "?from=2026-02-01&to=2026-01-01"), w.t.token("admin")), "to");
}

}  // namespace
}  // namespace credence::test
