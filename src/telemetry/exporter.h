#pragma once
// The batching exporter: ended spans wait in a bounded queue and one
// thread of its own sends them in batches (by size or by time), so no
// request ever waits on the collector. A full queue drops the span and
// counts it. Shutdown sends what is queued.
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "telemetry/otlp_json.h"
#include "telemetry/span.h"

namespace credence::telemetry {

struct ExporterOptions {
  Resource resource;
  int64_t schedule_delay_ms = 5'000;
  size_t max_queue_size = 2'048;
  size_t max_batch_size = 512;
};

class BatchExporter final : public SpanSink {
 public:
  // Sends one encoded batch (an OTLP/JSON body); returns an empty string on
  // success, else what went wrong (logged). Called on the exporter's thread
  // only.
  using Send = std::function<std::string(const std::string& body)>;

  BatchExporter(ExporterOptions options, Send send);
  ~BatchExporter() override;  // Shutdown()
  BatchExporter(const BatchExporter&) = delete;
  BatchExporter& operator=(const BatchExporter&) = delete;

  // Thread-safe; takes a mutex for a push, never waits on the network.
  void Accept(std::unique_ptr<SpanData> span) override;
  // Sends what is queued and stops the thread; later spans are dropped.
  // Idempotent.
  void Shutdown();

  uint64_t dropped() const;   // spans refused by a full queue (or after Shutdown)
  uint64_t exported() const;  // spans in batches the collector accepted
  uint64_t failed() const;    // spans in batches that could not be sent

 private:
  void Loop();
  void SendBatch(std::vector<std::unique_ptr<SpanData>>& batch);

  const ExporterOptions options_;
  const Send send_;
  mutable std::mutex mu_;
  std::condition_variable wake_;
  std::vector<std::unique_ptr<SpanData>> queue_;  // guarded by mu_
  bool stopping_ = false;                          // guarded by mu_
  uint64_t dropped_ = 0;                           // guarded by mu_
  uint64_t exported_ = 0;                          // guarded by mu_
  uint64_t failed_ = 0;                            // guarded by mu_
  bool failing_ = false;  // the last send failed; exporter thread only
  uint64_t dropped_logged_ = 0;  // exporter thread only
  std::thread thread_;
};

}  // namespace credence::telemetry
