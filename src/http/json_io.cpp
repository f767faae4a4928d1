#include "http/json_io.h"

#include <boost/json/parse_options.hpp>
#include <boost/json/serialize.hpp>

#include <cmath>

#include "core/clock.h"
#include "core/json_numbers.h"
#include "core/json_parse.h"

namespace credence::http {
namespace json = boost::json;

Result<json::value> ParseJsonBody(const HttpRequest& request) {
  if (request.body.empty()) return Error::InvalidArgument("malformed_json", "A JSON request body is required.");
  boost::system::error_code ec;
  json::parse_options options;
  options.max_depth = 64;
  json::value value = ParseJson(request.body, ec, options);
  if (ec) return Error::InvalidArgument("malformed_json", "The request body is not valid JSON: " + ec.message() + ".");
  if (!AllNumbersFinite(value))
    return Error::InvalidArgument("malformed_json", "The request body holds a number beyond the range of a double.");
  return value;
}

Result<json::object> ParseBody(const HttpRequest& request, const Schema& schema) {
  CR_TRY_ASSIGN(json::value value, ParseJsonBody(request));
  std::vector<FieldError> errors;
  std::string code;
  schema.Validate(value, "", errors, &code);
  if (!errors.empty()) {
    Error e = Error::Validation(std::move(errors));
    if (!code.empty()) e.code = std::move(code);  // e.g. too_many_sources; the errors stay
    return e;
  }
  if (!value.is_object()) return Error::Validation({{"body", "must be a JSON object"}});
  return std::move(value.get_object());
}

HttpResponse JsonResponse(int status, const json::value& body) {
  HttpResponse r;
  r.status = status;
  r.content_type = "application/json";
  r.body = json::serialize(body);
  return r;
}

HttpResponse NoContent() {
  HttpResponse r;
  r.status = 204;
  return r;
}

std::string GetString(const json::object& o, std::string_view key, std::string_view fallback) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr || !v->is_string()) return std::string(fallback);
  return std::string(v->get_string());
}

std::optional<std::string> GetOptString(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return std::string(v->get_string());
}

bool GetBool(const json::object& o, std::string_view key, bool fallback) {
  return GetOptBool(o, key).value_or(fallback);
}

std::optional<bool> GetOptBool(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr || !v->is_bool()) return std::nullopt;
  return v->get_bool();
}

int64_t GetInt(const json::object& o, std::string_view key, int64_t fallback) {
  return GetOptInt(o, key).value_or(fallback);
}

std::optional<int64_t> GetOptInt(const json::object& o, std::string_view key) {
  const json::value* v = o.if_contains(key);
  if (v == nullptr) return std::nullopt;
  if (v->is_int64()) return v->get_int64();
  if (v->is_uint64()) return static_cast<int64_t>(v->get_uint64());
  if (v->is_double()) return static_cast<int64_t>(v->get_double());
  return std::nullopt;
}

std::vector<std::string> GetStringArray(const json::object& o, std::string_view key) {
  std::vector<std::string> out;
  const json::value* v = o.if_contains(key);
  if (v == nullptr || !v->is_array()) return out;
  for (const auto& item : v->get_array())
    if (item.is_string()) out.emplace_back(item.get_string());
  return out;
}

std::vector<std::string_view> GetStringViews(const json::object& o, std::string_view key) {
  std::vector<std::string_view> out;
  const json::value* v = o.if_contains(key);
  if (v == nullptr || !v->is_array()) return out;
  out.reserve(v->get_array().size());
  for (const auto& item : v->get_array())
    if (item.is_string()) out.emplace_back(item.get_string());
  return out;
}

json::array ToJsonArray(const std::vector<std::string>& values) {
  json::array out;
  out.reserve(values.size());
  for (const auto& v : values) out.emplace_back(v);
  return out;
}

json::value OptJson(const std::optional<std::string>& s) { return s ? json::value(*s) : json::value(nullptr); }

json::value OptTime(const std::optional<int64_t>& t) {
  return t ? json::value(FormatTimestamp(*t)) : json::value(nullptr);
}

}  // namespace credence::http
