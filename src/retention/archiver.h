#pragma once
// Moves records past each tenant's retention out of the database into
// sealed archive files (docs/retention.md), a calendar month per file, for
// the ledger, the usage records and the audit log. For a chain, the last
// archived record gets a signed head, the file carries the records, the
// evidence they reference, the heads and the public keys, and the chain's
// archive boundary moves as the rows are deleted, so what stays goes on
// from the archive's last hash. The file is written and synced before
// anything is deleted; an interrupted deletion is finished by the next run.
#include <cstdint>
#include <string>
#include <vector>

#include "core/clock.h"

namespace credence::storage {
class Database;
}
namespace credence::integrity {
class ChainHeads;
class MerkleLogs;
}  // namespace credence::integrity
namespace credence::identity {
class AuditRecorder;
}

namespace credence::retention {

struct ArchiveRun {
  int64_t tenants = 0;   // tenants looked at
  int64_t archives = 0;  // files written
  int64_t decisions = 0, usage = 0, audit = 0;  // records moved out of the database
  int64_t failed = 0;    // tenants whose pass failed (logged; tried again next run)
  std::vector<std::string> files;
};

class Archiver {
 public:
  // With `logs`, a chain's records are archived only once its tenant's
  // Merkle tree holds them (MerkleLogs::CatchUp; docs/receipts.md).
  Archiver(storage::Database& db, const Clock& clock, const integrity::ChainHeads& heads,
           const identity::AuditRecorder& audit, std::string archive_dir,
           const integrity::MerkleLogs* logs = nullptr);

  // Every tenant; one deployment-wide run at a time (a cluster lock).
  ArchiveRun RunOnce() const;
  // One tenant. Throws on a store or file failure (what was committed
  // stays consistent: the next run goes on from it).
  ArchiveRun RunTenant(const std::string& tenant_id) const;

  const std::string& archive_dir() const { return dir_; }

 private:
  storage::Database& db_;
  const Clock& clock_;
  const integrity::ChainHeads& heads_;
  const integrity::MerkleLogs* logs_;
  const identity::AuditRecorder& audit_;
  std::string dir_;
};

}  // namespace credence::retention
