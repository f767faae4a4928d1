#pragma once
// Connector syncs in the background jobs (docs/connectors.md, "Syncs"). A
// pass queues the scheduled connectors that are due, then runs the open
// runs (queued, or running with an expired lease: interrupted) one at a
// time. A run holds its connector's lease, renewed with every batch, so
// only one node syncs a connector at once; it commits its documents in
// batches, each with the run's counters and checkpoint, so progress is
// visible and an interrupted run resumes where it stopped.
//
// Thread-safe: several threads (or nodes) may run passes at once; the
// leases keep them apart.
#include <cstdint>
#include <memory>
#include <string>

#include "connectors/secret_box.h"
#include "core/clock.h"
#include "identity/events.h"

namespace credence::storage {
class Database;
}
namespace credence::trust {
class ContentScanning;
}

namespace credence::connectors {

struct SyncOptions {
  std::string node_id;   // names this process in leases
  std::string data_dir;  // mirrors go to <data_dir>/connectors/<tenant>/<connector id>
  int64_t lease_ms = 120'000;
  int64_t batch_size = 200;  // documents per committed batch
  // Development only: a pause after every batch (tests watch progress and
  // interrupt syncs with it).
  int64_t batch_pause_ms = 0;
  int64_t runs_per_pass = 20;
  bool allow_local_repositories = false;  // RepositoryPolicy::allow_local
  // Opens connectors' credentials; null: a connector with one fails its run.
  std::shared_ptr<const SecretBox> secrets;
};

struct SyncPassSummary {
  int64_t scheduled = 0;  // runs queued by schedule
  int64_t started = 0;    // runs this pass worked on
  int64_t succeeded = 0;
  int64_t failed = 0;
  int64_t lease_held = 0;  // runs skipped: another sync holds the connector
};

class ConnectorSyncer {
 public:
  // `scanning` may be null (documents are then not scanned).
  ConnectorSyncer(storage::Database& db, const Clock& clock, const trust::ContentScanning* scanning,
                  SyncOptions options);
  SyncPassSummary RunOnce() const;
  // A failed run emits connector.sync.failed here (docs/webhooks.md).
  void SetEvents(const identity::EventSink* events) { events_ = events; }

 private:
  storage::Database& db_;
  const Clock& clock_;
  const trust::ContentScanning* scanning_;
  SyncOptions options_;
  const identity::EventSink* events_ = nullptr;
};

}  // namespace credence::connectors
