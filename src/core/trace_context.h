#pragma once
// The trace this thread is working for: the W3C trace context of the span
// that runs on it now (docs/tracing.md). Log lines carry its trace id, and
// outbound calls send it as `traceparent`. It lives in core, below every
// module, so that logging and storage can read it without knowing how spans
// are recorded or exported (that is src/telemetry).
//
// Plain values in a thread-local: reading it is a TLS load, setting it a
// copy, no allocation. Work handed to another thread does not take it along
// by itself; whoever hands the work over decides (docs/tracing.md, "What
// carries the context").
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace credence {

struct TraceContext {
  std::array<uint8_t, 16> trace_id{};
  std::array<uint8_t, 8> span_id{};
  uint8_t flags = 0;  // W3C trace-flags; bit 0 is "sampled"
  // The caller's `tracestate`, passed on untouched. A view: it points into
  // the request being served (alive as long as its spans are).
  std::string_view tracestate;

  // An all-zero trace id is W3C's "invalid"; a default context is none.
  bool valid() const {
    for (uint8_t b : trace_id)
      if (b != 0) return true;
    return false;
  }
  bool sampled() const { return (flags & 1) != 0; }
};

// This thread's current context (a default one when no span runs here).
inline TraceContext& CurrentTraceContext() {
  static constinit thread_local TraceContext current{};
  return current;
}

// Makes `context` current for a scope and restores what was there: for work
// that resumes on another thread (a deferred answer) or was handed a context.
class ScopedTraceContext {
 public:
  explicit ScopedTraceContext(const TraceContext& context) : saved_(CurrentTraceContext()) {
    CurrentTraceContext() = context;
  }
  ~ScopedTraceContext() { CurrentTraceContext() = saved_; }
  ScopedTraceContext(const ScopedTraceContext&) = delete;
  ScopedTraceContext& operator=(const ScopedTraceContext&) = delete;

 private:
  TraceContext saved_;
};

// Lowercase hex of the ids, as W3C and OTLP/JSON write them.
void AppendHex(std::string& out, const uint8_t* bytes, size_t size);

}  // namespace credence
