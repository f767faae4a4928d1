#include "telemetry/otlp_json.h"

#include "core/json_text.h"

namespace credence::telemetry {
namespace {

void StringAttribute(std::string& out, std::string_view key, std::string_view value) {
  out += "{\"key\":";
  AppendJsonString(out, key);
  out += ",\"value\":{\"stringValue\":";
  AppendJsonString(out, value);
  out += "}}";
}

void Attribute(std::string& out, const SpanData::Attribute& a) {
  if (const auto* s = std::get_if<std::string>(&a.value)) return StringAttribute(out, a.key, *s);
  out += "{\"key\":";
  AppendJsonString(out, a.key);
  if (const auto* i = std::get_if<int64_t>(&a.value)) {
    out += ",\"value\":{\"intValue\":\"" + std::to_string(*i) + "\"}}";
  } else {
    out += std::get<bool>(a.value) ? ",\"value\":{\"boolValue\":true}}" : ",\"value\":{\"boolValue\":false}}";
  }
}

bool IsRoot(const SpanData& span) {
  for (uint8_t b : span.parent_span_id)
    if (b != 0) return false;
  return true;
}

void EncodeSpan(std::string& out, const SpanData& span) {
  out += "{\"traceId\":\"";
  AppendHex(out, span.context.trace_id.data(), span.context.trace_id.size());
  out += "\",\"spanId\":\"";
  AppendHex(out, span.context.span_id.data(), span.context.span_id.size());
  out += '"';
  if (!IsRoot(span)) {
    out += ",\"parentSpanId\":\"";
    AppendHex(out, span.parent_span_id.data(), span.parent_span_id.size());
    out += '"';
  }
  if (!span.tracestate.empty()) {
    out += ",\"traceState\":";
    AppendJsonString(out, span.tracestate);
  }
  out += ",\"flags\":" + std::to_string(span.context.flags);
  out += ",\"name\":";
  AppendJsonString(out, span.name);
  out += ",\"kind\":" + std::to_string(static_cast<int>(span.kind));
  out += ",\"startTimeUnixNano\":\"" + std::to_string(span.start_unix_ns) + "\"";
  out += ",\"endTimeUnixNano\":\"" + std::to_string(span.end_unix_ns) + "\"";
  out += ",\"attributes\":[";
  for (size_t i = 0; i < span.attributes.size(); ++i) {
    if (i > 0) out += ',';
    Attribute(out, span.attributes[i]);
  }
  out += ']';
  // STATUS_CODE_ERROR is 2; an unset status (0) is left out.
  if (span.error) {
    out += ",\"status\":{\"code\":2,\"message\":";
    AppendJsonString(out, span.status_message);
    out += '}';
  }
  out += '}';
}

}  // namespace

std::string EncodeOtlpJson(const Resource& resource, const std::vector<std::unique_ptr<SpanData>>& spans) {
  std::string out;
  out.reserve(256 + spans.size() * 512);
  out += "{\"resourceSpans\":[{\"resource\":{\"attributes\":[";
  StringAttribute(out, "service.name", resource.service_name);
  if (!resource.service_version.empty()) {
    out += ',';
    StringAttribute(out, "service.version", resource.service_version);
  }
  for (const auto& [key, value] : resource.attributes) {
    out += ',';
    StringAttribute(out, key, value);
  }
  out += "]},\"scopeSpans\":[{\"scope\":{\"name\":\"credence\"";
  if (!resource.service_version.empty()) {
    out += ",\"version\":";
    AppendJsonString(out, resource.service_version);
  }
  out += "},\"spans\":[";
  for (size_t i = 0; i < spans.size(); ++i) {
    if (i > 0) out += ',';
    EncodeSpan(out, *spans[i]);
  }
  out += "]}]}]}";
  return out;
}

}  // namespace credence::telemetry
