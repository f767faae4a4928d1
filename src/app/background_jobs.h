#pragma once
// Runs the expiry scheduler, the analytics' raw-event pruning, the notification outbox, the reports'
// rollup, the connector syncs, the archiving of records past retention (a pass may run long: it syncs the open
// runs one after another) every interval on one thread, until destroyed; and, on its own
// longer interval, signs the chain heads that moved (integrity/chain_heads.h) and extends each tenant's
// Merkle log and signs its checkpoint (integrity/merkle_log.h). All are idempotent
// and guarded (a lease, claims, a compare-and-set watermark), so several
// nodes may run them at once.
//
// Wake (connectors::SyncWaker, called by sync-now) makes the thread run a
// pass of the connector syncs alone as soon as it is free: at once when it
// is waiting, right after the pass in progress otherwise. The full passes
// keep their interval. Thread-safe.
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

#include "connectors/sync_waker.h"

namespace credence::lifecycle {
class ExpiryScheduler;
}
namespace credence::notify {
class OutboxWorker;
}
namespace credence::reports {
class ReportService;
}
namespace credence::integrity {
class ChainHeads;
class MerkleLogs;
}  // namespace credence::integrity
namespace credence::connectors {
class ConnectorSyncer;
}
namespace credence::analytics {
class AnalyticsService;
}
namespace credence::translation {
class TranslationJobs;
}
namespace credence::retention {
class Archiver;
}

namespace credence::app {

class BackgroundJobs final : public connectors::SyncWaker {
 public:
  BackgroundJobs(const lifecycle::ExpiryScheduler& scheduler, const notify::OutboxWorker& outbox,
                 const reports::ReportService& reports, int64_t interval_ms,
                 const integrity::ChainHeads* chain_heads = nullptr, int64_t chain_head_interval_ms = 60'000,
                 const connectors::ConnectorSyncer* connectors = nullptr,
                 const analytics::AnalyticsService* analytics = nullptr,
                 const translation::TranslationJobs* translation_jobs = nullptr,
                 const retention::Archiver* archiver = nullptr, int64_t archive_interval_ms = 3'600'000,
                 const integrity::MerkleLogs* merkle_logs = nullptr);
  ~BackgroundJobs() override;  // stops after the pass in progress
  BackgroundJobs(const BackgroundJobs&) = delete;
  BackgroundJobs& operator=(const BackgroundJobs&) = delete;

  void Wake() override;

 private:
  void Loop();
  void RunConnectorSyncs() const;

  const lifecycle::ExpiryScheduler& scheduler_;
  const notify::OutboxWorker& outbox_;
  const reports::ReportService& reports_;
  int64_t interval_ms_;
  const integrity::ChainHeads* chain_heads_;
  int64_t chain_head_interval_ms_;
  const connectors::ConnectorSyncer* connectors_;
  const analytics::AnalyticsService* analytics_;
  const translation::TranslationJobs* translation_jobs_;
  const retention::Archiver* archiver_;
  int64_t archive_interval_ms_;
  const integrity::MerkleLogs* merkle_logs_;  // built on the chain heads' interval
  std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;         // guarded by mu_
  bool syncs_requested_ = false;  // guarded by mu_; set by Wake, cleared when a connector pass starts
  std::thread thread_;
};

}  // namespace credence::app
