#pragma once
// The reports' maintained aggregates (docs/reports.md, "How reports are
// computed"): an incremental fold of the decision ledger and the usage
// records into per-day tables, so that no report reads the ledger.
//
// - Decisions are folded after the tenant's watermark (the last ledger
//   sequence folded), in batches. Each batch is read and aggregated in a
//   read transaction, then written in a short write transaction that first
//   moves the watermark from the value it read to the batch's last sequence
//   (compare-and-set). A concurrent fold of the same batch (another node, a
//   report's catch-up) finds the watermark moved, writes nothing and starts
//   again from the new watermark, so a decision is counted exactly once.
// - Usage records are queued by a trigger (migration 600); a fold deletes
//   the ids it folds with DELETE ... RETURNING and counts only those.
// - Facts are extracted once per evidence row (rows are immutable).
//
// Nothing here runs on the evaluation's write path. Thread-safe: it holds
// no state between calls.
#include <cstdint>
#include <string>

#include "core/clock.h"

namespace credence::storage {
class Database;
}

namespace credence::reports {

struct RollupStats {
  int64_t tenants = 0;    // tenants that had something to fold
  int64_t decisions = 0;  // ledger records folded
  int64_t usage = 0;      // usage records folded
  int64_t evidence = 0;   // evidence rows whose facts were extracted
};

class Rollup {
 public:
  // `batch_decisions`: ledger records per transaction.
  Rollup(storage::Database& db, const Clock& clock, int64_t batch_decisions = 50'000)
      : db_(db), clock_(clock), batch_decisions_(batch_decisions) {}

  // Folds everything of one tenant committed before the call. Throws
  // StorageError when the store fails (nothing half-folded is committed).
  RollupStats CatchUp(const std::string& tenant_id) const;
  // CatchUp for every tenant with something to fold (the background job).
  RollupStats RunOnce() const;

 private:
  // One batch; false when there was nothing to fold.
  bool FoldDecisions(const std::string& tenant_id, RollupStats& stats) const;
  bool FoldUsage(const std::string& tenant_id, RollupStats& stats) const;

  storage::Database& db_;
  const Clock& clock_;
  int64_t batch_decisions_;
};

}  // namespace credence::reports
