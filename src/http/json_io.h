#pragma once
// JSON request decoding and response encoding for handlers.
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "http/request.h"
#include "http/schema.h"

namespace credence::http {

// Parses the body as JSON and validates it against `schema` (an object
// schema). Malformed JSON (a number beyond a double's range included): 400
// malformed_json; violations: 400
// validation_failed with one {field, message} per problem.
Result<boost::json::object> ParseBody(const HttpRequest& request, const Schema& schema);
// The body as any JSON value, before any schema: 400 malformed_json as above.
Result<boost::json::value> ParseJsonBody(const HttpRequest& request);

HttpResponse JsonResponse(int status, const boost::json::value& body);
HttpResponse NoContent();

// Accessors for objects that passed validation (types are already checked).
std::string GetString(const boost::json::object& o, std::string_view key, std::string_view fallback = {});
std::optional<std::string> GetOptString(const boost::json::object& o, std::string_view key);
bool GetBool(const boost::json::object& o, std::string_view key, bool fallback = false);
std::optional<bool> GetOptBool(const boost::json::object& o, std::string_view key);
int64_t GetInt(const boost::json::object& o, std::string_view key, int64_t fallback = 0);
std::optional<int64_t> GetOptInt(const boost::json::object& o, std::string_view key);
std::vector<std::string> GetStringArray(const boost::json::object& o, std::string_view key);
// The same as views into `o`, which must outlive them.
std::vector<std::string_view> GetStringViews(const boost::json::object& o, std::string_view key);

// A JSON array of strings.
boost::json::array ToJsonArray(const std::vector<std::string>& values);

// The value, or null.
boost::json::value OptJson(const std::optional<std::string>& s);
// The timestamp as FormatTimestamp writes it, or null.
boost::json::value OptTime(const std::optional<int64_t>& t);

}  // namespace credence::http
