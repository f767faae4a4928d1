#include "http/problem.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include "core/json_text.h"

namespace credence::http {

int StatusFor(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kInvalidArgument: return 400;
    case ErrorKind::kUnauthenticated: return 401;
    case ErrorKind::kPermissionDenied: return 403;
    case ErrorKind::kNotFound: return 404;
    case ErrorKind::kMethodNotAllowed: return 405;
    case ErrorKind::kConflict: return 409;
    case ErrorKind::kGone: return 410;
    case ErrorKind::kPayloadTooLarge: return 413;
    case ErrorKind::kGuardDenied: return 422;
    case ErrorKind::kRateLimited: return 429;
    case ErrorKind::kUpstreamFailed: return 502;
    case ErrorKind::kUnavailable: return 503;
    case ErrorKind::kInternal: return 500;
  }
  return 500;
}

namespace {

std::string_view Title(int status) {
  switch (status) {
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 410: return "Gone";
    case 413: return "Content Too Large";
    case 422: return "Unprocessable Content";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    default: return "Internal Server Error";
  }
}

// Extension values are JSON; headers want the plain string.
std::string Unquote(const std::string& json_value) {
  boost::system::error_code ec;
  auto v = boost::json::parse(json_value, ec);
  if (!ec && v.is_string()) return std::string(v.get_string());
  return json_value;
}

}  // namespace

HttpResponse ProblemResponse(const Error& error, std::string_view instance, std::string_view request_id) {
  HttpResponse r;
  r.status = error.kind == ErrorKind::kInvalidArgument && error.code == "headers_too_large" ? 431
             : error.code == "request_timeout"                                            ? 408
                                                                                          : StatusFor(error.kind);
  r.content_type = "application/problem+json";
  std::string& b = r.body;
  b.reserve(256);
  b += "{\"type\":";
  AppendJsonString(b, "urn:credence:problem:" + error.code);
  b += ",\"title\":";
  AppendJsonString(b, Title(r.status));
  b += ",\"status\":" + std::to_string(r.status) + ",\"detail\":";
  AppendJsonString(b, error.detail);
  b += ",\"code\":";
  AppendJsonString(b, error.code);
  if (!error.fields.empty()) {
    b += ",\"errors\":[";
    for (size_t i = 0; i < error.fields.size(); ++i) {
      if (i > 0) b += ',';
      b += "{\"field\":";
      AppendJsonString(b, error.fields[i].field);
      b += ",\"message\":";
      AppendJsonString(b, error.fields[i].message);
      b += '}';
    }
    b += ']';
  }
  b += ",\"instance\":";
  AppendJsonString(b, instance);
  b += ",\"requestId\":";
  AppendJsonString(b, request_id);
  for (const auto& [key, json_value] : error.extensions) {
    b += ',';
    AppendJsonString(b, key);
    b += ':';
    b += json_value;
  }
  b += '}';

  if (r.status == 401) {
    std::string challenge = "Bearer realm=\"credence\"";
    // A disabled or expired app key is an invalid token to RFC 6750 too.
    if (error.code == "invalid_token" || error.code == "key_disabled" || error.code == "key_expired")
      challenge += ", error=\"invalid_token\"";
    r.WithHeader("WWW-Authenticate", challenge);
  } else if (r.status == 403) {
    if (const std::string* scope = error.Extension("scope"))
      r.WithHeader("WWW-Authenticate",
                   "Bearer realm=\"credence\", error=\"insufficient_scope\", scope=\"" + Unquote(*scope) + "\"");
  } else if (r.status == 405) {
    if (const std::string* allow = error.Extension("allow")) r.WithHeader("Allow", Unquote(*allow));
  }
  // Rate limits (429), and what is not ready yet (a receipt's checkpoint,
  // 409). The dispatcher sets its 503s' own.
  if (r.status == 429 || r.status == 409)
    if (const std::string* retry = error.Extension("retryAfter")) r.WithHeader("Retry-After", Unquote(*retry));
  return r;
}

}  // namespace credence::http
