#pragma once
// Structured logs: one JSON object per line on stderr. Each line is written
// with a single write(2), so lines from different threads never interleave.
#include <cstdint>
#include <string>
#include <string_view>

namespace credence {

enum class LogLevel { kDebug, kInfo, kWarn, kError };

void SetLogLevel(LogLevel level);
bool LogEnabled(LogLevel level);

class LogLine {
 public:
  LogLine(LogLevel level, std::string_view message);
  LogLine(const LogLine&) = delete;
  LogLine& operator=(const LogLine&) = delete;
  ~LogLine();  // emits the line

  LogLine& Str(std::string_view key, std::string_view value);
  LogLine& Int(std::string_view key, int64_t value);
  LogLine& Num(std::string_view key, double value);
  LogLine& Bool(std::string_view key, bool value);

 private:
  void Key(std::string_view key);
  bool enabled_;
  std::string buffer_;
};

}  // namespace credence
