#pragma once
// All time logic reads one injectable clock, so tests set the time instead of
// sleeping. Times are milliseconds since the Unix epoch, UTC.
#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace credence {

using TimeMs = int64_t;

class Clock {
 public:
  virtual ~Clock() = default;
  virtual TimeMs Now() const = 0;
};

class SystemClock final : public Clock {
 public:
  TimeMs Now() const override;
};

// A clock that only moves when told to. Thread-safe.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(TimeMs start) : now_(start) {}
  TimeMs Now() const override { return now_.load(std::memory_order_relaxed); }
  void Set(TimeMs t) { now_.store(t, std::memory_order_relaxed); }
  void Advance(TimeMs delta) { now_.fetch_add(delta, std::memory_order_relaxed); }

 private:
  std::atomic<TimeMs> now_;
};

// The system time until a test sets it, then frozen there until cleared.
// Served only with --dev --test-clock (PUT /dev/clock): API tests move time
// through it instead of sleeping.
class SettableClock final : public Clock {
 public:
  TimeMs Now() const override;
  void Set(TimeMs t) { frozen_.store(t, std::memory_order_relaxed); }
  void Clear() { frozen_.store(kUnset, std::memory_order_relaxed); }
  bool IsSet() const { return frozen_.load(std::memory_order_relaxed) != kUnset; }

 private:
  static constexpr TimeMs kUnset = INT64_MIN;
  std::atomic<TimeMs> frozen_{kUnset};
};

// "2026-11-22T17:32:07.123Z" (always milliseconds, always Z).
std::string FormatTimestamp(TimeMs t);

// Accepts ISO 8601 / RFC 3339 date-times with Z or a numeric offset, with or
// without fractional seconds, and plain dates (midnight UTC).
std::optional<TimeMs> ParseTimestamp(std::string_view text);

constexpr TimeMs kMsPerDay = 24LL * 60 * 60 * 1000;

}  // namespace credence
