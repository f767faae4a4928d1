#include "telemetry/w3c.h"

namespace credence::telemetry {
namespace {

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;  // uppercase is invalid in traceparent
}

// Lowercase hex into `out`; false on any other character.
template <size_t N>
bool ReadHex(std::string_view text, std::array<uint8_t, N>& out) {
  if (text.size() != 2 * N) return false;
  for (size_t i = 0; i < N; ++i) {
    const int hi = HexDigit(text[2 * i]);
    const int lo = HexDigit(text[2 * i + 1]);
    if (hi < 0 || lo < 0) return false;
    out[i] = static_cast<uint8_t>(hi << 4 | lo);
  }
  return true;
}

template <size_t N>
bool AllZero(const std::array<uint8_t, N>& bytes) {
  for (uint8_t b : bytes)
    if (b != 0) return false;
  return true;
}

constexpr size_t kVersion00Length = 55;

}  // namespace

std::optional<TraceContext> ParseTraceparent(std::string_view value) {
  if (value.size() < kVersion00Length) return std::nullopt;
  std::array<uint8_t, 1> version{};
  if (!ReadHex(value.substr(0, 2), version) || version[0] == 0xff) return std::nullopt;
  // A future version may append fields after a '-'; version 00 may not.
  if (version[0] == 0 ? value.size() != kVersion00Length
                      : value.size() > kVersion00Length && value[kVersion00Length] != '-')
    return std::nullopt;
  if (value[2] != '-' || value[35] != '-' || value[52] != '-') return std::nullopt;
  TraceContext context;
  std::array<uint8_t, 1> flags{};
  if (!ReadHex(value.substr(3, 32), context.trace_id) || !ReadHex(value.substr(36, 16), context.span_id) ||
      !ReadHex(value.substr(53, 2), flags))
    return std::nullopt;
  if (AllZero(context.trace_id) || AllZero(context.span_id)) return std::nullopt;
  context.flags = flags[0] & 1;
  return context;
}

std::string FormatTraceparent(const TraceContext& context) {
  std::string out;
  out.reserve(kVersion00Length);
  out += "00-";
  AppendHex(out, context.trace_id.data(), context.trace_id.size());
  out += '-';
  AppendHex(out, context.span_id.data(), context.span_id.size());
  out += context.sampled() ? "-01" : "-00";
  return out;
}

bool UsableTracestate(std::string_view value) {
  constexpr size_t kMaxLength = 512;
  constexpr size_t kMaxMembers = 32;
  if (value.empty() || value.size() > kMaxLength) return false;
  size_t members = 1;
  for (char c : value) {
    if (c < 0x20 || c > 0x7e) return false;
    if (c == ',') ++members;
  }
  return members <= kMaxMembers;
}

}  // namespace credence::telemetry
