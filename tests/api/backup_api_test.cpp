// `credence admin backup` and `restore` end to end (docs/backup.md), on the
// selected backend (CREDENCE_TEST_BACKEND; PostgreSQL needs pg_dump and
// pg_restore of the server's version on PATH).
//
// The restore drill: a server under evaluate load from three clients; the
// backup taken while the load goes on; the load stopped; the backup
// restored into a fresh store; a server started on the copy with the same
// chain-signing key. Both chains verify there, every decision acknowledged
// before the backup started is readable by id, and none acknowledged after
// it ended is (the copy is one snapshot). Then the bad input: flags, a
// --from that is not a backup or is damaged, a wrong key, a target that is
// not empty or of the other backend, a manifest that does not match; each
// refused with its flag named, and the target left empty.
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "storage/database.h"
#include "storage/session.h"
#include "support/api_fixture.h"
#include "support/pg_test_database.h"
#include "support/temp_dir.h"

namespace credence::test {
namespace {

namespace json = boost::json;
namespace fs = std::filesystem;
using Clk = std::chrono::steady_clock;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// `credence admin ARGS`.
CommandResult Admin(const std::vector<std::string>& args) {
  std::vector<std::string> all = {"admin"};
  all.insert(all.end(), args.begin(), args.end());
  return RunCredence(all);
}

// A fresh, empty store of the selected backend to restore into: a data
// directory not made yet, or a new PostgreSQL database.
struct Target {
  Target() {
    if (TestBackend() == "postgres") pg = std::make_unique<PgTestDatabase>(*PgServerUrlFromEnv());
  }
  std::vector<std::string> flags() const {
    if (pg) return {"--database", pg->url()};
    return {"--data-dir", dir.path + "/data"};
  }
  std::string url() const { return pg ? pg->url() : "sqlite:" + dir.path + "/data/credence.db"; }
  // Nothing in it: no file, or a database without tables or functions.
  bool empty() const {
    if (!pg) return !fs::exists(dir.path + "/data/credence.db") && !fs::exists(dir.path + "/data/credence.db-wal");
    auto db = storage::OpenDatabase(pg->url(), {});
    storage::Session session(*db);
    return session.connection()
               .Execute("test.objects",
                        "SELECT (SELECT count(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                        "  WHERE n.nspname = 'public') + (SELECT count(*) FROM pg_proc p JOIN pg_namespace n"
                        "  ON n.oid = p.pronamespace WHERE n.nspname = 'public')",
                        {})
               .front()
               .Int(0) == 0;
  }
  TempDir dir;
  std::unique_ptr<PgTestDatabase> pg;
};

std::vector<std::string> Concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

ServerOptions BackupOptions(const std::vector<std::string>& more = {}) {
  ServerOptions options;
  options.extra_args = {"--jobs-interval-ms", "0"};
  options.extra_args.insert(options.extra_args.end(), more.begin(), more.end());
  return options;
}

// The drill's load comes from one API key, and the copy is read with it:
// no per-key rate limit, where the binary has one.
std::vector<std::string> NoKeyRateLimit() {
  static const bool has = ServerUsage().find("--rate-limit-key-rps") != std::string::npos;
  if (!has) return {};
  return {"--rate-limit-key-rps", "0"};
}

// The flags that name a server's store to the admin commands.
std::vector<std::string> StoreFlags(const ServerProcess& server) {
  if (TestBackend() == "postgres") return {"--database", server.database_url()};
  return {"--data-dir", server.data_dir()};
}

std::string KeyPath(const ServerProcess& server) { return server.data_dir() + "/chain-signing-key.pem"; }

// A tenant with an API key that evaluates and reads decisions.
struct BackupSource {
  std::unique_ptr<ServerProcess> server;
  TestTenant t;
  std::string secret;
};

BackupSource MakeSource() {
  BackupSource s;
  s.server = std::make_unique<ServerProcess>(BackupOptions(NoKeyRateLimit()));
  HttpClient api(s.server->base_url());
  s.t = CreateTenant(api, "backup");
  auto key = api.Post("/apikeys", {{"name", "bot"}, {"scopes", json::array{"trust:evaluate", "trust:read"}}},
                      s.t.token("admin"));
  if (key.status != 201) throw std::runtime_error("api key: " + key.body);
  s.secret = Str(key.Json(), "clientSecret");
  return s;
}

// The decision's id; "" when it was refused (429: not acknowledged) or
// failed (then `failed` is set).
std::string Evaluate(HttpClient& api, const std::string& secret, int i, bool* failed = nullptr) {
  auto r = api.Post("/api/trust/evaluate",
                    {{"sources", json::array{"x:" + std::to_string(i % 7), "x:other"}},
                     {"context", {{"actorLabel", "bot-" + std::to_string(i)}, {"channel", "internal"}}}},
                    secret);
  if (r.status != 200 && r.status != 429 && failed != nullptr) *failed = true;
  return r.status == 200 ? Str(r.Json(), "decisionId") : "";
}

class Backup : public ::testing::Test {
 protected:
  void SetUp() override {
    if (BackendUnavailable()) GTEST_SKIP() << "CREDENCE_TEST_PG_URL is not set";
  }
};

TEST_F(Backup, OnlineBackupUnderLoadRestoresEveryAcknowledgedDecision) {
  BackupSource s = MakeSource();
  TempDir backups;
  const std::string out = backups.path + "/backup";

  // Evaluate load from three clients; each acknowledged decision with when
  // its answer arrived.
  struct Acked {
    std::string id;
    Clk::time_point at;
  };
  std::mutex mu;
  std::vector<Acked> acked;
  std::atomic<bool> stop{false};
  std::atomic<int> failures{0};
  std::vector<std::thread> clients;
  for (int c = 0; c < 3; ++c)
    clients.emplace_back([&, c] {
      HttpClient api(s.server->base_url());
      for (int i = c; !stop; i += 3) {
        bool failed = false;
        const std::string id = Evaluate(api, s.secret, i, &failed);
        const auto at = Clk::now();
        if (failed) ++failures;
        if (id.empty()) continue;
        std::lock_guard lock(mu);
        acked.push_back({id, at});
      }
    });
  auto count = [&] {
    std::lock_guard lock(mu);
    return acked.size();
  };
  const auto load_deadline = Clk::now() + std::chrono::seconds(10);
  while (count() < 40 && Clk::now() < load_deadline) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  // Signed heads in the snapshot, signed while the load goes on.
  {
    HttpClient api(s.server->base_url());
    auto run = api.Post("/dev/jobs/run", json::object{});
    ASSERT_EQ(run.status, 200) << run.body;
  }
  while (count() < 80 && Clk::now() < load_deadline) std::this_thread::sleep_for(std::chrono::milliseconds(10));

  const size_t before_backup = count();
  const auto backup_started = Clk::now();
  const auto backup = Admin(Concat({"backup", "--out", out}, StoreFlags(*s.server)));
  const auto backup_ended = Clk::now();
  const size_t during_backup = count() - before_backup;
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  stop = true;
  for (auto& t : clients) t.join();
  ASSERT_EQ(backup.exit_code, 0) << backup.err << backup.out;
  EXPECT_EQ(failures.load(), 0);
  std::vector<std::string> before, after;
  for (const auto& a : acked) {
    if (a.at < backup_started) before.push_back(a.id);
    if (a.at > backup_ended) after.push_back(a.id);
  }
  ASSERT_GE(before.size(), 80u);
  ASSERT_FALSE(after.empty());
  std::fprintf(stderr, "[backup drill] %zu decisions before the backup, %zu during it, %zu after\n", before.size(),
               during_backup, after.size());

  // The summary and the manifest.
  const json::value summary = json::parse(backup.out);
  EXPECT_EQ(summary.at("ok"), true);
  EXPECT_EQ(Str(summary, "backend"), TestBackend() == "postgres" ? "postgres" : "sqlite");
  EXPECT_NE(backup.err.find("chain-signing key is not in the backup"), std::string::npos) << backup.err;
  const json::value manifest = json::parse(ReadFile(out + "/manifest.json"));
  EXPECT_EQ(Str(manifest, "format"), "credence-backup");
  EXPECT_EQ(manifest.at("formatVersion").as_int64(), 1);
  EXPECT_GT(manifest.at("schemaVersion").as_int64(), 0);
  EXPECT_GE(manifest.at("rows").at("trust_decisions").as_int64(), static_cast<int64_t>(before.size()));
  int64_t ledger_head = 0;
  for (const auto& c : manifest.at("chains").as_array())
    if (Str(c, "chain") == "ledger" && Str(c, "tenantId") == s.t.id) ledger_head = c.at("seq").as_int64();
  EXPECT_GE(ledger_head, static_cast<int64_t>(before.size()));
  EXPECT_LT(ledger_head, static_cast<int64_t>(acked.size()));
  const auto& keys = manifest.at("chainSigningKeys").as_array();
  ASSERT_EQ(keys.size(), 1u);
  EXPECT_EQ(keys[0].at("current"), true);
  EXPECT_FALSE(fs::exists(out + ".partial-" + std::to_string(::getpid())));

  // The key file, kept apart from the backups as docs/backup.md says; the
  // source server (and its data directory) then goes away.
  const std::string key = backups.path + "/chain-signing-key.pem";
  fs::copy_file(KeyPath(*s.server), key);
  s.server.reset();

  // Restored into a fresh store, checked against the manifest.
  Target target;
  const auto restored = Admin(Concat(Concat({"restore", "--from", out}, target.flags()), {"--chain-signing-key", key}));
  ASSERT_EQ(restored.exit_code, 0) << restored.err << restored.out;
  const json::value report = json::parse(restored.out);
  EXPECT_EQ(report.at("ok"), true);
  EXPECT_EQ(report.at("migrationsApplied").as_int64(), 0);
  bool ledger_checked = false;
  for (const auto& c : report.at("chains").as_array()) {
    EXPECT_EQ(c.at("verified"), true);
    if (Str(c, "chain") == "ledger" && Str(c, "tenantId") == s.t.id) {
      ledger_checked = true;
      EXPECT_EQ(c.at("records").as_int64(), ledger_head);
      EXPECT_EQ(c.at("manifestSeq").as_int64(), ledger_head);
      EXPECT_GE(c.at("signedHeads").as_int64(), 1);
    }
  }
  EXPECT_TRUE(ledger_checked) << restored.out;

  // A server on the copy, with the same key: both chains verify with their
  // signed heads, to the tokens and API key issued before the backup.
  ServerOptions options = BackupOptions(Concat({"--chain-signing-key", key}, NoKeyRateLimit()));
  options.database_url = target.url();
  ServerProcess copy(options);
  HttpClient api(copy.base_url());
  auto ledger = api.Get("/trust-admin/ledger/verify", s.t.token("admin"));
  ASSERT_EQ(ledger.status, 200) << ledger.body;
  EXPECT_EQ(ledger.Json().at("ok"), true) << ledger.body;
  EXPECT_EQ(ledger.Json().at("checked").as_int64(), ledger_head);
  EXPECT_GE(ledger.Json().at("heads").at("checked").as_int64(), 1) << ledger.body;
  auto audit = api.Get("/admin/audit/verify", s.t.token("admin"));
  ASSERT_EQ(audit.status, 200) << audit.body;
  EXPECT_EQ(audit.Json().at("ok"), true) << audit.body;
  EXPECT_GE(audit.Json().at("heads").at("checked").as_int64(), 1) << audit.body;
  // Every decision acknowledged before the backup started, by id; none
  // acknowledged after it ended.
  int missing = 0;
  for (const auto& id : before) {
    auto r = api.Get("/api/trust/decisions/" + id, s.secret);
    if (r.status != 200 && ++missing <= 3) ADD_FAILURE() << "decision " << id << ": " << r.status << " " << r.body;
  }
  EXPECT_EQ(missing, 0) << "of " << before.size();
  for (size_t i = 0; i < after.size(); i += std::max<size_t>(1, after.size() / 50))
    EXPECT_EQ(api.Get("/api/trust/decisions/" + after[i], s.secret).status, 404) << after[i];
  // The chain goes on from the copy's head.
  HttpClient writer(copy.base_url());
  const std::string next = Evaluate(writer, s.secret, 0);
  ASSERT_FALSE(next.empty());
  EXPECT_EQ(api.Get("/api/trust/decisions/" + next, s.secret).Json().at("sequence").as_int64(), ledger_head + 1);
}

// What is refused, each with its flag named, and that a refused or failed
// restore leaves the target empty.
TEST_F(Backup, RefusesBadInputAndLeavesTheTargetEmpty) {
  BackupSource s = MakeSource();
  {
    HttpClient api(s.server->base_url());
    for (int i = 0; i < 5; ++i) ASSERT_FALSE(Evaluate(api, s.secret, i).empty());
    ASSERT_EQ(api.Post("/dev/jobs/run", json::object{}).status, 200);
  }
  TempDir dir;
  const std::string out = dir.path + "/backup";
  const auto store = StoreFlags(*s.server);
  ASSERT_EQ(Admin(Concat({"backup", "--out", out}, store)).exit_code, 0);
  const std::string key = KeyPath(*s.server);

  struct Case {
    std::vector<std::string> args;
    int exit_code;
    std::string names;  // in the message
  };
  fs::create_directories(dir.path + "/empty");
  fs::create_directories(dir.path + "/not-a-backup");
  std::ofstream(dir.path + "/not-a-backup/notes.txt") << "hello";
  std::ofstream(dir.path + "/a-file") << "hello";
  const std::string other_backend = TestBackend() == "postgres" ? "--data-dir" : "--database";
  const std::string other_store =
      TestBackend() == "postgres" ? dir.path + "/sqlite-data" : "postgresql://127.0.0.1:1/nothing";
  std::vector<Case> cases = {
      {{"backup"}, 2, "--out is required"},
      {Concat({"backup", "--out", "/nonexistent-dir/backup"}, store), 2,
       "--out: the directory '/nonexistent-dir' does not exist"},
      {Concat({"backup", "--out", out}, store), 2, "--out: '" + out + "' already exists"},
      {Concat({"backup", "--out", dir.path + "/b2", "--force"}, store), 2, "unknown flag --force"},
      {{"backup", "--out"}, 2, "--out needs a value"},
      {{"restore"}, 2, "--from is required"},
      {{"restore", "--from", dir.path + "/missing", "--chain-signing-key", key}, 2, "does not exist"},
      {{"restore", "--from", dir.path + "/a-file", "--chain-signing-key", key}, 2, "is not a Credence backup"},
      {{"restore", "--from", dir.path + "/not-a-backup", "--chain-signing-key", key},
       2,
       "is not a Credence backup (it has no manifest.json)"},
      {Concat({"restore", "--from", out, "--chain-signing-key", key}, {other_backend, other_store}), 2,
       other_backend + ": the backup is of a"},
  };
  if (TestBackend() != "postgres")
    cases.push_back({{"backup", "--out", dir.path + "/b3", "--data-dir", dir.path + "/empty"},
                     2,
                     "--data-dir: there is no SQLite database at"});
  else
    cases.push_back(
        {{"backup", "--out", dir.path + "/b3", "--database", "postgresql://127.0.0.1:1/nothing"}, 1, "cannot connect"});
  for (const auto& c : cases) {
    auto r = Admin(c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
    EXPECT_NE(r.err.find(c.names), std::string::npos) << "wanted '" << c.names << "' in: " << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  }
  EXPECT_FALSE(fs::exists(dir.path + "/b2"));
  EXPECT_FALSE(fs::exists(dir.path + "/b3"));

  // Into the target, each refused or failed attempt leaves it empty.
  Target target;
  auto restore = [&](const std::string& from, const std::string& with_key) {
    return Admin(Concat(Concat({"restore", "--from", from}, target.flags()), {"--chain-signing-key", with_key}));
  };
  auto copy_of = [&](const std::string& name) {
    const std::string to = dir.path + "/" + name;
    fs::copy(out, to, fs::copy_options::recursive);
    return to;
  };
  // The key is not in the backup: without one (the target's data directory
  // has none) or with another, the message names the key it needs.
  {
    auto r = Admin(Concat({"restore", "--from", out}, target.flags()));
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("--chain-signing-key: there is no key file"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("signed with key"), std::string::npos) << r.err;
  }
  const std::string other_key = dir.path + "/other-key.pem";
  ASSERT_EQ(std::system(("openssl genpkey -algorithm ed25519 -out '" + other_key + "' 2>/dev/null").c_str()), 0);
  {
    auto r = restore(out, other_key);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("--chain-signing-key: '" + other_key + "' holds key"), std::string::npos) << r.err;
  }
  EXPECT_TRUE(target.empty());
  // A manifest that is not one.
  {
    const std::string broken = copy_of("broken-manifest");
    std::ofstream(broken + "/manifest.json") << "{\"format\": \"credence-backup\", \"formatVersion\": 1}";
    auto r = restore(broken, key);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("is not a Credence backup: manifest.json: \"backend\""), std::string::npos) << r.err;
    std::ofstream(broken + "/manifest.json") << "not json";
    r = restore(broken, key);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("manifest.json: not JSON"), std::string::npos) << r.err;
  }
  // A data file cut short.
  {
    const std::string damaged = copy_of("damaged");
    const json::value m = json::parse(ReadFile(damaged + "/manifest.json"));
    const std::string file = damaged + "/" + Str(m, "file");
    fs::resize_file(file, fs::file_size(file) / 2);
    auto r = restore(damaged, key);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("--from: the backup is damaged"), std::string::npos) << r.err;
  }
  EXPECT_TRUE(target.empty());
  // A manifest whose ledger head the restored chain does not have: restored,
  // checked, and emptied again.
  {
    const std::string mismatched = copy_of("mismatched");
    json::value m = json::parse(ReadFile(mismatched + "/manifest.json"));
    bool changed = false;
    for (auto& c : m.at("chains").as_array())
      if (Str(c, "chain") == "ledger" && Str(c, "tenantId") == s.t.id) {
        std::string hash = Str(c, "hash");
        hash[0] = hash[0] == '0' ? '1' : '0';
        c.as_object()["hash"] = hash;
        changed = true;
      }
    ASSERT_TRUE(changed);
    std::ofstream(mismatched + "/manifest.json") << json::serialize(m);
    auto r = restore(mismatched, key);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("the ledger chain of tenant " + s.t.id + " has another hash at"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(TestBackend() == "postgres" ? "was dropped again" : "nothing was left at"), std::string::npos)
        << r.err;
  }
  EXPECT_TRUE(target.empty());
  // The backup itself goes in; a second restore into the now-filled target
  // is refused and changes nothing.
  {
    auto r = restore(out, key);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = restore(out, key);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("is not empty"), std::string::npos) << r.err;
    auto db = storage::OpenDatabase(target.url(), {});
    storage::Session session(*db);
    EXPECT_EQ(session.connection().Execute("test.count", "SELECT count(*) FROM trust_decisions", {}).front().Int(0), 5);
  }
  // The running source's own store is not empty either.
  {
    auto r = Admin(Concat(Concat({"restore", "--from", out}, store), {"--chain-signing-key", key}));
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find("is not empty"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace credence::test
