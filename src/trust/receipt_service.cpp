#include "trust/receipt_service.h"

#include "storage/session.h"
#include "trust/ledger.h"

namespace credence::trust {
namespace {

Status RequireTenant(const identity::Principal& caller) {
  if (caller.tenant_id.empty()) return Error::Unauthenticated("missing_credentials", "Sign in or send a key.");
  return Ok();
}

Error NoCheckpoint() {
  Error e = Error::NotFound("The tenant's decision log has no checkpoint of that size.");
  e.code = "checkpoint_not_found";
  return e;
}

}  // namespace

ReceiptService::ReceiptService(storage::Database& db, const integrity::MerkleLogs& logs, int64_t retry_after_seconds)
    : db_(db), logs_(logs), retry_after_seconds_(retry_after_seconds) {}

Result<Receipt> ReceiptService::GetReceipt(const identity::Principal& caller, const std::string& decision_id,
                                           std::optional<int64_t> tree_size,
                                           std::optional<int64_t> consistency_from) const {
  CR_TRY(RequireTenant(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto decision = ReadDecision(tenant, decision_id);
  if (!decision) return Error::NotFound("Decision not found.");
  const auto state = logs_.State(tenant, kLedgerChain);
  const auto checkpoint =
      tree_size ? logs_.CheckpointAt(tenant, kLedgerChain, *tree_size) : logs_.NewestCheckpoint(tenant, kLedgerChain);
  if (tree_size && !checkpoint)
    return Error::Validation({{"treeSize", "no checkpoint of the tenant's log has tree size " +
                                               std::to_string(*tree_size) + " (GET /api/trust/log/checkpoints)"}});
  const int64_t leaf = state ? decision->seq - state->first_seq : -1;
  if (!state || !checkpoint || leaf < 0 || leaf >= checkpoint->size) {
    if (tree_size)
      return Error::Validation(
          {{"treeSize", "the checkpoint of tree size " + std::to_string(*tree_size) +
                            " does not cover this decision (record " + std::to_string(decision->seq) + ")"}});
    return Error::Conflict("receipt_not_ready", "No checkpoint covers this decision yet; one is signed within " +
                                                    std::to_string(retry_after_seconds_) + " seconds.")
        .With("retryAfter", "\"" + std::to_string(retry_after_seconds_) + "\"");
  }
  if (consistency_from && *consistency_from > checkpoint->size)
    return Error::Validation(
        {{"consistencyFrom", "must be at most the checkpoint's tree size, " + std::to_string(checkpoint->size)}});
  Receipt r;
  r.decision_id = decision_id;
  r.record.tenant_id = caller.tenant_id;
  r.record.sequence = decision->seq;
  r.record.hash_format = decision->hash_format;
  r.record.previous_hash = decision->prev_hash;
  r.record.header = decision->header_json;
  r.record.evidence = std::move(decision->record.evidence);
  r.record.hash = decision->hash;
  r.leaf_index = static_cast<uint64_t>(leaf);
  r.tree_size = static_cast<uint64_t>(checkpoint->size);
  r.inclusion_proof = logs_.InclusionProof(tenant, kLedgerChain, r.leaf_index, r.tree_size);
  r.checkpoint = checkpoint->note;
  if (auto key = logs_.VerifierKeyFor(state->origin, checkpoint->key_id))
    r.verifier_key = integrity::note::Encode(*key);
  if (consistency_from)
    r.consistency = Receipt::Consistency{
        static_cast<uint64_t>(*consistency_from),
        logs_.ConsistencyProof(tenant, kLedgerChain, static_cast<uint64_t>(*consistency_from), r.tree_size)};
  return r;
}

Result<LogInfo> ReceiptService::Log(const identity::Principal& caller) const {
  CR_TRY(RequireTenant(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  LogInfo out;
  out.origin = logs_.OriginOf(tenant, kLedgerChain);
  out.verifier_keys = logs_.VerifierKeys(out.origin);
  if (auto state = logs_.State(tenant, kLedgerChain)) {
    out.first_sequence = state->first_seq;
    out.tree_size = state->size;
  }
  out.newest = logs_.NewestCheckpoint(tenant, kLedgerChain);
  return out;
}

Result<integrity::StoredCheckpoint> ReceiptService::Checkpoint(const identity::Principal& caller,
                                                               std::optional<int64_t> size) const {
  CR_TRY(RequireTenant(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto c = size ? logs_.CheckpointAt(tenant, kLedgerChain, *size) : logs_.NewestCheckpoint(tenant, kLedgerChain);
  if (!c) return NoCheckpoint();
  return std::move(*c);
}

Result<std::vector<integrity::StoredCheckpoint>> ReceiptService::Checkpoints(const identity::Principal& caller,
                                                                             int64_t before_size, int64_t limit) const {
  CR_TRY(RequireTenant(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  return logs_.ListCheckpoints(tenant, kLedgerChain, before_size, limit);
}

Result<ConsistencyAnswer> ReceiptService::Consistency(const identity::Principal& caller, int64_t from,
                                                      std::optional<int64_t> to) const {
  CR_TRY(RequireTenant(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto checkpoint = to ? logs_.CheckpointAt(tenant, kLedgerChain, *to) : logs_.NewestCheckpoint(tenant, kLedgerChain);
  if (!checkpoint) {
    if (to)
      return Error::Validation({{"to", "no checkpoint of the tenant's log has tree size " + std::to_string(*to) +
                                           " (GET /api/trust/log/checkpoints)"}});
    return NoCheckpoint();
  }
  if (from > checkpoint->size)
    return Error::Validation({{"from", "must be at most the newer tree size, " + std::to_string(checkpoint->size)}});
  ConsistencyAnswer out;
  out.from = from;
  out.to = checkpoint->size;
  out.proof = logs_.ConsistencyProof(tenant, kLedgerChain, static_cast<uint64_t>(from),
                                     static_cast<uint64_t>(checkpoint->size));
  out.to_checkpoint = std::move(*checkpoint);
  return out;
}

}  // namespace credence::trust
