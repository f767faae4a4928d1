#pragma once
// Per-tenant Merkle logs over the hash chains (docs/receipts.md): each
// tenant's chain (the decision ledger) is also an RFC 9162 tree whose leaf i
// is the record at sequence first_seq + i, its leaf data the 32 bytes of the
// record's hash. A background builder (the job that signs chain heads)
// appends the hashes of new records to the tenant's tiles and signs a C2SP
// checkpoint of the new size with the chain-signing key, as a signed note
// under the log's origin; proofs are read from a few stored tiles, so a
// receipt costs a handful of indexed reads whatever the log's size.
//
// Storage (migration 802): merkle_logs (per tenant and chain: the origin,
// the first sequence, the size the tiles hold), merkle_tiles (the hashes of
// tree levels 0, 8, 16, ..., 256 raw 32-byte hashes a row: merkle.h,
// "Tiles"), merkle_checkpoints (the signed notes). Tiles are never removed:
// records archived out of the database keep their leaves, so proofs for
// the records that stay, and consistency from any older checkpoint, go on
// working. Several nodes may build at once: a pass moves the log's size by
// compare-and-set, in the transaction that writes its tiles.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "integrity/merkle.h"
#include "integrity/note.h"

namespace credence::storage {
class Database;
class Session;
class TenantSession;
struct GlobalQuery;
struct TenantQuery;
}  // namespace credence::storage

namespace credence::integrity {

class ChainHeads;

// What a log is built from: a chain kept per tenant, records numbered
// without gaps, each with a 32-byte hash (stored as lowercase hex) that
// covers its predecessor's.
struct LeafSource {
  std::string chain;  // "ledger": also in the log's origin
  std::function<std::vector<std::string>(storage::Session&)> tenants;
  struct Record {
    int64_t seq = 0;
    merkle::Hash hash{};  // the leaf's data
    bool valid = true;    // false when the stored hash is not 32 bytes of hex
  };
  // Up to `limit` records from sequence `from_seq` on, in order.
  std::function<std::vector<Record>(storage::TenantSession&, int64_t from_seq, int64_t limit)> records;
  // The hash record `seq` links to (its predecessor's, hex); nullopt when
  // there is no such record.
  std::function<std::optional<std::string>(storage::TenantSession&, int64_t seq)> previous_hash;
  // The first record still in the database; nullopt when there is none.
  std::function<std::optional<int64_t>(storage::TenantSession&)> first_seq;
};
// From four statements: tenants (no parameters; tenant ids); records ($1
// tenant, $2 from sequence, $3 limit; columns seq, hash); previous ($1
// tenant, $2 sequence; one column, the hash it links to); first ($1 tenant;
// one column, NULL when empty). The queries must outlive it.
LeafSource SqlLeafSource(std::string chain, const storage::GlobalQuery& tenants, const storage::TenantQuery& records,
                         const storage::TenantQuery& previous, const storage::TenantQuery& first);

// The prefix of every origin: the public URL without its scheme and trailing
// slash ("credence.example.com"), or "credence" when that is not a valid
// key name.
std::string OriginPrefixOf(std::string_view public_url);

struct LogState {
  std::string origin;
  int64_t first_seq = 1;  // the record of leaf 0
  int64_t size = 0;       // leaves in the tiles
};

struct StoredCheckpoint {
  int64_t size = 0;
  merkle::Hash root{};
  TimeMs signed_at = 0;
  std::string key_id;  // the chain-signing key's id (signing_key.h)
  std::string note;    // the signed note, as served
};

struct BuildPass {
  int64_t tenants = 0;      // tenant logs looked at
  int64_t leaves = 0;       // leaves added
  int64_t checkpoints = 0;  // checkpoints signed
  int64_t refused = 0;      // logs whose chain does not continue the tree (logged)
  int64_t failed = 0;       // logs that could not be read or written (logged; tried again next pass)
};

class MerkleLogs {
 public:
  // Signs with `heads`' key (the chain-signing key) and publishes the keys
  // `heads` trusts. `origin_prefix` names new logs (OriginPrefixOf); a log
  // keeps the origin it was created with.
  MerkleLogs(storage::Database& db, const Clock& clock, const ChainHeads& heads, std::string origin_prefix,
             std::vector<LeafSource> sources);

  // For every source and tenant: appends the records the tiles do not hold
  // yet, then signs a checkpoint of the new size. A chain whose next record
  // does not link to the tree's last leaf, or is missing (archived before
  // the tree took it in), is refused and logged; nothing is signed while
  // this node's key is retired.
  BuildPass BuildAndSign() const;
  // The same for one tenant's log of `chain`, before its records are
  // archived: true when the tree then holds every record of the database.
  bool CatchUp(const std::string& tenant_id, std::string_view chain) const;

  // Reads, inside the caller's transaction (a read transaction gives one
  // snapshot of tiles and checkpoints).
  std::optional<LogState> State(storage::TenantSession& tenant, std::string_view chain) const;
  std::optional<StoredCheckpoint> NewestCheckpoint(storage::TenantSession& tenant, std::string_view chain) const;
  std::optional<StoredCheckpoint> CheckpointAt(storage::TenantSession& tenant, std::string_view chain,
                                               int64_t size) const;
  // Newest first, those below `before_size` (0: from the newest), at most `limit`.
  std::vector<StoredCheckpoint> ListCheckpoints(storage::TenantSession& tenant, std::string_view chain,
                                                int64_t before_size, int64_t limit) const;
  // Proofs over the stored tiles; `size` at most the state's size (the
  // caller checks), else std::out_of_range.
  std::vector<merkle::Hash> InclusionProof(storage::TenantSession& tenant, std::string_view chain, uint64_t index,
                                           uint64_t size) const;
  std::vector<merkle::Hash> ConsistencyProof(storage::TenantSession& tenant, std::string_view chain, uint64_t from,
                                             uint64_t to) const;
  merkle::Hash Root(storage::TenantSession& tenant, std::string_view chain, uint64_t size) const;

  // The origin a tenant's log of `chain` has, or would have when created.
  std::string OriginOf(storage::TenantSession& tenant, std::string_view chain) const;
  // The verifier keys of `origin`: one per trusted chain-signing key, the
  // current key first.
  std::vector<note::VerifierKey> VerifierKeys(std::string_view origin) const;
  // The verifier key of `origin` for the chain-signing key `key_id`, as
  // listed (trusted or not: a verifier trusts only the key it holds).
  std::optional<note::VerifierKey> VerifierKeyFor(std::string_view origin, std::string_view key_id) const;

 private:
  enum class Outcome { kUnchanged, kBuilt, kRefused };
  struct TenantOutcome {
    Outcome outcome = Outcome::kUnchanged;
    int64_t leaves = 0;
    bool signed_checkpoint = false;
  };
  TenantOutcome BuildTenant(const LeafSource& source, const std::string& tenant_id, bool sign) const;
  bool SignNewest(const LeafSource& source, const std::string& tenant_id) const;

  storage::Database& db_;
  const Clock& clock_;
  const ChainHeads& heads_;
  std::string origin_prefix_;
  std::vector<LeafSource> sources_;
};

}  // namespace credence::integrity
