// The expiry scheduler over a large store (issue 4's benchmark):
//
//   scheduler_bench DATA_DIR [ENTRIES]   (default 1,000,000)
//
// Seeds (once per DATA_DIR) one tenant with a default template (warning 14
// days, grace 7) and ENTRIES published entries, each with ~400 bytes of
// content, expiry dates spread evenly over the next 365 days, and the state
// a scheduler that has kept up leaves behind (lifecycle_status and
// next_check_at set). Then, with the clock moved forward one day, it times:
//   1. finding the due entries (the scheduler's predicate, counted);
//   2. a full pass: materializing every due transition (transition rows,
//      owner notifications) in batches;
//   3. a second pass, which finds nothing due.
// and prints the plan SQLite uses to find them (an index search, not a scan).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>

#include "app/migrations.h"
#include "core/clock.h"
#include "core/ids.h"
#include "identity/tenant_service.h"
#include "platform/audit_log.h"
#include "kb/hub_service.h"
#include "lifecycle/expiry_template_service.h"
#include "lifecycle/scheduler.h"
#include "lifecycle/status.h"
#include "storage/database.h"
#include "storage/migrations.h"
#include "storage/session.h"

using namespace credence;

namespace {

constexpr storage::TenantQuery kInsert{
    "bench.insert_entry",
    "INSERT INTO entries (tenant_id, id, hub_id, entry_key, title, content, original_language, status, expiry_at,"
    " owner_id, version, created_at, updated_at, content_updated_at, published_at, lifecycle_status, next_check_at)"
    " VALUES ($1, $2, $3, $4, $5, $6, 'en', 'Published', $7, $8, 1, $9, $9, $9, $9, $10, $11)"};

constexpr storage::GlobalQuery kCountDue{"bench.count_due",
                                         "SELECT COUNT(*) FROM entries WHERE next_check_at <= $1"};
constexpr storage::GlobalQuery kCountEntries{"bench.count_entries", "SELECT COUNT(*) FROM entries"};
constexpr storage::GlobalQuery kPlan{
    "bench.plan",
    "EXPLAIN QUERY PLAN SELECT tenant_id, id FROM entries WHERE next_check_at <= $1 ORDER BY next_check_at LIMIT 200"};

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: scheduler_bench DATA_DIR [ENTRIES]\n");
    return 2;
  }
  const std::string dir = argv[1];
  const int64_t n = argc > 2 ? std::atoll(argv[2]) : 1'000'000;
  std::filesystem::create_directories(dir);
  auto db = storage::OpenDatabase("sqlite:" + dir + "/credence.db", {});
  storage::ApplyMigrations(*db, app::AllMigrations());
  // The seed's "now": fixed, so reruns over the same directory agree.
  const TimeMs t0 = *ParseTimestamp("2030-01-01T00:00:00Z");
  ManualClock clock(t0);
  platform::AuditLog audit(*db, clock);
  identity::TenantService tenants(*db, clock, audit, /*dev_mode=*/true);
  const auto tenant = tenants.EnsureDevTenant("Scheduler bench", "sched-bench");
  auto login = tenants.DevLogin("admin", tenant.id);
  if (!login) return 1;
  identity::Principal admin;
  admin.tenant_id = tenant.id;
  admin.user_id = login->user.id;
  admin.role = identity::TenantRole::kOwner;

  int64_t existing = 0;
  {
    storage::Session s(*db);
    existing = s.Run(kCountEntries).front().Int(0);
  }
  if (existing < n) {
    lifecycle::ExpiryTemplateService templates(*db, clock);
    lifecycle::ExpiryTemplateInput tpl;
    tpl.name = "Bench default";
    tpl.expiry_days = 365;
    tpl.warning_days = 14;
    tpl.grace_days = 7;
    auto created = templates.Create(admin, tpl);
    if (!created || !templates.SetDefault(admin, created->id)) return 1;
    kb::HubService hubs(*db, clock);
    kb::NewHub hub;
    hub.key = "bench";
    hub.name = "Bench";
    hub.default_expiry_days = 365;
    auto h = hubs.Create(admin, hub);
    if (!h) return 1;
    const std::string content(400, 'x');
    const lifecycle::ExpiryWindows windows{14, 7};
    std::mt19937_64 rng(7);
    const auto start = std::chrono::steady_clock::now();
    for (int64_t done = existing; done < n;) {
      storage::Session s(*db, storage::TxMode::kWrite);
      storage::TenantSession ts(s, tenant.id);
      for (int64_t i = 0; i < 50'000 && done < n; ++i, ++done) {
        const TimeMs expiry = t0 + static_cast<TimeMs>(rng() % static_cast<uint64_t>(365 * kMsPerDay));
        const lifecycle::ExpiryFacts facts{true, expiry, std::nullopt};
        const auto status = lifecycle::EffectiveStatus(facts, windows, t0);
        const auto next = lifecycle::NextTransitionAt(facts, windows, t0);
        ts.Run(kInsert, {NewId(), h->id, "e" + std::to_string(done), "Entry " + std::to_string(done), content, expiry,
                         admin.user_id, t0, std::string(kb::EntryStatusName(status)), next});
      }
      s.Commit();
      std::fprintf(stderr, "\rseeded %lld entries", static_cast<long long>(done));
    }
    std::fprintf(stderr, "\nseeding took %.1f s\n", Seconds(start));
  }

  // One day later: every entry whose warning window opened that day is due.
  clock.Set(t0 + kMsPerDay);
  {
    storage::Session s(*db);
    std::printf("entries: %lld\n", static_cast<long long>(s.Run(kCountEntries).front().Int(0)));
    std::printf("plan for the due-entry search:\n");
    for (const auto& row : s.Run(kPlan, {clock.Now()})) std::printf("  %s\n", row.Text(3).c_str());
    const auto start = std::chrono::steady_clock::now();
    const int64_t due = s.Run(kCountDue, {clock.Now()}).front().Int(0);
    std::printf("find due entries: %lld due, %.3f s\n", static_cast<long long>(due), Seconds(start));
  }
  lifecycle::ExpiryScheduler scheduler(*db, clock, "bench");
  {
    const auto start = std::chrono::steady_clock::now();
    const auto r = scheduler.RunOnce();
    std::printf("pass 1: %d checked, %d transitions, %d notifications, %.3f s\n", r.checked, r.transitions,
                r.notifications, Seconds(start));
  }
  {
    const auto start = std::chrono::steady_clock::now();
    const auto r = scheduler.RunOnce();
    std::printf("pass 2 (nothing due): %d checked, %.3f s\n", r.checked, Seconds(start));
  }
  return 0;
}
