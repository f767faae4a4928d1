#pragma once
// The OpenTelemetry samplers OTEL_TRACES_SAMPLER names (always_on,
// always_off, traceidratio and their parentbased_ forms). Decided once per
// trace, where it enters Credence (a request, a background job); the spans
// inside follow that decision.
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "core/trace_context.h"

namespace credence::telemetry {

class Sampler {
 public:
  enum class Kind {
    kAlwaysOn,
    kAlwaysOff,
    kTraceIdRatio,
    kParentBasedAlwaysOn,
    kParentBasedAlwaysOff,
    kParentBasedTraceIdRatio
  };

  // The OTel default: parentbased_always_on.
  Sampler() = default;
  // `ratio` in [0, 1], used by the two ratio kinds only.
  Sampler(Kind kind, double ratio);

  // The kind OTEL_TRACES_SAMPLER names, or nullopt.
  static std::optional<Kind> KindNamed(std::string_view name);
  static bool UsesRatio(Kind kind) { return kind == Kind::kTraceIdRatio || kind == Kind::kParentBasedTraceIdRatio; }

  // `parent`: the caller's context when it sent a valid one (a parent-based
  // sampler follows its sampled flag), else null.
  bool ShouldSample(const TraceContext* parent, const std::array<uint8_t, 16>& trace_id) const;

  Kind kind() const { return kind_; }
  double ratio() const { return ratio_; }

 private:
  bool RatioSample(const std::array<uint8_t, 16>& trace_id) const;

  Kind kind_ = Kind::kParentBasedAlwaysOn;
  double ratio_ = 1.0;
  // A trace is kept when its id's low 63 bits are below this (the
  // reference SDKs' rule: same id, same decision, on every node).
  uint64_t threshold_ = UINT64_MAX;
};

}  // namespace credence::telemetry
