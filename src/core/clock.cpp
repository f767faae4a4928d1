#include "core/clock.h"

#include <chrono>
#include <cstdio>

namespace credence {
namespace {

// Days since 1970-01-01 for a civil date (Howard Hinnant's algorithm).
int64_t DaysFromCivil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const unsigned yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

void CivilFromDays(int64_t z, int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  const unsigned doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = static_cast<int64_t>(yoe) + era * 400;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2;
}

bool ReadDigits(std::string_view s, size_t pos, size_t n, int& out) {
  if (pos + n > s.size()) return false;
  int v = 0;
  for (size_t i = pos; i < pos + n; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    v = v * 10 + (s[i] - '0');
  }
  out = v;
  return true;
}

bool IsLeap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int DaysInMonth(int y, int m) {
  static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return m == 2 && IsLeap(y) ? 29 : kDays[m - 1];
}

}  // namespace

TimeMs SystemClock::Now() const {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::string FormatTimestamp(TimeMs t) {
  int64_t days = t / kMsPerDay;
  int64_t ms_of_day = t % kMsPerDay;
  if (ms_of_day < 0) {
    ms_of_day += kMsPerDay;
    --days;
  }
  int64_t y;
  unsigned m, d;
  CivilFromDays(days, y, m, d);
  const int64_t secs = ms_of_day / 1000;
  // Formatted by hand: it runs several times per source in every trust
  // answer, and snprintf showed in profiles.
  if (y < 0 || y > 9999) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%04lld-%02u-%02uT%02lld:%02lld:%02lld.%03lldZ", static_cast<long long>(y), m, d,
                  static_cast<long long>(secs / 3600), static_cast<long long>(secs / 60 % 60),
                  static_cast<long long>(secs % 60), static_cast<long long>(ms_of_day % 1000));
    return buf;
  }
  char buf[25] = "0000-00-00T00:00:00.000Z";
  auto put = [&buf](int at, int64_t v, int width) {
    for (int i = width - 1; i >= 0; --i, v /= 10) buf[at + i] = static_cast<char>('0' + v % 10);
  };
  put(0, y, 4);
  put(5, m, 2);
  put(8, d, 2);
  put(11, secs / 3600, 2);
  put(14, secs / 60 % 60, 2);
  put(17, secs % 60, 2);
  put(20, ms_of_day % 1000, 3);
  return std::string(buf, 24);
}

std::optional<TimeMs> ParseTimestamp(std::string_view s) {
  int year, month, day;
  if (!ReadDigits(s, 0, 4, year) || s.size() < 10 || s[4] != '-' || !ReadDigits(s, 5, 2, month) ||
      s[7] != '-' || !ReadDigits(s, 8, 2, day))
    return std::nullopt;
  if (month < 1 || month > 12 || day < 1 || day > DaysInMonth(year, month)) return std::nullopt;
  TimeMs result = DaysFromCivil(year, static_cast<unsigned>(month), static_cast<unsigned>(day)) * kMsPerDay;
  if (s.size() == 10) return result;
  if (s[10] != 'T' && s[10] != 't' && s[10] != ' ') return std::nullopt;
  int hour, minute, second;
  if (!ReadDigits(s, 11, 2, hour) || s.size() < 19 || s[13] != ':' || !ReadDigits(s, 14, 2, minute) ||
      s[16] != ':' || !ReadDigits(s, 17, 2, second))
    return std::nullopt;
  if (hour > 23 || minute > 59 || second > 60) return std::nullopt;
  result += ((hour * 60LL + minute) * 60 + second) * 1000;
  size_t pos = 19;
  if (pos < s.size() && s[pos] == '.') {
    ++pos;
    int64_t frac_ms = 0;
    int digits = 0;
    while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9') {
      if (digits < 3) frac_ms = frac_ms * 10 + (s[pos] - '0');
      ++digits;
      ++pos;
    }
    if (digits == 0) return std::nullopt;
    for (int i = digits; i < 3; ++i) frac_ms *= 10;
    result += frac_ms;
  }
  if (pos == s.size()) return std::nullopt;  // a local time without offset is ambiguous
  if ((s[pos] == 'Z' || s[pos] == 'z') && pos + 1 == s.size()) return result;
  if (s[pos] != '+' && s[pos] != '-') return std::nullopt;
  int off_h, off_m;
  if (!ReadDigits(s, pos + 1, 2, off_h) || pos + 6 != s.size() || s[pos + 3] != ':' ||
      !ReadDigits(s, pos + 4, 2, off_m) || off_h > 23 || off_m > 59)
    return std::nullopt;
  const TimeMs offset = (off_h * 60LL + off_m) * 60 * 1000;
  return s[pos] == '+' ? result - offset : result + offset;
}

TimeMs SettableClock::Now() const {
  const TimeMs t = frozen_.load(std::memory_order_relaxed);
  return t == kUnset ? SystemClock().Now() : t;
}

}  // namespace credence
