#pragma once
// The from/to window of app stats and compliance reports (docs/reports.md):
// UTC calendar days "YYYY-MM-DD", both ends inclusive. Without `from` the
// window starts kDefaultWindowDays before `to`; without `to` it ends today.
#include <optional>
#include <string>
#include <string_view>

#include "core/clock.h"
#include "core/result.h"

namespace credence {

inline constexpr int kDefaultWindowDays = 30;
inline constexpr int kMaxWindowDays = 3660;  // ten years

struct DateWindow {
  std::string from;  // "YYYY-MM-DD", as answered
  std::string to;
  TimeMs from_ms = 0;  // midnight UTC at the start of `from`
  TimeMs end_ms = 0;   // midnight UTC after `to`: the window is [from_ms, end_ms)
};

// Validation errors name the field ("from", "to"): not a date, to before
// from, a window longer than kMaxWindowDays.
Result<DateWindow> ParseDateWindow(const std::optional<std::string>& from, const std::optional<std::string>& to,
                                   TimeMs now);

// A bound of a list's time filter (the audit log, the ledger): a calendar
// day "YYYY-MM-DD" (its first millisecond for a start, the first of the next
// day for an end, exclusive) or an RFC 3339 timestamp (inclusive either
// way). nullopt when it is neither.
std::optional<TimeMs> ParseTimeBound(const std::string& text, bool is_end, TimeMs now);

// "YYYY-MM-DD" of the UTC day containing `t`.
std::string FormatDate(TimeMs t);

}  // namespace credence
