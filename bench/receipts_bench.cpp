// Decision receipts in a large log (docs/performance.md, "Decision
// receipts"), in process, on SQLite:
//
//   receipts_bench DATA_DIR [DECISIONS] [SAMPLES]
//   receipts_bench DATA_DIR reuse [SAMPLES]
//
// Seeds a fresh store in DATA_DIR (credence.db, replaced): one tenant and
// DECISIONS ledger records (default 10,000,000), each of two sources whose
// evidence is stored once (as the ledger shares it), appended through the
// ledger's own AppendDecisions in transactions of 50,000. Then builds the
// tenant's Merkle log from nothing with the checkpoint builder (the pass the
// background jobs run), and fetches SAMPLES (default 1,000) receipts of
// decisions drawn across the whole log through ReceiptService, the call the
// route makes, timing each with its JSON; every receipt is checked offline
// (trust::VerifyReceipt) and its proof length held to ceil(log2 n).
// `reuse` times the receipts again on the store a previous run left (the
// decisions drawn anew), without seeding or building.
#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/migrations.h"
#include "core/clock.h"
#include "core/ids.h"
#include "core/logging.h"
#include "identity/principal.h"
#include "integrity/chain_heads.h"
#include "integrity/merkle_log.h"
#include "integrity/note.h"
#include "integrity/signing_key.h"
#include "storage/database.h"
#include "storage/migrations.h"
#include "storage/session.h"
#include "trust/ledger.h"
#include "trust/receipt.h"
#include "trust/receipt_service.h"

using namespace credence;

namespace {

constexpr storage::GlobalQuery kTenant{"bench.tenant",
                                       "INSERT INTO tenants (id, name, slug, created_at) VALUES ($1, $2, $3, 0)"};
constexpr storage::GlobalQuery kTheTenant{"bench.the_tenant", "SELECT id FROM tenants WHERE slug = 'bench'"};
constexpr storage::TenantQuery kLastSeq{"bench.last_seq", "SELECT MAX(seq) FROM trust_decisions WHERE tenant_id = $1"};
constexpr storage::TenantQuery kIdAt{"bench.id_at", "SELECT id FROM trust_decisions WHERE tenant_id = $1 AND seq = $2"};

double Ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since).count();
}

double CpuSeconds() { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; }

// This thread's CPU time: what a receipt costs, apart from waiting for a
// core on a busy machine.
double ThreadCpuMs() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

// The bench's signing key, kept beside the store so that `reuse` runs sign
// and verify with the same key.
std::shared_ptr<const integrity::SigningKey> BenchKey(const std::filesystem::path& dir) {
  auto key = integrity::SigningKey::LoadOrCreate((dir / "chain-signing-key.pem").string());
  if (!key) throw std::runtime_error(key.error().detail);
  return std::make_shared<const integrity::SigningKey>(std::move(*key));
}

double Percentile(std::vector<double> v, double p) {
  std::sort(v.begin(), v.end());
  return v[std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())))];
}

// Times `samples` receipts of decisions drawn uniformly from the bench
// tenant's log in the store at `dir`; 0 when all verify.
int TimeReceipts(const std::filesystem::path& dir, int samples) {
  auto db = storage::OpenDatabase("sqlite:" + (dir / "credence.db").string(), {});
  storage::ApplyMigrations(*db, app::AllMigrations());
  SystemClock clock;
  std::string tenant_id;
  int64_t decisions = 0;
  std::vector<std::string> sample_ids;
  std::mt19937_64 rng(static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
  {
    storage::Session s(*db, storage::TxMode::kRead);
    tenant_id = s.Run(kTheTenant).front().Text(0);
    storage::TenantSession t(s, tenant_id);
    decisions = t.Run(kLastSeq).front().Int(0);
    for (int i = 0; i < samples; ++i)
      sample_ids.push_back(
          t.Run(kIdAt, {1 + static_cast<int64_t>(rng() % static_cast<uint64_t>(decisions))}).front().Text(0));
  }
  integrity::ChainHeads heads(*db, clock, BenchKey(dir), {trust::LedgerChain()});
  heads.RegisterKey();
  integrity::MerkleLogs logs(*db, clock, heads, "bench.example", {trust::LedgerLeaves()});
  {
    // Nothing to add after a full run; signs a checkpoint when the store has
    // none, and builds the tree again when its tables were emptied.
    const double cpu0 = CpuSeconds();
    const auto pass = logs.BuildAndSign();
    if (pass.leaves > 0)
      std::printf("built the Merkle log: %lld leaves (%.2f us CPU per record)\n", static_cast<long long>(pass.leaves),
                  (CpuSeconds() - cpu0) * 1e6 / static_cast<double>(pass.leaves));
  }
  // Receipts: the service call the route makes, and the receipt's JSON.
  trust::ReceiptService receipts(*db, logs, 60);
  identity::Principal caller;
  caller.tenant_id = tenant_id;
  std::vector<integrity::note::VerifierKey> verifier;
  {
    storage::Session s(*db, storage::TxMode::kRead);
    storage::TenantSession t(s, tenant_id);
    verifier = logs.VerifierKeys(logs.OriginOf(t, trust::kLedgerChain));
  }
  const size_t max_proof = static_cast<size_t>(std::bit_width(static_cast<uint64_t>(decisions) - 1));
  std::vector<double> times, cpu;
  size_t longest = 0;
  int invalid = 0;
  std::shuffle(sample_ids.begin(), sample_ids.end(), rng);
  for (const auto& id : sample_ids) {
    const auto t = std::chrono::steady_clock::now();
    const double c = ThreadCpuMs();
    auto r = receipts.GetReceipt(caller, id, std::nullopt, std::nullopt);
    const std::string json = r ? trust::ReceiptJson(*r) : std::string();
    times.push_back(Ms(t));
    cpu.push_back(ThreadCpuMs() - c);
    if (!r) {
      ++invalid;
      continue;
    }
    longest = std::max(longest, r->inclusion_proof.size());
    auto parsed = trust::ParseReceipt(json);
    if (!parsed || !trust::VerifyReceipt(*parsed, verifier).ok) ++invalid;
  }
  std::printf(
      "%zu receipts in a log of %lld records: p50 %.3f ms, p99 %.3f ms, max %.3f ms (CPU: p50 %.3f, p99 %.3f, "
      "max %.3f ms); longest proof %zu hashes (ceil(log2 n) = %zu); %d did not verify\n",
      times.size(), static_cast<long long>(decisions), Percentile(times, 0.5), Percentile(times, 0.99),
      *std::max_element(times.begin(), times.end()), Percentile(cpu, 0.5), Percentile(cpu, 0.99),
      *std::max_element(cpu.begin(), cpu.end()), longest, max_proof, invalid);
  std::printf("store: %.1f GB\n", static_cast<double>(std::filesystem::file_size(dir / "credence.db")) / 1e9);
  return invalid == 0 && longest <= max_proof ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(
        stderr,
        "usage: receipts_bench DATA_DIR [DECISIONS] [SAMPLES]\n       receipts_bench DATA_DIR reuse [SAMPLES]\n");
    return 2;
  }
  SetLogLevel(LogLevel::kWarn);
  const std::filesystem::path dir = argv[1];
  const bool reuse = argc > 2 && std::string(argv[2]) == "reuse";
  const int64_t decisions = argc > 2 && !reuse ? std::atoll(argv[2]) : 10'000'000;
  const int samples = argc > 3 ? std::atoi(argv[3]) : 1000;
  if (reuse) return TimeReceipts(dir, samples);
  std::filesystem::create_directories(dir);
  for (const char* f : {"credence.db", "credence.db-wal", "credence.db-shm"}) std::filesystem::remove(dir / f);
  auto db = storage::OpenDatabase("sqlite:" + (dir / "credence.db").string(), {});
  storage::ApplyMigrations(*db, app::AllMigrations());
  SystemClock clock;
  const std::string tenant_id = NewId();
  {
    storage::Session s(*db);
    s.Run(kTenant, {tenant_id, "Bench", "bench"});
  }

  // Two evidence bodies per decision from a small pool, stored once.
  std::mt19937_64 rng(28);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<trust::StoredEvidence> evidence;
  {
    storage::Session s(*db, storage::TxMode::kWrite);
    storage::TenantSession t(s, tenant_id);
    for (int i = 0; i < 16; ++i) {
      trust::LedgerRecord r;
      r.decision_id = NewId();
      r.evaluated_at = clock.Now();
      r.endpoint = "Evaluate";
      r.actor_kind = "machine";
      r.overall = i % 4 == 0 ? "block" : "allow";
      r.evidence = {"{\"result\":{\"sourceId\":\"entry:" + std::to_string(i) + "\",\"decision\":\"" + r.overall +
                    "\"},\"state\":{\"status\":\"Published\"}}"};
      evidence.push_back(trust::AppendDecision(t, r).stored[0]);
    }
    s.Commit();
  }
  std::optional<trust::ChainTip> tip;
  const int64_t per_tx = 50'000;
  std::vector<trust::LedgerRecord> batch(static_cast<size_t>(per_tx));
  std::vector<const trust::LedgerRecord*> pointers;
  for (int64_t done = 16; done < decisions;) {
    storage::Session s(*db, storage::TxMode::kWrite);
    storage::TenantSession t(s, tenant_id);
    pointers.clear();
    for (int64_t k = 0; k < per_tx && done < decisions; ++k, ++done) {
      trust::LedgerRecord& r = batch[static_cast<size_t>(k)];
      r.decision_id = NewId();
      r.evaluated_at = clock.Now();
      r.endpoint = "Evaluate";
      r.actor_kind = "machine";
      r.actor_label = "bench-bot";
      r.channel = "internal";
      r.evidence.assign(2, std::string());
      r.evidence_stored = {&evidence[rng() % evidence.size()], &evidence[rng() % evidence.size()]};
      r.counts = {2, 2, 0, 0, 0};
      r.overall = "allow";
      pointers.push_back(&r);
    }
    trust::AppendDecisions(t, pointers, nullptr, tip);
    s.Commit();
    if ((done / per_tx) % 20 == 0) std::fprintf(stderr, "  %lld records\n", static_cast<long long>(done));
  }
  std::printf("appended %lld ledger records in %.1f s\n", static_cast<long long>(decisions), Ms(t0) / 1000);

  // The checkpoint builder from nothing: every leaf, every tile, one checkpoint.
  std::filesystem::remove(dir / "chain-signing-key.pem");
  integrity::ChainHeads heads(*db, clock, BenchKey(dir), {trust::LedgerChain()});
  heads.RegisterKey();
  integrity::MerkleLogs logs(*db, clock, heads, "bench.example", {trust::LedgerLeaves()});
  const double cpu0 = CpuSeconds();
  const auto t1 = std::chrono::steady_clock::now();
  const auto pass = logs.BuildAndSign();
  const double build_s = Ms(t1) / 1000, build_cpu = CpuSeconds() - cpu0;
  std::printf("built the Merkle log: %lld leaves, %lld checkpoint in %.1f s (%.2f us CPU per record)\n",
              static_cast<long long>(pass.leaves), static_cast<long long>(pass.checkpoints), build_s,
              build_cpu * 1e6 / static_cast<double>(pass.leaves));
  int64_t tiles = 0, tile_bytes = 0;
  {
    storage::Session s(*db);
    auto rows = s.connection().Execute("bench.tiles", "SELECT COUNT(*), SUM(LENGTH(hashes)) FROM merkle_tiles", {});
    tiles = rows.front().Int(0);
    tile_bytes = rows.front().Int(1);
  }
  std::printf("tiles: %lld rows, %.1f MB of hashes (%.1f bytes per record)\n", static_cast<long long>(tiles),
              static_cast<double>(tile_bytes) / 1e6, static_cast<double>(tile_bytes) / static_cast<double>(decisions));

  db.reset();
  return TimeReceipts(dir, samples);
}
