// Several `credence serve` nodes on one PostgreSQL database answer as one
// (docs/operations.md, "Several nodes on one database"): nodes started at
// the same instant on an empty database all come up; decisions appended
// through both nodes to the same tenants keep one unbroken chain per tenant
// (no 409, no deadlock); what one node changes (a key revoked, a policy
// tightened) is in force on the other at once; background work runs once
// (a sync requested on both nodes makes one run; a webhook event is
// delivered once). PostgreSQL only: SQLite is one process's store.
#include <gtest/gtest.h>
#include <libpq-fe.h>

#include <atomic>
#include <boost/json.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "support/api_fixture.h"
#include "support/http_client.h"
#include "support/pg_test_database.h"
#include "support/server_process.h"
#include "support/sinks.h"

namespace credence::test {
namespace {

namespace json = boost::json;

// N nodes on one fresh database, sharing one chain-signing key file (as
// deploy/ and scripts/cluster set them up).
class Nodes {
 public:
  Nodes(int count, std::vector<std::string> extra_args = {})
      : db_(std::make_unique<PgTestDatabase>(*PgServerUrlFromEnv())) {
    char tmpl[] = "/tmp/credence-cluster-test-XXXXXX";
    if (::mkdtemp(tmpl) == nullptr) throw std::runtime_error("mkdtemp failed");
    shared_dir_ = tmpl;
    for (int i = 0; i < count; ++i) {
      ServerOptions options;
      options.database_url = db_->url();
      options.wait_until_healthy = false;
      // Rate limits off: the tests send hundreds of requests with one key
      // within a second (the limits have tests of their own).
      options.extra_args = {"--chain-signing-key", shared_dir_ + "/chain-signing-key.pem", "--threads", "4",
                            "--rate-limit-key-rps", "0", "--rate-limit-user-rps", "0"};
      options.extra_args.insert(options.extra_args.end(), extra_args.begin(), extra_args.end());
      nodes_.push_back(std::make_unique<ServerProcess>(options));
    }
    // Every process was started before any is waited for: they race
    // through migrations, the key file and the development seed.
    for (auto& node : nodes_) node->WaitUntilHealthy();
  }
  ~Nodes() {
    nodes_.clear();
    db_.reset();
    std::error_code ignored;
    std::filesystem::remove_all(shared_dir_, ignored);
  }
  ServerProcess& operator[](size_t i) { return *nodes_.at(i); }
  const std::string& database_url() const { return db_->url(); }
  size_t size() const { return nodes_.size(); }

 private:
  std::unique_ptr<PgTestDatabase> db_;
  std::string shared_dir_;
  std::vector<std::unique_ptr<ServerProcess>> nodes_;
};

class Cluster : public ::testing::Test {
 protected:
  void SetUp() override {
    if (TestBackend() != "postgres") GTEST_SKIP() << "several nodes share a PostgreSQL database";
    if (!PgServerUrlFromEnv()) GTEST_SKIP() << "CREDENCE_TEST_PG_URL is not set";
  }
};

// How many deadlocks PostgreSQL detected in the database so far (its
// statistics, which reach pg_stat_database within about a second).
int64_t DeadlocksIn(const std::string& url) {
  PGconn* conn = PQconnectdb(url.c_str());
  int64_t n = -1;
  if (PQstatus(conn) == CONNECTION_OK) {
    PGresult* res = PQexec(conn, "SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()");
    if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) == 1) n = std::atoll(PQgetvalue(res, 0, 0));
    PQclear(res);
  }
  PQfinish(conn);
  return n;
}

std::string AcmeId(HttpClient& client) {
  auto tenants = client.Get("/auth/dev-tenants");
  EXPECT_EQ(tenants.status, 200) << tenants.body;
  const json::value list = tenants.Json();
  for (const auto& t : list.as_array())
    if (Str(t, "slug") == "acme") return Str(t, "id");
  return "";
}

std::string Login(HttpClient& client, const std::string& tenant_id, const std::string& persona) {
  auto login = client.Post("/auth/dev-login", {{"persona", persona}, {"tenantId", tenant_id}});
  EXPECT_EQ(login.status, 200) << login.body;
  return login.status == 200 ? Str(login.Json(), "token") : "";
}

// A tenant key that may evaluate and read decisions: {id, secret}.
std::pair<std::string, std::string> MintKey(HttpClient& client, const std::string& admin_token) {
  auto key = client.Post("/apikeys", {{"name", "bot"}, {"scopes", json::array{"trust:evaluate", "trust:read"}}},
                         admin_token);
  EXPECT_EQ(key.status, 201) << key.body;
  if (key.status != 201) return {};
  return {Str(key.Json(), "id"), Str(key.Json(), "clientSecret")};
}

TEST_F(Cluster, NodesStartedAtOnceOnAnEmptyDatabaseAllComeUp) {
  for (int round = 0; round < 2; ++round) {
    Nodes nodes(3, {"--dev"});
    std::set<std::string> acme_ids, key_ids;
    for (size_t i = 0; i < nodes.size(); ++i) {
      HttpClient client(nodes[i].base_url());
      auto tenants = client.Get("/auth/dev-tenants");
      ASSERT_EQ(tenants.status, 200) << tenants.body;
      ASSERT_EQ(tenants.Json().as_array().size(), 1u) << "one seeded tenant, not one per node: " << tenants.body;
      acme_ids.insert(AcmeId(client));
      auto keys = client.Get("/.well-known/credence-chain-keys");
      ASSERT_EQ(keys.status, 200) << keys.body;
      key_ids.insert(Str(keys.Json(), "currentKeyId"));
      EXPECT_EQ(keys.Json().at("keys").as_array().size(), 1u) << keys.body;
      EXPECT_EQ(client.Get("/readyz").status, 200);
    }
    EXPECT_EQ(acme_ids.size(), 1u);
    EXPECT_EQ(key_ids.size(), 1u) << "every node signs with the one shared key";
  }
}

// Two nodes append to the same two tenants' chains at once, in every
// interleaving: each answer is a 200, each decision is readable from both
// nodes, and each tenant's chain verifies with every decision in it.
TEST_F(Cluster, EvaluateThroughTwoNodesKeepsEachTenantsChainWhole) {
  Nodes nodes(2, {"--dev"});
  HttpClient first(nodes[0].base_url());
  HttpClient second(nodes[1].base_url());
  struct Tenant {
    std::string admin, key;
  };
  std::vector<Tenant> tenants;
  const std::string acme = AcmeId(first);
  tenants.push_back({Login(first, acme, "admin"), ""});
  auto other = CreateTenant(second, "cluster");
  tenants.push_back({other.token("admin"), ""});
  for (auto& t : tenants) t.key = MintKey(first, t.admin).second;
  ASSERT_FALSE(tenants[0].key.empty() || tenants[1].key.empty());

  constexpr int kThreads = 16;
  constexpr int kPerThread = 30;
  std::mutex mu;
  std::map<size_t, std::vector<std::string>> decided;  // tenant -> decision ids
  std::vector<std::string> failures;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      HttpClient a(nodes[0].base_url());
      HttpClient b(nodes[1].base_url());
      for (int i = 0; i < kPerThread; ++i) {
        HttpClient& node = (i + t) % 2 == 0 ? a : b;
        const size_t tenant = static_cast<size_t>((i + t / 2) % 2);
        json::array sources;
        for (int s = 0; s < 2; ++s) sources.emplace_back("wiki:page-" + std::to_string((i + s) % 7));
        auto r = node.Post("/api/trust/evaluate", {{"sources", sources}, {"context", {{"channel", "internal"}}}},
                           tenants[tenant].key);
        std::lock_guard lock(mu);
        if (r.status == 200) {
          decided[tenant].push_back(Str(r.Json(), "decisionId"));
        } else {
          failures.push_back(std::to_string(r.status) + " " + r.body);
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_TRUE(failures.empty()) << failures.size() << " failed, the first: " << failures.front();
  // Two nodes appending batches that span the same tenants must never lock
  // them in opposite orders (each deadlock costs its requests a second).
  std::this_thread::sleep_for(std::chrono::milliseconds(1200));
  EXPECT_EQ(DeadlocksIn(nodes.database_url()), 0);

  for (size_t tenant = 0; tenant < tenants.size(); ++tenant) {
    for (const auto& id : decided[tenant]) {
      EXPECT_EQ(first.Get("/api/trust/decisions/" + id, tenants[tenant].key).status, 200) << id;
      EXPECT_EQ(second.Get("/api/trust/decisions/" + id, tenants[tenant].key).status, 200) << id;
    }
    for (HttpClient* node : {&first, &second}) {
      auto verify = node->Get("/trust-admin/ledger/verify", tenants[tenant].admin);
      ASSERT_EQ(verify.status, 200) << verify.body;
      EXPECT_TRUE(verify.Json().at("ok").as_bool()) << verify.body;
      EXPECT_EQ(verify.Json().at("checked").as_int64(), static_cast<int64_t>(decided[tenant].size())) << verify.body;
    }
  }
  // Both nodes sign heads at once: one head per position, signed by the
  // shared key, and the chains verify against them.
  std::thread sign_a([&] { HttpClient(nodes[0].base_url()).Post("/dev/jobs/run", json::object{}); });
  std::thread sign_b([&] { HttpClient(nodes[1].base_url()).Post("/dev/jobs/run", json::object{}); });
  sign_a.join();
  sign_b.join();
  for (const auto& t : tenants) {
    auto heads = second.Get("/trust-admin/ledger/heads", t.admin);
    ASSERT_EQ(heads.status, 200) << heads.body;
    auto verify = first.Get("/trust-admin/ledger/verify", t.admin);
    ASSERT_EQ(verify.status, 200) << verify.body;
    EXPECT_TRUE(verify.Json().at("ok").as_bool()) << verify.body;
  }
}

TEST_F(Cluster, WhatOneNodeChangesIsInForceOnTheOtherAtOnce) {
  Nodes nodes(2, {"--dev"});
  HttpClient a(nodes[0].base_url());
  HttpClient b(nodes[1].base_url());
  const std::string acme = AcmeId(a);
  const std::string admin = Login(a, acme, "admin");
  const std::string editor = Login(b, acme, "editor");

  // A key revoked on node A is refused by node B on its next request.
  auto [key_id, secret] = MintKey(a, admin);
  auto before = b.Post("/api/trust/evaluate", {{"sources", json::array{"wiki:x"}}}, secret);
  ASSERT_EQ(before.status, 200) << before.body;
  ASSERT_EQ(a.Delete("/apikeys/" + key_id, admin).status, 204);
  ExpectProblem(b.Post("/api/trust/evaluate", {{"sources", json::array{"wiki:x"}}}, secret), 401, "invalid_token");

  // A policy tightened on node A applies to node B's next decision, though
  // B had the source cached.
  auto found = b.Get("/api/entries/search?q=expense", editor);
  ASSERT_EQ(found.status, 200) << found.body;
  ASSERT_FALSE(found.Json().as_array().empty()) << found.body;
  const std::string source = "entry:" + Str(found.Json().as_array().at(0), "id");
  auto [unused, evaluator] = MintKey(a, admin);
  auto evaluate = [&](HttpClient& node) {
    auto r = node.Post("/api/trust/evaluate", {{"sources", json::array{json::value(source)}},
                                              {"context", {{"channel", "internal"}}}},
                       evaluator);
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 ? r.Json().at("results").as_array().at(0) : json::value{};
  };
  for (int i = 0; i < 3; ++i) ASSERT_NE(Str(evaluate(b), "decision"), "block");
  ASSERT_EQ(a.Put("/trust-admin/policies/tenant", {{"aiRetrievable", false}}, admin).status, 200);
  const json::value after = evaluate(b);
  EXPECT_EQ(Str(after, "decision"), "block") << json::serialize(after);
  EXPECT_NE(json::serialize(after).find("not_ai_retrievable"), std::string::npos) << json::serialize(after);
  ASSERT_EQ(a.Put("/trust-admin/policies/tenant", json::object{}, admin).status, 200);
  EXPECT_NE(Str(evaluate(b), "decision"), "block");
}

TEST_F(Cluster, BackgroundWorkRunsOnceAcrossNodes) {
  HttpSink sink;
  // Both nodes run their background loops every 100 ms.
  Nodes nodes(2, {"--dev", "--jobs-interval-ms", "100"});
  HttpClient a(nodes[0].base_url());
  HttpClient b(nodes[1].base_url());
  const std::string acme = AcmeId(a);
  const std::string admin = Login(a, acme, "admin");

  // "Sync now" sent to both nodes at once makes one run. The repository
  // does not exist, so the run fails when it is taken, and the test only
  // looks at the answers, which name the open run.
  auto created = a.Post("/trust-admin/connectors",
                        {{"key", "docs"}, {"name", "Docs"}, {"kind", "git"},
                         {"settings", {{"url", "/nonexistent/repository"}}}},
                        admin);
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string connector = Str(created.Json(), "id");
  std::mutex mu;
  std::set<std::string> run_ids;
  std::vector<std::thread> requests;
  for (int i = 0; i < 8; ++i) {
    requests.emplace_back([&, i] {
      HttpClient node(nodes[i % 2].base_url());
      auto r = node.Post("/trust-admin/connectors/" + connector + "/sync", json::object{}, admin);
      EXPECT_EQ(r.status, 202) << r.body;
      std::lock_guard lock(mu);
      if (r.status == 202) run_ids.insert(Str(r.Json(), "id"));
    });
  }
  for (auto& r : requests) r.join();
  auto runs = b.Get("/trust-admin/connectors/" + connector + "/runs", admin);
  ASSERT_EQ(runs.status, 200) << runs.body;
  const json::value runs_body = runs.Json();
  const json::array& listed = runs_body.is_array() ? runs_body.as_array() : runs_body.at("runs").as_array();
  std::set<std::string> listed_ids;
  for (const auto& r : listed) listed_ids.insert(Str(r, "id"));
  // Runs the background loops finished before a later request came in may
  // be followed by a new one; no two are ever open at once, and every
  // answer named a run that exists.
  for (const auto& id : run_ids) EXPECT_EQ(listed_ids.count(id), 1u) << id;
  EXPECT_LE(run_ids.size(), listed_ids.size());
  int open = 0;
  for (const auto& r : listed)
    if (Str(r, "status") == "queued" || Str(r, "status") == "running") ++open;
  EXPECT_LE(open, 1) << runs.body;

  // A webhook event is delivered once, though both nodes run the outbox.
  auto hook = a.Post("/webhooks", {{"url", sink.url()}, {"eventTypes", json::array{"apikey.created"}}}, admin);
  ASSERT_EQ(hook.status, 201) << hook.body;
  auto [key_id, unused] = MintKey(b, admin);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  auto delivered = [&] {
    int n = 0;
    for (const auto& post : sink.Posts())
      if (post.body.find(key_id) != std::string::npos) ++n;
    return n;
  };
  while (delivered() == 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  // Time for a second delivery to arrive, were there one.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  EXPECT_EQ(delivered(), 1);
}

}  // namespace
}  // namespace credence::test
