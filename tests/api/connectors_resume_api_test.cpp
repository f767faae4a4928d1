// An interrupted git sync resumes without redoing committed work
// (docs/connectors.md, "Resumable syncs"): a server of its own with real
// background jobs, small batches and a pause after each, killed (SIGKILL)
// while a sync is half-way, then started again on the same data. Also shows
// the run's progress while it runs. Both backends.
#include <boost/json/serialize.hpp>

#include <chrono>
#include <thread>

#include "support/api_fixture.h"
#include "support/connectors_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

constexpr int kFiles = 60;

TEST(ConnectorsResume, AKilledSyncResumesWhereItsLastBatchCommitted) {
  if (BackendUnavailable()) GTEST_SKIP() << "CREDENCE_TEST_PG_URL is not set";
  ServerOptions options;
  options.extra_args = {"--jobs-interval-ms", "100",         "--connector-batch-size",   "5",
                        "--connector-lease-seconds", "2", "--connector-batch-pause-ms", "150"};
  ServerProcess server(options);
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

}  // namespace
}  // namespace credence::test
