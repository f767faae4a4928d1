// An interrupted git sync resumes without redoing committed work
// (docs/connectors.md, "Resumable syncs"): a server of its own with real
// background jobs, small batches and a pause after each, killed (SIGKILL)
// while a sync is half-way, then started again on the same data. Also shows
// the run's progress while it runs. Both backends.
#include <boost/json/serialize.hpp>

#include <chrono>
#include <functional>
#include <thread>

#include "support/api_fixture.h"
#include "support/connectors_fixture.h"
#include "support/sinks.h"

namespace credence::test {
namespace {

namespace json = boost::json;

constexpr int kFiles = 60;

// A server of its own: real background jobs every 100 ms, batches of 5
// with a pause after each, leases of 2 s.
ServerOptions SlowSyncServer() {
  ServerOptions options;
  options.extra_args = {"--jobs-interval-ms",        "100", "--connector-batch-size",     "5",
                        "--connector-lease-seconds", "2",   "--connector-batch-pause-ms", "150"};
  return options;
}

// Polls the run until `done` holds (or fails the test after `seconds`).
json::value WaitForRun(HttpClient& api, const std::string& path, const std::string& token, int seconds,
                       const std::function<bool(const json::value&)>& done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  for (;;) {
    json::value run = api.Get(path, token).Json();
    if (done(run)) return run;
    if (std::chrono::steady_clock::now() > deadline) {
      ADD_FAILURE() << "timed out: " << json::serialize(run);
      return run;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

TEST(ConnectorsResume, AKilledSyncResumesWhereItsLastBatchCommitted) {
  if (BackendUnavailable()) GTEST_SKIP() << "CREDENCE_TEST_PG_URL is not set";
  ServerProcess server(SlowSyncServer());
  HttpClient api(server.base_url());
  TestTenant t = CreateTenant(api, "conn-resume");

  GitRepoFixture repo;
  for (int i = 0; i < kFiles; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "docs/page-%03d.md", i);
    repo.Write(name, "# Page " + std::to_string(i) + "\n\nText.\n");
  }
  repo.Commit("many pages");

  auto created = api.Post("/trust-admin/connectors",
                          {{"key", "big"}, {"kind", "git"}, {"settings", {{"url", repo.path()}}}}, t.token("admin"));
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id = Str(created.Json(), "id");
  auto queued = api.Post("/trust-admin/connectors/" + id + "/sync", json::object{}, t.token("admin"));
  ASSERT_EQ(queued.status, 202) << queued.body;
  const std::string run_path = "/trust-admin/connectors/" + id + "/runs/" + Str(queued.Json(), "id");

  // Progress is visible while it runs: wait for a few committed batches.
  json::value progress;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  for (;;) {
    progress = api.Get(run_path, t.token("admin")).Json();
    if (progress.at("documentsSeen").as_int64() >= 15) break;
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << json::serialize(progress);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(Str(progress, "status"), "running") << json::serialize(progress);
  EXPECT_LT(progress.at("documentsSeen").as_int64(), kFiles);
  EXPECT_FALSE(progress.at("checkpoint").is_null());

  server.Kill();
  server.Restart();
  HttpClient again(server.base_url());
  // What the killed process had committed is still there.
  auto at_restart = again.Get(run_path, t.token("admin")).Json();
  const int64_t committed = at_restart.at("documentsAdded").as_int64();
  EXPECT_GE(committed, 15) << json::serialize(at_restart);
  EXPECT_LT(committed, kFiles);

  // Once the dead process's lease expires, the background jobs resume it.
  json::value done;
  const auto finish = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (;;) {
    done = again.Get(run_path, t.token("admin")).Json();
    if (Str(done, "status") != "running" && Str(done, "status") != "queued") break;
    ASSERT_LT(std::chrono::steady_clock::now(), finish) << json::serialize(done);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_EQ(Str(done, "status"), "succeeded") << json::serialize(done);
  EXPECT_EQ(done.at("attempts").as_int64(), 2);
  // Every file once: the resumed attempt did not redo the committed batches
  // (nothing counted twice, nothing changed, every version 1).
  EXPECT_EQ(done.at("documentsAdded").as_int64(), kFiles) << json::serialize(done);
  EXPECT_EQ(done.at("documentsSeen").as_int64(), kFiles);
  EXPECT_EQ(done.at("documentsChanged").as_int64(), 0);
  auto docs = again.Get("/trust-admin/connected-documents?connectorKey=big", t.token("admin"));
  const json::value all = docs.Json();
  ASSERT_EQ(all.as_array().size(), static_cast<size_t>(kFiles));
  for (const auto& d : all.as_array()) EXPECT_EQ(d.at("version").as_int64(), 1);
  // The documents committed before the kill were not written again.
  int64_t rewritten = 0;
  for (const auto& d : all.as_array())
    if (d.at("updatedAt") != d.at("createdAt")) ++rewritten;
  EXPECT_EQ(rewritten, 0);
}

// Two nodes on one database, both running background jobs: the run is
// taken by one of them (the lease), never by both.
TEST(ConnectorsResume, TwoNodesNeverRunTheSameConnectorAtOnce) {
  if (BackendUnavailable()) GTEST_SKIP() << "CREDENCE_TEST_PG_URL is not set";
  ServerProcess first(SlowSyncServer());
  ServerOptions second_options = SlowSyncServer();
  second_options.extra_args.insert(second_options.extra_args.end(), {"--database", first.database_url()});
  ServerProcess second(second_options);
  HttpClient a(first.base_url());
  HttpClient b(second.base_url());
  TestTenant t = CreateTenant(a, "conn-nodes");

  GitRepoFixture repo;
  for (int i = 0; i < 40; ++i) repo.Write("p" + std::to_string(100 + i) + ".md", "# Page " + std::to_string(i) + "\n");
  repo.Commit("pages");
  auto created = a.Post("/trust-admin/connectors",
                        {{"key", "shared"}, {"kind", "git"}, {"settings", {{"url", repo.path()}}}}, t.token("admin"));
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id = Str(created.Json(), "id");
  auto queued = b.Post("/trust-admin/connectors/" + id + "/sync", json::object{}, t.token("admin"));  // the other node
  ASSERT_EQ(queued.status, 202) << queued.body;
  const std::string run_path = "/trust-admin/connectors/" + id + "/runs/" + Str(queued.Json(), "id");
  json::value done = WaitForRun(a, run_path, t.token("admin"), 60, [](const json::value& r) {
    return Str(r, "status") != "running" && Str(r, "status") != "queued";
  });
  EXPECT_EQ(Str(done, "status"), "succeeded") << json::serialize(done);
  EXPECT_EQ(done.at("attempts").as_int64(), 1) << json::serialize(done);
  EXPECT_EQ(done.at("documentsAdded").as_int64(), 40);
  EXPECT_EQ(done.at("documentsSeen").as_int64(), 40);
  const json::value docs = b.Get("/trust-admin/connected-documents?connectorKey=shared", t.token("admin")).Json();
  ASSERT_EQ(docs.as_array().size(), 40u);
  for (const auto& d : docs.as_array()) EXPECT_EQ(d.at("version").as_int64(), 1);
}

TEST(ConnectorsResume, AKilledWebSyncResumesWithoutRewritingWhatItCommitted) {
  if (BackendUnavailable()) GTEST_SKIP() << "CREDENCE_TEST_PG_URL is not set";
  constexpr int kPages = 30;
  WebSite site;
  std::string links;
  for (int i = 0; i < kPages; ++i) {
    const std::string path = "/p" + std::to_string(i) + ".html";
    site.Put(path, "<html><head><title>Page " + std::to_string(i) + "</title></head><body>Text " + std::to_string(i) +
                       "</body></html>");
    links += "<a href=\"" + path + "\">" + std::to_string(i) + "</a> ";
  }
  site.Put("/index.html", "<html><head><title>Index</title></head><body>" + links + "</body></html>");

  ServerProcess server(SlowSyncServer());
  HttpClient api(server.base_url());
  TestTenant t = CreateTenant(api, "conn-web-resume");
  auto created = api.Post("/trust-admin/connectors",
                          {{"key", "site"}, {"kind", "web"}, {"settings", {{"startUrls", {site.url("/index.html")}}}}},
                          t.token("admin"));
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id = Str(created.Json(), "id");
  auto queued = api.Post("/trust-admin/connectors/" + id + "/sync", json::object{}, t.token("admin"));
  ASSERT_EQ(queued.status, 202);
  const std::string run_path = "/trust-admin/connectors/" + id + "/runs/" + Str(queued.Json(), "id");
  WaitForRun(api, run_path, t.token("admin"), 30,
             [](const json::value& r) { return r.at("documentsSeen").as_int64() >= 10; });

  server.Kill();
  server.Restart();
  HttpClient again(server.base_url());
  const int64_t committed = again.Get(run_path, t.token("admin")).Json().at("documentsAdded").as_int64();
  EXPECT_GE(committed, 10);
  EXPECT_LT(committed, kPages + 1);
  json::value done = WaitForRun(again, run_path, t.token("admin"), 60, [](const json::value& r) {
    return Str(r, "status") != "running" && Str(r, "status") != "queued";
  });
  EXPECT_EQ(Str(done, "status"), "succeeded") << json::serialize(done);
  EXPECT_EQ(done.at("attempts").as_int64(), 2);
  // Every page added once; the pages committed before the kill came back
  // unchanged (conditional requests), none was written twice.
  EXPECT_EQ(done.at("documentsAdded").as_int64(), kPages + 1) << json::serialize(done);
  EXPECT_EQ(done.at("documentsChanged").as_int64(), 0);
  EXPECT_GE(done.at("documentsUnchanged").as_int64(), committed);
  EXPECT_EQ(done.at("documentsRemoved").as_int64(), 0);
  const json::value docs = again.Get("/trust-admin/connected-documents?connectorKey=site", t.token("admin")).Json();
  ASSERT_EQ(docs.as_array().size(), static_cast<size_t>(kPages + 1));
  for (const auto& d : docs.as_array()) {
    EXPECT_EQ(d.at("version").as_int64(), 1);
    EXPECT_EQ(Str(d, "status"), "Published");
  }
}

// Sync-now wakes the job runner of the node that received it
// (docs/connectors.md, "Syncs"). The jobs' interval is a minute and their
// first pass comes only after it, so a run that finishes within two seconds
// was started by the wake, not by a turn of the loop. Without the wake each
// run waits out the interval and the test fails at its first bound.
TEST(ConnectorsResume, SyncNowStartsAtOnceWithTheBackgroundJobsOn) {
  if (BackendUnavailable()) GTEST_SKIP() << "CREDENCE_TEST_PG_URL is not set";
  ServerOptions options;
  options.extra_args = {"--jobs-interval-ms", "60000"};
  ServerProcess server(options);
  HttpClient api(server.base_url());
  TestTenant t = CreateTenant(api, "conn-wake");

  GitRepoFixture repo;
  for (int i = 0; i < 30; ++i)
    repo.Write("docs/p" + std::to_string(100 + i) + ".md", "# Page " + std::to_string(i) + "\n");
  repo.Commit("pages");
  auto created = api.Post("/trust-admin/connectors",
                          {{"key", "woken"}, {"kind", "git"}, {"settings", {{"url", repo.path()}}}}, t.token("admin"));
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id = Str(created.Json(), "id");

  constexpr auto kBound = std::chrono::seconds(2);
  // Sync now, then the run as it stands when it has finished or the bound has passed.
  auto sync_now = [&]() -> json::value {
    const auto start = std::chrono::steady_clock::now();
    auto queued = api.Post("/trust-admin/connectors/" + id + "/sync", json::object{}, t.token("admin"));
    EXPECT_EQ(queued.status, 202) << queued.body;
    const std::string run_path = "/trust-admin/connectors/" + id + "/runs/" + Str(queued.Json(), "id");
    for (;;) {
      json::value run = api.Get(run_path, t.token("admin")).Json();
      const std::string status = Str(run, "status");
      if (status != "queued" && status != "running") return run;
      if (std::chrono::steady_clock::now() - start > kBound) {
        ADD_FAILURE() << "not done within 2 s of the request: " << json::serialize(run);
        return run;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  };

  json::value first = sync_now();
  EXPECT_EQ(Str(first, "status"), "succeeded") << json::serialize(first);
  EXPECT_EQ(first.at("documentsAdded").as_int64(), 30);

  for (int i = 0; i < 3; ++i) repo.Write("docs/p" + std::to_string(100 + i) + ".md", "# Page, changed\n");
  repo.Commit("three changed");
  json::value again = sync_now();
  EXPECT_EQ(Str(again, "status"), "succeeded") << json::serialize(again);
  EXPECT_EQ(again.at("documentsSeen").as_int64(), 3) << json::serialize(again);
  EXPECT_EQ(again.at("documentsChanged").as_int64(), 3);
  EXPECT_EQ(again.at("attempts").as_int64(), 1);
}

}  // namespace
}  // namespace credence::test
