#pragma once
// Tracing for the process: reads the OTEL_* settings, starts the exporter
// and installs the tracer; stopping flushes what is queued. `credence
// serve` holds one for its lifetime (docs/tracing.md).
#include <memory>
#include <string>

#include "core/result.h"
#include "telemetry/settings.h"

namespace credence::telemetry {

class BatchExporter;

class Tracing {
 public:
  // An invalid setting is an error naming its variable. Without an
  // endpoint the result is a Tracing that does nothing (spans inert).
  static Result<std::unique_ptr<Tracing>> Start(const Getenv& env, const std::string& service_version);
  // Uninstalls the tracer and sends the spans still queued (each POST
  // bounded by the export timeout). Call once no thread serves.
  ~Tracing();
  Tracing(const Tracing&) = delete;
  Tracing& operator=(const Tracing&) = delete;

  const TracingSettings& settings() const { return settings_; }

 private:
  explicit Tracing(TracingSettings settings);
  TracingSettings settings_;
  std::unique_ptr<BatchExporter> exporter_;
};

// POSTs an OTLP/JSON body to `settings.endpoint` with libcurl (the
// exporter's Send): "" on a 2xx answer, else why not.
std::string PostOtlp(const TracingSettings& settings, const std::string& body);

}  // namespace credence::telemetry
