#pragma once
// The decision ledger: one record per evaluate or filter-sources call,
// written in the caller's transaction (so a 200 means it is committed).
// Records are chained per tenant: each carries the SHA-256 of its
// predecessor's hash, its own header and its evidence hashes, so an altered
// or removed record is found by Verify. Format 2 (since migration 506)
// hashes the evidence hashes as one digest of their list, which depends only
// on which rows the record references, so the writer computes it once per
// distinct list (EvidenceListDigests) instead of hashing 100 evidence hashes
// per record; format 1 hashed them inline. Format 3 (what appends write now;
// no schema change) also binds the record's tenant and sequence into its
// hash. Verify knows all three, refuses an older format after a newer one,
// and holds every stored column a reader uses (time, actor, channel, key,
// app, counts, evidence references) against the hashed header. Each
// per-source outcome, with the state it was decided on, is stored once
// (content-addressed) and referenced by id, so repeated decisions over the
// same sources stay small.
#include <cstdint>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "integrity/chain_heads.h"
#include "integrity/merkle_log.h"

namespace credence::storage {
class TenantSession;
}

namespace credence::trust {

inline constexpr char kGenesisHash[] = "0000000000000000000000000000000000000000000000000000000000000000";

// An evidence row: its SHA-256 and id.
struct StoredEvidence {
  std::string hash;
  int64_t id = 0;
};

struct LedgerCounts {
  int64_t total = 0, allowed = 0, warned = 0, blocked = 0, escalated = 0;
};

struct LedgerRecord {
  std::string decision_id;
  TimeMs evaluated_at = 0;
  std::string endpoint;    // Evaluate | FilterSources | Mcp
  std::string actor_kind;  // machine | user
  std::string actor_label, actor_type, action, channel;
  std::string context_json = "{}";
  // The context's externalModel and language again (context_json holds
  // them too): stored as columns so a what-if replay reads them from an
  // index, not from the header (what_if.h).
  bool external_model = false;
  std::optional<std::string> language;
  std::optional<std::string> user_id, key_id, app_id;
  // The app that made it, as it was then (config.h AppJson), or null.
  std::string app_json = "null";
  std::string overall;
  LedgerCounts counts;
  // One JSON object per source, in request order: {"result": ..., "state": ...}.
  std::vector<std::string> evidence;
  // Optional, per evidence: where it is already stored, when the caller
  // knows (nothing is hashed or looked up for those), or null. Pointers, not
  // copies: the caller keeps them alive until the append returns.
  std::vector<const StoredEvidence*> evidence_stored;
};

// Evidence already stored: its hash and row id by (tenant, body). Rows are
// immutable and content-addressed, so a committed mapping never goes stale;
// the cache saves hashing the bodies again and looking their ids up. Bounded
// (cleared when full). Thread-safe.
class EvidenceCache {
 public:
  using Known = StoredEvidence;
  explicit EvidenceCache(size_t capacity = 20'000) : capacity_(capacity) {}
  std::optional<Known> Find(const std::string& tenant_id, const std::string& body) const;
  void Add(const std::string& tenant_id, const std::string& body, Known known);

 private:
  struct Entry {
    std::string tenant_id;
    std::string body;
    Known known;
  };
  // Keyed by a hash of tenant and body; the entry holds both, so a lookup
  // compares them instead of building a key string per evidence.
  static size_t Slot(const std::string& tenant_id, const std::string& body);
  size_t capacity_;
  size_t size_ = 0;
  mutable std::shared_mutex mu_;
  std::unordered_multimap<size_t, Entry> known_;
};

// The digest of an evidence-hash list, by (tenant, referenced row ids): the
// rows are immutable and content-addressed, so a list's digest never
// changes. Bounded (cleared when full). Not thread-safe: the ledger writer
// owns one, and adds what an append learned once it is committed (ids of
// rows inserted by a transaction that rolls back may be handed out again).
class EvidenceListDigests {
 public:
  explicit EvidenceListDigests(size_t capacity = 4'096) : capacity_(capacity) {}
  const std::string* Find(const std::string& tenant_id, const std::string& refs) const;
  void Add(const std::string& tenant_id, const std::string& refs, std::string digest);

 private:
  size_t capacity_;
  size_t size_ = 0;
  // tenant -> refs -> digest: looked up without building a key per append.
  std::unordered_map<std::string, std::unordered_map<std::string, std::string>> digests_;
};

struct AppendOutcome {
  // Per evidence, in record order; filled only where the record gave no
  // location (evidence_stored) for it.
  std::vector<StoredEvidence> stored;
  std::vector<size_t> learned;  // the indexes the evidence cache did not know
  // The record's evidence list and its digest, when `list_digests` did not
  // know it.
  std::optional<std::pair<std::string, std::string>> learned_list_digest;
};

// Appends `record` to the tenant's chain inside the session's write
// transaction (the caller commits). Throws StorageError on a unique
// violation of the chain position (another node appended concurrently):
// the caller retries with a fresh transaction. Evidence with a known
// location (record.evidence_stored, then the cache) is neither hashed nor
// looked up. The caller adds what was learned to the cache once committed.
// The end of a tenant's chain: its last record's sequence and hash.
struct ChainTip {
  int64_t seq = 0;
  std::string hash;
};
// `tip`, when given and set, is taken as the chain's end instead of reading
// it, and is moved to the appended record. A stale tip cannot go unnoticed:
// its next sequence is taken, so the insert fails as a unique violation.
AppendOutcome AppendDecision(storage::TenantSession& tx, const LedgerRecord& record,
                             const EvidenceCache* cache = nullptr, std::optional<ChainTip>* tip = nullptr,
                             const EvidenceListDigests* list_digests = nullptr);

// AppendDecision for several records of one tenant, in order: the chain
// moves from `tip` (read from the chain when not set) record by record, and
// the decisions are inserted with one statement per 64 records.
std::vector<AppendOutcome> AppendDecisions(storage::TenantSession& tx, std::span<const LedgerRecord* const> records,
                                           const EvidenceCache* cache, std::optional<ChainTip>& tip,
                                           const EvidenceListDigests* list_digests = nullptr);

// The record as it was written, with its evidence; nullopt when the tenant
// has no such decision.
struct StoredDecision {
  LedgerRecord record;
  std::string header_json;  // exactly what was hashed: the record's answer is built on it
  int64_t seq = 0;
  std::string hash;
  std::string prev_hash;
  int64_t hash_format = 1;  // which formula `hash` was made with (RecordHashOf)
  // Per evidence of record.evidence, in order: its SHA-256 (lowercase hex),
  // as stored beside it; what the record's hash covers.
  std::vector<std::string> evidence_hashes;
};
std::optional<StoredDecision> ReadDecision(storage::TenantSession& tenant, const std::string& decision_id);
// One app's records in [from, to), oldest first (by sequence), those after
// `after_seq`, at most `limit`, each with its evidence (each row loaded once
// per call, however many records share it). Exports page through with it.
std::vector<StoredDecision> ReadAppDecisions(storage::TenantSession& tenant, const std::string& app_id, TimeMs from,
                                             TimeMs to, int64_t after_seq, int64_t limit);

// A record as a replay (what_if.h) reads it: the stored columns the rules'
// context is rebuilt from and the evidence by row id, without the header or
// the evidence bodies (read once per replay, not once per record). SQLite
// answers it from one covering index (migration 510).
struct ReplayRecord {
  int64_t seq = 0;
  TimeMs evaluated_at = 0;
  std::string action, channel, overall;  // the rules read no more of the actor
  std::optional<std::string> app_id;
  bool external_model = false;
  std::optional<std::string> language;
  std::vector<int64_t> evidence_ids;
};
// The records of [from, to) (on an app's alone when `app_id` is set) with a
// sequence in (after_seq, before_seq), oldest first, at most `limit`, in
// `page` (its records are reused: pass the last page back).
void ReadReplayPage(storage::TenantSession& tenant, TimeMs from, TimeMs to, const std::optional<std::string>& app_id,
                    int64_t after_seq, int64_t before_seq, int64_t limit, std::vector<ReplayRecord>& page);
// The sequence of the first record decided at or after `t`, found by
// bisecting the sequence (there is no index on time alone: migration 505);
// one past the last record when none is. Decision times follow the sequence
// up to the nodes' clock skew, so callers widen their window by a margin.
int64_t FirstSeqAtOrAfter(storage::TenantSession& tenant, TimeMs t);
// Decision ids by sequence (a replay's examples).
std::unordered_map<int64_t, std::string> ReadDecisionIds(storage::TenantSession& tenant,
                                                         const std::vector<int64_t>& seqs);
// Evidence bodies by row id.
std::unordered_map<int64_t, std::string> ReadEvidenceBodies(storage::TenantSession& tenant,
                                                            const std::vector<int64_t>& ids);

// One line of the ledger's list: the stored columns, no evidence.
struct DecisionSummary {
  std::string decision_id;
  int64_t seq = 0;
  TimeMs evaluated_at = 0;
  std::string endpoint, actor_kind, actor_label, channel, overall;
  std::optional<std::string> app_id;
  LedgerCounts counts;
};
// Every filter is optional; newest first (by sequence), below `before_seq`
// when given; [from, to) on the decision time.
struct DecisionFilter {
  std::optional<std::string> overall, app_id, channel;
  std::optional<TimeMs> from, to;
  std::optional<int64_t> before_seq;
  int64_t limit = 50;
};
std::vector<DecisionSummary> ListDecisions(storage::TenantSession& tenant, const DecisionFilter& filter);

struct VerifyResult {
  int64_t checked = 0;
  bool ok = true;
  std::optional<std::string> first_invalid_decision_id;
  std::optional<int64_t> first_invalid_seq;
  std::string problem;  // why it does not verify
  // Records up to here were archived (docs/retention.md): the walk began
  // after them, from the archive boundary's hash.
  std::optional<int64_t> archived_through;
};

// Walks the tenant's chain from sequence `from_seq` (1: the start) through
// `to_seq` (0: the end), recomputing every hash.
VerifyResult VerifyChain(storage::TenantSession& tenant, int64_t from_seq, int64_t to_seq);

// For archives (docs/retention.md): the evidence column's ids (throws
// std::invalid_argument when it is not a plain comma-separated list), and a
// record's hash in `format` (1 to 3) from what it covers.
std::vector<int64_t> ParseEvidenceIds(std::string_view text);
std::string RecordHashOf(int64_t format, const std::string& tenant_id, int64_t seq, const std::string& prev_hash,
                         const std::string& header, const std::vector<std::string>& evidence_hashes);
inline constexpr int64_t kNewestHashFormat = 3;

// The ledger as a chain the integrity module signs heads of ("ledger").
inline constexpr char kLedgerChain[] = "ledger";
integrity::ChainSource LedgerChain();
// The ledger as the leaves of each tenant's Merkle log (docs/receipts.md):
// leaf i is the record at sequence first + i, its data the record's hash.
integrity::LeafSource LedgerLeaves();

}  // namespace credence::trust
