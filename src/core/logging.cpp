#include "core/logging.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>

#include "core/clock.h"
#include "core/json_text.h"
#include "core/trace_context.h"

namespace credence {
namespace {

std::atomic<int> g_level{static_cast<int>(LogLevel::kInfo)};

constexpr std::string_view LevelName(LogLevel level) {
  switch (level) {
    case LogLevel::kDebug: return "debug";
    case LogLevel::kInfo: return "info";
    case LogLevel::kWarn: return "warn";
    case LogLevel::kError: return "error";
  }
  return "info";
}

}  // namespace

void SetLogLevel(LogLevel level) { g_level.store(static_cast<int>(level)); }
bool LogEnabled(LogLevel level) { return static_cast<int>(level) >= g_level.load(std::memory_order_relaxed); }

LogLine::LogLine(LogLevel level, std::string_view message) : enabled_(LogEnabled(level)) {
  if (!enabled_) return;
  buffer_.reserve(256);
  buffer_ = "{\"ts\":\"";
  buffer_ += FormatTimestamp(SystemClock().Now());
  buffer_ += "\",\"level\":\"";
  buffer_ += LevelName(level);
  buffer_ += "\",\"msg\":";
  AppendJsonString(buffer_, message);
  // Every line written while a request (or a traced job) runs names its
  // trace, so logs and traces join on the id (docs/tracing.md).
  const TraceContext& trace = CurrentTraceContext();
  if (trace.valid()) {
    buffer_ += ",\"traceId\":\"";
    AppendHex(buffer_, trace.trace_id.data(), trace.trace_id.size());
    buffer_ += "\",\"spanId\":\"";
    AppendHex(buffer_, trace.span_id.data(), trace.span_id.size());
    buffer_.push_back('"');
  }
}

LogLine::~LogLine() {
  if (!enabled_) return;
  buffer_ += "}\n";
  const char* p = buffer_.data();
  size_t left = buffer_.size();
  while (left > 0) {
    const ssize_t n = ::write(STDERR_FILENO, p, left);
    if (n <= 0) break;
    p += n;
    left -= static_cast<size_t>(n);
  }
}

void LogLine::Key(std::string_view key) {
  buffer_.push_back(',');
  AppendJsonString(buffer_, key);
  buffer_.push_back(':');
}

LogLine& LogLine::Str(std::string_view key, std::string_view value) {
  if (enabled_) {
    Key(key);
    AppendJsonString(buffer_, value);
  }
  return *this;
}

LogLine& LogLine::Int(std::string_view key, int64_t value) {
  if (enabled_) {
    Key(key);
    buffer_ += std::to_string(value);
  }
  return *this;
}

LogLine& LogLine::Num(std::string_view key, double value) {
  if (enabled_) {
    Key(key);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", value);
    buffer_ += buf;
  }
  return *this;
}

LogLine& LogLine::Bool(std::string_view key, bool value) {
  if (enabled_) {
    Key(key);
    buffer_ += value ? "true" : "false";
  }
  return *this;
}

}  // namespace credence
