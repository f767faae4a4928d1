#pragma once
// Spans: the RAII object code wraps around work worth timing (a request, a
// transaction, an outbound call), and the tracer they report to
// (docs/tracing.md).
//
// Cost when the trace is not sampled (sampling off, or tracing not
// configured): constructing a Span reads the thread's current context and
// returns; no allocation, no clock read, no lock. Only a sampled span
// records (one allocation, two clock reads) and hands its data to the
// sink when it ends.
//
// A Span makes itself the thread's current span (core/trace_context.h)
// from construction to End(), so log lines and the spans and outbound calls
// below it see it; End() puts back what was current before. Spans must end
// in reverse order of their start on a thread, which scopes give for free.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/trace_context.h"
#include "telemetry/sampler.h"

namespace credence::telemetry {

enum class SpanKind : uint8_t { kInternal = 1, kServer = 2, kClient = 3 };

// What a sampled span recorded, as the exporter encodes it.
struct SpanData {
  struct Attribute {
    std::string key;
    std::variant<std::string, int64_t, bool> value;
  };
  TraceContext context;  // its tracestate view is not used: see tracestate
  std::string tracestate;
  std::array<uint8_t, 8> parent_span_id{};  // all zero for a root span
  std::string name;
  SpanKind kind = SpanKind::kInternal;
  int64_t start_unix_ns = 0;
  int64_t end_unix_ns = 0;
  std::vector<Attribute> attributes;
  bool error = false;
  std::string status_message;
};

// Where ended sampled spans go (the exporter). Accept is called on the
// thread that ended the span and must not block it.
class SpanSink {
 public:
  virtual ~SpanSink() = default;
  virtual void Accept(std::unique_ptr<SpanData> span) = 0;
};

// Turns tracing on for the process: new traces are decided by `sampler`
// and sampled spans go to `sink`, which must outlive UninstallTracer().
// Called once at start, before any thread serves; not thread-safe.
void InstallTracer(const Sampler& sampler, SpanSink* sink);
// Back to off (spans inert), at shutdown once no thread serves.
void UninstallTracer();
// Whether InstallTracer ran: when not, every Span is inert and no trace
// context is ever read from requests or sent on.
bool TracingEnabled();

class Span {
 public:
  // Inert: records nothing, changes nothing.
  Span() = default;
  // A child of this thread's current span. Inert unless that one is
  // sampled: an unsampled trace keeps its context (log lines and outbound
  // calls still name it) and costs nothing more.
  explicit Span(std::string_view name, SpanKind kind = SpanKind::kInternal);

  // The span of a request: the child of the caller's `traceparent` when it
  // is valid (its `tracestate` passed on), else the root of a new trace; the
  // sampler decides. Unlike a child span it always takes a context of its
  // own, sampled or not, so the request's log lines carry a trace id.
  // Inert when tracing is off. `traceparent` and `tracestate` must outlive
  // the span (they are the request's headers).
  static Span Server(std::string_view name, std::string_view traceparent, std::string_view tracestate);

  // The span of a unit of background work (a delivery, a sync run): a child
  // of the current span when there is one (the work runs inside a request),
  // else the root of a new trace the sampler decides.
  static Span Root(std::string_view name);

  Span(Span&& other) noexcept;
  Span& operator=(Span&& other) noexcept;
  Span(const Span&) = delete;
  Span& operator=(const Span&) = delete;
  ~Span() { End(); }

  // Whether this span records (it is sampled): guard attribute values that
  // cost something to compute with it.
  bool recording() const { return data_ != nullptr; }
  // Its context (the current one it was started under when inert).
  const TraceContext& context() const { return context_; }

  // No-ops unless recording. Keys follow the OpenTelemetry semantic
  // conventions where one exists (http.response.status_code, ...).
  Span& SetName(std::string_view name);
  Span& SetString(std::string_view key, std::string_view value);
  Span& SetInt(std::string_view key, int64_t value);
  Span& SetBool(std::string_view key, bool value);
  // Status ERROR with a message (never secrets, never a client's data).
  Span& SetError(std::string_view message);

  // Puts back this thread's previous current span but leaves this one
  // open: for a span that ends on another thread (a deferred answer), which
  // makes its context current there with ScopedTraceContext.
  void Deactivate();
  // Ends it (once; later calls do nothing): records the end time, hands a
  // sampled span to the sink, restores the previous current span.
  void End();

 private:
  void Begin(std::string_view name, SpanKind kind, const std::array<uint8_t, 8>& parent_span_id);

  TraceContext context_;
  TraceContext saved_;  // the thread's current context before this span
  bool active_ = false;
  std::unique_ptr<SpanData> data_;
};

// The "traceparent: ..." header line for an outbound call made now (from
// the current context), or empty when there is none.
std::string TraceparentHeaderLine();
// The "tracestate: ..." line passing on the caller's, or empty.
std::string TracestateHeaderLine();

}  // namespace credence::telemetry
