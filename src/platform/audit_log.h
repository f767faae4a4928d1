#pragma once
// The audit log (docs/audit.md): administrative and security-relevant
// actions, recorded by the domain services in the transaction of the action
// itself (identity::AuditRecorder), read and exported by tenant admins, and
// hash-chained per tenant like the decision ledger so that an altered,
// removed or reordered entry is found by Verify.
//
// The chain: entry n of a tenant carries seq n (1, 2, ... without gaps),
// prev_hash (entry n-1's hash; 64 zeros for n = 1) and
// hash = SHA-256(prev_hash "\n" canonical JSON of every other stored column,
// tenant id and seq included) (EntryHash). ReadChainHead and ChainHashAt are
// what a signer of chain heads (src/integrity/) needs.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/audit.h"
#include "identity/principal.h"
#include "integrity/chain_heads.h"

namespace credence::storage {
class Database;
class Session;
class TenantSession;
}  // namespace credence::storage

namespace credence::platform {

inline constexpr char kAuditGenesisHash[] = "0000000000000000000000000000000000000000000000000000000000000000";
inline constexpr int64_t kDefaultAuditPageSize = 50;
inline constexpr int64_t kMaxAuditPageSize = 500;
inline constexpr int64_t kMaxAuditExportSize = 10'000;
// A details object longer than this (serialized) is stored as
// {"truncated": true}: details are a few facts, not a document.
inline constexpr size_t kMaxAuditDetailsBytes = 4096;

// The end of a tenant's chain: its last entry's sequence and hash; {0,
// kAuditGenesisHash} for a tenant with no entries.
struct ChainHead {
  int64_t seq = 0;
  std::string hash = kAuditGenesisHash;
};

struct AuditEntry {
  int64_t seq = 0;
  std::string id;
  TimeMs at = 0;
  identity::AuditActor actor;
  std::string action;
  identity::AuditTarget target;
  std::string outcome;
  std::string request_id;      // empty: none
  std::string client_address;  // empty: none
  std::string user_agent;      // empty: none
  std::string details_json = "{}";
  std::string prev_hash;
  std::string hash;
};

// The query parameters of GET /admin/audit, as received (validated by List).
struct AuditFilter {
  std::optional<std::string> actor;        // an actor id (user id or key id)
  std::optional<std::string> action;       // exact, or a prefix ending in '.'
  std::optional<std::string> target_type;  // exact
  std::optional<std::string> target_id;    // exact
  std::optional<std::string> from;         // YYYY-MM-DD (start of day) or an RFC 3339 timestamp, inclusive
  std::optional<std::string> to;           // YYYY-MM-DD (the whole day) or an RFC 3339 timestamp, inclusive
  std::optional<std::string> cursor;       // nextCursor of the previous page
  std::optional<std::string> limit;        // 1..max
};

struct AuditPage {
  std::vector<AuditEntry> entries;  // newest first
  std::optional<std::string> next_cursor;
};

// The audit log as a chain the integrity module signs heads of.
inline constexpr char kAuditChainName[] = "audit";

struct AuditVerifyResult {
  int64_t checked = 0;
  bool ok = true;
  std::optional<std::string> first_invalid_id;  // none when the entry is missing
  std::optional<int64_t> first_invalid_seq;
  std::string problem;
  // Entries up to here were archived (docs/retention.md): the walk began
  // after them, from the archive boundary's hash.
  std::optional<int64_t> archived_through;
};

// The entries' own check and the check against the signed heads (nullopt
// when this service keeps none).
struct AuditVerification {
  AuditVerifyResult records;
  std::optional<integrity::HeadCheck> heads;
  bool ok() const { return records.ok && (!heads || heads->ok); }
};

class AuditLog final : public identity::AuditRecorder {
 public:
  AuditLog(storage::Database& db, const Clock& clock) : db_(db), clock_(clock) {}

  void Record(storage::TenantSession& tx, const identity::AuditEvent& event) const override;
  void RecordAlone(const std::string& tenant_id, const identity::AuditEvent& event) const override;

  // Tenant admins only (machine credentials never). 400 validation_failed
  // naming the parameter for a bad filter, 400 invalid_cursor for a cursor
  // this server did not hand out. `max_limit` bounds `limit` (its default
  // is kDefaultAuditPageSize, or max_limit for exports).
  Result<AuditPage> List(const identity::Principal& caller, const AuditFilter& filter,
                         int64_t max_limit = kMaxAuditPageSize) const;

  // Where the chain's signed heads are kept (docs/trust.md, "Signed chain
  // heads"); set once at start-up, before requests.
  void SetChainHeads(const integrity::ChainHeads* heads) { heads_ = heads; }

  // Tenant admins only: walks the caller's tenant's whole chain, and checks
  // it against its signed heads and `outside`, a head an auditor kept.
  Result<AuditVerification> Verify(const identity::Principal& caller,
                                   const std::optional<integrity::OutsideHead>& outside = std::nullopt) const;

  // Tenant admins only: the chain's signed heads, newest first, below
  // `before_seq` (0: from the newest).
  Result<std::vector<integrity::SignedHead>> Heads(const identity::Principal& caller, int64_t before_seq,
                                                   int64_t limit) const;

 private:
  storage::Database& db_;
  const Clock& clock_;
  const integrity::ChainHeads* heads_ = nullptr;
};

// The audit chain as the chain-head signer sees it ("audit").
integrity::ChainSource AuditChain();

// --- Storage level: for chain-head signing (src/integrity/) and tests. ---

// The tenant's chain head, read from its last entry (not from audit_heads).
ChainHead ReadChainHead(storage::TenantSession& tenant);
// The stored hash of the tenant's entry `seq`; nullopt when there is none.
std::optional<std::string> ChainHashAt(storage::TenantSession& tenant, int64_t seq);
// Recomputes every hash and link of the tenant's chain from `from_seq` (1:
// the start) through `to_seq` (0: the end, where the chain head row is
// checked against the last entry too).
AuditVerifyResult VerifyAuditChain(storage::TenantSession& tenant, int64_t from_seq = 1, int64_t to_seq = 0);
// Entries `from_seq` to `to_seq` of the tenant's chain, at most `limit`, in
// order (the archiver's read; docs/retention.md).
std::vector<AuditEntry> ReadAuditRange(storage::TenantSession& tenant, int64_t from_seq, int64_t to_seq, int64_t limit);
// Every tenant that has a chain (kPlatformTenantId included once it has one).
std::vector<std::string> AuditChainTenants(storage::Session& session);
// The hash of `entry` as entry `entry.seq` of `tenant_id`'s chain, linked to
// `entry.prev_hash` (entry.hash is not read).
std::string EntryHash(const std::string& tenant_id, const AuditEntry& entry);

}  // namespace credence::platform
