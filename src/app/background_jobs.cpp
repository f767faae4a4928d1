#include "app/background_jobs.h"

#include <pthread.h>

#include <chrono>
#include <exception>
#include <string>
#include <string_view>

#include "analytics/analytics_service.h"
#include "connectors/sync_engine.h"
#include "core/logging.h"
#include "integrity/chain_heads.h"
#include "integrity/merkle_log.h"
#include "lifecycle/scheduler.h"
#include "notify/outbox.h"
#include "reports/report_service.h"
#include "retention/archiver.h"
#include "translation/jobs.h"

namespace credence::app {

BackgroundJobs::BackgroundJobs(const lifecycle::ExpiryScheduler& scheduler, const notify::OutboxWorker& outbox,
                               const reports::ReportService& reports, int64_t interval_ms,
                               const integrity::ChainHeads* chain_heads, int64_t chain_head_interval_ms,
                               const connectors::ConnectorSyncer* connectors,
                               const analytics::AnalyticsService* analytics,
                               const translation::TranslationJobs* translation_jobs,
                               const retention::Archiver* archiver, int64_t archive_interval_ms,
                               const integrity::MerkleLogs* merkle_logs)
    : scheduler_(scheduler),
      outbox_(outbox),
      reports_(reports),
      interval_ms_(interval_ms),
      chain_heads_(chain_heads),
      chain_head_interval_ms_(chain_head_interval_ms),
      connectors_(connectors),
      analytics_(analytics),
      translation_jobs_(translation_jobs),
      archiver_(archiver),
      archive_interval_ms_(archive_interval_ms),
      merkle_logs_(merkle_logs),
      thread_([this] { Loop(); }) {}

namespace {

// A failing pass (the store briefly unavailable, say) is logged and
// retried on the next tick; nothing it did half-way is committed.
template <typename Pass>
void RunJob(std::string_view job, Pass&& pass) {
  try {
    pass();
  } catch (const std::exception& e) {
    LogLine(LogLevel::kError, std::string(job) + " pass failed").Str("error", e.what());
  }
}

}  // namespace

BackgroundJobs::~BackgroundJobs() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void BackgroundJobs::Wake() {
  {
    std::lock_guard lock(mu_);
    syncs_requested_ = true;
  }
  wake_.notify_all();
}

void BackgroundJobs::RunConnectorSyncs() const {
  if (connectors_ == nullptr) return;
  RunJob("connector syncs", [&] {
    const auto c = connectors_->RunOnce();
    if (c.started + c.scheduled > 0)
      LogLine(LogLevel::kInfo, "connector syncs pass")
          .Int("scheduled", c.scheduled)
          .Int("started", c.started)
          .Int("succeeded", c.succeeded)
          .Int("failed", c.failed)
          .Int("leaseHeld", c.lease_held);
  });
}

void BackgroundJobs::Loop() {
  // Named, so that its CPU time can be told apart (top -H, /proc/<pid>/task;
  // bench/receipts_load.sh reads it).
  pthread_setname_np(pthread_self(), "credence-jobs");
  // Steady time, not the service clock: a test clock moved by days must not
  // sign on every tick.
  auto last_signed = std::chrono::steady_clock::now();
  // Pruning scans the raw events: hourly is plenty for a retention in days.
  constexpr auto kPruneEvery = std::chrono::hours(1);
  auto last_pruned = std::chrono::steady_clock::now() - kPruneEvery;
  // Archiving reads whole months: on its own, longer interval; its first
  // pass after one interval, not at start-up.
  auto last_archived = std::chrono::steady_clock::now();
  auto next_pass = std::chrono::steady_clock::now() + std::chrono::milliseconds(interval_ms_);
  for (;;) {
    bool full_pass = false;
    {
      std::unique_lock lock(mu_);
      wake_.wait_until(lock, next_pass, [this] { return stopping_ || syncs_requested_; });
      if (stopping_) return;
      full_pass = std::chrono::steady_clock::now() >= next_pass;
      // Cleared before the pass reads the open runs: a run queued after
      // that read wakes the thread again once this pass is done.
      syncs_requested_ = false;
    }
    // Woken by sync-now: the connector syncs alone, not the outbox or the
    // scheduler in front of them (a slow webhook would delay the sync), and
    // the full pass keeps its time.
    if (!full_pass) {
      RunConnectorSyncs();
      continue;
    }
    RunJob("expiry scheduler", [&] {
      const auto s = scheduler_.RunOnce();
      if (s.transitions > 0)
        LogLine(LogLevel::kInfo, "expiry scheduler pass")
            .Int("checked", s.checked)
            .Int("transitions", s.transitions)
            .Int("notifications", s.notifications);
    });
    RunJob("outbox", [&] {
      const auto o = outbox_.RunOnce();
      if (o.delivered + o.failed + o.dead > 0)
        LogLine(LogLevel::kInfo, "outbox pass")
            .Int("delivered", o.delivered)
            .Int("failed", o.failed)
            .Int("dead", o.dead);
    });
    // The reports' aggregates, so that a report's own catch-up stays small.
    RunJob("reports rollup", [&] {
      const auto r = reports_.RunRollup();
      if (r.decisions + r.usage > 0)
        LogLine(LogLevel::kInfo, "reports rollup pass")
            .Int("tenants", r.tenants)
            .Int("decisions", r.decisions)
            .Int("usage", r.usage);
    });
    RunConnectorSyncs();
    if (translation_jobs_ != nullptr)
      RunJob("machine translation jobs", [&] {
        const auto t = translation_jobs_->RunOnce();
        if (t.claimed > 0)
          LogLine(LogLevel::kInfo, "machine translation jobs pass")
              .Int("translated", t.translated)
              .Int("failed", t.failed)
              .Int("gaveUp", t.gave_up);
      });
    // Raw analytics events past each tenant's retention (the aggregates stay).
    if (analytics_ != nullptr && std::chrono::steady_clock::now() - last_pruned >= kPruneEvery) {
      last_pruned = std::chrono::steady_clock::now();
      RunJob("analytics pruning", [&] {
        const auto p = analytics_->Prune();
        if (p.events_deleted > 0) LogLine(LogLevel::kInfo, "analytics pruning pass").Int("deleted", p.events_deleted);
      });
    }
    if (archiver_ != nullptr &&
        std::chrono::steady_clock::now() - last_archived >= std::chrono::milliseconds(archive_interval_ms_)) {
      last_archived = std::chrono::steady_clock::now();
      RunJob("archiving", [&] {
        const auto a = archiver_->RunOnce();
        if (a.archives + a.failed > 0)
          LogLine(LogLevel::kInfo, "archiving pass")
              .Int("archives", a.archives)
              .Int("decisions", a.decisions)
              .Int("usage", a.usage)
              .Int("audit", a.audit)
              .Int("failed", a.failed);
      });
    }
    if (chain_heads_ != nullptr &&
        std::chrono::steady_clock::now() - last_signed >= std::chrono::milliseconds(chain_head_interval_ms_)) {
      last_signed = std::chrono::steady_clock::now();
      RunJob("chain heads", [&] {
        const auto h = chain_heads_->SignMovedHeads();
        if (h.signed_heads + h.refused + h.failed > 0)
          LogLine(LogLevel::kInfo, "chain heads pass")
              .Int("tenants", h.tenants)
              .Int("signed", h.signed_heads)
              .Int("refused", h.refused)
              .Int("failed", h.failed);
      });
      // Checkpoints at least as often as heads (docs/receipts.md).
      if (merkle_logs_ != nullptr)
        RunJob("checkpoints", [&] {
          const auto c = merkle_logs_->BuildAndSign();
          if (c.checkpoints + c.refused + c.failed > 0)
            LogLine(LogLevel::kInfo, "checkpoints pass")
                .Int("tenants", c.tenants)
                .Int("leaves", c.leaves)
                .Int("checkpoints", c.checkpoints)
                .Int("refused", c.refused)
                .Int("failed", c.failed);
        });
    }
    next_pass = std::chrono::steady_clock::now() + std::chrono::milliseconds(interval_ms_);
  }
}

}  // namespace credence::app
