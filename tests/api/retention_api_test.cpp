// Retention and archival (issue 25; docs/retention.md), on a server of its
// own with --test-clock and --archive-dir: per-tenant settings with their
// floor, records past retention archived into sealed files and deleted,
// answers over archived windows pointing to the archives (never partial
// counts in silence), chains that verify on from the archives, and
// `credence admin verify-archive` proving a file offline with the public key.
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "support/api_fixture.h"
#include "support/clock_fixture.h"
#include "support/http_client.h"
#include "support/server_process.h"
#include "support/temp_dir.h"

namespace credence::test {
namespace {
namespace json = boost::json;
namespace fs = std::filesystem;

class Retention : public ::testing::Test {
 protected:
  void SetUp() override {
    if (BackendUnavailable()) GTEST_SKIP() << "backend unavailable";
    ServerOptions options;
    options.extra_args = {"--test-clock", "--archive-dir", archives_.path, "--rate-limit-key-rps", "0"};
    server_ = std::make_unique<ServerProcess>(std::move(options));
    client_ = std::make_unique<HttpClient>(server_->base_url());
  }
  HttpClient& api() { return *client_; }

  std::string TenantKey(const TestTenant& t) {
    auto key = api().Post("/apikeys", {{"name", "bot"}, {"scopes", json::array{"trust:evaluate", "trust:read", "trust:usage"}}},
                          t.token("admin"));
    EXPECT_EQ(key.status, 201) << key.body;
    return key.status == 201 ? Str(key.Json(), "clientSecret") : "";
  }
  std::string Evaluate(const std::string& secret, int i) {
    auto r = api().Post("/api/trust/evaluate",
                        {{"sources", json::array{"x:" + std::to_string(i % 3), "x:other"}},
                         {"context", {{"actorLabel", "bot"}}}},  // no channel: customer-facing, so reported
                        secret);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 ? Str(r.Json(), "decisionId") : "";
  }
  int64_t ReportDecisions(const TestTenant& t, const std::string& from, const std::string& to) {
    auto r = api().Get("/trust-admin/reports/customer-facing-readiness?from=" + from + "&to=" + to, t.token("admin"));
    EXPECT_EQ(r.status, 200) << r.body;
    if (r.status != 200) return -1;
    const json::value doc = r.Json();
    const auto& o = doc.as_object();
    size_t column = 0;
    const auto& columns = o.at("columns").as_array();
    for (size_t i = 0; i < columns.size(); ++i)
      if (columns[i].as_object().at("name").as_string() == "decisions") column = i;
    int64_t total = 0;
    for (const auto& row : o.at("rows").as_array()) total += row.as_array()[column].as_int64();
    return total;
  }
  json::object RunArchiver() {
    auto r = api().Post("/dev/retention/run", json::object{});
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 ? r.Json().as_object() : json::object{};
  }

  TempDir archives_;
  std::unique_ptr<ServerProcess> server_;
  std::unique_ptr<HttpClient> client_;
};

TEST_F(Retention, SettingsHaveAFloorOfSixMonthsAndAreTheTenantsOwn) {
  SetServerTime(api(), "2030-01-01T00:00:00Z");
  TestTenant a = CreateTenant(api(), "reta");
  TestTenant b = CreateTenant(api(), "retb");
  auto got = api().Get("/trust-admin/retention", a.token("admin"));
  ASSERT_EQ(got.status, 200) << got.body;
  EXPECT_EQ(got.Json().at("decisionsMonths").as_int64(), 13);
  EXPECT_EQ(got.Json().at("auditMonths").as_int64(), 13);
  EXPECT_EQ(got.Json().at("minimumMonths").as_int64(), 6);
  EXPECT_TRUE(got.Json().at("archiving").as_bool());
  EXPECT_TRUE(got.Json().at("archivedBefore").at("decisions").is_null());

  // Below the floor, above the ceiling, not an integer, nothing given.
  ExpectValidation(api().Put("/trust-admin/retention", {{"decisionsMonths", 5}}, a.token("admin")), "decisionsMonths");
  ExpectValidation(api().Put("/trust-admin/retention", {{"auditMonths", 121}}, a.token("admin")), "auditMonths");
  ExpectValidation(api().Put("/trust-admin/retention", {{"usageMonths", "7"}}, a.token("admin")), "usageMonths");
  ExpectValidation(api().Put("/trust-admin/retention", {{"usageMonths", nullptr}}, a.token("admin")), "usageMonths");
  EXPECT_EQ(api().Put("/trust-admin/retention", json::object{}, a.token("admin")).status, 400);
  // Members and machines may not.
  ExpectProblem(api().Put("/trust-admin/retention", {{"decisionsMonths", 6}}, a.token("editor")), 403, "forbidden");

  auto set = api().Put("/trust-admin/retention", {{"decisionsMonths", 6}}, a.token("admin"));
  ASSERT_EQ(set.status, 200) << set.body;
  EXPECT_EQ(set.Json().at("decisionsMonths").as_int64(), 6);
  EXPECT_EQ(set.Json().at("usageMonths").as_int64(), 13);
  EXPECT_FALSE(set.Json().at("updatedBy").is_null());
  // The other tenant keeps the default; the change is audited.
  EXPECT_EQ(api().Get("/trust-admin/retention", b.token("admin")).Json().at("decisionsMonths").as_int64(), 13);
  auto audit = api().Get("/admin/audit?action=retention.", a.token("admin"));
  ASSERT_EQ(audit.status, 200) << audit.body;
  ASSERT_EQ(audit.Json().at("entries").as_array().size(), 1u);
  EXPECT_EQ(audit.Json().at("entries").as_array()[0].at("details").at("decisionsMonthsBefore").as_int64(), 13);

  ExpectValidation(api().Get("/trust-admin/retention/archives?kind=everything", a.token("admin")), "kind");
}

TEST_F(Retention, RecordsPastRetentionAreArchivedVerifiablyAndAnswersPointToTheArchives) {
  // January 2025: two tenants decide; A keeps 13 months (the default), B 120.
  SetServerTime(api(), "2025-01-15T10:00:00Z");
  TestTenant a = CreateTenant(api(), "arca");
  TestTenant b = CreateTenant(api(), "arcb");
  ASSERT_EQ(api().Put("/trust-admin/retention", {{"decisionsMonths", 120}, {"usageMonths", 120}, {"auditMonths", 120}},
                      b.token("admin"))
                .status,
            200);
  const std::string key_a = TenantKey(a), key_b = TenantKey(b);
  std::vector<std::string> old_ids;
  for (int i = 0; i < 12; ++i) old_ids.push_back(Evaluate(key_a, i));
  for (int i = 0; i < 4; ++i) Evaluate(key_b, i);
  ASSERT_EQ(api().Post("/api/trust/usage", {{"decisionId", old_ids[0]}, {"sources", json::array{"x:0"}}, {"outcome", "answer_sent"}},
                       key_a)
                .status,
            202);
  EXPECT_EQ(ReportDecisions(a, "2025-01-01", "2025-01-31"), 12);

  // March 2026: January 2025 is past 13 months for A, not for B.
  SetServerTime(api(), "2026-03-02T00:00:00Z");
  const auto run = RunArchiver();
  EXPECT_EQ(run.at("failed").as_int64(), 0) << json::serialize(run);
  EXPECT_EQ(run.at("decisions").as_int64(), 12) << json::serialize(run);
  EXPECT_EQ(run.at("usage").as_int64(), 1) << json::serialize(run);
  EXPECT_GE(run.at("audit").as_int64(), 1) << json::serialize(run);

  // The files are under <archive-dir>/<tenant id>/ and listed for A only.
  auto listed = api().Get("/trust-admin/retention/archives", a.token("admin"));
  ASSERT_EQ(listed.status, 200) << listed.body;
  std::vector<std::string> decision_files;
  const json::value listed_doc = listed.Json();
  for (const auto& f : listed_doc.at("archives").as_array()) {
    const std::string path = archives_.path + "/" + a.id + "/" + std::string(f.at("file").as_string());
    EXPECT_TRUE(fs::exists(path)) << path;
    if (f.at("kind").as_string() == "decisions") {
      decision_files.push_back(path);
      EXPECT_EQ(f.at("period").as_string(), "2025-01");
      EXPECT_EQ(f.at("records").as_int64(), 12);
    }
  }
  ASSERT_EQ(decision_files.size(), 1u);
  EXPECT_TRUE(api().Get("/trust-admin/retention/archives", b.token("admin")).Json().at("archives").as_array().empty());
  EXPECT_EQ(api().Get("/trust-admin/retention", a.token("admin")).Json().at("archivedBefore").at("decisions").as_string(),
            "2025-02-01T00:00:00.000Z");

  // A decision look-up: 410 with the archive, for A; B's stay.
  auto gone = api().Get("/api/trust/decisions/" + old_ids[3], key_a);
  ExpectProblem(gone, 410, "decision_archived");
  ASSERT_EQ(gone.Json().at("archives").as_array().size(), 1u);
  EXPECT_EQ(gone.Json().at("archives").as_array()[0].at("kind").as_string(), "decisions");
  auto b_list = api().Get("/trust-admin/ledger/decisions", b.token("admin"));
  EXPECT_EQ(b_list.Json().at("decisions").as_array().size(), 4u);
  EXPECT_TRUE(b_list.Json().at("archived").is_null());
  // The ledger list over the archived window says so.
  auto a_list = api().Get("/trust-admin/ledger/decisions?from=2025-01-01", a.token("admin"));
  ASSERT_EQ(a_list.status, 200) << a_list.body;
  EXPECT_TRUE(a_list.Json().at("decisions").as_array().empty());
  ASSERT_TRUE(a_list.Json().at("archived").is_object()) << a_list.body;
  EXPECT_EQ(a_list.Json().at("archived").at("before").as_string(), "2025-02-01T00:00:00.000Z");
  EXPECT_EQ(a_list.Json().at("archived").at("archives").as_array().size(), 1u);
  // A window after the archives: nothing to say.
  EXPECT_TRUE(api().Get("/trust-admin/ledger/decisions?from=2026-01-01", a.token("admin")).Json().at("archived").is_null());
  // The audit log's list too.
  auto audit = api().Get("/admin/audit?from=2025-01-01", a.token("admin"));
  ASSERT_EQ(audit.status, 200) << audit.body;
  EXPECT_TRUE(audit.Json().at("archived").is_object()) << audit.body;
  // Reports read their aggregates, which archiving keeps: still complete.
  EXPECT_EQ(ReportDecisions(a, "2025-01-01", "2025-01-31"), 12);
  // An app's AI Act export never leaves records out silently: refused, with
  // the archives named; a window after them exports.
  auto app = api().Post("/trust-admin/apps", {{"name", "Bot"}, {"channel", "internal"}, {"risk", "high"}},
                        a.token("admin"));
  ASSERT_EQ(app.status, 201) << app.body;
  const std::string records = "/trust-admin/apps/" + Str(app.Json(), "id") + "/records";
  auto refused = api().Get(records + "?from=2025-01-01&to=2025-01-31", a.token("admin"));
  ExpectProblem(refused, 409, "window_archived");
  EXPECT_EQ(refused.Json().at("archived").at("before").as_string(), "2025-02-01T00:00:00.000Z") << refused.body;
  EXPECT_FALSE(refused.Json().at("archived").at("archives").as_array().empty()) << refused.body;
  EXPECT_EQ(api().Get(records + "?from=2026-03-01", a.token("admin")).status, 200);

  // The chain verifies on from the archive, with new decisions after it.
  auto fresh = Evaluate(key_a, 99);
  EXPECT_EQ(api().Get("/api/trust/decisions/" + fresh, key_a).status, 200);
  auto verify = api().Get("/trust-admin/ledger/verify", a.token("admin"));
  ASSERT_EQ(verify.status, 200) << verify.body;
  EXPECT_TRUE(verify.Json().at("ok").as_bool()) << verify.body;
  auto audit_verify = api().Get("/admin/audit/verify", a.token("admin"));
  ASSERT_EQ(audit_verify.status, 200) << audit_verify.body;
  EXPECT_TRUE(audit_verify.Json().at("ok").as_bool()) << audit_verify.body;

  // Offline: the archive verifies with the published key, and not once
  // altered.
  const std::string keys_file = archives_.path + "/keys.json";
  std::ofstream(keys_file) << api().Get("/.well-known/credence-chain-keys").body;
  auto ok = RunCredence({"admin", "verify-archive", decision_files[0], "--keys", keys_file});
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("\"ok\":true"), std::string::npos) << ok.out;
  EXPECT_NE(ok.out.find("\"records\":12"), std::string::npos) << ok.out;
  auto no_key = RunCredence({"admin", "verify-archive", decision_files[0]});
  EXPECT_EQ(no_key.exit_code, 2) << no_key.err;
  EXPECT_NE(no_key.err.find("--public-key"), std::string::npos) << no_key.err;
  auto missing = RunCredence({"admin", "verify-archive", archives_.path + "/none.jsonl.gz", "--keys", keys_file});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.out.find("no such file"), std::string::npos) << missing.out;
  const std::string& file = decision_files[0];
  ASSERT_EQ(std::system(("gzip -dc '" + file + "' | sed '3s/a/b/' | gzip -c > '" + file + ".x' && mv '" + file + ".x' '" +
                         file + "'")
                            .c_str()),
            0);
  auto altered = RunCredence({"admin", "verify-archive", file, "--keys", keys_file});
  EXPECT_EQ(altered.exit_code, 1) << altered.out;
  EXPECT_NE(altered.out.find("\"ok\":false"), std::string::npos) << altered.out;
}

TEST(RetentionFlags, AMissingArchiveDirectoryStopsTheStartWithAClearError) {
  TempDir data;
  auto r = RunCredence({"serve", "--dev", "--data-dir", data.path, "--listen", "127.0.0.1:0", "--archive-dir",
                        data.path + "/no-such-dir"});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE((r.out + r.err).find("--archive-dir is not a directory"), std::string::npos) << r.out << r.err;
  auto bad = RunCredence({"serve", "--archive-interval-minutes", "0"});
  EXPECT_EQ(bad.exit_code, 2) << bad.out << bad.err;
  EXPECT_NE((bad.out + bad.err).find("archive-interval-minutes"), std::string::npos) << bad.out << bad.err;
  auto archive = RunCredence({"admin", "archive", "--archive-dir", data.path + "/no-such-dir"});
  EXPECT_EQ(archive.exit_code, 2) << archive.err;
  EXPECT_NE(archive.err.find("is not a directory"), std::string::npos) << archive.err;
}

}  // namespace
}  // namespace credence::test
