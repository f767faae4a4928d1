#include "core/json_text.h"

#include <cstdint>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

namespace credence {

namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 when invalid.
size_t Utf8SequenceLength(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  size_t n;
  uint32_t min;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2, min = 0x80;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3, min = 0x800;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4, min = 0x10000;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  uint32_t cp = c & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    const auto cc = static_cast<unsigned char>(s[i + k]);
    if ((cc & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (cc & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

}  // namespace

void AppendJsonString(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  for (size_t i = 0; i < s.size(); ++i) {
    // Runs of plain ASCII (the common case: ids, names, timestamps) are
    // copied at once.
    size_t plain = i;
    while (plain < s.size()) {
      const auto p = static_cast<unsigned char>(s[plain]);
      if (p < 0x20 || p >= 0x80 || p == '"' || p == '\\') break;
      ++plain;
    }
    if (plain > i) {
      out.append(s.data() + i, plain - i);
      i = plain;
      if (i == s.size()) break;
    }
    const char ch = s[i];
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x80) {
      // Invalid UTF-8 (e.g. raw bytes from a request path) becomes U+FFFD,
      // so the output is always valid JSON.
      const size_t n = Utf8SequenceLength(s, i);
      if (n == 0) {
        out += "\\ufffd";
      } else {
        out.append(s.substr(i, n));
        i += n - 1;
      }
      continue;
    }
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out.push_back(kHex[c >> 4]);
          out.push_back(kHex[c & 0xf]);
        } else {
          out.push_back(ch);
        }
    }
  }
  out.push_back('"');
}

std::string StringListToJson(const std::vector<std::string>& values) {
  std::string out = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out.push_back(',');
    AppendJsonString(out, values[i]);
  }
  out.push_back(']');
  return out;
}

std::vector<std::string> StringListFromJson(std::string_view text) {
  std::vector<std::string> out;
  boost::system::error_code ec;
  auto v = boost::json::parse(text, ec);
  if (ec || !v.is_array()) return out;
  for (const auto& item : v.get_array())
    if (item.is_string()) out.emplace_back(item.get_string());
  return out;
}

}  // namespace credence
