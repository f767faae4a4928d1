// A SQLite installation to time `credence admin migrate-database` on
// (bench/migrate_database.sh, docs/performance.md):
//
//   migrate_seed DATA_DIR [RECORDS] [SOURCES_PER_RECORD]
//
// Makes DATA_DIR/credence.db (replaced) and DATA_DIR/chain-signing-key.pem
// (kept when present): one tenant; 2,000 sources with 3 evidence variants
// each (allowed, warned, blocked), stored once as the ledger stores them;
// RECORDS ledger records (default 1,000,000) of SOURCES_PER_RECORD sources
// each (default 20, drawn uniformly), appended through the ledger's own
// AppendDecision in transactions of 10,000; 10,000 audit entries; the
// chain heads signed every 100,000 records, as the background job would.
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "app/migrations.h"
#include "core/clock.h"
#include "core/ids.h"
#include "core/json_text.h"
#include "core/logging.h"
#include "identity/audit.h"
#include "identity/principal.h"
#include "integrity/chain_heads.h"
#include "integrity/signing_key.h"
#include "platform/audit_log.h"
#include "storage/database.h"
#include "storage/migrations.h"
#include "storage/session.h"
#include "trust/ledger.h"

using namespace credence;

namespace {

constexpr storage::GlobalQuery kTenant{"bench.tenant",
                                       "INSERT INTO tenants (id, name, slug, created_at) VALUES ($1, $2, $3, 0)"};

// An evidence body in the shape trust_service.cpp writes.
std::string EvidenceBody(int source, int variant) {
  static const char* kDecision[] = {"allow", "warn", "block"};
  std::string reasons = "[]";
  if (variant == 1)
    reasons = R"([{"code":"review_too_old","dimension":"freshness","severity":"warn","message":"m","data":{}}])";
  if (variant == 2)
    reasons = R"([{"code":"expired","dimension":"freshness","severity":"block","message":"m","data":{}}])";
  const std::string id = "doc-" + std::to_string(source);
  std::string out = "{\"result\":";
  JsonObjectWriter r(out);
  r.Str("sourceId", "wiki:" + id).Bool("resolved", true).Str("entryId", id).Str("title", "Page " + id);
  r.Str("origin", "Connected").Str("decision", kDecision[variant]).Bool("escalated", false);
  r.Raw("reasons", reasons).Int("freshnessScore", 50).Str("classification", "Published");
  r.Str("sensitivity", "Internal").Str("policySource", "tenant-default").Str("recommendedAction", "none");
  r.Raw("requirements", R"({"citationRequired":false,"disclaimerRequired":false,"disclaimerText":null})");
  r.Close();
  out += ",\"state\":";
  JsonObjectWriter st(out);
  st.Bool("resolved", true).Str("origin", "Connected").Str("status", "Published").Int("version", 1);
  st.Str("contentUpdatedAt", FormatTimestamp(0)).Null("lastReviewedAt").Null("ownerId");
  st.Str("sensitivity", "Internal").Str("policySource", "tenant-default");
  st.Close();
  out += '}';
  return out;
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: migrate_seed DATA_DIR [RECORDS] [SOURCES_PER_RECORD]\n");
    return 2;
  }
  SetLogLevel(LogLevel::kError);
  const std::filesystem::path dir = argv[1];
  const int64_t records = argc > 2 ? std::atoll(argv[2]) : 1'000'000;
  const int per_record = argc > 3 ? std::atoi(argv[3]) : 20;
  constexpr int kSources = 2000;
  std::filesystem::create_directories(dir);
  for (const char* f : {"credence.db", "credence.db-wal", "credence.db-shm"}) std::filesystem::remove(dir / f);
  auto db = storage::OpenDatabase("sqlite:" + (dir / "credence.db").string(), {});
  storage::ApplyMigrations(*db, app::AllMigrations());
  auto key = integrity::SigningKey::LoadOrCreate((dir / "chain-signing-key.pem").string());
  if (!key) {
    std::fprintf(stderr, "chain-signing key: %s\n", key.error().detail.c_str());
    return 1;
  }
  SystemClock clock;
  const integrity::ChainHeads heads(*db, clock, std::make_shared<const integrity::SigningKey>(std::move(*key)),
                                    {trust::LedgerChain(), platform::AuditChain()});
  heads.RegisterKey();
  std::mt19937_64 rng(42);
  const auto t0 = std::chrono::steady_clock::now();

  identity::Principal admin;
  admin.tenant_id = NewId();
  admin.user_id = NewId();
  admin.role = identity::TenantRole::kOwner;
  {
    storage::Session s(*db, storage::TxMode::kWrite);
    s.Run(kTenant, {admin.tenant_id, "Bench", "bench"});
    s.Commit();
  }

  // Evidence: 3 variants per source, stored once by one-source records.
  std::vector<std::array<trust::StoredEvidence, 3>> evidence(kSources);
  const TimeMs start = clock.Now() - records;  // a millisecond apart, ending now
  {
    storage::Session s(*db, storage::TxMode::kWrite);
    storage::TenantSession t(s, admin.tenant_id);
    for (int i = 0; i < kSources; ++i)
      for (int v = 0; v < 3; ++v) {
        trust::LedgerRecord r;
        r.decision_id = NewId();
        r.evaluated_at = start;
        r.endpoint = "Evaluate";
        r.actor_kind = "machine";
        r.overall = v == 0 ? "allow" : v == 1 ? "warn" : "block";
        r.evidence = {EvidenceBody(i, v)};
        evidence[static_cast<size_t>(i)][static_cast<size_t>(v)] = trust::AppendDecision(t, r).stored[0];
      }
    s.Commit();
  }
  const int64_t seeded = int64_t{kSources} * 3;

  const int64_t per_tx = 10'000;
  int64_t transactions = 0;
  for (int64_t done = seeded; done < records;) {
    storage::Session s(*db, storage::TxMode::kWrite);
    storage::TenantSession t(s, admin.tenant_id);
    for (int64_t k = 0; k < per_tx && done < records; ++k, ++done) {
      trust::LedgerRecord r;
      r.decision_id = NewId();
      r.evaluated_at = start + done;
      r.endpoint = done % 4 == 3 ? "FilterSources" : "Evaluate";
      r.actor_kind = "machine";
      r.actor_label = "bot-" + std::to_string(done % 7);
      r.channel = "internal";
      r.key_id = "key-" + std::to_string(done % 3);
      r.evidence.resize(static_cast<size_t>(per_record));
      r.evidence_stored.resize(static_cast<size_t>(per_record));
      for (int j = 0; j < per_record; ++j) {
        const auto src = static_cast<size_t>(rng() % kSources);
        const int roll = static_cast<int>(rng() % 100);
        const int v = roll < 10 ? 2 : roll < 30 ? 1 : 0;
        r.evidence_stored[static_cast<size_t>(j)] = &evidence[src][static_cast<size_t>(v)];
        ++r.counts.total;
        (v == 0 ? r.counts.allowed : v == 1 ? r.counts.warned : r.counts.blocked)++;
      }
      r.overall = r.counts.blocked > 0 ? "block" : r.counts.warned > 0 ? "warn" : "allow";
      trust::AppendDecision(t, r);
    }
    s.Commit();
    if (++transactions % 10 == 0 || done >= records) heads.SignMovedHeads();  // every 100,000 records
  }
  std::printf("appended %lld ledger records (%d sources each) in %.1f s\n", static_cast<long long>(records), per_record,
              Seconds(t0));

  platform::AuditLog audit(*db, clock);
  for (int tx = 0; tx < 100; ++tx) {
    storage::Session s(*db, storage::TxMode::kWrite);
    storage::TenantSession t(s, admin.tenant_id);
    for (int i = 0; i < 100; ++i)
      audit.Record(t, identity::AuditOf(admin, "apikey.created", {"apikey", NewId()}, {{"name", "key"}}));
    s.Commit();
  }
  const auto pass = heads.SignMovedHeads();
  std::printf("10,000 audit entries; chain heads signed (%lld in the last pass); total %.1f s\n",
              static_cast<long long>(pass.signed_heads), Seconds(t0));
  return 0;
}
