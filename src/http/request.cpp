#include "http/request.h"

namespace credence::http {

std::string_view MethodName(Method m) {
  switch (m) {
    case Method::kGet:
      return "GET";
    case Method::kHead:
      return "HEAD";
    case Method::kPost:
      return "POST";
    case Method::kPut:
      return "PUT";
    case Method::kPatch:
      return "PATCH";
    case Method::kDelete:
      return "DELETE";
    case Method::kOptions:
      return "OPTIONS";
    case Method::kOther:
      return "OTHER";
  }
  return "OTHER";
}

Method ParseMethod(std::string_view name) {
  if (name == "GET") return Method::kGet;
  if (name == "POST") return Method::kPost;
  if (name == "PUT") return Method::kPut;
  if (name == "DELETE") return Method::kDelete;
  if (name == "PATCH") return Method::kPatch;
  if (name == "HEAD") return Method::kHead;
  if (name == "OPTIONS") return Method::kOptions;
  return Method::kOther;
}

std::string_view HttpRequest::path() const {
  std::string_view t = target;
  return t.substr(0, t.find('?'));
}

std::string_view HttpRequest::query() const {
  std::string_view t = target;
  const auto q = t.find('?');
  return q == std::string_view::npos ? std::string_view() : t.substr(q + 1);
}

std::string_view HttpRequest::Header(std::string_view lowercase_name) const {
  for (const auto& [name, value] : headers)
    if (name == lowercase_name) return value;
  return {};
}

std::optional<std::string> HttpRequest::QueryParam(std::string_view wanted) const {
  std::string_view q = query();
  while (!q.empty()) {
    const auto amp = q.find('&');
    const std::string_view pair = q.substr(0, amp);
    q = amp == std::string_view::npos ? std::string_view() : q.substr(amp + 1);
    const auto eq = pair.find('=');
    auto name = PercentDecode(pair.substr(0, eq), true);
    if (!name || *name != wanted) continue;
    if (eq == std::string_view::npos) return std::string();
    // A malformed escape in a value is passed through raw; handlers validate values.
    auto value = PercentDecode(pair.substr(eq + 1), true);
    return value ? *value : std::string(pair.substr(eq + 1));
  }
  return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> HttpRequest::QueryParams() const {
  std::vector<std::pair<std::string, std::string>> out;
  std::string_view q = query();
  while (!q.empty()) {
    const auto amp = q.find('&');
    const std::string_view pair = q.substr(0, amp);
    q = amp == std::string_view::npos ? std::string_view() : q.substr(amp + 1);
    if (pair.empty()) continue;
    const auto eq = pair.find('=');
    const std::string_view raw_name = pair.substr(0, eq);
    const std::string_view raw_value = eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1);
    auto name = PercentDecode(raw_name, true);
    auto value = PercentDecode(raw_value, true);
    out.emplace_back(name ? *name : std::string(raw_name), value ? *value : std::string(raw_value));
  }
  return out;
}

namespace {
int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

std::optional<std::string> PercentDecode(std::string_view in, bool plus_is_space) {
  std::string out;
  out.reserve(in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    const char c = in[i];
    if (c == '%') {
      if (i + 2 >= in.size()) return std::nullopt;
      const int hi = HexValue(in[i + 1]), lo = HexValue(in[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      out.push_back(static_cast<char>(hi * 16 + lo));
      i += 2;
    } else if (c == '+' && plus_is_space) {
      out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::optional<std::vector<std::pair<std::string, std::string>>> ParseFormUrlEncoded(std::string_view in) {
  std::vector<std::pair<std::string, std::string>> out;
  while (!in.empty()) {
    const auto amp = in.find('&');
    const std::string_view pair = in.substr(0, amp);
    in = amp == std::string_view::npos ? std::string_view() : in.substr(amp + 1);
    if (pair.empty()) continue;
    const auto eq = pair.find('=');
    auto name = PercentDecode(pair.substr(0, eq), true);
    auto value =
        eq == std::string_view::npos ? std::optional<std::string>("") : PercentDecode(pair.substr(eq + 1), true);
    if (!name || !value) return std::nullopt;
    out.emplace_back(std::move(*name), std::move(*value));
  }
  return out;
}

}  // namespace credence::http
