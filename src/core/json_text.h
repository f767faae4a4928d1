#pragma once
// Minimal JSON text helpers for hot paths (logs, metrics) that should not
// build a DOM.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace credence {

// Appends `s` as a quoted JSON string with the required escapes.
void AppendJsonString(std::string& out, std::string_view s);

// A list of strings stored as a JSON array in a TEXT column, and back
// (anything but an array of strings reads as empty).
std::string StringListToJson(const std::vector<std::string>& values);
std::vector<std::string> StringListFromJson(std::string_view text);

// Writes one JSON object's members straight into a string, for hot paths
// that answer large documents (the trust endpoints): no DOM, no allocation
// per member. Keys are trusted literals; values are escaped.
class JsonObjectWriter {
 public:
  explicit JsonObjectWriter(std::string& out) : out_(out) { out_ += '{'; }
  JsonObjectWriter& Str(std::string_view key, std::string_view value) {
    Key(key);
    AppendJsonString(out_, value);
    return *this;
  }
  JsonObjectWriter& Int(std::string_view key, int64_t value) {
    Key(key);
    out_ += std::to_string(value);
    return *this;
  }
  JsonObjectWriter& Bool(std::string_view key, bool value) {
    Key(key);
    out_ += value ? "true" : "false";
    return *this;
  }
  JsonObjectWriter& Null(std::string_view key) {
    Key(key);
    out_ += "null";
    return *this;
  }
  template <class T>
  JsonObjectWriter& OptStr(std::string_view key, const T& value) {
    return value ? Str(key, *value) : Null(key);
  }
  // `json` must be valid JSON text (an object, an array, a literal).
  JsonObjectWriter& Raw(std::string_view key, std::string_view json) {
    Key(key);
    out_ += json;
    return *this;
  }
  void Close() { out_ += '}'; }

 private:
  void Key(std::string_view key) {
    // One append per member: this runs thousands of times per trust answer.
    char buf[80];
    size_t n = 0;
    if (!first_) buf[n++] = ',';
    first_ = false;
    buf[n++] = '"';
    const size_t len = key.size() < sizeof buf - 4 ? key.size() : sizeof buf - 4;
    std::memcpy(buf + n, key.data(), len);
    n += len;
    buf[n++] = '"';
    buf[n++] = ':';
    out_.append(buf, n);
  }
  std::string& out_;
  bool first_ = true;
};

}  // namespace credence
