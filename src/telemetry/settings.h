#pragma once
// Tracing's configuration, read from the standard OpenTelemetry environment
// variables (docs/tracing.md has the list). No endpoint, no tracing: every
// span is inert and nothing is exported.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/result.h"
#include "telemetry/sampler.h"

namespace credence::telemetry {

struct TracingSettings {
  bool enabled = false;  // an endpoint is configured and OTEL_SDK_DISABLED is not true
  std::string endpoint;  // the full URL spans are POSTed to
  std::vector<std::pair<std::string, std::string>> headers;
  std::string service_name = "credence";
  // OTEL_RESOURCE_ATTRIBUTES, service.name excluded (it is service_name).
  std::vector<std::pair<std::string, std::string>> resource_attributes;
  Sampler sampler;
  int64_t export_timeout_ms = 10'000;  // per POST
  int64_t schedule_delay_ms = 5'000;   // the longest a span waits in the queue
  size_t max_queue_size = 2'048;       // beyond, spans are dropped and counted
  size_t max_batch_size = 512;         // spans per POST
};

using Getenv = std::function<std::optional<std::string>(const std::string& name)>;

// The settings the environment gives. An invalid value is an error whose
// detail starts with the variable's name, e.g. "OTEL_TRACES_SAMPLER:
// 'sometimes' is not a sampler; expected ...". An empty variable counts as
// unset, as the OTel specification says.
Result<TracingSettings> ReadTracingSettings(const Getenv& env);

}  // namespace credence::telemetry
