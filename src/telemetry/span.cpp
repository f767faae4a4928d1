#include "telemetry/span.h"

#include <chrono>
#include <random>
#include <thread>

#include "telemetry/w3c.h"

namespace credence::telemetry {
namespace {

// Set once at start, before the serving threads exist, and read without a
// lock afterwards (UninstallTracer runs after they stopped).
struct Tracer {
  bool enabled = false;
  Sampler sampler;
  SpanSink* sink = nullptr;
};
Tracer g_tracer;

// Ids need to be unique, not secret (W3C 3.2.2.3): a per-thread
// xoshiro256** seeded from the OS, a handful of cycles per id.
class IdGenerator {
 public:
  IdGenerator() {
    std::random_device device;
    uint64_t seed = (uint64_t{device()} << 32) ^ device() ^
                    std::hash<std::thread::id>{}(std::this_thread::get_id()) ^
                    static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    for (auto& s : state_) s = SplitMix(seed);
  }
  uint64_t Next() {
    const uint64_t result = Rotl(state_[1] * 5, 7) * 9;
    const uint64_t t = state_[1] << 17;
    state_[2] ^= state_[0];
    state_[3] ^= state_[1];
    state_[1] ^= state_[2];
    state_[0] ^= state_[3];
    state_[2] ^= t;
    state_[3] = Rotl(state_[3], 45);
    return result;
  }
  // Never all zero (W3C's "invalid").
  template <size_t N>
  void Fill(std::array<uint8_t, N>& out) {
    do {
      for (size_t i = 0; i < N; i += 8) {
        uint64_t v = Next();
        for (size_t j = 0; j < 8 && i + j < N; ++j, v >>= 8) out[i + j] = static_cast<uint8_t>(v);
      }
    } while (IsZero(out));
  }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static uint64_t SplitMix(uint64_t& x) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  template <size_t N>
  static bool IsZero(const std::array<uint8_t, N>& bytes) {
    for (uint8_t b : bytes)
      if (b != 0) return false;
    return true;
  }
  uint64_t state_[4];
};

IdGenerator& Ids() {
  thread_local IdGenerator ids;
  return ids;
}

int64_t NowUnixNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

void InstallTracer(const Sampler& sampler, SpanSink* sink) {
  g_tracer.sampler = sampler;
  g_tracer.sink = sink;
  g_tracer.enabled = sink != nullptr;
}

void UninstallTracer() {
  g_tracer.enabled = false;
  g_tracer.sink = nullptr;
}

bool TracingEnabled() { return g_tracer.enabled; }

Span::Span(std::string_view name, SpanKind kind) {
  const TraceContext& current = CurrentTraceContext();
  if (!current.sampled() || !g_tracer.enabled) return;
  const std::array<uint8_t, 8> parent = current.span_id;  // a copy: Begin replaces `current`
  context_ = current;
  Ids().Fill(context_.span_id);
  Begin(name, kind, parent);
}

void Span::Begin(std::string_view name, SpanKind kind, const std::array<uint8_t, 8>& parent_span_id) {
  saved_ = CurrentTraceContext();
  CurrentTraceContext() = context_;
  active_ = true;
  if (!context_.sampled()) return;
  data_ = std::make_unique<SpanData>();
  data_->context = context_;
  data_->context.tracestate = {};
  data_->tracestate = std::string(context_.tracestate);
  data_->parent_span_id = parent_span_id;
  data_->name = std::string(name);
  data_->kind = kind;
  data_->start_unix_ns = NowUnixNs();
}

Span Span::Server(std::string_view name, std::string_view traceparent, std::string_view tracestate) {
  Span span;
  if (!g_tracer.enabled) return span;
  std::optional<TraceContext> parent;
  if (!traceparent.empty()) parent = ParseTraceparent(traceparent);
  std::array<uint8_t, 8> parent_span_id{};
  if (parent) {
    span.context_.trace_id = parent->trace_id;
    parent_span_id = parent->span_id;
    // Passed on only with the traceparent it belongs to (W3C 3.3).
    if (UsableTracestate(tracestate)) span.context_.tracestate = tracestate;
  } else {
    Ids().Fill(span.context_.trace_id);
  }
  Ids().Fill(span.context_.span_id);
  span.context_.flags = g_tracer.sampler.ShouldSample(parent ? &*parent : nullptr, span.context_.trace_id) ? 1 : 0;
  span.Begin(name, SpanKind::kServer, parent_span_id);
  return span;
}

Span Span::Root(std::string_view name) {
  const TraceContext& current = CurrentTraceContext();
  if (current.valid()) return Span(name, SpanKind::kInternal);
  Span span;
  if (!g_tracer.enabled) return span;
  Ids().Fill(span.context_.trace_id);
  Ids().Fill(span.context_.span_id);
  span.context_.flags = g_tracer.sampler.ShouldSample(nullptr, span.context_.trace_id) ? 1 : 0;
  span.Begin(name, SpanKind::kInternal, {});
  return span;
}

Span::Span(Span&& other) noexcept
    : context_(other.context_), saved_(other.saved_), active_(other.active_), data_(std::move(other.data_)) {
  other.active_ = false;
}

Span& Span::operator=(Span&& other) noexcept {
  if (this != &other) {
    End();
    context_ = other.context_;
    saved_ = other.saved_;
    active_ = other.active_;
    data_ = std::move(other.data_);
    other.active_ = false;
  }
  return *this;
}

Span& Span::SetName(std::string_view name) {
  if (data_) data_->name = std::string(name);
  return *this;
}

Span& Span::SetString(std::string_view key, std::string_view value) {
  if (data_) data_->attributes.push_back({std::string(key), std::string(value)});
  return *this;
}

Span& Span::SetInt(std::string_view key, int64_t value) {
  if (data_) data_->attributes.push_back({std::string(key), value});
  return *this;
}

Span& Span::SetBool(std::string_view key, bool value) {
  if (data_) data_->attributes.push_back({std::string(key), value});
  return *this;
}

Span& Span::SetError(std::string_view message) {
  if (data_) {
    data_->error = true;
    data_->status_message = std::string(message);
  }
  return *this;
}

void Span::Deactivate() {
  if (!active_) return;
  CurrentTraceContext() = saved_;
  active_ = false;
}

void Span::End() {
  Deactivate();
  if (!data_) return;
  data_->end_unix_ns = NowUnixNs();
  // The sink is read here, not at start: a span still open when tracing
  // was uninstalled at shutdown is dropped, not sent to a gone exporter.
  if (g_tracer.sink != nullptr) g_tracer.sink->Accept(std::move(data_));
  data_.reset();
}

std::string TraceparentHeaderLine() {
  const TraceContext& current = CurrentTraceContext();
  if (!current.valid()) return {};
  return "traceparent: " + FormatTraceparent(current);
}

std::string TracestateHeaderLine() {
  const TraceContext& current = CurrentTraceContext();
  if (!current.valid() || current.tracestate.empty()) return {};
  return "tracestate: " + std::string(current.tracestate);
}

}  // namespace credence::telemetry
