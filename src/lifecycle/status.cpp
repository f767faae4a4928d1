#include "lifecycle/status.h"

namespace credence::lifecycle {
namespace {

TimeMs EffectiveNow(const ExpiryFacts& facts, TimeMs now) {
  return facts.paused_at && *facts.paused_at < now ? *facts.paused_at : now;
}

TimeMs WarningStart(const ExpiryFacts& f, const ExpiryWindows& w) {
  return f.expiry_at - static_cast<TimeMs>(w.warning_days) * kMsPerDay;
}

TimeMs GraceEnd(const ExpiryFacts& f, const ExpiryWindows& w) {
  return f.expiry_at + static_cast<TimeMs>(w.grace_days) * kMsPerDay;
}

int64_t FloorDays(TimeMs ms) { return ms >= 0 ? ms / kMsPerDay : -((-ms + kMsPerDay - 1) / kMsPerDay); }

}  // namespace

kb::EntryStatus EffectiveStatus(const ExpiryFacts& f, const ExpiryWindows& w, TimeMs now) {
  if (!f.published) return kb::EntryStatus::kDraft;
  const TimeMs t = EffectiveNow(f, now);
  if (t < WarningStart(f, w)) return kb::EntryStatus::kPublished;
  if (t < f.expiry_at) return kb::EntryStatus::kExpiringSoon;
  if (t < GraceEnd(f, w)) return kb::EntryStatus::kWarning;
  return kb::EntryStatus::kExpired;
}

ExpiryStatus ComputeExpiryStatus(const ExpiryFacts& f, const ExpiryWindows& w, TimeMs now) {
  ExpiryStatus s;
  s.status = EffectiveStatus(f, w, now);
  s.expiry_at = f.expiry_at;
  s.days_until_expiry = FloorDays(f.expiry_at - EffectiveNow(f, now));
  s.is_in_warning_period = s.status == kb::EntryStatus::kExpiringSoon;
  s.is_paused = f.paused_at.has_value();
  return s;
}

std::optional<TimeMs> NextTransitionAt(const ExpiryFacts& f, const ExpiryWindows& w, TimeMs now) {
  if (!f.published || f.paused_at) return std::nullopt;
  for (const TimeMs boundary : {WarningStart(f, w), f.expiry_at, GraceEnd(f, w)})
    if (boundary > now) return boundary;
  return std::nullopt;
}

}  // namespace credence::lifecycle
