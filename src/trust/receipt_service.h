#pragma once
// Receipts and checkpoints of the tenants' decision ledgers
// (docs/receipts.md): a decision's receipt built from its stored record and
// the tenant's Merkle log (integrity/merkle_log.h), the log's verifier keys,
// its signed checkpoints (the newest, by size, a page of them) and
// consistency proofs between two sizes. Reads only, each in one read
// transaction, so a receipt's proof and checkpoint come from one snapshot.
// Callers are the tenant's signed-in users and machine credentials with
// trust:read (the route checks the scope); another tenant's decision is a
// 404 like an unknown one.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "identity/principal.h"
#include "integrity/merkle_log.h"
#include "trust/receipt.h"

namespace credence::storage {
class Database;
}

namespace credence::trust {

struct LogInfo {
  std::string origin;
  // One per trusted chain-signing key, the current key first.
  std::vector<integrity::note::VerifierKey> verifier_keys;
  int64_t first_sequence = 1;  // the record of leaf 0
  int64_t tree_size = 0;       // leaves the tree holds (its newest checkpoint may be smaller)
  std::optional<integrity::StoredCheckpoint> newest;
};

struct ConsistencyAnswer {
  int64_t from = 0, to = 0;
  std::vector<integrity::merkle::Hash> proof;
  integrity::StoredCheckpoint to_checkpoint;
};

class ReceiptService {
 public:
  // `retry_after_seconds`: what a receipt not covered by a checkpoint yet
  // tells the caller to wait (the checkpoint builder's interval).
  ReceiptService(storage::Database& db, const integrity::MerkleLogs& logs, int64_t retry_after_seconds);

  // The receipt of a decision of the caller's tenant against the newest
  // checkpoint, or the one of `tree_size`; with `consistency_from`, also
  // the consistency proof from that size to the checkpoint's. 404 for an
  // unknown decision or another tenant's; 409 receipt_not_ready (with
  // retryAfter) when no checkpoint covers the decision yet; 400 naming
  // treeSize or consistencyFrom when there is no checkpoint of that size,
  // it does not cover the decision, or the older size is larger.
  Result<Receipt> GetReceipt(const identity::Principal& caller, const std::string& decision_id,
                             std::optional<int64_t> tree_size, std::optional<int64_t> consistency_from) const;
  Result<LogInfo> Log(const identity::Principal& caller) const;
  // The newest checkpoint (nullopt `size`) or the one of `size`; 404
  // checkpoint_not_found when there is none.
  Result<integrity::StoredCheckpoint> Checkpoint(const identity::Principal& caller, std::optional<int64_t> size) const;
  // Newest first, below `before_size` (0: from the newest), at most `limit`.
  Result<std::vector<integrity::StoredCheckpoint>> Checkpoints(const identity::Principal& caller, int64_t before_size,
                                                               int64_t limit) const;
  // The consistency proof from tree size `from` to the checkpoint of `to`
  // (the newest when nullopt). 0 <= from <= to; from == to and from == 0
  // have empty proofs (docs/receipts.md). 400 naming `to` when no
  // checkpoint has that size, `from` when it is larger; 404
  // checkpoint_not_found when the log has no checkpoint yet.
  Result<ConsistencyAnswer> Consistency(const identity::Principal& caller, int64_t from,
                                        std::optional<int64_t> to) const;

 private:
  storage::Database& db_;
  const integrity::MerkleLogs& logs_;
  int64_t retry_after_seconds_;
};

}  // namespace credence::trust
