#include "retention/periods.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace credence::retention {
namespace {

using std::chrono::days;
using std::chrono::milliseconds;
using std::chrono::sys_days;

std::chrono::year_month_day DayOf(TimeMs t) {
  return std::chrono::year_month_day{std::chrono::floor<days>(sys_days{} + milliseconds(t))};
}

TimeMs MsOf(sys_days d) { return std::chrono::duration_cast<milliseconds>(d.time_since_epoch()).count(); }

}  // namespace

TimeMs MonthStart(TimeMs t) {
  const auto ymd = DayOf(t);
  return MsOf(sys_days{ymd.year() / ymd.month() / 1});
}

TimeMs AddMonths(TimeMs t, int months) {
  const auto ymd = DayOf(t);
  const TimeMs time_of_day = t - MsOf(sys_days{ymd});
  const auto ym = std::chrono::year_month{ymd.year(), ymd.month()} + std::chrono::months(months);
  const auto last = std::chrono::year_month_day_last{ym.year(), std::chrono::month_day_last{ym.month()}}.day();
  const auto day = std::min(ymd.day(), last);
  return MsOf(sys_days{ym.year() / ym.month() / day}) + time_of_day;
}

std::string MonthName(TimeMs t) {
  const auto ymd = DayOf(t);
  char text[16];
  std::snprintf(text, sizeof text, "%04d-%02u", static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()));
  return text;
}

TimeMs ArchiveDueBefore(TimeMs now, int months) { return MonthStart(AddMonths(now, -months)); }

}  // namespace credence::retention
