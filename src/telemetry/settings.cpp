#include "telemetry/settings.h"

#include <cctype>
#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <string_view>

namespace credence::telemetry {
namespace {

Error Invalid(const std::string& variable, const std::string& what) {
  return Error::InvalidArgument("invalid_tracing_setting", variable + ": " + what);
}

std::optional<std::string> Get(const Getenv& env, const std::string& name) {
  auto value = env(name);
  if (!value || value->empty()) return std::nullopt;
  return value;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// An http(s) URL with a host; what curl would take, roughly, so that a
// typo is caught at start rather than as failed exports.
Status CheckUrl(const std::string& variable, std::string_view url) {
  std::string_view rest;
  if (url.starts_with("http://")) {
    rest = url.substr(7);
  } else if (url.starts_with("https://")) {
    rest = url.substr(8);
  } else {
    return Invalid(variable, "'" + std::string(url) + "' is not an http:// or https:// URL");
  }
  const std::string_view host = rest.substr(0, rest.find_first_of("/?#"));
  if (host.empty() || host.front() == ':') return Invalid(variable, "'" + std::string(url) + "' has no host");
  for (char c : url)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f)
      return Invalid(variable, "the URL contains a space or a control character");
  return Ok();
}

Result<int64_t> PositiveInt(const Getenv& env, const std::string& variable, int64_t fallback, int64_t max) {
  auto text = Get(env, variable);
  if (!text) return fallback;
  int64_t value = 0;
  const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size() || value < 1 || value > max)
    return Invalid(variable, "'" + *text + "' is not a whole number from 1 to " + std::to_string(max));
  return value;
}

int FromHex(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<std::string> PercentDecode(std::string_view in) {
  std::string out;
  for (size_t i = 0; i < in.size(); ++i) {
    if (in[i] != '%') {
      out.push_back(in[i]);
      continue;
    }
    if (i + 2 >= in.size()) return std::nullopt;
    const int hi = FromHex(in[i + 1]);
    const int lo = FromHex(in[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<char>(hi << 4 | lo));
    i += 2;
  }
  return out;
}

bool IsTokenChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

// "key1=value1,key2=value2" (the W3C Baggage form the OTel variables use):
// keys are HTTP tokens, values percent-decoded. `header_values` refuses
// what may not go into an HTTP header line (CR, LF, NUL).
Result<std::vector<std::pair<std::string, std::string>>> KeyValueList(const std::string& variable,
                                                                     std::string_view text, bool header_values) {
  std::vector<std::pair<std::string, std::string>> out;
  size_t at = 0;
  while (at <= text.size()) {
    const size_t comma = std::min(text.find(',', at), text.size());
    const std::string_view item = Trim(text.substr(at, comma - at));
    at = comma + 1;
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos)
      return Invalid(variable, "'" + std::string(item) + "' is not key=value (pairs are separated by commas)");
    const std::string_view key = Trim(item.substr(0, eq));
    if (key.empty()) return Invalid(variable, "a pair has no key");
    for (char c : key)
      if (!IsTokenChar(c)) return Invalid(variable, "the key '" + std::string(key) + "' has a character keys may not have");
    auto value = PercentDecode(Trim(item.substr(eq + 1)));
    if (!value) return Invalid(variable, "the value of '" + std::string(key) + "' has a malformed %-escape");
    if (header_values)
      for (char c : *value)
        if (c == '\r' || c == '\n' || c == '\0')
          return Invalid(variable, "the value of '" + std::string(key) + "' contains a line break");
    out.emplace_back(std::string(key), std::move(*value));
  }
  return out;
}

Result<std::optional<std::string>> Endpoint(const Getenv& env) {
  if (auto traces = Get(env, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")) {
    CR_TRY(CheckUrl("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", *traces));
    return std::optional<std::string>(*traces);  // used as it is (OTel spec)
  }
  if (auto base = Get(env, "OTEL_EXPORTER_OTLP_ENDPOINT")) {
    CR_TRY(CheckUrl("OTEL_EXPORTER_OTLP_ENDPOINT", *base));
    std::string url = *base;
    if (url.back() != '/') url.push_back('/');
    return std::optional<std::string>(url + "v1/traces");
  }
  return std::optional<std::string>();
}

Status CheckProtocol(const Getenv& env) {
  for (const char* variable : {"OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"}) {
    auto protocol = Get(env, variable);
    if (protocol && *protocol != "http/json")
      return Invalid(variable, "'" + *protocol + "' is not supported; Credence exports http/json only");
  }
  return Ok();
}

Result<Sampler> ReadSampler(const Getenv& env) {
  Sampler::Kind kind = Sampler::Kind::kParentBasedAlwaysOn;
  if (auto name = Get(env, "OTEL_TRACES_SAMPLER")) {
    auto named = Sampler::KindNamed(*name);
    if (!named)
      return Invalid("OTEL_TRACES_SAMPLER", "'" + *name +
                                                "' is not a sampler; expected always_on, always_off, traceidratio, "
                                                "parentbased_always_on, parentbased_always_off or "
                                                "parentbased_traceidratio");
    kind = *named;
  }
  double ratio = 1.0;
  auto arg = Get(env, "OTEL_TRACES_SAMPLER_ARG");
  // The argument belongs to the ratio samplers; the others ignore it (OTel).
  if (arg && Sampler::UsesRatio(kind)) {
    char* end = nullptr;
    ratio = std::strtod(arg->c_str(), &end);
    if (end != arg->c_str() + arg->size() || !(ratio >= 0.0 && ratio <= 1.0))
      return Invalid("OTEL_TRACES_SAMPLER_ARG", "'" + *arg + "' is not a probability from 0 to 1");
  }
  return Sampler(kind, ratio);
}

}  // namespace

Result<TracingSettings> ReadTracingSettings(const Getenv& env) {
  TracingSettings s;
  // Every variable is checked even when tracing ends up off, so a typo is
  // found the day it is made, not the day an endpoint is added.
  CR_TRY_ASSIGN(auto endpoint, Endpoint(env));
  CR_TRY(CheckProtocol(env));
  CR_TRY_ASSIGN(s.sampler, ReadSampler(env));
  for (const char* variable : {"OTEL_EXPORTER_OTLP_HEADERS", "OTEL_EXPORTER_OTLP_TRACES_HEADERS"}) {
    // The traces-specific list comes second: a header in both takes its value.
    if (auto text = Get(env, variable)) {
      CR_TRY_ASSIGN(auto headers, KeyValueList(variable, *text, /*header_values=*/true));
      for (auto& [key, value] : headers) {
        std::erase_if(s.headers, [&](const auto& h) { return h.first == key; });
        s.headers.emplace_back(std::move(key), std::move(value));
      }
    }
  }
  if (auto text = Get(env, "OTEL_RESOURCE_ATTRIBUTES")) {
    CR_TRY_ASSIGN(auto attributes, KeyValueList("OTEL_RESOURCE_ATTRIBUTES", *text, /*header_values=*/false));
    for (auto& [key, value] : attributes) {
      if (key == "service.name")
        s.service_name = value;
      else
        s.resource_attributes.emplace_back(std::move(key), std::move(value));
    }
  }
  if (auto name = Get(env, "OTEL_SERVICE_NAME")) s.service_name = *name;  // wins over the resource attribute
  constexpr int64_t kHour = 3'600'000;
  CR_TRY_ASSIGN(s.export_timeout_ms, PositiveInt(env, "OTEL_EXPORTER_OTLP_TIMEOUT", s.export_timeout_ms, kHour));
  CR_TRY_ASSIGN(s.export_timeout_ms,
                PositiveInt(env, "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", s.export_timeout_ms, kHour));
  CR_TRY_ASSIGN(s.schedule_delay_ms, PositiveInt(env, "OTEL_BSP_SCHEDULE_DELAY", s.schedule_delay_ms, kHour));
  CR_TRY_ASSIGN(const int64_t queue,
                PositiveInt(env, "OTEL_BSP_MAX_QUEUE_SIZE", static_cast<int64_t>(s.max_queue_size), 1'000'000));
  CR_TRY_ASSIGN(const int64_t batch, PositiveInt(env, "OTEL_BSP_MAX_EXPORT_BATCH_SIZE",
                                                 static_cast<int64_t>(s.max_batch_size), 1'000'000));
  if (batch > queue)
    return Invalid("OTEL_BSP_MAX_EXPORT_BATCH_SIZE",
                   std::to_string(batch) + " is more than OTEL_BSP_MAX_QUEUE_SIZE (" + std::to_string(queue) + ")");
  s.max_queue_size = static_cast<size_t>(queue);
  s.max_batch_size = static_cast<size_t>(batch);

  if (auto disabled = Get(env, "OTEL_SDK_DISABLED")) {
    std::string lower;
    for (char c : *disabled) lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    if (lower != "true" && lower != "false")
      return Invalid("OTEL_SDK_DISABLED", "'" + *disabled + "' is neither true nor false");
    if (lower == "true") return s;  // enabled stays false
  }
  if (endpoint) {
    s.endpoint = std::move(*endpoint);
    s.enabled = true;
  }
  return s;
}

}  // namespace credence::telemetry
