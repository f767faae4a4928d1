// Connectors over real HTTP (docs/connectors.md): administration under
// /trust-admin/connectors (validation, audit, isolation), the push API
// with connector:push keys, and git syncs against real repositories made
// here with the git CLI (by local path and file:// URL): add, change,
// rename, remove, a document that fails, bad settings, the schedule, and
// how synced documents evaluate (source ids and URLs, source_changed_after_
// review, source_removed). Runs on SQLite and PostgreSQL
// (CREDENCE_TEST_BACKEND). The interrupted-and-resumed sync, which kills
// the server, is in connectors_resume_api_test.cpp.
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "core/ids.h"
#include "support/clock_fixture.h"
#include "support/connectors_fixture.h"
#include "support/sinks.h"

namespace credence::test {
namespace {

namespace json = boost::json;

constexpr char kOtherId[] = "00000000-0000-7000-8000-000000000000";

// A GitHub classic token in its real format (checksum included), as
// tests/scanning/generated_secrets.h makes them; nobody's.
std::string GithubToken(const std::string& seed) {
  std::string random = Base62Fixed(Crc32(seed), 6) + Base62Fixed(Crc32(seed + "a"), 6) +
                       Base62Fixed(Crc32(seed + "b"), 6) + Base62Fixed(Crc32(seed + "c"), 6) +
                       Base62Fixed(Crc32(seed + "d"), 6);
  return "ghp_" + random + Base62Fixed(Crc32(random), 6);
}

// Whether `needle` is anywhere in the server's store: the SQLite files
// (database and write-ahead log) or a pg_dump of the PostgreSQL database.
bool StoreContains(const std::string& needle) {
  const ServerProcess& server = SharedServer();
  if (TestBackend() == "postgres") {
    const std::string cmd = "pg_dump --data-only '" + server.database_url() + "' 2>/dev/null";
    FILE* p = popen(cmd.c_str(), "r");
    if (p == nullptr) throw std::runtime_error("pg_dump failed");
    std::string dump;
    char buf[65536];
    size_t n = 0;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) dump.append(buf, n);
    if (pclose(p) != 0 || dump.empty()) throw std::runtime_error("pg_dump failed");
    return dump.find(needle) != std::string::npos;
  }
  for (const char* file : {"/credence.db", "/credence.db-wal"}) {
    std::ifstream in(server.data_dir() + file, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes.find(needle) != std::string::npos) return true;
  }
  return false;
}

class Connectors : public ClockedApiTest {
 protected:
  void SetUp() override {
    ClockedApiTest::SetUp();
    if (IsSkipped()) return;
    SetServerTime(api(), "2030-01-01T00:00:00Z");
  }

  json::value Evaluate(const TestTenant& t, const std::string& source, const std::string& channel = "internal") {
    auto r = api().Post("/api/trust/evaluate",
                        {{"sources", json::array{json::value(source)}}, {"context", {{"channel", channel}}}},
                        t.token("viewer"));
    EXPECT_EQ(r.status, 200) << r.body;
    if (r.status != 200) return json::object{{"decision", "?"}, {"reasons", json::array{}}};
    return r.Json().at("results").as_array()[0];
  }

  Response Create(const TestTenant& t, json::object body, const std::string& persona = "admin") {
    return api().Post("/trust-admin/connectors", body, t.token(persona));
  }

  std::string CreateGit(const TestTenant& t, const std::string& key, const std::string& url,
                        json::object extra_settings = {}) {
    json::object settings{{"url", url}, {"webUrlTemplate", "https://git.example.com/docs/blob/{branch}/{path}"}};
    for (auto& [k, v] : extra_settings) settings[k] = v;
    auto r = Create(t, {{"key", key}, {"kind", "git"}, {"settings", settings}});
    EXPECT_EQ(r.status, 201) << r.body;
    return r.status == 201 ? Str(r.Json(), "id") : "";
  }

  // Sync now, one pass of the syncs, the run as it ended.
  json::value Sync(const TestTenant& t, const std::string& id) {
    auto queued = api().Post("/trust-admin/connectors/" + id + "/sync", json::object{}, t.token("admin"));
    EXPECT_EQ(queued.status, 202) << queued.body;
    if (queued.status != 202) return json::object{};
    EXPECT_EQ(Str(queued.Json(), "status"), "queued");
    RunConnectorPass(api());
    auto run = api().Get("/trust-admin/connectors/" + id + "/runs/" + Str(queued.Json(), "id"), t.token("admin"));
    EXPECT_EQ(run.status, 200) << run.body;
    return run.Json();
  }

  json::array Documents(const TestTenant& t, const std::string& key) {
    auto r = api().Get("/trust-admin/connected-documents?connectorKey=" + key, t.token("admin"));
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 ? r.Json().as_array() : json::array{};
  }

  json::object Document(const TestTenant& t, const std::string& key, const std::string& external_id) {
    for (const auto& d : Documents(t, key))
      if (Str(d, "externalId") == external_id) return d.as_object();
    ADD_FAILURE() << "no document " << key << ":" << external_id;
    return {};
  }

  std::string Email(const TestTenant& t, const std::string& persona) {
    return Str(api().Get("/api/users/me", t.token(persona)).Json(), "email");
  }
};

// ---- Administration.

TEST_F(Connectors, CrudWithStatusAuditAndValidation) {
  auto t = CreateTenant(api(), "conn-crud");
  GitRepoFixture repo;
  repo.Write("a.md", "# A\n");
  repo.Commit("first");

  auto created = Create(t, {{"key", "handbook"},
                            {"kind", "git"},
                            {"name", "  Handbook  "},
                            {"settings", {{"url", repo.path()}}},
                            {"scheduleMinutes", 60}});
  ASSERT_EQ(created.status, 201) << created.body;
  const json::value c = created.Json();
  const std::string id = Str(c, "id");
  EXPECT_EQ(Str(c, "key"), "handbook");
  EXPECT_EQ(Str(c, "name"), "Handbook");
  EXPECT_EQ(Str(c.at("settings"), "branch"), "main");  // defaults filled in
  EXPECT_EQ(c.at("settings").at("maxFileBytes").as_int64(), 1 << 20);
  EXPECT_EQ(c.at("scheduleMinutes").as_int64(), 60);
  EXPECT_EQ(Str(c, "nextRunAt"), "2030-01-01T00:00:00.000Z");  // the first run is due at once
  EXPECT_EQ(Str(c.at("status"), "state"), "never_run");
  EXPECT_TRUE(c.at("status").at("lastRun").is_null());
  EXPECT_EQ(Str(c, "createdBy"), t.user_ids.at("admin"));

  EXPECT_EQ(api().Get("/trust-admin/connectors/" + id, t.token("admin")).Json(), c);
  auto list = api().Get("/trust-admin/connectors", t.token("admin"));
  ASSERT_EQ(list.status, 200);
  ASSERT_EQ(list.Json().as_array().size(), 1u);

  ExpectProblem(Create(t, {{"key", "handbook"}, {"kind", "push"}}), 409, "connector_key_taken");

  // Update: name, settings and schedule; key and kind stay.
  auto updated = api().Put(
      "/trust-admin/connectors/" + id,
      {{"name", "Docs"}, {"settings", {{"url", repo.path()}, {"branch", "main"}}}, {"scheduleMinutes", nullptr}},
      t.token("admin"));
  ASSERT_EQ(updated.status, 200) << updated.body;
  EXPECT_EQ(Str(updated.Json(), "name"), "Docs");
  EXPECT_TRUE(updated.Json().at("scheduleMinutes").is_null());
  EXPECT_TRUE(updated.Json().at("nextRunAt").is_null());
  ExpectValidation(api().Put("/trust-admin/connectors/" + id, {{"key", "other"}, {"settings", {{"url", repo.path()}}}},
                             t.token("admin")),
                   "key");
  ExpectValidation(api().Put("/trust-admin/connectors/" + id, {{"kind", "web"}, {"settings", {{"url", repo.path()}}}},
                             t.token("admin")),
                   "kind");

  // Every change is in the audit log.
  auto audit = api().Get("/api/admin/audit?targetType=connector&targetId=" + id, t.token("admin"));
  ASSERT_EQ(audit.status, 200) << audit.body;
  std::set<std::string> actions;
  const json::value audited = audit.Json();
  for (const auto& e : audited.at("entries").as_array()) actions.insert(Str(e, "action"));
  EXPECT_TRUE(actions.count("connector.created") && actions.count("connector.updated")) << audit.body;

  ASSERT_EQ(api().Delete("/trust-admin/connectors/" + id, t.token("admin")).status, 204);
  ExpectProblem(api().Get("/trust-admin/connectors/" + id, t.token("admin")), 404, "not_found");
  auto after = api().Get("/api/admin/audit?action=connector.deleted", t.token("admin"));
  EXPECT_EQ(after.Json().at("entries").as_array().size(), 1u) << after.body;
}

TEST_F(Connectors, BadSettingsAreFieldErrors) {
  auto t = CreateTenant(api(), "conn-bad");
  ExpectValidation(Create(t, {{"key", "Bad Key"}, {"kind", "push"}}), "key");
  ExpectValidation(Create(t, {{"key", "entry"}, {"kind", "push"}}), "key");
  ExpectValidation(Create(t, {{"key", "x"}, {"kind", "ftp"}}), "kind");
  ExpectValidation(Create(t, {{"key", "g"}, {"kind", "git"}, {"settings", json::object{}}}), "settings.url");
  ExpectValidation(Create(t, {{"key", "g"}, {"kind", "git"}, {"settings", {{"url", "relative/path"}}}}),
                   "settings.url");
  ExpectValidation(Create(t, {{"key", "g"}, {"kind", "git"}, {"settings", {{"url", "/tmp/x"}, {"branch", "a..b"}}}}),
                   "settings.branch");
  ExpectValidation(
      Create(t, {{"key", "g"}, {"kind", "git"}, {"settings", {{"url", "/tmp/x"}, {"webUrlTemplate", "https://x/"}}}}),
      "settings.webUrlTemplate");
  ExpectValidation(Create(t, {{"key", "g"}, {"kind", "git"}, {"settings", {{"url", "/tmp/x"}, {"colour", "red"}}}}),
                   "settings.colour");
  // Not the server's data directory (every tenant's mirrors are there), not a metadata address.
  ExpectValidation(
      Create(t, {{"key", "g"}, {"kind", "git"}, {"settings", {{"url", SharedServer().data_dir() + "/connectors"}}}}),
      "settings.url");
  ExpectValidation(Create(t, {{"key", "g"}, {"kind", "git"}, {"settings", {{"url", "http://169.254.169.254/x.git"}}}}),
                   "settings.url");
  // The metadata address in inet_aton's numeric forms is refused too (docs/outbound.md);
  // connectors may reach private addresses and loopback, so only it is tried here.
  for (const char* url : {"http://2852039166/x.git", "https://0xa9fea9fe/x.git", "http://0251.0376.0251.0376/x.git",
                          "http://0xa9.0xfe.0xa9.0xfe/x.git", "http://169.254.43518/x.git", "http://169.16689662/x.git"}) {
    SCOPED_TRACE(url);
    ExpectValidation(Create(t, {{"key", "g"}, {"kind", "git"}, {"settings", {{"url", url}}}}), "settings.url");
  }
  ExpectValidation(Create(t, {{"key", "w"}, {"kind", "web"}, {"settings", json::object{}}}), "settings.startUrls");
  ExpectValidation(Create(t, {{"key", "w"}, {"kind", "web"}, {"settings", {{"sitemapUrl", "ftp://x"}}}}),
                   "settings.sitemapUrl");
  ExpectValidation(Create(t, {{"key", "w"},
                              {"kind", "web"},
                              {"settings", {{"startUrls", {"https://docs.example.com/"}}, {"maxPages", 0}}}}),
                   "settings.maxPages");
  ExpectValidation(Create(t, {{"key", "p"}, {"kind", "push"}, {"scheduleMinutes", 5}}), "scheduleMinutes");
  ExpectValidation(Create(t, {{"key", "p"}, {"kind", "push"}, {"settings", {{"url", "/tmp"}}}}), "settings.url");
  ExpectValidation(
      Create(t, {{"key", "g"}, {"kind", "git"}, {"settings", {{"url", "/tmp/x"}}}, {"scheduleMinutes", 0}}),
      "scheduleMinutes");
  // A web connector with good settings is accepted.
  auto web =
      Create(t, {{"key", "site"}, {"kind", "web"}, {"settings", {{"startUrls", {"https://docs.example.com/"}}}}});
  EXPECT_EQ(web.status, 201) << web.body;
}

// Issue 26: every numeric host form is refused at creation where the
// connectors' outbound rule applies (docs/outbound.md): a git remote (http,
// https, ssh), a web connector's start URLs and its sitemap, on create and on
// update. The rule is the connectors' own: private addresses and loopback are
// theirs to reach, in any form; link-local, metadata, unspecified and
// reserved addresses never.
TEST_F(Connectors, NumericHostFormsOfRefusedAddressesAreRefusedAtCreation) {
  auto t = CreateTenant(api(), "conn-numeric");
  const char* kRefused[] = {
      "http://2852039166/",         // 169.254.169.254 as one decimal number
      "https://0xa9fea9fe/",        // ... in hexadecimal
      "http://0251.0376.0251.0376/",  // ... in octal parts
      "http://0xa9.0xfe.0xa9.0xfe/",  // ... in hexadecimal parts
      "http://169.254.43518/",      // a.b.c with a 16-bit last part
      "http://169.16689662/",       // a.b with a 24-bit last part
      "http://2851995649/",         // 169.254.0.1, link-local
      "http://0/",                  // 0.0.0.0, unspecified
      "http://0xf0000001/",         // 240.0.0.1, reserved
      "http://[::ffff:a9fe:a9fe]/", // IPv4-mapped metadata address
  };
  for (const char* url : kRefused) {
    SCOPED_TRACE(url);
    ExpectValidation(Create(t, {{"key", "w"}, {"kind", "web"}, {"settings", {{"startUrls", {url}}}}}),
                     "settings.startUrls[0]");
    ExpectValidation(Create(t, {{"key", "w"},
                                {"kind", "web"},
                                {"settings", {{"startUrls", {"https://docs.example.com/", url}}}}}),
                     "settings.startUrls[1]");
    ExpectValidation(Create(t, {{"key", "w"}, {"kind", "web"}, {"settings", {{"sitemapUrl", std::string(url) + "s.xml"}}}}),
                     "settings.sitemapUrl");
    ExpectValidation(Create(t, {{"key", "g"}, {"kind", "git"}, {"settings", {{"url", std::string(url) + "x.git"}}}}),
                     "settings.url");
  }
  // An ssh remote's host follows the same rule.
  const std::string host_key = "SHA256:" + std::string(43, 'A');
  for (const char* url : {"ssh://git@2852039166/x.git", "git@0xa9fea9fe:x.git", "ssh://git@0251.0376.0251.0376:22/x"}) {
    SCOPED_TRACE(url);
    ExpectValidation(
        Create(t, {{"key", "g"}, {"kind", "git"}, {"settings", {{"url", url}, {"sshHostKey", host_key}}}}),
        "settings.url");
  }
  // The reason names the address the host spells.
  auto refused = Create(t, {{"key", "w"}, {"kind", "web"}, {"settings", {{"startUrls", {"http://2852039166/"}}}}});
  EXPECT_NE(refused.body.find("169.254.169.254"), std::string::npos) << refused.body;

  // On update too, and the connector keeps its settings.
  auto site =
      Create(t, {{"key", "site"}, {"kind", "web"}, {"settings", {{"startUrls", {"https://docs.example.com/"}}}}});
  ASSERT_EQ(site.status, 201) << site.body;
  const std::string id = Str(site.Json(), "id");
  ExpectValidation(api().Put("/trust-admin/connectors/" + id, {{"settings", {{"startUrls", {"http://0xa9fea9fe/"}}}}},
                             t.token("admin")),
                   "settings.startUrls[0]");
  auto kept = api().Get("/trust-admin/connectors/" + id, t.token("admin"));
  EXPECT_EQ(std::string(kept.Json().at("settings").at("startUrls").as_array().at(0).as_string()),
            "https://docs.example.com/");

  // Private addresses and loopback, in numeric forms too, are a connector's to reach.
  int n = 0;
  for (const char* url : {"http://167772167/", "http://0x0a.0.0.7/", "http://012.0.0.7/", "http://2130706433:8080/",
                          "http://127.1/"}) {
    SCOPED_TRACE(url);
    auto ok = Create(t, {{"key", "ok" + std::to_string(n++)}, {"kind", "web"}, {"settings", {{"startUrls", {url}}}}});
    EXPECT_EQ(ok.status, 201) << ok.body;
  }
}

TEST_F(Connectors, OnlyTenantAdminsAndOtherTenantsSee404) {
  auto t = CreateTenant(api(), "conn-iso-a");
  auto other = CreateTenant(api(), "conn-iso-b");
  GitRepoFixture repo;
  repo.Write("a.md", "# A\n");
  repo.Commit("first");
  const std::string id = CreateGit(t, "docs", repo.path());
  auto run = api().Post("/trust-admin/connectors/" + id + "/sync", json::object{}, t.token("admin"));
  ASSERT_EQ(run.status, 202);
  const std::string run_id = Str(run.Json(), "id");

  for (const char* persona : {"editor", "viewer", "guest"}) {
    EXPECT_EQ(api().Get("/trust-admin/connectors", t.token(persona)).status, 403) << persona;
    EXPECT_EQ(Create(t, {{"key", "x"}, {"kind", "push"}}, persona).status, 403) << persona;
    EXPECT_EQ(api().Post("/trust-admin/connectors/" + id + "/sync", json::object{}, t.token(persona)).status, 403);
  }
  // The other tenant's admin: every connector resource is 404.
  const std::string& admin = other.token("admin");
  ExpectProblem(api().Get("/trust-admin/connectors/" + id, admin), 404, "not_found");
  ExpectProblem(api().Put("/trust-admin/connectors/" + id, {{"settings", {{"url", repo.path()}}}}, admin), 404,
                "not_found");
  ExpectProblem(api().Post("/trust-admin/connectors/" + id + "/sync", json::object{}, admin), 404, "not_found");
  ExpectProblem(api().Get("/trust-admin/connectors/" + id + "/runs", admin), 404, "not_found");
  ExpectProblem(api().Get("/trust-admin/connectors/" + id + "/runs/" + run_id, admin), 404, "not_found");
  ExpectProblem(api().Delete("/trust-admin/connectors/" + id, admin), 404, "not_found");
  EXPECT_TRUE(api().Get("/trust-admin/connectors", admin).Json().as_array().empty());
  ExpectProblem(api().Get("/trust-admin/connectors/" + std::string(kOtherId), t.token("admin")), 404, "not_found");
  // A run of another connector of the same tenant is not found through this one.
  const std::string second = CreateGit(t, "docs2", repo.path());
  ExpectProblem(api().Get("/trust-admin/connectors/" + second + "/runs/" + run_id, t.token("admin")), 404, "not_found");
  // The other tenant may use the same key for its own connector.
  EXPECT_EQ(CreateGit(other, "docs", repo.path()).empty(), false);
  RunConnectorPass(api());
  EXPECT_TRUE(Documents(other, "docs").empty());  // its run is its own; nothing crossed
}

// ---- Git.

TEST_F(Connectors, GitSyncAddsChangesRenamesAndRemovesDocuments) {
  auto t = CreateTenant(api(), "conn-git");
  const std::string editor_email = Email(t, "editor");
  GitRepoFixture repo;
  repo.Write("guide/refunds.md",
             "---\ntitle: Refund policy\nowner: " + editor_email +
                 "\nreviewed_at: 2029-06-01\nreview_type: FullReview\n---\n# Refunds\n\nWithin 30 days.\n");
  repo.Write("guide/shipping.adoc", "= Shipping\n\nWe ship weekly.\n");
  repo.Write("notes/plain.txt", "No heading here.\n");
  repo.Write("notes/a:b.md", "Colons in the path.\n## Second level\n");
  repo.Write("image.png", "\x89PNG not a document");
  repo.Commit("first", "2029-05-01T00:00:00Z");

  const std::string id = CreateGit(t, "handbook", repo.path());
  json::value run = Sync(t, id);
  EXPECT_EQ(Str(run, "status"), "succeeded") << json::serialize(run);
  EXPECT_EQ(run.at("documentsAdded").as_int64(), 4);
  EXPECT_EQ(run.at("documentsSeen").as_int64(), 4);
  EXPECT_EQ(run.at("attempts").as_int64(), 1);
  EXPECT_TRUE(run.at("base").is_null());  // a full listing
  EXPECT_EQ(Str(run, "target"), repo.Head());

  auto refunds = Document(t, "handbook", "guide/refunds.md");
  EXPECT_EQ(Str(refunds, "title"), "Refund policy");
  EXPECT_EQ(Str(refunds, "ownerId"), t.user_ids.at("editor"));
  EXPECT_EQ(Str(refunds, "lastReviewedAt"), "2029-06-01T00:00:00.000Z");
  EXPECT_EQ(Str(refunds, "lastReviewType"), "FullReview");
  EXPECT_EQ(Str(refunds, "url"), "https://git.example.com/docs/blob/main/guide/refunds.md");
  EXPECT_EQ(Str(refunds, "contentUpdatedAt"), "2029-05-01T00:00:00.000Z");  // the commit's time
  EXPECT_EQ(refunds.at("version").as_int64(), 1);
  EXPECT_EQ(Str(Document(t, "handbook", "guide/shipping.adoc"), "title"), "Shipping");
  EXPECT_EQ(Str(Document(t, "handbook", "notes/plain.txt"), "title"), "plain");
  EXPECT_EQ(Str(Document(t, "handbook", "notes/a:b.md"), "title"), "Second level");
  EXPECT_TRUE(Document(t, "handbook", "notes/plain.txt").at("ownerId").is_null());

  // Evaluation: by <key>:<path> (colons and slashes in the path) and by URL.
  json::value by_id = Evaluate(t, "handbook:guide/refunds.md");
  EXPECT_EQ(Str(by_id, "origin"), "Connected") << json::serialize(by_id);
  EXPECT_EQ(Str(by_id, "entryId"), Str(refunds, "id"));
  EXPECT_FALSE(HasReason(by_id, "source_changed_after_review")) << json::serialize(by_id);
  json::value by_url = Evaluate(t, "https://git.example.com/docs/blob/main/guide/refunds.md");
  EXPECT_EQ(Str(by_url, "entryId"), Str(refunds, "id")) << json::serialize(by_url);
  EXPECT_EQ(Str(Evaluate(t, "handbook:notes/a:b.md"), "origin"), "Connected");

  // The status says what the last run did.
  auto status = api().Get("/trust-admin/connectors/" + id, t.token("admin")).Json().at("status");
  EXPECT_EQ(Str(status, "state"), "succeeded");
  EXPECT_EQ(status.at("documents").as_int64(), 4);
  EXPECT_EQ(Str(status.at("lastRun"), "id"), Str(run, "id"));

  // A second sync of the same commit changes nothing.
  json::value again = Sync(t, id);
  EXPECT_EQ(Str(again, "status"), "succeeded");
  EXPECT_EQ(again.at("documentsSeen").as_int64(), 0) << json::serialize(again);
  EXPECT_EQ(Str(again, "base"), repo.Head());

  // Change one file's content (after its review), rename another, remove a
  // third: the diff from the synced commit carries exactly those.
  repo.Write("guide/refunds.md",
             "---\ntitle: Refund policy\nowner: " + editor_email +
                 "\nreviewed_at: 2029-06-01\nreview_type: FullReview\n---\n# Refunds\n\nWithin 14 days.\n");
  repo.Move("notes/plain.txt", "notes/renamed.txt");
  repo.Remove("guide/shipping.adoc");
  repo.Commit("second", "2029-09-01T00:00:00Z");
  json::value second = Sync(t, id);
  EXPECT_EQ(Str(second, "status"), "succeeded") << json::serialize(second);
  EXPECT_EQ(second.at("documentsChanged").as_int64(), 1) << json::serialize(second);
  EXPECT_EQ(second.at("documentsAdded").as_int64(), 1);
  EXPECT_EQ(second.at("documentsRemoved").as_int64(), 2);
  EXPECT_EQ(second.at("documentsSeen").as_int64(), 2);

  auto changed = Document(t, "handbook", "guide/refunds.md");
  EXPECT_EQ(changed.at("version").as_int64(), 2);
  EXPECT_EQ(Str(changed, "contentUpdatedAt"), "2029-09-01T00:00:00.000Z");
  json::value after_change = Evaluate(t, "handbook:guide/refunds.md");
  EXPECT_TRUE(HasReason(after_change, "source_changed_after_review")) << json::serialize(after_change);

  // Removed (and the old path of the rename): still resolved, blocked with a reason.
  for (const char* gone : {"handbook:guide/shipping.adoc", "handbook:notes/plain.txt"}) {
    json::value removed = Evaluate(t, gone);
    EXPECT_EQ(Str(removed, "decision"), "block") << json::serialize(removed);
    EXPECT_TRUE(HasReason(removed, "source_removed")) << json::serialize(removed);
    EXPECT_FALSE(HasReason(removed, "source_unresolved"));
  }
  EXPECT_EQ(Str(Document(t, "handbook", "guide/shipping.adoc"), "status"), "Removed");
  EXPECT_EQ(Str(Document(t, "handbook", "notes/renamed.txt"), "status"), "Published");
  EXPECT_EQ(Str(Evaluate(t, "handbook:notes/renamed.txt"), "origin"), "Connected");

  // A removed file that comes back is Published again.
  repo.Write("guide/shipping.adoc", "= Shipping\n\nWe ship daily now.\n");
  repo.Commit("third", "2029-10-01T00:00:00Z");
  json::value third = Sync(t, id);
  EXPECT_EQ(third.at("documentsAdded").as_int64(), 1) << json::serialize(third);
  EXPECT_EQ(Str(Document(t, "handbook", "guide/shipping.adoc"), "status"), "Published");
  EXPECT_FALSE(HasReason(Evaluate(t, "handbook:guide/shipping.adoc"), "source_removed"));

  // Run history, newest first.
  auto runs = api().Get("/trust-admin/connectors/" + id + "/runs", t.token("admin"));
  ASSERT_EQ(runs.status, 200);
  ASSERT_EQ(runs.Json().as_array().size(), 4u);
  EXPECT_EQ(Str(runs.Json().as_array()[0], "id"), Str(third, "id"));
}

// A sync checks its batch's URLs in one read (docs/performance.md): a URL
// another connector's document holds fails that document (url_taken), and
// the rest of the batch is written.
TEST_F(Connectors, AUrlAnotherDocumentHoldsFailsOnlyThatDocument) {
  auto t = CreateTenant(api(), "conn-url");
  GitRepoFixture repo;
  repo.Write("a.md", "# A\n");
  repo.Write("b.md", "# B\n");
  repo.Commit("first", "2029-05-01T00:00:00Z");
  const std::string first = CreateGit(t, "first", repo.path());
  ASSERT_EQ(Str(Sync(t, first), "status"), "succeeded");

  // Same repository, same web links: a.md and b.md are the first's URLs.
  GitRepoFixture other;
  other.Write("a.md", "# Other A\n");
  other.Write("c.md", "# C\n");
  other.Commit("first", "2029-05-02T00:00:00Z");
  const std::string second = CreateGit(t, "second", other.path());
  json::value run = Sync(t, second);
  EXPECT_EQ(Str(run, "status"), "succeeded") << json::serialize(run);
  EXPECT_EQ(run.at("documentsAdded").as_int64(), 1) << json::serialize(run);
  EXPECT_EQ(run.at("documentsFailed").as_int64(), 1);
  ASSERT_EQ(run.at("errors").as_array().size(), 1u);
  EXPECT_EQ(Str(run.at("errors").as_array()[0], "externalId"), "a.md");
  EXPECT_NE(Str(run.at("errors").as_array()[0], "message").find("URL"), std::string::npos) << json::serialize(run);
  EXPECT_EQ(Str(Document(t, "first", "a.md"), "title"), "A");
  EXPECT_EQ(Str(Document(t, "second", "c.md"), "url"), "https://git.example.com/docs/blob/main/c.md");
}

TEST_F(Connectors, GitByFileUrlWithCodeOwnersAndAFailingDocument) {
  auto t = CreateTenant(api(), "conn-git2");
  const std::string viewer_email = Email(t, "viewer");
  GitRepoFixture repo;
  repo.Write(".github/CODEOWNERS", "* @org/team nobody@unknown.example\n/docs/ @docs-team " + viewer_email + "\n");
  repo.Write("docs/owned.md", "# Owned by CODEOWNERS\n");
  repo.Write("top.md", "# Unknown owner\n");
  repo.Write("docs/binary.md", std::string("\x00\x01\x02\xff\xfe", 5));
  repo.Write("docs/bad-front.md", "---\nreviewed_at: yesterday\n---\n# Bad\n");
  repo.Commit("first");

  const std::string id = CreateGit(t, "files", "file://" + repo.path(), {{"maxFileBytes", 10000}});
  json::value run = Sync(t, id);
  EXPECT_EQ(Str(run, "status"), "succeeded") << json::serialize(run);
  EXPECT_EQ(run.at("documentsAdded").as_int64(), 2);
  EXPECT_EQ(run.at("documentsFailed").as_int64(), 2);
  std::map<std::string, std::string> errors;
  for (const auto& e : run.at("errors").as_array()) errors[Str(e, "externalId")] = Str(e, "message");
  EXPECT_NE(errors["docs/binary.md"].find("not UTF-8"), std::string::npos) << json::serialize(run);
  EXPECT_NE(errors["docs/bad-front.md"].find("reviewed_at"), std::string::npos) << json::serialize(run);
  EXPECT_EQ(Str(Document(t, "files", "docs/owned.md"), "ownerId"), t.user_ids.at("viewer"));
  EXPECT_TRUE(Document(t, "files", "top.md").at("ownerId").is_null());  // an email of nobody in the tenant
  EXPECT_TRUE(HasReason(Evaluate(t, "files:top.md"), "no_owner"));
  // The connector's status lists the failed documents.
  auto status = api().Get("/trust-admin/connectors/" + id, t.token("admin")).Json().at("status");
  EXPECT_EQ(status.at("lastRun").at("errors").as_array().size(), 2u);

  // A large file is one more failure; the others still sync.
  repo.Write("docs/large.md", "# Large\n" + std::string(20000, 'x'));
  repo.Write("docs/fixed.md", "# Fine\n");
  repo.Commit("second");
  json::value second = Sync(t, id);
  EXPECT_EQ(second.at("documentsFailed").as_int64(), 1) << json::serialize(second);
  EXPECT_EQ(second.at("documentsAdded").as_int64(), 1);
  EXPECT_NE(Str(second.at("errors").as_array()[0], "message").find("maxFileBytes"), std::string::npos);

  // CODEOWNERS alone changes: the documents it covers get their new owner,
  // without a new version (their content did not change).
  repo.Write(".github/CODEOWNERS", "/docs/ " + Email(t, "editor") + "\n");
  repo.Commit("owners");
  json::value third = Sync(t, id);
  EXPECT_EQ(Str(third, "status"), "succeeded") << json::serialize(third);
  EXPECT_EQ(third.at("documentsChanged").as_int64(), 0) << json::serialize(third);
  auto owned = Document(t, "files", "docs/owned.md");
  EXPECT_EQ(Str(owned, "ownerId"), t.user_ids.at("editor"));
  EXPECT_EQ(owned.at("version").as_int64(), 1);
}

TEST_F(Connectors, UnreachableRepositoryAndMissingBranchFailTheRunClearly) {
  auto t = CreateTenant(api(), "conn-unreach");
  const std::string missing = CreateGit(t, "missing", "/nonexistent/credence/repo");
  json::value run = Sync(t, missing);
  EXPECT_EQ(Str(run, "status"), "failed");
  EXPECT_NE(Str(run, "error").find("cannot fetch from /nonexistent/credence/repo"), std::string::npos)
      << json::serialize(run);
  auto status = api().Get("/trust-admin/connectors/" + missing, t.token("admin")).Json().at("status");
  EXPECT_EQ(Str(status, "state"), "failed");
  EXPECT_EQ(Str(status.at("lastRun"), "error"), Str(run, "error"));

  GitRepoFixture repo;
  repo.Write("a.md", "# A\n");
  repo.Commit("first");
  const std::string branch = CreateGit(t, "branch", repo.path(), {{"branch", "release/9"}});
  json::value bad = Sync(t, branch);
  EXPECT_EQ(Str(bad, "status"), "failed");
  EXPECT_NE(Str(bad, "error").find("has no branch 'release/9'"), std::string::npos) << json::serialize(bad);

  // Fixing the settings makes the next run succeed.
  ASSERT_EQ(
      api().Put("/trust-admin/connectors/" + branch, {{"settings", {{"url", repo.path()}}}}, t.token("admin")).status,
      200);
  EXPECT_EQ(Str(Sync(t, branch), "status"), "succeeded");
}

TEST_F(Connectors, ScheduledConnectorsRunWhenDue) {
  auto t = CreateTenant(api(), "conn-sched");
  GitRepoFixture repo;
  repo.Write("a.md", "# A\n");
  repo.Commit("first");
  auto created =
      Create(t, {{"key", "sched"}, {"kind", "git"}, {"settings", {{"url", repo.path()}}}, {"scheduleMinutes", 30}});
  ASSERT_EQ(created.status, 201);
  const std::string id = Str(created.Json(), "id");
  RunConnectorPass(api());
  auto runs = api().Get("/trust-admin/connectors/" + id + "/runs", t.token("admin")).Json().as_array();
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(Str(runs[0], "trigger"), "schedule");
  EXPECT_EQ(Str(runs[0], "status"), "succeeded");
  EXPECT_EQ(Str(api().Get("/trust-admin/connectors/" + id, t.token("admin")).Json(), "nextRunAt"),
            "2030-01-01T00:30:00.000Z");
  RunConnectorPass(api());  // not due yet
  EXPECT_EQ(api().Get("/trust-admin/connectors/" + id + "/runs", t.token("admin")).Json().as_array().size(), 1u);
  AdvanceServerDays(api(), 31.0 / (24 * 60));
  RunConnectorPass(api());
  EXPECT_EQ(api().Get("/trust-admin/connectors/" + id + "/runs", t.token("admin")).Json().as_array().size(), 2u);
  // Sync now while nothing is open queues one run; asking again answers the same run.
  auto a = api().Post("/trust-admin/connectors/" + id + "/sync", json::object{}, t.token("admin"));
  auto b = api().Post("/trust-admin/connectors/" + id + "/sync", json::object{}, t.token("admin"));
  EXPECT_EQ(Str(a.Json(), "id"), Str(b.Json(), "id"));
  RunConnectorPass(api());
}

TEST_F(Connectors, SyncedDocumentsAreScannedAndTheirTextIsNotStored) {
  auto t = CreateTenant(api(), "conn-scan");
  const std::string token = GithubToken("git-" + t.slug);
  GitRepoFixture repo;
  repo.Write("deploy.md", "# Deploy\n\nUse the token " + token + " for the registry.\n");
  repo.Write("clean.md", "# Clean\n\nNothing secret here.\n");
  repo.Commit("first");
  const std::string id = CreateGit(t, "ops", repo.path());
  ASSERT_EQ(Str(Sync(t, id), "status"), "succeeded");

  json::value blocked = Evaluate(t, "ops:deploy.md");
  EXPECT_EQ(Str(blocked, "decision"), "block") << json::serialize(blocked);
  EXPECT_TRUE(HasReason(blocked, "secrets_present")) << json::serialize(blocked);
  EXPECT_FALSE(HasReason(Evaluate(t, "ops:clean.md"), "secrets_present"));
  auto findings = api().Get("/trust-admin/findings?sourceId=" + PercentEncode("ops:deploy.md"), t.token("admin"));
  ASSERT_EQ(findings.status, 200) << findings.body;
  const json::value found = findings.Json();
  ASSERT_EQ(found.at("findings").as_array().size(), 1u) << findings.body;
  EXPECT_EQ(Str(found.at("findings").as_array()[0], "detector"), "github_token");
  EXPECT_FALSE(StoreContains(token)) << "the token is stored";
  EXPECT_FALSE(StoreContains("for the registry")) << "the text is stored";

  // The token taken out: the next sync scans again and the finding resolves.
  repo.Write("deploy.md", "# Deploy\n\nAsk the platform team for a registry token.\n");
  repo.Commit("second");
  ASSERT_EQ(Str(Sync(t, id), "status"), "succeeded");
  EXPECT_FALSE(HasReason(Evaluate(t, "ops:deploy.md"), "secrets_present"));
}

// ---- Web: a real site on loopback (tests/support/web_site.py).

TEST_F(Connectors, WebSyncAddsChangesAndRemovesPagesAndRecordsAFailingOne) {
  auto t = CreateTenant(api(), "conn-web");
  const std::string editor_email = Email(t, "editor");
  WebSite site;
  auto page = [](const std::string& title, const std::string& body, const std::string& head = "") {
    return "<html><head><title>" + title + "</title>" + head + "</head><body>" + body + "</body></html>";
  };
  const std::string links = R"(<a href="/a.html">A</a> <a href="/b.html">B</a> <a href="/broken.html">X</a>)";
  site.Put("/index.html", page("Home", "<p>Welcome.</p>" + links));
  site.Put("/a.html", page("Refunds", "<p>Within 30 days.</p>",
                           "<meta name=\"owner\" content=\"" + editor_email +
                               "\"><meta name=\"reviewed_at\" content=\"2030-01-01T00:00:00Z\">"));
  site.Put("/b.html", page("Shipping", "<p>Weekly.</p>"));
  site.Put("/broken.html", "FAIL");

  auto created =
      Create(t, {{"key", "site"}, {"kind", "web"}, {"settings", {{"startUrls", {site.url("/index.html")}}}}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id = Str(created.Json(), "id");
  json::value first = Sync(t, id);
  EXPECT_EQ(Str(first, "status"), "succeeded") << json::serialize(first);
  EXPECT_EQ(first.at("documentsAdded").as_int64(), 3) << json::serialize(first);
  EXPECT_EQ(first.at("documentsFailed").as_int64(), 1);
  ASSERT_EQ(first.at("errors").as_array().size(), 1u);
  EXPECT_EQ(Str(first.at("errors").as_array()[0], "externalId"), site.url("/broken.html"));
  EXPECT_NE(Str(first.at("errors").as_array()[0], "message").find("500"), std::string::npos);

  const std::string a_id = "site:" + site.url("/a.html");  // the external id is a URL: colons and slashes
  auto a = Document(t, "site", site.url("/a.html"));
  EXPECT_EQ(Str(a, "title"), "Refunds");
  EXPECT_EQ(Str(a, "url"), site.url("/a.html"));
  EXPECT_EQ(Str(a, "ownerId"), t.user_ids.at("editor"));
  json::value by_id = Evaluate(t, a_id);
  EXPECT_EQ(Str(by_id, "entryId"), Str(a, "id")) << json::serialize(by_id);
  EXPECT_FALSE(HasReason(by_id, "source_changed_after_review")) << json::serialize(by_id);
  EXPECT_EQ(Str(Evaluate(t, site.url("/a.html")), "entryId"), Str(a, "id"));

  // Nothing changed: conditional requests, nothing written.
  json::value same = Sync(t, id);
  EXPECT_EQ(same.at("documentsUnchanged").as_int64(), 3) << json::serialize(same);
  EXPECT_EQ(same.at("documentsAdded").as_int64() + same.at("documentsChanged").as_int64(), 0);

  // A day later the page changes after its review; another loses its link
  // (not seen), one is deleted (404).
  AdvanceServerDays(api(), 1);
  site.Put("/a.html", page("Refunds", "<p>Within 14 days.</p>",
                           "<meta name=\"owner\" content=\"" + editor_email +
                               "\"><meta name=\"reviewed_at\" content=\"2030-01-01T00:00:00Z\">"));
  site.Put("/index.html", page("Home", R"(<p>Welcome.</p><a href="/a.html">A</a> <a href="/c.html">C</a>)"));
  site.Put("/c.html", page("Returns", "<p>Gone soon.</p>"));
  json::value second = Sync(t, id);
  EXPECT_EQ(second.at("documentsChanged").as_int64(), 2) << json::serialize(second);  // index and a
  EXPECT_EQ(second.at("documentsAdded").as_int64(), 1);
  EXPECT_EQ(second.at("documentsRemoved").as_int64(), 1);  // b, not seen (broken never was a document)
  EXPECT_EQ(Document(t, "site", site.url("/a.html")).at("version").as_int64(), 2);
  EXPECT_TRUE(HasReason(Evaluate(t, a_id), "source_changed_after_review"));
  json::value gone = Evaluate(t, "site:" + site.url("/b.html"));
  EXPECT_TRUE(HasReason(gone, "source_removed")) << json::serialize(gone);

  site.Delete("/c.html");
  json::value third = Sync(t, id);
  EXPECT_EQ(third.at("documentsRemoved").as_int64(), 1) << json::serialize(third);
  EXPECT_TRUE(HasReason(Evaluate(t, "site:" + site.url("/c.html")), "source_removed"));

  // An unreachable start URL fails the run, clearly.
  ASSERT_EQ(api()
                .Put("/trust-admin/connectors/" + id, {{"settings", {{"startUrls", {"http://127.0.0.1:9/"}}}}},
                     t.token("admin"))
                .status,
            200);
  json::value failed = Sync(t, id);
  EXPECT_EQ(Str(failed, "status"), "failed");
  EXPECT_FALSE(failed.at("error").is_null()) << json::serialize(failed);
  EXPECT_EQ(Str(api().Get("/trust-admin/connectors/" + id, t.token("admin")).Json().at("status"), "state"), "failed");

  // So does a sitemap that is not there; the documents stay as they were.
  ASSERT_EQ(api()
                .Put("/trust-admin/connectors/" + id, {{"settings", {{"sitemapUrl", site.url("/sitemap.xml")}}}},
                     t.token("admin"))
                .status,
            200);
  json::value no_sitemap = Sync(t, id);
  EXPECT_EQ(Str(no_sitemap, "status"), "failed");
  EXPECT_NE(Str(no_sitemap, "error").find("sitemap"), std::string::npos) << json::serialize(no_sitemap);
  EXPECT_EQ(Str(Document(t, "site", site.url("/a.html")), "status"), "Published");
}

// ---- Push.

class PushConnectors : public Connectors {
 protected:
  std::string PushKey(const TestTenant& t, const std::string& connector_id, json::array scopes = {"connector:push"}) {
    auto r = api().Post("/apikeys", {{"name", "pusher"}, {"scopes", scopes}, {"connectorId", connector_id}},
                        t.token("admin"));
    EXPECT_EQ(r.status, 201) << r.body;
    return r.status == 201 ? Str(r.Json(), "clientSecret") : "";
  }
  Response Push(const std::string& key, const std::string& connector_key, const std::string& external_id,
                const json::object& body) {
    return api().Send("PUT", "/api/connectors/" + connector_key + "/documents?externalId=" + PercentEncode(external_id),
                      json::serialize(body), "", {{"X-Api-Key", key}, {"Content-Type", "application/json"}});
  }
  Response Unpush(const std::string& key, const std::string& connector_key, const std::string& external_id) {
    return api().Send("DELETE",
                      "/api/connectors/" + connector_key + "/documents?externalId=" + PercentEncode(external_id), "",
                      "", {{"X-Api-Key", key}});
  }
};

TEST_F(PushConnectors, PushedDocumentsAreVersionedByContentAndEvaluate) {
  auto t = CreateTenant(api(), "conn-push");
  auto created = Create(t, {{"key", "crm"}, {"kind", "push"}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id = Str(created.Json(), "id");
  ExpectProblem(api().Post("/trust-admin/connectors/" + id + "/sync", json::object{}, t.token("admin")), 409,
                "connector_not_syncable");
  const std::string key = PushKey(t, id);
  const std::string external = "kb/articles:42/v1";  // slashes and colons
  const std::string editor_email = Email(t, "editor");

  json::object doc{
      {"title", "Refunds"},         {"content", "Refunds within 30 days."}, {"url", "https://crm.example.com/kb/42"},
      {"ownerEmail", editor_email}, {"updatedAt", "2029-05-01T00:00:00Z"},  {"reviewedAt", "2029-06-01T00:00:00Z"},
      {"reviewType", "FullReview"}};
  auto first = Push(key, "crm", external, doc);
  ASSERT_EQ(first.status, 201) << first.body;
  EXPECT_EQ(Str(first.Json(), "outcome"), "added");
  EXPECT_EQ(Str(first.Json(), "sourceId"), "crm:" + external);
  EXPECT_EQ(first.Json().at("version").as_int64(), 1);
  EXPECT_EQ(Str(first.Json(), "contentUpdatedAt"), "2029-05-01T00:00:00.000Z");
  EXPECT_EQ(Str(first.Json(), "contentHash").size(), 64u);

  json::value evaluated = Evaluate(t, "crm:" + external);
  EXPECT_EQ(Str(evaluated, "origin"), "Connected") << json::serialize(evaluated);
  EXPECT_EQ(Str(evaluated, "entryId"), Str(first.Json(), "documentId"));
  EXPECT_FALSE(HasReason(evaluated, "source_changed_after_review"));
  EXPECT_EQ(Str(Evaluate(t, "https://crm.example.com/kb/42"), "entryId"), Str(first.Json(), "documentId"));
  auto stored = Document(t, "crm", external);
  EXPECT_EQ(Str(stored, "ownerId"), t.user_ids.at("editor"));
  EXPECT_FALSE(json::serialize(stored).find("Refunds within") != std::string::npos);  // the content is not kept

  // The same content again: unchanged, same version (a later updatedAt is ignored).
  doc["updatedAt"] = "2029-07-01T00:00:00Z";
  auto same = Push(key, "crm", external, doc);
  ASSERT_EQ(same.status, 200) << same.body;
  EXPECT_EQ(Str(same.Json(), "outcome"), "unchanged");
  EXPECT_EQ(same.Json().at("version").as_int64(), 1);
  EXPECT_EQ(Str(same.Json(), "contentUpdatedAt"), "2029-05-01T00:00:00.000Z");

  // New content after the review: version 2, source_changed_after_review.
  doc["content"] = "Refunds within 14 days.";
  auto changed = Push(key, "crm", external, doc);
  ASSERT_EQ(changed.status, 200) << changed.body;
  EXPECT_EQ(Str(changed.Json(), "outcome"), "changed");
  EXPECT_EQ(changed.Json().at("version").as_int64(), 2);
  EXPECT_TRUE(HasReason(Evaluate(t, "crm:" + external), "source_changed_after_review"));

  // Deleted at the source: Removed, blocked with source_removed.
  EXPECT_EQ(Unpush(key, "crm", external).status, 204);
  json::value removed = Evaluate(t, "crm:" + external);
  EXPECT_EQ(Str(removed, "decision"), "block");
  EXPECT_TRUE(HasReason(removed, "source_removed")) << json::serialize(removed);
  EXPECT_TRUE(HasReason(Evaluate(t, "https://crm.example.com/kb/42"), "source_removed"));
  ExpectProblem(Unpush(key, "crm", external), 404, "not_found");
  // Pushed again: back, Published.
  auto back = Push(key, "crm", external, doc);
  EXPECT_EQ(back.status, 201) << back.body;
  EXPECT_FALSE(HasReason(Evaluate(t, "crm:" + external), "source_removed"));

  // A pushed secret is found and blocks; the content is nowhere in the store.
  const std::string token = GithubToken("push-" + t.slug);
  const std::string title = "Deploy notes of " + t.slug;
  auto secret = Push(key, "crm", "kb/secret", {{"title", title}, {"content", "Registry token: " + token + "."}});
  ASSERT_EQ(secret.status, 201) << secret.body;
  json::value with_secret = Evaluate(t, "crm:kb/secret");
  EXPECT_EQ(Str(with_secret, "decision"), "block") << json::serialize(with_secret);
  EXPECT_TRUE(HasReason(with_secret, "secrets_present")) << json::serialize(with_secret);
  EXPECT_TRUE(StoreContains(title)) << "the check does not see the store";  // what is kept is found
  EXPECT_FALSE(StoreContains(token)) << "the pushed token is stored";
  EXPECT_FALSE(StoreContains("Registry token:")) << "the pushed content is stored";
  // Removed: its findings resolve with it.
  EXPECT_EQ(Unpush(key, "crm", "kb/secret").status, 204);
  auto findings = api().Get("/trust-admin/findings?sourceId=" + PercentEncode("crm:kb/secret") + "&status=active",
                            t.token("admin"));
  EXPECT_TRUE(findings.Json().at("findings").as_array().empty()) << findings.body;

  // Bad bodies.
  ExpectValidation(Push(key, "crm", external, {{"title", "x"}}), "content");
  ExpectValidation(Push(key, "crm", external, {{"title", "x"}, {"content", "y"}, {"reviewType", "FullReview"}}),
                   "reviewType");
  ExpectValidation(api().Send("PUT", "/api/connectors/crm/documents", R"({"title":"x","content":"y"})", "",
                              {{"X-Api-Key", key}, {"Content-Type", "application/json"}}),
                   "externalId");
}

TEST_F(PushConnectors, TheScopeIsBoundToOneConnectorOfOneTenant) {
  auto t = CreateTenant(api(), "conn-scope");
  auto other = CreateTenant(api(), "conn-scope-b");
  const std::string crm = Str(Create(t, {{"key", "crm"}, {"kind", "push"}}).Json(), "id");
  const std::string tickets = Str(Create(t, {{"key", "tickets"}, {"kind", "push"}}).Json(), "id");
  GitRepoFixture repo;
  repo.Write("a.md", "# A\n");
  repo.Commit("first");
  const std::string git = CreateGit(t, "git", repo.path());
  const json::object doc{{"title", "T"}, {"content", "C"}};

  const std::string crm_key = PushKey(t, crm);
  EXPECT_EQ(Push(crm_key, "crm", "1", doc).status, 201);
  // Bound to crm: another connector of the tenant is 403.
  ExpectProblem(Push(crm_key, "tickets", "1", doc), 403, "connector_not_bound");
  // A key without the scope is 403 insufficient_scope.
  auto plain = api().Post("/apikeys", {{"name", "evaluator"}, {"scopes", {"trust:evaluate"}}}, t.token("admin"));
  ExpectProblem(Push(Str(plain.Json(), "clientSecret"), "crm", "1", doc), 403, "insufficient_scope");
  // A user session is not a push credential.
  ExpectProblem(api().Put("/api/connectors/crm/documents?externalId=1", doc, t.token("admin")), 403,
                "connector_not_bound");
  // A key bound to a git connector cannot push.
  ExpectProblem(Push(PushKey(t, git), "git", "1", doc), 409, "connector_not_push");
  // Another tenant's key: the connector does not exist for it.
  const std::string other_crm = Str(Create(other, {{"key", "crm"}, {"kind", "push"}}).Json(), "id");
  const std::string other_key = PushKey(other, other_crm);
  ExpectProblem(Push(other_key, "tickets", "1", doc), 404, "not_found");
  EXPECT_EQ(Push(other_key, "crm", "1", doc).status, 201);  // its own crm, not t's
  EXPECT_EQ(Document(t, "crm", "1").at("version").as_int64(), 1);

  // Creating keys: connector:push needs a connector of this tenant, and only it.
  ExpectValidation(api().Post("/apikeys", {{"name", "k"}, {"scopes", {"connector:push"}}}, t.token("admin")),
                   "connectorId");
  ExpectValidation(api().Post("/apikeys", {{"name", "k"}, {"scopes", {"connector:push"}}, {"connectorId", other_crm}},
                              t.token("admin")),
                   "connectorId");
  ExpectValidation(
      api().Post("/apikeys", {{"name", "k"}, {"scopes", {"trust:read"}}, {"connectorId", crm}}, t.token("admin")),
      "connectorId");
  auto listed = api().Get("/apikeys", t.token("admin"));
  bool bound = false;
  const json::value keys = listed.Json();
  for (const auto& k : keys.as_array())
    if (k.at("connectorId").is_string() && Str(k, "connectorId") == crm) bound = true;
  EXPECT_TRUE(bound) << listed.body;

  // An access token of the key keeps the binding.
  auto created = api().Post("/apikeys", {{"name", "tok"}, {"scopes", {"connector:push"}}, {"connectorId", tickets}},
                            t.token("admin"));
  auto token = api().Send("POST", "/connect/token",
                          "grant_type=client_credentials&client_id=" + Str(created.Json(), "clientId") +
                              "&client_secret=" + Str(created.Json(), "clientSecret"),
                          "", {{"Content-Type", "application/x-www-form-urlencoded"}});
  ASSERT_EQ(token.status, 200) << token.body;
  const std::string access = Str(token.Json(), "access_token");
  EXPECT_EQ(api().Put("/api/connectors/tickets/documents?externalId=9", doc, access).status, 201);
  ExpectProblem(api().Put("/api/connectors/crm/documents?externalId=9", doc, access), 403, "connector_not_bound");
}

}  // namespace
}  // namespace credence::test
