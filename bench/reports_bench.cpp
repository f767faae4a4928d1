// Compliance reports over 1,000,000 ledger records (docs/performance.md,
// "Compliance reports"), in process, on SQLite:
//
//   reports_bench DATA_DIR [DECISIONS] [USAGE]
//
// Seeds a fresh store in DATA_DIR (credence.db, replaced): one tenant, 40
// owners (5 of them inactive), 6 apps (4 on customer-facing channels), 1,000
// native entries in 5 hubs (70% reviewed) and 2,000 connected documents (60%
// reviewed), sensitivity facts and 60 entry-level overrides; per source 3
// evidence variants (as the ledger stores them: content-addressed, shared by
// every decision that answered the same); DECISIONS ledger records
// (default 1,000,000) over 30 days, each of 100 sources drawn from the 3,000,
// appended through the ledger's own AppendDecision in transactions of
// 10,000 (15% of the sources are blocked in half of their evaluations, a
// quarter of the evaluations warn); USAGE usage records (default 200,000), 5 sources each, 90% linked
// to their decision. Then times the rollup's catch-up from nothing, and each
// report over the whole window, with and without an app filter.
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "app/migrations.h"
#include "core/clock.h"
#include "core/ids.h"
#include "core/json_text.h"
#include "core/logging.h"
#include "identity/principal.h"
#include "reports/report_service.h"
#include "reports/rollup.h"
#include "storage/database.h"
#include "storage/migrations.h"
#include "storage/session.h"
#include "trust/ledger.h"

using namespace credence;
using storage::GlobalQuery;
using storage::TenantQuery;

namespace {

constexpr GlobalQuery kTenant{"bench.tenant", "INSERT INTO tenants (id, name, slug, created_at) VALUES ($1, $2, $3, 0)"};
constexpr GlobalQuery kUser{"bench.user",
                            "INSERT INTO users (id, email, display_name, created_at) VALUES ($1, $2, $3, 0)"};
constexpr GlobalQuery kMember{"bench.member",
                              "INSERT INTO tenant_members (tenant_id, user_id, role, is_active, joined_at)"
                              " VALUES ($1, $2, $3, $4, 0)"};
constexpr TenantQuery kApp{"bench.app",
                           "INSERT INTO trust_apps (tenant_id, id, name, channel, risk, default_policy, created_at,"
                           " updated_at) VALUES ($1, $2, $3, $4, 'high', '{}', 0, 0)"};
constexpr TenantQuery kHub{"bench.hub",
                           "INSERT INTO hubs (tenant_id, id, hub_key, name, default_expiry_days, owner_id, created_at,"
                           " updated_at) VALUES ($1, $2, $3, $3, 365, $4, 0, 0)"};
constexpr TenantQuery kEntry{
    "bench.entry",
    "INSERT INTO entries (tenant_id, id, hub_id, entry_key, title, content, original_language, status, expiry_at,"
    " owner_id, version, created_at, updated_at, content_updated_at) VALUES ($1, $2, $3, $4, $5, '', 'en',"
    " 'Published', $6, $7, 1, 0, 0, 0)"};
constexpr TenantQuery kReview{
    "bench.review",
    "INSERT INTO entry_reviews (tenant_id, id, entry_id, reviewer_id, review_type, time_spent_seconds, expiry_at,"
    " created_at) VALUES ($1, $2, $3, $4, 'FullReview', 60, $5, $6)"};
constexpr TenantQuery kDocument{
    "bench.document",
    "INSERT INTO connected_documents (tenant_id, id, connector_key, external_id, url, title, content_updated_at,"
    " last_synced_at, owner_id, last_reviewed_at, last_review_type, status, version, created_at, updated_at)"
    " VALUES ($1, $2, 'wiki', $3, NULL, $4, 0, 0, $5, $6, $7, 'Published', 1, 0, 0)"};
constexpr TenantQuery kSensitivity{
    "bench.sensitivity",
    "INSERT INTO source_sensitivity (tenant_id, source_kind, source_id, classification, has_secrets,"
    " has_personal_data, set_by, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 0)"};
constexpr TenantQuery kPolicy{"bench.policy",
                              "INSERT INTO trust_policies (tenant_id, scope, target_id, policy, updated_by, updated_at)"
                              " VALUES ($1, 'entry', $2, '{\"aiRetrievable\":false}', NULL, 0)"};
constexpr TenantQuery kUsage{
    "bench.usage",
    "INSERT INTO trust_usage (tenant_id, id, decision_id, sources, outcome, app_id, created_at)"
    " VALUES ($1, $2, $3, $4, 'answer_sent', $5, $6)"};

struct Source {
  std::string id;        // entry id or document id
  std::string source_id; // as submitted
  std::string title;
  bool native;
  std::string owner;     // "" none
  bool owner_active;
};

// An evidence body in the shape trust_service.cpp writes.
std::string EvidenceBody(const Source& s, int variant, TimeMs expiry) {
  static const char* kDecision[] = {"allow", "warn", "block"};
  static const char* kClass[] = {"Published", "ExpiringSoon", "Expired"};
  std::string reasons = "[]";
  if (variant == 1) reasons = R"([{"code":"review_too_old","dimension":"freshness","severity":"warn","message":"m","data":{}}])";
  if (variant == 2)
    reasons = R"([{"code":"expired","dimension":"freshness","severity":"block","message":"m","data":{}},)"
              R"({"code":"customer_facing_unreviewed","dimension":"policy","severity":"block","message":"m","data":{}}])";
  std::string out = "{\"result\":";
  JsonObjectWriter r(out);
  r.Str("sourceId", s.source_id).Bool("resolved", true).Str("entryId", s.id).Str("title", s.title);
  r.Str("origin", s.native ? "Native" : "Connected").Str("decision", kDecision[variant]).Bool("escalated", false);
  r.Raw("reasons", reasons).Int("freshnessScore", 50).Str("classification", kClass[variant]);
  r.Str("sensitivity", "Internal").Str("policySource", "tenant-default").Str("recommendedAction", "none");
  r.Raw("requirements", R"({"citationRequired":false,"disclaimerRequired":false,"disclaimerText":null})");
  r.Close();
  out += ",\"state\":";
  JsonObjectWriter st(out);
  st.Bool("resolved", true).Str("origin", s.native ? "Native" : "Connected").Str("status", kClass[variant]);
  st.Int("version", 1).Str("contentUpdatedAt", FormatTimestamp(0)).Str("expiryDate", FormatTimestamp(expiry));
  st.Null("lastReviewedAt").Null("lastReviewType");
  if (s.owner.empty()) st.Null("ownerId");
  else st.Str("ownerId", s.owner);
  st.Bool("ownerActive", s.owner_active).Str("sensitivity", "Internal").Bool("hasSecrets", false);
  st.Bool("hasPersonalData", false).Str("policySource", "tenant-default");
  st.Close();
  out += '}';
  return out;
}

double Ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: reports_bench DATA_DIR [DECISIONS] [USAGE]\n");
    return 2;
  }
  SetLogLevel(LogLevel::kError);
  const std::filesystem::path dir = argv[1];
  const int64_t decisions = argc > 2 ? std::atoll(argv[2]) : 1'000'000;
  const int64_t usages = argc > 3 ? std::atoll(argv[3]) : 200'000;
  constexpr int kDays = 30;
  constexpr int kPerDecision = 100;
  std::filesystem::create_directories(dir);
  for (const char* f : {"credence.db", "credence.db-wal", "credence.db-shm"}) std::filesystem::remove(dir / f);
  auto db = storage::OpenDatabase("sqlite:" + (dir / "credence.db").string(), {});
  storage::ApplyMigrations(*db, app::AllMigrations());

  SettableClock clock;
  const TimeMs end = *ParseTimestamp("2030-01-31T00:00:00Z");  // the window: 2030-01-01 .. 2030-01-30
  const TimeMs start = end - kDays * kMsPerDay;
  clock.Set(end - 1);
  std::mt19937_64 rng(42);
  const auto t0 = std::chrono::steady_clock::now();

  identity::Principal admin;
  admin.tenant_id = NewId();
  admin.user_id = NewId();
  admin.role = identity::TenantRole::kOwner;
  std::vector<std::string> owners;
  std::vector<std::string> apps;
  std::vector<Source> sources;
  {
    storage::Session s(*db, storage::TxMode::kWrite);
    s.Run(kTenant, {admin.tenant_id, "Bench", "bench"});
    s.Run(kUser, {admin.user_id, "admin@bench.test", "Admin"});
    s.Run(kMember, {admin.tenant_id, admin.user_id, "Owner", 1});
    for (int i = 0; i < 40; ++i) {
      owners.push_back(NewId());
      s.Run(kUser, {owners.back(), "owner" + std::to_string(i) + "@bench.test", "Owner"});
      s.Run(kMember, {admin.tenant_id, owners.back(), "Member", i < 35 ? 1 : 0});
    }
    storage::TenantSession t(s, admin.tenant_id);
    const char* channels[] = {"public_support_chat", "customer_email", "public_website", "partner_portal",
                              "internal", "ci"};
    for (int i = 0; i < 6; ++i) {
      apps.push_back(NewId());
      t.Run(kApp, {apps.back(), "App " + std::to_string(i), channels[i]});
    }
    std::vector<std::string> hubs;
    for (int i = 0; i < 5; ++i) {
      hubs.push_back(NewId());
      t.Run(kHub, {hubs.back(), "hub" + std::to_string(i), admin.user_id});
    }
    for (int i = 0; i < 1000; ++i) {
      const std::string id = NewId();
      const std::string& owner = owners[rng() % owners.size()];
      t.Run(kEntry, {id, hubs[i % 5], "e" + std::to_string(i), "Entry " + std::to_string(i), end + 90 * kMsPerDay,
                     owner});
      if (i % 10 < 7) t.Run(kReview, {NewId(), id, admin.user_id, end + 90 * kMsPerDay, start});
      if (i % 20 == 0) t.Run(kSensitivity, {"entry", id, "Confidential", 0, 1, "human"});
      if (i < 60) t.Run(kPolicy, {id});
      sources.push_back({id, "entry:" + id, "Entry " + std::to_string(i), true, owner, true});
    }
    for (int i = 0; i < 2000; ++i) {
      const std::string id = NewId();
      const std::string owner = i % 7 == 0 ? "" : owners[rng() % owners.size()];
      const bool reviewed = i % 10 < 6;
      t.Run(kDocument, {id, "doc" + std::to_string(i), "Page " + std::to_string(i),
                        owner.empty() ? std::optional<std::string>() : owner,
                        reviewed ? std::optional<int64_t>(start) : std::nullopt,
                        reviewed ? std::optional<std::string>("FullReview") : std::nullopt});
      if (i % 25 == 0) t.Run(kSensitivity, {"connected", id, i % 50 == 0 ? "Restricted" : "Public", i % 50 == 0, 0, "scanner"});
      sources.push_back({id, "wiki:doc" + std::to_string(i), "Page " + std::to_string(i), false, owner, true});
    }
    s.Commit();
  }
  for (auto& src : sources)
    if (!src.owner.empty())
      for (size_t i = 35; i < owners.size(); ++i)
        if (owners[i] == src.owner) src.owner_active = false;

  // Evidence: 3 variants per source, stored once, as AppendDecision would.
  std::vector<std::array<trust::StoredEvidence, 3>> evidence(sources.size());
  {
    storage::Session s(*db, storage::TxMode::kWrite);
    storage::TenantSession t(s, admin.tenant_id);
    for (size_t i = 0; i < sources.size(); ++i)
      for (int v = 0; v < 3; ++v) {
        trust::LedgerRecord r;
        r.decision_id = NewId();
        r.evaluated_at = start;
        r.endpoint = "Evaluate";
        r.actor_kind = "user";
        r.overall = "allow";
        r.evidence = {EvidenceBody(sources[i], v, start + 10 * kMsPerDay)};
        // A one-source record stores the evidence; its id and hash are reused below.
        evidence[i][v] = trust::AppendDecision(t, r).stored[0];
      }
    s.Commit();
  }
  const int64_t seeded_records = static_cast<int64_t>(sources.size()) * 3;
  std::printf("seeded %zu sources, %lld evidence rows in %.1f s\n", sources.size(),
              static_cast<long long>(seeded_records), Ms(t0) / 1000);

  // Decisions: 100 sources drawn uniformly from the 3,000.
  const auto t1 = std::chrono::steady_clock::now();
  std::vector<std::string> decision_ids;
  decision_ids.reserve(static_cast<size_t>(decisions));
  std::vector<std::vector<int>> picks;  // the first 5 sources of each decision, for usage
  picks.reserve(static_cast<size_t>(decisions));
  const int64_t per_tx = 10'000;
  const int64_t to_append = decisions - seeded_records;
  for (int64_t done = 0; done < to_append;) {
    storage::Session s(*db, storage::TxMode::kWrite);
    storage::TenantSession t(s, admin.tenant_id);
    for (int64_t k = 0; k < per_tx && done < to_append; ++k, ++done) {
      trust::LedgerRecord r;
      r.decision_id = NewId();
      r.evaluated_at = start + static_cast<TimeMs>((static_cast<double>(done) / static_cast<double>(to_append)) *
                                                   static_cast<double>(kDays * kMsPerDay));
      r.endpoint = "Evaluate";
      r.actor_kind = "machine";
      const size_t app = rng() % 7;  // 6 apps, and calls without an app
      if (app < 6) r.app_id = apps[app];
      r.channel = app < 6 ? "" : "internal";
      r.evidence.resize(kPerDecision);
      r.evidence_stored.resize(kPerDecision);
      std::vector<int> first;
      for (int j = 0; j < kPerDecision; ++j) {
        const int src = static_cast<int>(rng() % sources.size());
        const int roll = static_cast<int>(rng() % 100);
        // 15% of the sources are blocked (expired, unreviewed for customers)
        // in half of their evaluations; a quarter of the rest warn.
        const bool blockable = src % 20 < 3;
        const int v = blockable && roll < 50 ? 2 : roll < 25 ? 1 : 0;
        r.evidence_stored[j] = &evidence[src][v];
        if (j < 5) first.push_back(src * 3 + v);
        ++r.counts.total;
        (v == 0 ? r.counts.allowed : v == 1 ? r.counts.warned : r.counts.blocked)++;
      }
      r.overall = r.counts.blocked > 0 ? "block" : r.counts.warned > 0 ? "warn" : "allow";
      trust::AppendDecision(t, r);
      decision_ids.push_back(r.decision_id);
      picks.push_back(std::move(first));
    }
    s.Commit();
  }
  std::printf("appended %lld ledger records (%d sources each) in %.1f s\n", static_cast<long long>(to_append),
              kPerDecision, Ms(t1) / 1000);

  const auto t2 = std::chrono::steady_clock::now();
  {
    storage::Session s(*db, storage::TxMode::kWrite);
    storage::TenantSession t(s, admin.tenant_id);
    for (int64_t i = 0; i < usages; ++i) {
      const size_t d = rng() % decision_ids.size();
      std::vector<std::string> used;
      for (int code : picks[d]) used.push_back(sources[static_cast<size_t>(code / 3)].source_id);
      const bool linked = i % 10 != 0;
      const TimeMs at = start + static_cast<TimeMs>((static_cast<double>(d) / static_cast<double>(decision_ids.size())) *
                                                    static_cast<double>(kDays * kMsPerDay)) + 1000;
      t.Run(kUsage, {NewId(), linked ? std::optional<std::string>(decision_ids[d]) : std::nullopt,
                     StringListToJson(used), apps[rng() % apps.size()], std::min(at, end - 1)});
    }
    s.Commit();
  }
  std::printf("inserted %lld usage records in %.1f s\n", static_cast<long long>(usages), Ms(t2) / 1000);

  reports::Rollup rollup(*db, clock);
  const auto t3 = std::chrono::steady_clock::now();
  const auto stats = rollup.RunOnce();
  const double rollup_ms = Ms(t3);
  std::printf("rollup from nothing: %lld decisions, %lld usage, %lld evidence rows in %.1f s (%.0f decisions/s)\n",
              static_cast<long long>(stats.decisions), static_cast<long long>(stats.usage),
              static_cast<long long>(stats.evidence), rollup_ms / 1000,
              static_cast<double>(stats.decisions) / (rollup_ms / 1000));

  // A small increment, as the background job or a report's catch-up sees it.
  {
    storage::Session s(*db, storage::TxMode::kWrite);
    storage::TenantSession t(s, admin.tenant_id);
    for (int k = 0; k < 1000; ++k) {
      trust::LedgerRecord r;
      r.decision_id = NewId();
      r.evaluated_at = end - 1000;
      r.endpoint = "Evaluate";
      r.actor_kind = "machine";
      r.app_id = apps[0];
      r.overall = "allow";
      for (int j = 0; j < kPerDecision; ++j) {
        r.evidence.emplace_back();
        r.evidence_stored.push_back(&evidence[rng() % sources.size()][0]);
      }
      r.counts.total = r.counts.allowed = kPerDecision;
      trust::AppendDecision(t, r);
    }
    s.Commit();
  }
  const auto t4 = std::chrono::steady_clock::now();
  const auto inc = rollup.CatchUp(admin.tenant_id);
  std::printf("catch-up of %lld new decisions: %.0f ms\n", static_cast<long long>(inc.decisions), Ms(t4));

  reports::ReportService service(*db, clock);
  const reports::ReportParams whole{FormatDate(start), FormatDate(end - 1), std::nullopt};
  const reports::ReportParams one_app{FormatDate(start), FormatDate(end - 1), apps[0]};
  std::printf("\n| report | rows | whole window, ms | one app, ms |\n|---|---:|---:|---:|\n");
  for (const auto& info : reports::Catalog()) {
    double best = 1e18, best_app = 1e18;
    size_t rows = 0;
    for (int rep = 0; rep < 3; ++rep) {
      auto a = std::chrono::steady_clock::now();
      auto r = service.Run(admin, info.key, whole);
      best = std::min(best, Ms(a));
      if (!r) {
        std::fprintf(stderr, "%s failed: %s\n", info.key.c_str(), r.error().detail.c_str());
        return 1;
      }
      rows = r->rows.size();
      a = std::chrono::steady_clock::now();
      auto ra = service.Run(admin, info.key, one_app);
      best_app = std::min(best_app, Ms(a));
    }
    std::printf("| %s | %zu | %.0f | %.0f |\n", info.key.c_str(), rows, best, best_app);
  }
  return 0;
}
