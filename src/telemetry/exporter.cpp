#include "telemetry/exporter.h"

#include <chrono>

#include "core/logging.h"

namespace credence::telemetry {

BatchExporter::BatchExporter(ExporterOptions options, Send send)
    : options_(std::move(options)), send_(std::move(send)) {
  queue_.reserve(options_.max_queue_size);
  thread_ = std::thread([this] { Loop(); });
}

BatchExporter::~BatchExporter() { Shutdown(); }

void BatchExporter::Accept(std::unique_ptr<SpanData> span) {
  bool wake = false;
  {
    std::lock_guard lock(mu_);
    if (stopping_ || queue_.size() >= options_.max_queue_size) {
      ++dropped_;
      return;  // `span` freed here, outside nothing slow
    }
    queue_.push_back(std::move(span));
    wake = queue_.size() == options_.max_batch_size;
  }
  if (wake) wake_.notify_one();
}

void BatchExporter::Shutdown() {
  {
    std::lock_guard lock(mu_);
    if (stopping_ && !thread_.joinable()) return;
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable()) thread_.join();
}

uint64_t BatchExporter::dropped() const {
  std::lock_guard lock(mu_);
  return dropped_;
}
uint64_t BatchExporter::exported() const {
  std::lock_guard lock(mu_);
  return exported_;
}
uint64_t BatchExporter::failed() const {
  std::lock_guard lock(mu_);
  return failed_;
}

void BatchExporter::Loop() {
  const auto delay = std::chrono::milliseconds(options_.schedule_delay_ms);
  auto deadline = std::chrono::steady_clock::now() + delay;
  std::vector<std::unique_ptr<SpanData>> batch;
  batch.reserve(options_.max_batch_size);
  for (;;) {
    bool stopping = false;
    uint64_t dropped = 0;
    {
      std::unique_lock lock(mu_);
      wake_.wait_until(lock, deadline,
                       [&] { return stopping_ || queue_.size() >= options_.max_batch_size; });
      stopping = stopping_;
      dropped = dropped_;
      // Take one batch; the rest stays queued for the next turn, which
      // comes at once when it is full or we are stopping.
      const size_t n = std::min(queue_.size(), options_.max_batch_size);
      for (size_t i = 0; i < n; ++i) batch.push_back(std::move(queue_[i]));
      queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(n));
      if (queue_.size() < options_.max_batch_size) deadline = std::chrono::steady_clock::now() + delay;
      if (stopping && batch.empty()) break;
    }
    if (dropped > dropped_logged_) {
      LogLine(LogLevel::kWarn, "trace spans dropped: the export queue was full")
          .Int("dropped", static_cast<int64_t>(dropped - dropped_logged_))
          .Int("droppedTotal", static_cast<int64_t>(dropped))
          .Int("maxQueueSize", static_cast<int64_t>(options_.max_queue_size));
      dropped_logged_ = dropped;
    }
    if (!batch.empty()) SendBatch(batch);
    batch.clear();
  }
}

void BatchExporter::SendBatch(std::vector<std::unique_ptr<SpanData>>& batch) {
  const std::string body = EncodeOtlpJson(options_.resource, batch);
  std::string error;
  try {
    error = send_(body);
  } catch (const std::exception& e) {
    error = e.what();
  }
  {
    std::lock_guard lock(mu_);
    (error.empty() ? exported_ : failed_) += batch.size();
  }
  // A collector that is down would otherwise log every few seconds: the
  // first failure and the recovery are logged, not each batch in between.
  if (!error.empty() && !failing_) {
    LogLine(LogLevel::kWarn, "trace export failed; spans are dropped until it succeeds")
        .Str("error", error)
        .Int("spans", static_cast<int64_t>(batch.size()));
  } else if (error.empty() && failing_) {
    LogLine(LogLevel::kInfo, "trace export succeeds again");  // NOLINT(bugprone-unused-raii)
  }
  failing_ = !error.empty();
}

}  // namespace credence::telemetry
