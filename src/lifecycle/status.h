#pragma once
// The status a reader sees, derived from one clock: the state table of
// docs/lifecycle.md, as pure functions. Only Draft and Published are stored;
// ExpiringSoon, Warning and Expired follow from the expiry date, the
// template's windows and the time, so a status read is always consistent
// with the clock. The scheduler materializes transitions (for
// notifications) from NextTransitionAt.
#include <cstdint>
#include <optional>

#include "core/clock.h"
#include "kb/model.h"

namespace credence::lifecycle {

// From the entry's expiry template.
struct ExpiryWindows {
  int warning_days = 0;  // before the expiry date: ExpiringSoon
  int grace_days = 0;    // after it: Warning, then Expired
};

struct ExpiryFacts {
  bool published = false;  // false: a Draft, which never expires
  TimeMs expiry_at = 0;
  // While expiry is paused, the entry's clock stands still at this instant;
  // resuming moves expiry_at by the paused duration (the service does that).
  std::optional<TimeMs> paused_at;
};

struct ExpiryStatus {
  kb::EntryStatus status = kb::EntryStatus::kDraft;
  TimeMs expiry_at = 0;
  int64_t days_until_expiry = 0;  // whole days, rounded down; negative once past
  bool is_in_warning_period = false;  // ExpiringSoon
  bool is_paused = false;
};

kb::EntryStatus EffectiveStatus(const ExpiryFacts& facts, const ExpiryWindows& windows, TimeMs now);
ExpiryStatus ComputeExpiryStatus(const ExpiryFacts& facts, const ExpiryWindows& windows, TimeMs now);

// The instant after `now` at which the status changes next; nullopt when it
// never will on its own (Draft, paused, Expired).
std::optional<TimeMs> NextTransitionAt(const ExpiryFacts& facts, const ExpiryWindows& windows, TimeMs now);

}  // namespace credence::lifecycle
