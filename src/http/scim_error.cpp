#include "http/scim_error.h"

#include <boost/json.hpp>

#include <array>
#include <string>

#include "http/problem.h"

namespace credence::http {
namespace {

namespace json = boost::json;

constexpr std::string_view kScimErrorSchemaUrn = "urn:ietf:params:scim:api:messages:2.0:Error";

// RFC 7644 Table 9.
std::string_view ScimTypeFor(int status, std::string_view code) {
  static constexpr std::array<std::string_view, 10> kTypes = {
      "invalidFilter", "tooMany",  "uniqueness",   "mutability",  "invalidSyntax",
      "invalidPath",   "noTarget", "invalidValue", "invalidVers", "sensitive"};
  for (std::string_view type : kTypes)
    if (type == code) return type;
  if (status == 400) return code == "malformed_json" ? "invalidSyntax" : "invalidValue";
  if (status == 409) return "uniqueness";
  return {};
}

HttpResponse ScimError(int status, std::string_view code, std::string_view detail) {
  json::object body{{"schemas", json::array{kScimErrorSchemaUrn}}, {"status", std::to_string(status)}, {"detail", detail}};
  if (const std::string_view type = ScimTypeFor(status, code); !type.empty()) body["scimType"] = type;
  HttpResponse r;
  r.status = status;
  r.content_type = kScimContentType;
  r.body = json::serialize(body);
  return r;
}

}  // namespace

HttpResponse ScimErrorFor(const Error& error) {
  const int status = error.code == "preconditionFailed" ? 412 : StatusFor(error.kind);
  std::string detail = error.detail;
  // The first field error says which attribute, when the detail does not.
  if (!error.fields.empty() && detail.find(error.fields.front().field) == std::string::npos)
    detail += " (" + error.fields.front().field + " " + error.fields.front().message + ")";
  HttpResponse r = ScimError(status, error.code, detail);
  if (status == 401) r.WithHeader("WWW-Authenticate", "Bearer realm=\"credence\", error=\"invalid_token\"");
  return r;
}

void ProblemToScimError(HttpResponse& response) {
  if (response.content_type != "application/problem+json") return;
  boost::system::error_code ec;
  const json::value problem = json::parse(response.body, ec);
  if (ec || !problem.is_object()) return;
  const json::object& o = problem.as_object();
  auto text = [&](std::string_view key) {
    const json::value* v = o.if_contains(key);
    return v != nullptr && v->is_string() ? std::string(v->as_string()) : std::string();
  };
  HttpResponse scim = ScimError(response.status, text("code"), text("detail"));
  response.content_type = scim.content_type;
  response.body = std::move(scim.body);
}

Schema ScimErrorSchema() {
  return Schema::Object({
      Required("schemas", Schema::Array(Schema::String().Enum({std::string(kScimErrorSchemaUrn)}))),
      Required("status", Schema::String().Describe("the HTTP status, as a string")),
      Optional("scimType", Schema::String().Describe("RFC 7644 Table 9: invalidFilter, uniqueness, invalidValue, "
                                                     "invalidSyntax, invalidPath, noTarget, ...")),
      Required("detail", Schema::String()),
  });
}

}  // namespace credence::http
