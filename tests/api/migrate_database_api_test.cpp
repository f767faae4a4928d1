// `credence admin migrate-database` end to end (docs/migrate-database.md):
// the real binary on SQLite in development mode makes ledger records (a
// minted API key's evaluate and filter-sources calls), audit entries and
// knowledge-base content, signs its chain heads, and stops; the command
// copies the SQLite file into a fresh PostgreSQL database; the binary,
// started on that database with the same chain-signing key, answers the
// same: decisions by id, hubs, entries, search, the audit log, both verify
// routes, the signed heads, to the same tokens and API key; it appends to
// the chains where the SQLite server left off. A second run into the
// now-filled target is refused; a stray table, a tampered ledger, a wrong
// key and bad flags are refused with their flag or table named, and leave
// the target empty.
//
// Needs CREDENCE_TEST_PG_URL; runs once, in the SQLite run of the API tests
// (it makes both databases itself).
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "storage/database.h"
#include "storage/session.h"
#include "support/api_fixture.h"
#include "support/kb_fixture.h"
#include "support/pg_test_database.h"
#include "support/store_sql.h"

namespace credence::test {
namespace {

namespace json = boost::json;
namespace fs = std::filesystem;

// `credence admin migrate-database ARGS`.
CommandResult Migrate(const std::vector<std::string>& args) {
  std::vector<std::string> all = {"admin", "migrate-database"};
  all.insert(all.end(), args.begin(), args.end());
  return RunCredence(all);
}

int64_t Count(const std::string& url, const std::string& table) {
  auto db = storage::OpenDatabase(url, {});
  storage::Session session(*db);
  return session.connection().Execute("test.count", "SELECT count(*) FROM " + table, {}).front().Int(0);
}

// The source installation: a development server on SQLite with ledger
// records, audit entries and an entry to search for, its heads signed.
struct Source {
  std::unique_ptr<ServerProcess> server;
  TestTenant t;
  std::string secret;  // an API key's
  std::string hub_key, entry_id;
  std::vector<std::string> decisions;
  std::string sqlite_path() const { return server->data_dir() + "/credence.db"; }
  std::string key_path() const { return server->data_dir() + "/chain-signing-key.pem"; }
};

ServerOptions Options(const std::vector<std::string>& more = {}) {
  ServerOptions options;
  options.extra_args = {"--test-clock", "--jobs-interval-ms", "0"};
  options.extra_args.insert(options.extra_args.end(), more.begin(), more.end());
  return options;
}

// What both servers must answer alike, by name.
std::map<std::string, json::value> Answers(HttpClient& api, const Source& s) {
  std::map<std::string, json::value> out;
  auto get = [&](const std::string& name, const std::string& path, const std::string& token) {
    auto r = api.Get(path, token);
    EXPECT_EQ(r.status, 200) << path << ": " << r.body;
    out[name] = r.status == 200 ? r.Json() : json::value();
  };
  for (size_t i = 0; i < s.decisions.size(); i += 7)
    get("decision " + std::to_string(i), "/api/trust/decisions/" + s.decisions[i], s.secret);
  get("hubs", "/api/hubs", s.t.token("admin"));
  get("entries", "/api/entries/hubs/" + s.hub_key, s.t.token("admin"));
  get("entry", "/api/entries/" + s.entry_id, s.t.token("admin"));
  get("audit", "/api/admin/audit?limit=100", s.t.token("admin"));
  get("ledger heads", "/trust-admin/ledger/heads", s.t.token("admin"));
  get("audit heads", "/admin/audit/heads", s.t.token("admin"));
  get("keys", "/.well-known/credence-chain-keys", "");
  return out;
}

// The ids search finds (snippets and ranking are each backend's own).
std::set<std::string> SearchIds(HttpClient& api, const std::string& query, const std::string& token) {
  auto r = api.Get("/api/entries/search?q=" + query, token);
  EXPECT_EQ(r.status, 200) << r.body;
  std::set<std::string> ids;
  if (r.status != 200) return ids;
  const json::value hits = r.Json();
  for (const auto& hit : hits.as_array()) ids.insert(Str(hit, "id"));
  return ids;
}

class MigrateDatabase : public ::testing::Test {
 protected:
  void SetUp() override {
    if (TestBackend() == "postgres") GTEST_SKIP() << "runs once, in the SQLite run (it makes both databases)";
    pg_server_ = PgServerUrlFromEnv();
    if (!pg_server_) GTEST_SKIP() << "CREDENCE_TEST_PG_URL is not set";
  }

  Source MakeSource() {
    Source s;
    s.server = std::make_unique<ServerProcess>(Options());
    HttpClient api(s.server->base_url());
    s.t = CreateTenant(api, "migrate");
    s.hub_key = "handbook";
    MakeHub(api, s.t.token("admin"), s.hub_key);
    // A word of its own, so that search finds this entry and no demo one.
    s.entry_id = Str(MakeEntry(api, s.t.token("admin"), s.hub_key, "travel",
                               {"Zanzibarian travel allowance", "Claims go through the\tfinance \\ team.\nThanks."}),
                     "id");
    MakeEntry(api, s.t.token("admin"), s.hub_key, "other", {"Nothing to see here"});
    auto key = api.Post("/apikeys", {{"name", "bot"}, {"scopes", json::array{"trust:evaluate", "trust:read"}}},
                        s.t.token("admin"));
    EXPECT_EQ(key.status, 201) << key.body;
    s.secret = Str(key.Json(), "clientSecret");
    for (int i = 0; i < 20; ++i) {
      const bool filter = i % 4 == 3;
      auto r = api.Post(filter ? "/api/trust/filter-sources" : "/api/trust/evaluate",
                        {{"sources", json::array{"entry:" + s.entry_id, "x:" + std::to_string(i % 5)}},
                         {"context", {{"actorLabel", "bot-" + std::to_string(i)}, {"channel", "internal"}}}},
                        s.secret);
      EXPECT_EQ(r.status, 200) << r.body;
      s.decisions.push_back(Str(r.Json(), "decisionId"));
    }
    // More audit entries: a group, and a key revoked.
    EXPECT_EQ(api.Post("/api/groups", {{"name", "Finance"}}, s.t.token("admin")).status, 201);
    auto doomed = api.Post("/apikeys", {{"name", "doomed"}, {"scopes", json::array{"trust:read"}}}, s.t.token("admin"));
    EXPECT_EQ(doomed.status, 201) << doomed.body;
    auto run = api.Post("/dev/jobs/run", json::object{});
    EXPECT_EQ(run.status, 200) << run.body;
    EXPECT_GE(run.Json().at("chainHeads").at("signed").as_int64(), 2) << run.body;
    return s;
  }

  std::optional<std::string> pg_server_;
};

TEST_F(MigrateDatabase, CopiesEverythingAndThePostgresServerAnswersTheSame) {
  Source s = MakeSource();
  std::map<std::string, json::value> before;
  std::set<std::string> found_before;
  {
    HttpClient api(s.server->base_url());
    before = Answers(api, s);
    found_before = SearchIds(api, "zanzibarian", s.t.token("admin"));
    EXPECT_EQ(found_before, std::set<std::string>{s.entry_id});
  }
  ASSERT_EQ(s.server->Terminate(), 0);
  const int64_t records = Count("sqlite:" + s.sqlite_path(), "trust_decisions");
  const int64_t audit_entries = Count("sqlite:" + s.sqlite_path(), "audit_log");

  PgTestDatabase target(*pg_server_);
  // The key is found beside the SQLite file by default.
  auto migrated = Migrate({"--from", "sqlite:" + s.sqlite_path(), "--to", target.url()});
  ASSERT_EQ(migrated.exit_code, 0) << migrated.err << migrated.out;
  const json::value summary = json::parse(migrated.out);
  EXPECT_EQ(summary.at("ok"), true);
  std::map<std::string, int64_t> rows;
  for (const auto& t : summary.at("tables").as_array()) rows[Str(t, "table")] = t.at("rows").as_int64();
  EXPECT_EQ(rows["trust_decisions"], records);
  EXPECT_EQ(rows["audit_log"], audit_entries);
  EXPECT_GT(rows["trust_evidence"], 0);
  EXPECT_GT(rows["chain_heads"], 0);
  EXPECT_GT(rows["signing_keys"], 0);  // the access-token key: tokens issued before still verify
  EXPECT_GT(rows["api_keys"], 0);
  EXPECT_GE(rows["entry_search"], 2);
  EXPECT_EQ(rows.count("search_docs"), 0u);
  EXPECT_EQ(rows.count("schema_migrations"), 0u);
  for (const auto& [table, n] : rows) EXPECT_EQ(Count(target.url(), table), n) << table;
  // Every chain of the tenant, and the platform chain, verified with heads.
  std::set<std::string> chains;
  for (const auto& c : summary.at("chains").as_array()) {
    EXPECT_EQ(c.at("verified"), true);
    if (Str(c, "tenantId") == s.t.id) {
      chains.insert(Str(c, "chain"));
      EXPECT_GE(c.at("signedHeads").as_int64(), 1) << json::serialize(c);
      if (Str(c, "chain") == "ledger") {
        EXPECT_EQ(c.at("records").as_int64(), 20);
      }
    }
  }
  EXPECT_EQ(chains, (std::set<std::string>{"ledger", "audit"}));
  EXPECT_EQ(Str(summary.at("chainSigningKey"), "path"), s.key_path());
  EXPECT_NE(migrated.err.find("chain-signing key"), std::string::npos) << migrated.err;

  // The binary on PostgreSQL with the same key answers the same, to the same
  // tokens and API key.
  ServerProcess pg(Options({"--database", target.url(), "--chain-signing-key", s.key_path()}));
  HttpClient api(pg.base_url());
  const auto after = Answers(api, s);
  for (const auto& [name, value] : before) EXPECT_EQ(json::serialize(after.at(name)), json::serialize(value)) << name;
  EXPECT_EQ(SearchIds(api, "zanzibarian", s.t.token("admin")), found_before);
  EXPECT_EQ(SearchIds(api, "finance", s.t.token("admin")), found_before);  // the body is indexed too
  auto ledger = api.Get("/trust-admin/ledger/verify", s.t.token("admin"));
  ASSERT_EQ(ledger.status, 200) << ledger.body;
  EXPECT_EQ(ledger.Json().at("ok"), true) << ledger.body;
  EXPECT_EQ(ledger.Json().at("checked").as_int64(), 20);
  EXPECT_GE(ledger.Json().at("heads").at("checked").as_int64(), 1) << ledger.body;
  auto audit = api.Get("/admin/audit/verify", s.t.token("admin"));
  ASSERT_EQ(audit.status, 200) << audit.body;
  EXPECT_EQ(audit.Json().at("ok"), true) << audit.body;
  EXPECT_GE(audit.Json().at("heads").at("checked").as_int64(), 1) << audit.body;

  // The chains go on where SQLite left them: a new decision over a new
  // source stores new evidence (the evidence ids' sequence was moved past
  // the copied ones), and its head is signed with the same key.
  auto next = api.Post("/api/trust/evaluate", {{"sources", json::array{"x:after-the-move"}}}, s.secret);
  ASSERT_EQ(next.status, 200) << next.body;
  auto stored = api.Get("/api/trust/decisions/" + Str(next.Json(), "decisionId"), s.secret);
  ASSERT_EQ(stored.status, 200) << stored.body;
  EXPECT_EQ(stored.Json().at("sequence").as_int64(), 21) << stored.body;
  ASSERT_EQ(api.Post("/dev/jobs/run", json::object{}).status, 200);
  auto again = api.Get("/trust-admin/ledger/verify", s.t.token("admin"));
  EXPECT_EQ(again.Json().at("ok"), true) << again.body;
  EXPECT_EQ(again.Json().at("checked").as_int64(), 21);
  auto heads = api.Get("/trust-admin/ledger/heads", s.t.token("admin")).Json();
  EXPECT_EQ(heads.at("items").at(0).at("sequence").as_int64(), 21);
  pg.Terminate();

  // A second run into the now-filled target is refused, naming it.
  auto second = Migrate({"--from", "sqlite:" + s.sqlite_path(), "--to", target.url()});
  EXPECT_EQ(second.exit_code, 1) << second.err;
  EXPECT_NE(second.err.find("is not empty"), std::string::npos) << second.err;
  EXPECT_EQ(Count(target.url(), "trust_decisions"), 21);
}

// What is refused, and that a refused or failed run leaves the target with
// no data, so that it can simply be run again.
TEST_F(MigrateDatabase, RefusesBadInputAndLeavesTheTargetEmpty) {
  Source s = MakeSource();
  ASSERT_EQ(s.server->Terminate(), 0);
  const std::string from = "sqlite:" + s.sqlite_path();

  struct Case {
    std::vector<std::string> args;
    int exit_code;
    std::string names;  // in the message
  };
  const std::vector<Case> cases = {
      {{}, 2, "--from"},
      {{"--to", "postgresql://127.0.0.1:1/x"}, 2, "--from is required"},
      {{"--from", "postgresql://127.0.0.1:1/x", "--to", "postgresql://127.0.0.1:1/x"}, 2, "--from: expected sqlite:"},
      {{"--from", "sqlite:/nonexistent/credence.db", "--to", "postgresql://127.0.0.1:1/x"}, 2, "--from: there is no"},
      {{"--from", from}, 2, "--to is required"},
      {{"--from", from, "--to", "mysql://127.0.0.1/x"}, 2, "--to: expected a postgresql:// URL"},
      {{"--from", from, "--to", "postgresql://127.0.0.1:1/x"}, 1, "--to: cannot connect"},
      {{"--from", from, "--to", "postgresql://127.0.0.1:1/x", "--chain-signing-key", "/nonexistent.pem"},
       2,
       "--chain-signing-key: there is no key file"},
      {{"--from", from, "--to"}, 2, "--to needs a value"},
      {{"--from", from, "--to", "postgresql://127.0.0.1:1/x", "--force"}, 2, "unknown flag --force"},
  };
  for (const auto& c : cases) {
    auto r = Migrate(c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
    EXPECT_NE(r.err.find(c.names), std::string::npos) << "wanted '" << c.names << "' in: " << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }

  PgTestDatabase target(*pg_server_);
  // A key that never signed in this database.
  const std::string other_key = s.server->data_dir() + "/other-key.pem";
  ASSERT_EQ(std::system(("openssl genpkey -algorithm ed25519 -out '" + other_key + "' 2>/dev/null").c_str()), 0);
  auto wrong_key = Migrate({"--from", from, "--to", target.url(), "--chain-signing-key", other_key});
  EXPECT_EQ(wrong_key.exit_code, 2) << wrong_key.err;
  EXPECT_NE(wrong_key.err.find("--chain-signing-key: '" + other_key + "' holds key"), std::string::npos)
      << wrong_key.err;

  // A table the schema does not have is named, and nothing is copied.
  RunSqlBehindTheServer(target.url(), "CREATE TABLE stray_table (id BIGINT)");
  auto stray = Migrate({"--from", from, "--to", target.url()});
  EXPECT_EQ(stray.exit_code, 1) << stray.err;
  EXPECT_NE(stray.err.find("the table stray_table exists only in the PostgreSQL database"), std::string::npos)
      << stray.err;
  EXPECT_EQ(Count(target.url(), "tenants"), 0);
  RunSqlBehindTheServer(target.url(), "DROP TABLE stray_table");

  // A ledger record altered in the SQLite file: the copy is made, its check
  // fails, and the copied rows are deleted again.
  {
    auto db = storage::OpenDatabase(from, {});
    storage::Session session(*db);
    session.connection().ExecuteScript("UPDATE trust_decisions SET overall = overall || 'x' WHERE id = '" +
                                       s.decisions[3] + "'");
  }
  auto tampered = Migrate({"--from", from, "--to", target.url()});
  EXPECT_EQ(tampered.exit_code, 1) << tampered.err;
  EXPECT_NE(tampered.err.find("the ledger chain of tenant " + s.t.id + " does not verify"), std::string::npos)
      << tampered.err;
  EXPECT_NE(tampered.err.find("the target holds the schema and no data"), std::string::npos) << tampered.err;
  for (const char* table : {"tenants", "trust_decisions", "trust_evidence", "audit_log", "entry_search", "sessions"})
    EXPECT_EQ(Count(target.url(), table), 0) << table;

  // Put back, the same target takes the copy.
  {
    auto db = storage::OpenDatabase(from, {});
    storage::Session session(*db);
    session.connection().ExecuteScript(
        "UPDATE trust_decisions SET overall = substr(overall, 1, length(overall) - 1)"
        " WHERE id = '" +
        s.decisions[3] + "'");
  }
  auto retried = Migrate({"--from", from, "--to", target.url()});
  EXPECT_EQ(retried.exit_code, 0) << retried.err;
  EXPECT_EQ(Count(target.url(), "trust_decisions"), 20);
}

}  // namespace
}  // namespace credence::test
