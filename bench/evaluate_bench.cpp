// Where an evaluation's time goes, in process (no HTTP, no load generator):
//
//   evaluate_bench DATA_DIR [ITERATIONS]
//
// DATA_DIR is a server data directory seeded by bench/trust.sh (KEEP_DIR=...):
// it reads the tenant and the 100 source ids from DATA_DIR/body.json and
// times, per call, resolving the sources, deciding them, and a whole
// TrustService::Evaluate (which also writes the ledger record).
#include <boost/json/parse.hpp>

#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/ids.h"
#include "storage/database.h"
#include "storage/session.h"
#include "trust/config.h"
#include "trust/engine.h"
#include "trust/source_cache.h"
#include "trust/source_resolver.h"
#include "notify/webhook_service.h"
#include "platform/audit_log.h"
#include "trust/trust_service.h"

using namespace credence;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: evaluate_bench DATA_DIR [ITERATIONS]\n");
    return 2;
  }
  const std::string dir = argv[1];
  const int n = argc > 2 ? std::atoi(argv[2]) : 300;
  std::ifstream in(dir + "/body.json");
  std::stringstream ss;
  ss << in.rdbuf();
  const auto body = boost::json::parse(ss.str());
  std::vector<std::string> sources;
  for (const auto& s : body.at("sources").as_array()) sources.emplace_back(s.as_string());
  auto db = storage::OpenDatabase("sqlite:" + dir + "/credence.db", {});
  constexpr storage::GlobalQuery kTenant{"bench.tenant", "SELECT tenant_id FROM entries WHERE id = $1"};
  std::string tenant_id;
  {
    storage::Session s(*db);
    tenant_id = s.Run(kTenant, {sources[0].substr(6)}).front().Text(0);
  }
  SystemClock clock;
  identity::Principal caller;
  caller.kind = identity::PrincipalKind::kMachine;
  caller.tenant_id = tenant_id;
  caller.key_id = "bench";
  trust::ContextInput input;
  input.channel = "internal";
  using Clk = std::chrono::steady_clock;
  auto per_call_us = [&](auto&& f) {
    for (int i = 0; i < 20; ++i) f();
    const auto start = Clk::now();
    for (int i = 0; i < n; ++i) f();
    return std::chrono::duration<double, std::micro>(Clk::now() - start).count() / n;
  };
  trust::Resolution resolution;
  // EVALUATE_ONLY=1: only the whole evaluation, for profiling it.
  if (std::getenv("EVALUATE_ONLY") != nullptr) {
    // As the server wires it: trust.decision.blocked goes to the webhooks
    // (docs/webhooks.md). WEBHOOK=1 registers one subscribed to it, so every
    // blocked decision also queues a delivery.
    platform::AuditLog audit(*db, clock);
    notify::WebhookService webhooks(*db, clock, audit);
    if (std::getenv("WEBHOOK") != nullptr) {
      identity::Principal admin;
      admin.tenant_id = tenant_id;
      admin.user_id = NewId();
      admin.role = identity::TenantRole::kOwner;
      notify::WebhookInput in;
      in.url = "https://receiver.example/hook";
      in.event_types = std::vector<std::string>{"trust.decision.blocked"};
      if (!webhooks.Create(admin, in)) std::fprintf(stderr, "webhook not created\n");
    }
    trust::TrustService service(*db, clock, nullptr, webhooks);
    const double evaluate =
        per_call_us([&] { (void)service.Evaluate(caller, sources, input, trust::Endpoint::kEvaluate); });
    std::printf("whole evaluate (with ledger) %.0f us\n", evaluate);
    return 0;
  }
  const double resolve = per_call_us([&] {
    storage::Session s(*db, storage::TxMode::kRead);
    storage::TenantSession t(s, tenant_id);
    resolution = trust::ResolveSources(t, sources, "", clock.Now());
  });
  trust::SourceCache cache;
  const double cached = per_call_us([&] {
    storage::Session s(*db, storage::TxMode::kRead);
    storage::TenantSession t(s, tenant_id);
    const std::vector<std::string_view> views(sources.begin(), sources.end());
    (void)cache.Resolve(t, views, "", clock.Now());
  });
  std::printf("resolve through the cache (warm): %.0f us\n", cached);
  trust::Context context;
  context.channel = "internal";
  trust::Classify(resolution.config, context);
  const double decide = per_call_us([&] {
    for (const auto& rs : resolution.sources) trust::Decide(rs.state, rs.policy, rs.policy_source, context, clock.Now());
  });
  std::string evidence(1200, 'x');
  const double sha = per_call_us([&] {
    for (int i = 0; i < 100; ++i) (void)Sha256Hex(evidence);
  });
  std::printf("SHA-256 of 100 evidence bodies of 1.2 KB: %.0f us\n", sha);
  trust::TrustService service(*db, clock);
  const double evaluate = per_call_us([&] { (void)service.Evaluate(caller, sources, input, trust::Endpoint::kEvaluate); });
  std::printf("100 sources, per call: resolve %.0f us, decide %.0f us, whole evaluate (with ledger) %.0f us\n",
              resolve, decide, evaluate);
  return 0;
}
