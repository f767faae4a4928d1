// Compliance reports over real HTTP (/trust-admin/reports/..., docs/reports.md):
// every report against data made for it, with its expected rows; the
// window's edges; the app filter; CSV read back by Python's csv module;
// tenant isolation; access (tenant admins on a session only) and bad input.
// Runs on SQLite and PostgreSQL (CREDENCE_TEST_BACKEND).
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "support/clock_fixture.h"
#include "support/kb_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

constexpr char kDay1[] = "2030-01-10";
constexpr char kDay2[] = "2030-02-20";

using Row = std::map<std::string, json::value>;

// A report's rows as column name -> cell.
std::vector<Row> Rows(const json::value& report) {
  std::vector<std::string> names;
  for (const auto& c : report.at("columns").as_array()) names.push_back(Str(c, "name"));
  std::vector<Row> out;
  for (const auto& r : report.at("rows").as_array()) {
    Row row;
    const auto& cells = r.as_array();
    EXPECT_EQ(cells.size(), names.size());
    for (size_t i = 0; i < names.size() && i < cells.size(); ++i) row[names[i]] = cells[i];
    out.push_back(std::move(row));
  }
  return out;
}

std::string S(const Row& r, const std::string& k) {
  auto it = r.find(k);
  if (it == r.end() || !it->second.is_string()) return it == r.end() ? "<missing>" : "<null>";
  return std::string(it->second.as_string());
}
int64_t I(const Row& r, const std::string& k) {
  auto it = r.find(k);
  return it != r.end() && it->second.is_int64() ? it->second.as_int64() : -1;
}
bool Null(const Row& r, const std::string& k) {
  auto it = r.find(k);
  return it != r.end() && it->second.is_null();
}

// `csv_text` read by Python's csv module: the records, as JSON.
json::value ParseCsvWithPython(const std::string& csv_text) {
  std::mt19937_64 rng(std::random_device{}());
  const auto path = std::filesystem::temp_directory_path() / ("credence-report-" + std::to_string(rng()) + ".csv");
  {
    std::ofstream f(path, std::ios::binary);
    f << csv_text;
  }
  const std::string cmd =
      "python3 -c 'import csv,json,sys; print(json.dumps(list(csv.reader(open(sys.argv[1], "
      "newline=\"\", encoding=\"utf-8\"), strict=True))))' " +
      path.string();
  std::string out;
  if (FILE* p = popen(cmd.c_str(), "r")) {
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
    pclose(p);
  }
  std::filesystem::remove(path);
  return json::parse(out);
}

class Reports : public ClockedApiTest {
 protected:
  struct World {
    TestTenant t;
    std::string fresh;        // published, FullReview, owner editor (active)
    std::string unreviewed;   // published, never reviewed
    std::string draft;        // never published
    std::string closed;       // published, never reviewed, entry override aiRetrievable false
    std::string short_lived;  // published, reviewed, in a hub whose entries expire after a day
    std::string orphan_doc;   // connected wiki:orphan, no owner, never reviewed
    std::string guest_doc;    // connected wiki:guest, owner guest (removed from the tenant), reviewed
    std::string secret_doc;   // connected wiki:secret, reviewed, carries secrets
  };

  void SetUp() override {
    ClockedApiTest::SetUp();
    if (IsSkipped()) return;
    SetServerTime(api(), std::string(kDay1) + "T09:00:00Z");
  }

  std::string Entry(const TestTenant& t, const std::string& hub, const std::string& key, bool publish, bool review) {
    auto created = MakeEntry(api(), t.token("editor"), hub, key, {"Text of " + key + "."});
    const std::string id = Str(created, "id");
    if (publish) {
      EXPECT_EQ(api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor")).status, 200);
    }
    if (review) {
      auto r = api().Post("/api/entries/" + id + "/review", {{"reviewType", "FullReview"}, {"timeSpentSeconds", 60}},
                          t.token("editor"));
      EXPECT_EQ(r.status, 200) << r.body;
    }
    return id;
  }

  std::string Document(const TestTenant& t, const std::string& external_id, const std::string& title,
                       const std::string& owner, bool reviewed) {
    json::object body{{"connectorKey", "wiki"},
                      {"externalId", external_id},
                      {"title", title},
                      {"contentUpdatedAt", "2029-12-01T00:00:00Z"}};
    if (!owner.empty()) body["ownerId"] = owner;
    if (reviewed) {
      body["lastReviewedAt"] = "2030-01-01T00:00:00Z";
      body["lastReviewType"] = "FullReview";
    }
    auto r = api().Put("/trust-admin/connected-documents", body, t.token("admin"));
    EXPECT_EQ(r.status, 201) << r.body;
    return r.status == 201 ? Str(r.Json(), "id") : "";
  }

  World Make(const std::string& prefix) {
    World w{CreateTenant(api(), prefix)};
    for (auto [hub, days] : {std::pair{"kb", 365}, std::pair{"short", 1}})
      EXPECT_EQ(api()
                    .Post("/api/hubs",
                          {{"key", hub}, {"name", hub}, {"defaultExpiryDays", days}, {"defaultOrgRole", "Editor"}},
                          w.t.token("admin"))
                    .status,
                201);
    w.fresh = Entry(w.t, "kb", "fresh", true, true);
    w.unreviewed = Entry(w.t, "kb", "unreviewed", true, false);
    w.draft = Entry(w.t, "kb", "draft", false, false);
    w.closed = Entry(w.t, "kb", "closed", true, false);
    w.short_lived = Entry(w.t, "short", "brief", true, true);
    EXPECT_EQ(api()
                  .Put("/trust-admin/policies/sources?sourceId=" + PercentEncode("entry:" + w.closed),
                       {{"aiRetrievable", false}}, w.t.token("admin"))
                  .status,
              200);
    w.orphan_doc = Document(w.t, "orphan", "Orphan page", "", false);
    w.guest_doc = Document(w.t, "guest", "Guest page", w.t.user_ids.at("guest"), true);
    w.secret_doc = Document(w.t, "secret", "Secret page", w.t.user_ids.at("editor"), true);
    EXPECT_EQ(api()
                  .Put("/trust-admin/sensitivity?sourceId=" + PercentEncode("wiki:secret"),
                       {{"classification", "Confidential"}, {"hasSecrets", true}, {"hasPersonalData", false}},
                       w.t.token("admin"))
                  .status,
              200);
    EXPECT_EQ(api().Delete("/users/" + w.t.user_ids.at("guest"), w.t.token("admin")).status, 204);
    return w;
  }

  json::value Evaluate(const std::string& token, const std::vector<std::string>& sources,
                       const std::string& channel = "internal") {
    json::array list;
    for (const auto& s : sources) list.emplace_back(s);
    auto r = api().Post("/api/trust/evaluate", {{"sources", list}, {"context", {{"channel", channel}}}}, token);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 ? r.Json() : json::value(json::object{{"decisionId", ""}, {"results", json::array{}}});
  }

  void Usage(const std::string& token, const std::vector<std::string>& sources, const std::string& decision = "") {
    json::array list;
    for (const auto& s : sources) list.emplace_back(s);
    json::object body{{"sources", list}, {"outcome", "answer_sent"}};
    if (!decision.empty()) body["decisionId"] = decision;
    auto r = api().Post("/api/trust/usage", body, token);
    EXPECT_EQ(r.status, 202) << r.body;
  }

  json::value Report(const TestTenant& t, const std::string& key, const std::string& query = "") {
    auto r = api().Get("/trust-admin/reports/" + key + (query.empty() ? "" : "?" + query), t.token("admin"));
    EXPECT_EQ(r.status, 200) << r.body;
    if (r.status != 200) return json::object{{"columns", json::array{}}, {"rows", json::array{}}};
    return r.Json();
  }

  std::vector<Row> ReportRows(const TestTenant& t, const std::string& key, const std::string& query = "") {
    return Rows(Report(t, key, query));
  }

  // Registers an app and mints a key for it; the key's secret.
  std::pair<std::string, std::string> App(const TestTenant& t, const std::string& name, const std::string& channel) {
    auto app =
        api().Post("/trust-admin/apps", {{"name", name}, {"channel", channel}, {"risk", "high"}}, t.token("admin"));
    EXPECT_EQ(app.status, 201) << app.body;
    if (app.status != 201) return {};
    const std::string id = Str(app.Json(), "id");
    auto key = api().Post("/trust-admin/apps/" + id + "/keys",
                          {{"name", "prod"}, {"expiresAt", "2031-01-01T00:00:00Z"}}, t.token("admin"));
    EXPECT_EQ(key.status, 201) << key.body;
    return {id, key.status == 201 ? Str(key.Json(), "clientSecret") : ""};
  }
};

const Row* Find(const std::vector<Row>& rows, const std::string& column, const std::string& value) {
  for (const auto& r : rows)
    if (S(r, column) == value) return &r;
  return nullptr;
}

// Issue 26: the text the server composes follows the interface language.
TEST_F(Reports, TitlesFollowThePreferredLanguageElseAcceptLanguage) {
  auto t = CreateTenant(api(), "rep-lang");
  const std::string admin = t.token("admin");
  auto first = [&](const Headers& headers) {
    auto r = api().Send("GET", "/trust-admin/reports", "", admin, headers);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.Json().at("reports").as_array().at(0);
  };
  EXPECT_EQ(Str(first({}), "title"), "Documents blocked from AI use");
  EXPECT_EQ(Str(first({{"Accept-Language", "es-ES,es;q=0.9,en;q=0.8"}}), "title"), "Documentos bloqueados para la IA");
  EXPECT_EQ(Str(first({{"Accept-Language", "en;q=0.5, es-MX;q=0.7"}}), "description").rfind("Lo que se bloqueó", 0),
            0u);
  EXPECT_EQ(Str(first({{"Accept-Language", "de, en;q=0.5"}}), "title"), "Documents blocked from AI use");
  // The preference wins over the browser's header, in the list and a report.
  ASSERT_EQ(api()
                .Send("PUT", "/api/users/me/preferred-language", R"({"languageCode":"es"})", admin,
                      {{"Content-Type", "application/json"}})
                .status,
            200);
  EXPECT_EQ(Str(first({{"Accept-Language", "en"}}), "title"), "Documentos bloqueados para la IA");
  auto report =
      api().Send("GET", "/trust-admin/reports/classification-summary", "", admin, {{"Accept-Language", "en"}});
  ASSERT_EQ(report.status, 200) << report.body;
  EXPECT_EQ(Str(report.Json(), "title"), "Documentos por clasificación de sensibilidad");
}

TEST_F(Reports, ListsTheSevenReportsWithTheirColumns) {
  auto t = CreateTenant(api(), "rep-list");
  auto r = api().Get("/trust-admin/reports", t.token("admin"));
  ASSERT_EQ(r.status, 200) << r.body;
  std::vector<std::string> keys;
  const json::value list = r.Json();
  for (const auto& rep : list.at("reports").as_array()) {
    keys.push_back(Str(rep, "key"));
    EXPECT_FALSE(Str(rep, "title").empty());
    EXPECT_FALSE(rep.at("columns").as_array().empty());
    for (const auto& c : rep.at("columns").as_array()) EXPECT_FALSE(Str(c, "type").empty());
  }
  EXPECT_EQ(keys, (std::vector<std::string>{"docs-blocked", "customer-facing-readiness", "expired-knowledge-used",
                                            "unreviewed-accessible", "used-without-owner", "policy-overrides",
                                            "classification-summary"}));
  // An empty tenant: every report answers, with its columns and no rows
  // (classification-summary always has its four levels).
  for (const auto& key : keys) {
    auto rep = Report(t, key);
    EXPECT_EQ(Str(rep, "key"), key);
    EXPECT_EQ(Str(rep, "to"), kDay1);
    EXPECT_EQ(Str(rep, "from"), "2029-12-12");  // 30 days, both ends inclusive
    EXPECT_TRUE(rep.at("appId").is_null());
    EXPECT_EQ(rep.at("rows").as_array().size(), key == "classification-summary" ? 4u : 0u) << key;
  }
}

TEST_F(Reports, DocsBlockedCountsEachBlockReasonByAppAndDocumentInTheWindow) {
  auto w = Make("rep-blocked");
  const std::vector<std::string> sources = {"entry:" + w.fresh, "entry:" + w.closed, "wiki:secret", "nope:1",
                                            "entry:" + w.draft};
  Evaluate(w.t.token("viewer"), sources);
  Evaluate(w.t.token("viewer"), sources);
  SetServerTime(api(), std::string(kDay2) + "T09:00:00Z");
  Evaluate(w.t.token("viewer"), {"wiki:secret"});

  auto rows = ReportRows(w.t, "docs-blocked", std::string("from=") + kDay1 + "&to=" + kDay1);
  // The secret document is Confidential too, above the default limit.
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(S(*Find(rows, "reasonCode", "sensitivity_above_ai_limit"), "entryId"), w.secret_doc);
  const Row* secret = Find(rows, "reasonCode", "secrets_present");
  ASSERT_NE(secret, nullptr);
  EXPECT_TRUE(Null(*secret, "appId"));
  EXPECT_EQ(S(*secret, "entryId"), w.secret_doc);
  EXPECT_EQ(S(*secret, "title"), "Secret page");
  EXPECT_EQ(S(*secret, "origin"), "Connected");
  EXPECT_EQ(S(*secret, "dimension"), "sensitivity");
  EXPECT_EQ(I(*secret, "blocked"), 2);
  const Row* closed = Find(rows, "reasonCode", "not_ai_retrievable");
  ASSERT_NE(closed, nullptr);
  EXPECT_EQ(S(*closed, "entryId"), w.closed);
  EXPECT_EQ(S(*closed, "sourceId"), "entry:" + w.closed);
  EXPECT_EQ(I(*closed, "blocked"), 2);
  const Row* unresolved = Find(rows, "reasonCode", "source_unresolved");
  ASSERT_NE(unresolved, nullptr);
  EXPECT_EQ(S(*unresolved, "sourceId"), "nope:1");
  EXPECT_TRUE(Null(*unresolved, "entryId"));
  EXPECT_EQ(I(*unresolved, "blocked"), 2);
  const Row* draft = Find(rows, "reasonCode", "not_published");
  ASSERT_NE(draft, nullptr);
  EXPECT_EQ(S(*draft, "entryId"), w.draft);
  EXPECT_EQ(Find(rows, "entryId", w.fresh), nullptr);

  // `to` is inclusive: the second day's evaluation joins; the day after
  // the first is excluded from a window starting there.
  rows = ReportRows(w.t, "docs-blocked", std::string("from=") + kDay1 + "&to=" + kDay2);
  EXPECT_EQ(I(*Find(rows, "reasonCode", "secrets_present"), "blocked"), 3);
  rows = ReportRows(w.t, "docs-blocked", "from=2030-01-11&to=" + std::string(kDay2));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(I(*Find(rows, "reasonCode", "secrets_present"), "blocked"), 1);
  rows = ReportRows(w.t, "docs-blocked", "from=2030-01-11&to=2030-02-19");
  EXPECT_TRUE(rows.empty());
}

TEST_F(Reports, RollupIsIdempotentAndCatchesUpAtEveryRun) {
  auto w = Make("rep-rollup");
  Evaluate(w.t.token("viewer"), {"wiki:secret"});
  auto jobs = RunJobs(api());
  EXPECT_GE(jobs.at("reports").at("decisions").as_int64(), 1);
  RunJobs(api());
  auto secrets = [&] {
    const auto rows = ReportRows(w.t, "docs-blocked");
    const Row* r = Find(rows, "reasonCode", "secrets_present");
    return r == nullptr ? -1 : I(*r, "blocked");
  };
  EXPECT_EQ(secrets(), 1);
  // Committed after the job ran: the report's own catch-up includes it.
  Evaluate(w.t.token("viewer"), {"wiki:secret"});
  EXPECT_EQ(secrets(), 2);
  RunJobs(api());
  EXPECT_EQ(secrets(), 2);
}

TEST_F(Reports, ExpiredKnowledgeUsedJoinsUsageWithTheEvidenceOfItsDecision) {
  auto w = Make("rep-expired");
  const std::string brief = "entry:" + w.short_lived;
  const std::string fresh = "entry:" + w.fresh;
  // Before expiry: used, but not stale.
  auto d1 = Evaluate(w.t.token("viewer"), {brief, fresh});
  Usage(w.t.token("viewer"), {brief, fresh}, Str(d1, "decisionId"));
  // After: the decision found it Expired, and the caller used it anyway.
  SetServerTime(api(), std::string(kDay2) + "T09:00:00Z");
  auto d2 = Evaluate(w.t.token("viewer"), {brief, fresh});
  ASSERT_EQ(Str(d2.at("results").as_array()[0], "classification"), "Expired");
  Usage(w.t.token("viewer"), {brief, fresh}, Str(d2, "decisionId"));
  Usage(w.t.token("viewer"), {brief}, Str(d2, "decisionId"));
  // Without a decision there is no evidence of what the caller saw.
  Usage(w.t.token("viewer"), {brief});

  auto rows = ReportRows(w.t, "expired-knowledge-used", std::string("from=") + kDay1 + "&to=" + kDay2);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(S(rows[0], "entryId"), w.short_lived);
  EXPECT_EQ(S(rows[0], "title"), Str(api().Get("/api/entries/" + w.short_lived, w.t.token("admin")).Json(), "title"));
  EXPECT_EQ(S(rows[0], "origin"), "Native");
  EXPECT_EQ(S(rows[0], "statusWhenDecided"), "Expired");
  EXPECT_TRUE(rows[0].at("expiryDate").is_string());
  EXPECT_EQ(I(rows[0], "uses"), 2);
  EXPECT_EQ(S(rows[0], "lastUsedAt"), "2030-02-20T09:00:00.000Z");
  EXPECT_TRUE(ReportRows(w.t, "expired-knowledge-used", std::string("from=") + kDay1 + "&to=2030-02-19").empty());
}

TEST_F(Reports, UnreviewedAccessibleListsDocumentsAiCanUseThatNoOneReviewed) {
  auto w = Make("rep-unreviewed");
  Evaluate(w.t.token("viewer"), {"entry:" + w.unreviewed, "entry:" + w.unreviewed, "wiki:orphan"});
  auto rows = ReportRows(w.t, "unreviewed-accessible");
  ASSERT_EQ(rows.size(), 2u);
  // Most evaluated first.
  EXPECT_EQ(S(rows[0], "entryId"), w.unreviewed);
  EXPECT_EQ(S(rows[0], "sourceId"), "entry:" + w.unreviewed);
  EXPECT_EQ(S(rows[0], "origin"), "Native");
  EXPECT_EQ(S(rows[0], "status"), "Published");
  EXPECT_EQ(S(rows[0], "ownerId"), w.t.user_ids.at("editor"));
  EXPECT_EQ(S(rows[0], "sensitivity"), "Internal");
  EXPECT_EQ(S(rows[0], "policySource"), "tenant-default");
  EXPECT_EQ(I(rows[0], "evaluations"), 2);
  EXPECT_EQ(S(rows[0], "lastEvaluatedAt"), "2030-01-10T09:00:00.000Z");
  EXPECT_EQ(S(rows[1], "entryId"), w.orphan_doc);
  EXPECT_EQ(S(rows[1], "sourceId"), "wiki:orphan");
  EXPECT_EQ(S(rows[1], "origin"), "Connected");
  EXPECT_TRUE(Null(rows[1], "ownerId"));
  EXPECT_EQ(I(rows[1], "evaluations"), 1);
  // Not listed: reviewed (fresh, the documents), a draft, and an entry
  // whose policy keeps it from AI (closed).
  for (const auto& id : {w.fresh, w.draft, w.closed, w.secret_doc, w.guest_doc})
    EXPECT_EQ(Find(rows, "entryId", id), nullptr) << id;
  // Outside the window the documents are still listed, with no evaluations.
  rows = ReportRows(w.t, "unreviewed-accessible", "from=2030-01-11&to=2030-01-12");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(I(rows[0], "evaluations"), 0);
  EXPECT_TRUE(Null(rows[0], "lastEvaluatedAt"));
}

TEST_F(Reports, UsedWithoutOwnerNamesDocumentsWithNoOrAnInactiveOwner) {
  auto w = Make("rep-owner");
  auto d = Evaluate(w.t.token("viewer"), {"wiki:orphan", "wiki:guest", "entry:" + w.fresh});
  Usage(w.t.token("viewer"), {"wiki:orphan", "wiki:guest", "entry:" + w.fresh}, Str(d, "decisionId"));
  Usage(w.t.token("viewer"), {"wiki:orphan"});
  auto rows = ReportRows(w.t, "used-without-owner");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(S(rows[0], "entryId"), w.orphan_doc);
  EXPECT_EQ(S(rows[0], "ownerState"), "none");
  EXPECT_TRUE(Null(rows[0], "ownerId"));
  EXPECT_EQ(I(rows[0], "uses"), 2);
  EXPECT_EQ(S(rows[0], "title"), "Orphan page");
  EXPECT_EQ(S(rows[1], "entryId"), w.guest_doc);
  EXPECT_EQ(S(rows[1], "ownerState"), "inactive");
  EXPECT_EQ(S(rows[1], "ownerId"), w.t.user_ids.at("guest"));
  EXPECT_EQ(I(rows[1], "uses"), 1);
  // Giving the orphan an owner takes it off the report.
  auto put = api().Put("/trust-admin/connected-documents",
                       {{"connectorKey", "wiki"},
                        {"externalId", "orphan"},
                        {"title", "Orphan page"},
                        {"contentUpdatedAt", "2029-12-01T00:00:00Z"},
                        {"ownerId", w.t.user_ids.at("editor")}},
                       w.t.token("admin"));
  ASSERT_EQ(put.status, 200) << put.body;
  rows = ReportRows(w.t, "used-without-owner");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(S(rows[0], "entryId"), w.guest_doc);
}

TEST_F(Reports, PolicyOverridesListsEntryLevelOverridesWithTheEffectivePolicy) {
  auto w = Make("rep-overrides");
  ASSERT_EQ(api()
                .Put("/trust-admin/policies/sources?sourceId=" + PercentEncode("wiki:orphan"),
                     {{"internalOnly", true}, {"maxSensitivityForAi", "Confidential"}}, w.t.token("admin"))
                .status,
            200);
  ASSERT_EQ(api().Put("/trust-admin/policies/hubs/kb", {{"citationRequired", true}}, w.t.token("admin")).status, 200);
  Evaluate(w.t.token("viewer"), {"wiki:orphan"});
  auto rows = ReportRows(w.t, "policy-overrides");
  ASSERT_EQ(rows.size(), 2u);
  const Row* closed = Find(rows, "entryId", w.closed);
  ASSERT_NE(closed, nullptr);
  EXPECT_EQ(S(*closed, "sourceId"), "entry:" + w.closed);
  EXPECT_EQ(json::parse(S(*closed, "override")), json::parse(R"({"aiRetrievable":false})"));
  EXPECT_FALSE(closed->at("aiRetrievable").as_bool());
  EXPECT_FALSE(closed->at("internalOnly").as_bool());
  EXPECT_EQ(S(*closed, "updatedBy"), w.t.user_ids.at("admin"));
  EXPECT_EQ(I(*closed, "evaluations"), 0);
  const Row* orphan = Find(rows, "entryId", w.orphan_doc);
  ASSERT_NE(orphan, nullptr);
  EXPECT_EQ(S(*orphan, "sourceId"), "wiki:orphan");
  EXPECT_TRUE(orphan->at("aiRetrievable").as_bool());
  EXPECT_TRUE(orphan->at("internalOnly").as_bool());
  EXPECT_EQ(S(*orphan, "maxSensitivityForAi"), "Confidential");
  EXPECT_EQ(I(*orphan, "evaluations"), 1);
  // Removing an override removes its row.
  ASSERT_EQ(
      api().Delete("/trust-admin/policies/sources?sourceId=" + PercentEncode("wiki:orphan"), w.t.token("admin")).status,
      204);
  EXPECT_EQ(ReportRows(w.t, "policy-overrides").size(), 1u);
}

TEST_F(Reports, ClassificationSummaryCountsDocumentsBySensitivity) {
  auto w = Make("rep-class");
  ASSERT_EQ(
      api()
          .Put("/trust-admin/sensitivity?sourceId=" + PercentEncode("entry:" + w.fresh),
               {{"classification", "Public"}, {"hasSecrets", false}, {"hasPersonalData", true}}, w.t.token("admin"))
          .status,
      200);
  Evaluate(w.t.token("viewer"), {"entry:" + w.fresh, "entry:" + w.fresh, "entry:" + w.unreviewed});
  auto rows = ReportRows(w.t, "classification-summary");
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(S(rows[0], "classification"), "Public");
  EXPECT_EQ(I(rows[0], "documents"), 1);
  EXPECT_EQ(I(rows[0], "nativeEntries"), 1);
  EXPECT_EQ(I(rows[0], "withPersonalData"), 1);
  EXPECT_EQ(I(rows[0], "setByHuman"), 1);
  EXPECT_EQ(I(rows[0], "evaluatedDocuments"), 1);
  EXPECT_EQ(I(rows[0], "evaluations"), 2);
  EXPECT_EQ(S(rows[1], "classification"), "Internal");
  // 5 entries (one Public) + 3 documents (one Confidential): 4 + 2, none set.
  EXPECT_EQ(I(rows[1], "documents"), 6);
  EXPECT_EQ(I(rows[1], "nativeEntries"), 4);
  EXPECT_EQ(I(rows[1], "connectedDocuments"), 2);
  EXPECT_EQ(I(rows[1], "unset"), 6);
  EXPECT_EQ(I(rows[1], "evaluatedDocuments"), 1);
  EXPECT_EQ(S(rows[2], "classification"), "Confidential");
  EXPECT_EQ(I(rows[2], "documents"), 1);
  EXPECT_EQ(I(rows[2], "withSecrets"), 1);
  EXPECT_EQ(I(rows[2], "connectedDocuments"), 1);
  EXPECT_EQ(S(rows[3], "classification"), "Restricted");
  EXPECT_EQ(I(rows[3], "documents"), 0);
}

TEST_F(Reports, CustomerFacingReadinessSplitsDecisionsOfCustomerFacingApps) {
  auto w = Make("rep-ready");
  auto [support, support_key] = App(w.t, "Support bot", "public_support_chat");
  auto [ci, ci_key] = App(w.t, "Release gate", "ci");
  ASSERT_FALSE(support_key.empty());
  const std::vector<std::string> sources = {"entry:" + w.fresh, "entry:" + w.unreviewed, "wiki:secret"};
  auto a = Evaluate(support_key, sources, "public_support_chat");
  Evaluate(ci_key, sources, "ci");
  Evaluate(w.t.token("viewer"), sources, "customer_email");
  Evaluate(w.t.token("viewer"), sources, "internal");
  std::map<std::string, int64_t> expected;
  for (const auto& r : a.at("results").as_array()) ++expected[Str(r, "decision")];

  auto rows = ReportRows(w.t, "customer-facing-readiness");
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(S(rows[0], "appId"), support);
  EXPECT_EQ(S(rows[0], "appName"), "Support bot");
  EXPECT_EQ(S(rows[0], "channel"), "public_support_chat");
  EXPECT_EQ(S(rows[0], "risk"), "high");
  EXPECT_EQ(I(rows[0], "decisions"), 1);
  EXPECT_EQ(I(rows[0], "sources"), 3);
  EXPECT_EQ(I(rows[0], "allowed"), expected["allow"]);
  EXPECT_EQ(I(rows[0], "warned"), expected["warn"]);
  EXPECT_EQ(I(rows[0], "blocked"), expected["block"]);
  EXPECT_EQ(I(rows[0], "escalated"), 1);  // secrets
  EXPECT_NEAR(rows[0].at("blockedShare").to_number<double>(), static_cast<double>(expected["block"]) / 3, 1e-4);
  // Calls without an app on a customer-facing channel.
  EXPECT_TRUE(Null(rows[1], "appId"));
  EXPECT_EQ(S(rows[1], "channel"), "customer_email");
  EXPECT_EQ(I(rows[1], "decisions"), 1);

  rows = ReportRows(w.t, "customer-facing-readiness", "appId=" + support);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(S(rows[0], "appId"), support);
  EXPECT_TRUE(ReportRows(w.t, "customer-facing-readiness", "appId=" + ci).empty());
  // The app filter on another report: only that app's decisions.
  auto blocked = ReportRows(w.t, "docs-blocked", "appId=" + support);
  ASSERT_FALSE(blocked.empty());
  for (const auto& r : blocked) EXPECT_EQ(S(r, "appId"), support);
  EXPECT_EQ(I(*Find(blocked, "reasonCode", "secrets_present"), "blocked"), 1);
  // Without the filter: one row per app (and one for calls without an app).
  std::map<std::string, int64_t> secrets;
  for (const auto& r : ReportRows(w.t, "docs-blocked"))
    if (S(r, "reasonCode") == "secrets_present") secrets[S(r, "appId")] = I(r, "blocked");
  EXPECT_EQ(secrets, (std::map<std::string, int64_t>{{"<null>", 2}, {support, 1}, {ci, 1}}));
}

TEST_F(Reports, CsvExportIsReadBackByARealCsvParser) {
  auto w = Make("rep-csv");
  const std::string title = "=Refunds, \"fast\"\nand fair";
  Document(w.t, "tricky", title, "", false);
  Evaluate(w.t.token("viewer"), {"wiki:tricky", "wiki:secret"});
  const auto report = Report(w.t, "unreviewed-accessible");

  auto r = api().Get("/trust-admin/reports/unreviewed-accessible/export?format=csv", w.t.token("admin"));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.Header("content-type").substr(0, 8), "text/csv");
  EXPECT_NE(r.Header("content-disposition").find("attachment; filename=\"credence-unreviewed-accessible-"),
            std::string::npos)
      << r.Header("content-disposition");
  EXPECT_NE(r.Header("content-disposition").find(".csv\""), std::string::npos);
  EXPECT_NE(r.body.find("\r\n"), std::string::npos);
  const json::value records = ParseCsvWithPython(r.body);
  const auto& rows = report.at("rows").as_array();
  ASSERT_EQ(records.as_array().size(), rows.size() + 1);
  std::vector<std::string> header;
  for (const auto& c : report.at("columns").as_array()) header.push_back(Str(c, "name"));
  std::vector<std::string> got_header;
  for (const auto& f : records.as_array()[0].as_array()) got_header.emplace_back(f.as_string());
  EXPECT_EQ(got_header, header);
  bool saw_title = false;
  for (size_t i = 0; i < rows.size(); ++i) {
    const auto& record = records.as_array()[i + 1].as_array();
    const auto& cells = rows[i].as_array();
    ASSERT_EQ(record.size(), cells.size());
    for (size_t c = 0; c < cells.size(); ++c) {
      std::string want;
      if (cells[c].is_string()) want = std::string(cells[c].as_string());
      if (cells[c].is_int64()) want = std::to_string(cells[c].as_int64());
      if (want == title) {
        saw_title = true;
        want = "'" + want;  // formula neutralized
      }
      EXPECT_EQ(std::string(record[c].as_string()), want) << header[c];
    }
  }
  EXPECT_TRUE(saw_title);

  // format=csv on the report's own path, format=json on export.
  auto csv = api().Get("/trust-admin/reports/classification-summary?format=csv", w.t.token("admin"));
  ASSERT_EQ(csv.status, 200);
  EXPECT_EQ(ParseCsvWithPython(csv.body).as_array().size(), 5u);
  auto json_export =
      api().Get("/trust-admin/reports/classification-summary/export?format=json&from=2030-01-01&to=2030-01-10",
                w.t.token("admin"));
  ASSERT_EQ(json_export.status, 200);
  EXPECT_EQ(json_export.Header("content-type").substr(0, 16), "application/json");
  EXPECT_NE(
      json_export.Header("content-disposition").find("credence-classification-summary-2030-01-01-to-2030-01-10.json"),
      std::string::npos);
  EXPECT_EQ(json_export.Json().at("rows").as_array().size(), 4u);
}

TEST_F(Reports, TenantsSeeOnlyTheirOwnData) {
  auto a = Make("rep-iso-a");
  auto b = CreateTenant(api(), "rep-iso-b");
  auto d = Evaluate(a.t.token("viewer"), {"wiki:secret", "wiki:orphan"});
  Usage(a.t.token("viewer"), {"wiki:orphan"}, Str(d, "decisionId"));
  auto [app, key] = App(a.t, "Support bot", "public_support_chat");
  for (const char* k : {"docs-blocked", "customer-facing-readiness", "expired-knowledge-used", "unreviewed-accessible",
                        "used-without-owner", "policy-overrides"})
    EXPECT_TRUE(ReportRows(b, k).empty()) << k;
  for (const auto& r : ReportRows(b, "classification-summary")) EXPECT_EQ(I(r, "documents"), 0);
  // Another tenant's app is unknown here.
  ExpectProblem(api().Get("/trust-admin/reports/docs-blocked?appId=" + app, b.token("admin")), 404, "not_found");
  EXPECT_EQ(ReportRows(a.t, "docs-blocked").size(), 2u);
}

TEST_F(Reports, OnlyTenantAdminsOnASessionMayRunReports) {
  auto t = CreateTenant(api(), "rep-access");
  auto key = api().Post("/apikeys", {{"name", "bot"}, {"scopes", json::array{"trust:evaluate", "trust:read"}}},
                        t.token("admin"));
  ASSERT_EQ(key.status, 201) << key.body;
  const std::string secret = Str(key.Json(), "clientSecret");
  for (const std::string path : {"/trust-admin/reports", "/trust-admin/reports/docs-blocked",
                                 "/trust-admin/reports/docs-blocked/export?format=csv"}) {
    ExpectProblem(api().Get(path, secret), 403, "machine_credentials_not_allowed");
    ExpectProblem(api().Get(path, t.token("editor")), 403, "forbidden");
    ExpectProblem(api().Get(path), 401, "missing_credentials");
  }
}

TEST_F(Reports, BadInputIsAProblem) {
  auto t = CreateTenant(api(), "rep-bad");
  const std::string token = t.token("admin");
  ExpectProblem(api().Get("/trust-admin/reports/no-such-report", token), 404, "not_found");
  ExpectProblem(api().Get("/trust-admin/reports/no-such-report/export", token), 404, "not_found");
  ExpectValidation(api().Get("/trust-admin/reports/docs-blocked?from=2030-13-01", token), "from");
  ExpectValidation(api().Get("/trust-admin/reports/docs-blocked?to=2030-01-01T00:00:00Z", token), "to");
  ExpectValidation(api().Get("/trust-admin/reports/docs-blocked?from=2030-01-02&to=2030-01-01", token), "to");
  ExpectValidation(api().Get("/trust-admin/reports/docs-blocked?from=2000-01-01&to=2030-01-01", token), "from");
  ExpectValidation(api().Get("/trust-admin/reports/docs-blocked?appId=not-a-uuid", token), "appId");
  ExpectProblem(api().Get(std::string("/trust-admin/reports/docs-blocked?appId=") + kUnknownId, token), 404,
                "not_found");
  ExpectValidation(api().Get("/trust-admin/reports/docs-blocked?format=xml", token), "format");
  ExpectValidation(api().Get("/trust-admin/reports/docs-blocked/export?format=pdf", token), "format");
  auto r = api().Get("/trust-admin/reports/docs-blocked?from=2030-13-01", token);
  EXPECT_EQ(r.Header("content-type"), "application/problem+json");
}

}  // namespace
}  // namespace credence::test
