// What tracing adds to one request when nothing is sampled, measured in
// isolation (the load runs of bench/tracing.sh cannot resolve it on a
// shared machine): the request span from a traceparent, the spans a request
// of evaluate makes (evaluate, a read transaction), an outbound call's
// header lines skipped; with tracing off and with always_off. Google
// Benchmark; docs/performance.md has the figures.
#include <benchmark/benchmark.h>

#include "telemetry/sampler.h"
#include "telemetry/span.h"

namespace {

using credence::telemetry::Sampler;
using credence::telemetry::Span;

constexpr std::string_view kTraceparent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

// Never called: always_off samples nothing.
class NoSink final : public credence::telemetry::SpanSink {
 public:
  void Accept(std::unique_ptr<credence::telemetry::SpanData>) override {}
};
NoSink g_sink;

void OneRequest(bool enabled) {
  Span request = enabled ? Span::Server("POST", kTraceparent, "") : Span();
  Span evaluate("trust evaluate");
  {
    Span read("storage read transaction");
    benchmark::DoNotOptimize(read.recording());
  }
  benchmark::DoNotOptimize(evaluate.recording());
}

void BM_RequestTracingOff(benchmark::State& state) {
  credence::telemetry::UninstallTracer();
  for (auto _ : state) OneRequest(credence::telemetry::TracingEnabled());
}
BENCHMARK(BM_RequestTracingOff);

void BM_RequestSamplingOff(benchmark::State& state) {
  credence::telemetry::InstallTracer(Sampler(Sampler::Kind::kAlwaysOff, 1), &g_sink);
  for (auto _ : state) OneRequest(credence::telemetry::TracingEnabled());
  credence::telemetry::UninstallTracer();
}
BENCHMARK(BM_RequestSamplingOff);

}  // namespace

BENCHMARK_MAIN();
