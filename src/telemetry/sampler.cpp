#include "telemetry/sampler.h"

#include <cmath>

namespace credence::telemetry {

Sampler::Sampler(Kind kind, double ratio) : kind_(kind), ratio_(ratio) {
  if (ratio >= 1.0) {
    threshold_ = UINT64_MAX;
  } else if (ratio <= 0.0) {
    threshold_ = 0;
  } else {
    threshold_ = static_cast<uint64_t>(std::ldexp(ratio, 63));
  }
}

std::optional<Sampler::Kind> Sampler::KindNamed(std::string_view name) {
  if (name == "always_on") return Kind::kAlwaysOn;
  if (name == "always_off") return Kind::kAlwaysOff;
  if (name == "traceidratio") return Kind::kTraceIdRatio;
  if (name == "parentbased_always_on") return Kind::kParentBasedAlwaysOn;
  if (name == "parentbased_always_off") return Kind::kParentBasedAlwaysOff;
  if (name == "parentbased_traceidratio") return Kind::kParentBasedTraceIdRatio;
  return std::nullopt;
}

bool Sampler::RatioSample(const std::array<uint8_t, 16>& trace_id) const {
  if (threshold_ == UINT64_MAX) return true;
  uint64_t low = 0;
  for (size_t i = 8; i < 16; ++i) low = low << 8 | trace_id[i];
  return (low >> 1) < threshold_;
}

bool Sampler::ShouldSample(const TraceContext* parent, const std::array<uint8_t, 16>& trace_id) const {
  switch (kind_) {
    case Kind::kAlwaysOn: return true;
    case Kind::kAlwaysOff: return false;
    case Kind::kTraceIdRatio: return RatioSample(trace_id);
    case Kind::kParentBasedAlwaysOn: return parent != nullptr ? parent->sampled() : true;
    case Kind::kParentBasedAlwaysOff: return parent != nullptr ? parent->sampled() : false;
    case Kind::kParentBasedTraceIdRatio: return parent != nullptr ? parent->sampled() : RatioSample(trace_id);
  }
  return false;
}

}  // namespace credence::telemetry
