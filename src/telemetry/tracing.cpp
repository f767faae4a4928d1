#include "telemetry/tracing.h"

#include <curl/curl.h>

#include <mutex>

#include "core/logging.h"
#include "telemetry/exporter.h"
#include "telemetry/span.h"

namespace credence::telemetry {
namespace {

size_t Discard(char*, size_t size, size_t n, void*) { return size * n; }

const char* SamplerName(Sampler::Kind kind) {
  switch (kind) {
    case Sampler::Kind::kAlwaysOn: return "always_on";
    case Sampler::Kind::kAlwaysOff: return "always_off";
    case Sampler::Kind::kTraceIdRatio: return "traceidratio";
    case Sampler::Kind::kParentBasedAlwaysOn: return "parentbased_always_on";
    case Sampler::Kind::kParentBasedAlwaysOff: return "parentbased_always_off";
    case Sampler::Kind::kParentBasedTraceIdRatio: return "parentbased_traceidratio";
  }
  return "?";
}

}  // namespace

std::string PostOtlp(const TracingSettings& settings, const std::string& body) {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> c(curl_easy_init(), &curl_easy_cleanup);
  if (!c) return "cannot create an HTTP client";
  curl_slist* list = curl_slist_append(nullptr, "Content-Type: application/json");
  list = curl_slist_append(list, "Expect:");
  for (const auto& [name, value] : settings.headers) list = curl_slist_append(list, (name + ": " + value).c_str());
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> hold(list, &curl_slist_free_all);
  char error_buffer[CURL_ERROR_SIZE] = {};
  curl_easy_setopt(c.get(), CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c.get(), CURLOPT_TIMEOUT_MS, static_cast<long>(settings.export_timeout_ms));
  curl_easy_setopt(c.get(), CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c.get(), CURLOPT_ERRORBUFFER, error_buffer);
  curl_easy_setopt(c.get(), CURLOPT_URL, settings.endpoint.c_str());
  curl_easy_setopt(c.get(), CURLOPT_POST, 1L);
  curl_easy_setopt(c.get(), CURLOPT_POSTFIELDS, body.data());
  curl_easy_setopt(c.get(), CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  curl_easy_setopt(c.get(), CURLOPT_HTTPHEADER, list);
  curl_easy_setopt(c.get(), CURLOPT_USERAGENT, "Credence-OTLP/1");
  curl_easy_setopt(c.get(), CURLOPT_WRITEFUNCTION, &Discard);
  const CURLcode rc = curl_easy_perform(c.get());
  if (rc != CURLE_OK) return error_buffer[0] != '\0' ? error_buffer : curl_easy_strerror(rc);
  long status = 0;
  curl_easy_getinfo(c.get(), CURLINFO_RESPONSE_CODE, &status);
  if (status < 200 || status > 299) return "the collector answered HTTP " + std::to_string(status);
  return {};
}

Tracing::Tracing(TracingSettings settings) : settings_(std::move(settings)) {}

Result<std::unique_ptr<Tracing>> Tracing::Start(const Getenv& env, const std::string& service_version) {
  CR_TRY_ASSIGN(auto settings, ReadTracingSettings(env));
  std::unique_ptr<Tracing> tracing(new Tracing(std::move(settings)));
  const TracingSettings& s = tracing->settings_;
  if (!s.enabled) return tracing;
  ExporterOptions options{.resource = {s.service_name, service_version, s.resource_attributes},
                          .schedule_delay_ms = s.schedule_delay_ms,
                          .max_queue_size = s.max_queue_size,
                          .max_batch_size = s.max_batch_size};
  tracing->exporter_ = std::make_unique<BatchExporter>(
      std::move(options), [&s](const std::string& body) { return PostOtlp(s, body); });
  InstallTracer(s.sampler, tracing->exporter_.get());
  // The endpoint is logged without its query (a collector's key may sit
  // there); the headers not at all.
  LogLine(LogLevel::kInfo, "tracing on")
      .Str("endpoint", s.endpoint.substr(0, s.endpoint.find('?')))
      .Str("serviceName", s.service_name)
      .Str("sampler", SamplerName(s.sampler.kind()))
      .Num("samplerRatio", s.sampler.ratio());
  return tracing;
}

Tracing::~Tracing() {
  if (!exporter_) return;
  UninstallTracer();
  exporter_->Shutdown();
  LogLine(LogLevel::kInfo, "tracing stopped")
      .Int("spansExported", static_cast<int64_t>(exporter_->exported()))
      .Int("spansDropped", static_cast<int64_t>(exporter_->dropped()))
      .Int("spansFailed", static_cast<int64_t>(exporter_->failed()));
}

}  // namespace credence::telemetry
