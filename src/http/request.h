#pragma once
// Plain HTTP request and response values. Handlers see only these; Beast
// stays inside http/server/.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace credence::http {

enum class Method { kGet, kHead, kPost, kPut, kPatch, kDelete, kOptions, kOther };

std::string_view MethodName(Method m);
Method ParseMethod(std::string_view name);

struct HttpRequest {
  Method method = Method::kGet;
  std::string method_name;
  std::string target;  // as received: path and query, percent-encoded
  std::vector<std::pair<std::string, std::string>> headers;  // names lowercased
  std::string body;

  std::string_view path() const;   // target before '?', still encoded
  std::string_view query() const;  // target after '?', still encoded
  // The header value, or empty. `lowercase_name` must be lowercase.
  std::string_view Header(std::string_view lowercase_name) const;
  // The first decoded value of a query parameter.
  std::optional<std::string> QueryParam(std::string_view name) const;
};

struct HttpResponse {
  int status = 200;
  std::string content_type;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;

  HttpResponse& WithHeader(std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
    return *this;
  }
};

// Decodes %XX escapes (and '+' as space when `plus_is_space`); nullopt for a
// malformed escape.
std::optional<std::string> PercentDecode(std::string_view in, bool plus_is_space = false);

// Splits an application/x-www-form-urlencoded string into decoded pairs.
// nullopt when an escape is malformed.
std::optional<std::vector<std::pair<std::string, std::string>>> ParseFormUrlEncoded(std::string_view in);

}  // namespace credence::http
