#pragma once
// The OTLP/JSON encoding of a batch of spans (an ExportTraceServiceRequest,
// opentelemetry-proto's JSON mapping: ids in lowercase hex, 64-bit integers
// as strings). Pure.
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "telemetry/span.h"

namespace credence::telemetry {

struct Resource {
  std::string service_name;
  std::string service_version;
  std::vector<std::pair<std::string, std::string>> attributes;
};

std::string EncodeOtlpJson(const Resource& resource, const std::vector<std::unique_ptr<SpanData>>& spans);

}  // namespace credence::telemetry
