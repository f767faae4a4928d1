#include "core/date_window.h"

namespace credence {
namespace {

// A plain date only: ParseTimestamp also takes date-times, which a day
// window does not.
std::optional<TimeMs> ParseDay(std::string_view text) {
  if (text.size() != 10) return std::nullopt;
  return ParseTimestamp(text);
}

TimeMs StartOfDay(TimeMs t) {
  TimeMs day = t / kMsPerDay;
  if (t % kMsPerDay < 0) --day;
  return day * kMsPerDay;
}

}  // namespace

std::string FormatDate(TimeMs t) { return FormatTimestamp(StartOfDay(t)).substr(0, 10); }

Result<DateWindow> ParseDateWindow(const std::optional<std::string>& from, const std::optional<std::string>& to,
                                   TimeMs now) {
  std::vector<FieldError> errors;
  DateWindow w;
  TimeMs to_day = StartOfDay(now);
  if (to) {
    if (auto t = ParseDay(*to)) {
      to_day = *t;
    } else {
      errors.push_back({"to", "must be a date YYYY-MM-DD (UTC)"});
    }
  }
  TimeMs from_day = to_day - (kDefaultWindowDays - 1) * kMsPerDay;
  if (from) {
    if (auto f = ParseDay(*from)) {
      from_day = *f;
    } else {
      errors.push_back({"from", "must be a date YYYY-MM-DD (UTC)"});
    }
  }
  if (errors.empty() && from_day > to_day) errors.push_back({"to", "must not be before from"});
  if (errors.empty() && (to_day - from_day) / kMsPerDay + 1 > kMaxWindowDays)
    errors.push_back({"from", "the window may span at most " + std::to_string(kMaxWindowDays) + " days"});
  if (!errors.empty()) return Error::Validation(std::move(errors));
  w.from_ms = from_day;
  w.end_ms = to_day + kMsPerDay;
  w.from = FormatDate(from_day);
  w.to = FormatDate(to_day);
  return w;
}

std::optional<TimeMs> ParseTimeBound(const std::string& text, bool is_end, TimeMs now) {
  if (text.size() == 10) {
    auto day = ParseDateWindow(text, text, now);
    if (!day) return std::nullopt;
    return is_end ? day->end_ms : day->from_ms;
  }
  auto t = ParseTimestamp(text);
  if (!t) return std::nullopt;
  return is_end ? *t + 1 : *t;
}

}  // namespace credence
