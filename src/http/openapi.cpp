#include "http/openapi.h"

#include <algorithm>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <cctype>
#include <set>

#include "http/router.h"

namespace credence::http {
namespace json = boost::json;
namespace {

json::value ProblemSchema() {
  return Schema::Object({
                            Required("type", Schema::String()),
                            Required("title", Schema::String()),
                            Required("status", Schema::Integer()),
                            Required("detail", Schema::String()),
                            Required("code", Schema::String().Describe("stable snake_case error code")),
                            Optional("errors", Schema::Array(Schema::Object({
                                                   Required("field", Schema::String()),
                                                   Required("message", Schema::String()),
                                               }))),
                            Optional("instance", Schema::String()),
                            Optional("requestId", Schema::String()),
                        })
      .ToJsonSchema();
}

std::string_view StatusDescription(int status) {
  switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 400: return "Malformed JSON or failed validation";
    case 401: return "Missing or invalid credentials";
    case 403: return "Authenticated but not allowed";
    case 404: return "Not found (also for other tenants' resources)";
    case 405: return "Method not allowed";
    case 409: return "Conflict";
    case 413: return "Request body too large";
    case 422: return "A plugin action guard denied the action";
    case 429: return "Rate limited";
    case 503: return "Temporarily unavailable; retry";
    default: return "Internal error";
  }
}

// "POST /api/hubs/{key}/transfer-ownership" -> "postApiHubsKeyTransferOwnership"
std::string OperationId(const Route& route, std::string_view path) {
  std::string out(MethodName(route.method));
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  bool upper = true;
  for (char c : path) {
    if (!std::isalnum(static_cast<unsigned char>(c))) {
      upper = true;
      continue;
    }
    out.push_back(upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c);
    upper = false;
  }
  return out;
}

json::object Operation(const Route& route, std::string_view path, std::set<std::string>& used_ids) {
  json::object op;
  // Paths that differ only in separators would share an id; OpenAPI needs them unique.
  std::string id = OperationId(route, path);
  for (int n = 2; used_ids.count(id); ++n) id = OperationId(route, path) + std::to_string(n);
  used_ids.insert(id);
  op["operationId"] = id;
  op["summary"] = route.doc.summary;
  if (!route.doc.tag.empty()) op["tags"] = json::array{route.doc.tag};
  if (!route.aliases.empty()) {
    // The same operation served at several paths (decisions.md 9).
    json::array same{json::value(route.path)};
    for (const auto& alias : route.aliases) same.push_back(json::value(alias));
    op["x-same-as"] = std::move(same);
  }

  json::array parameters;
  size_t pos = 0;
  while ((pos = path.find('{', pos)) != std::string_view::npos) {
    const auto end = path.find('}', pos);
    const std::string name(path.substr(pos + 1, end - pos - 1));
    Schema schema = Schema::String();
    for (const auto& [n, s] : route.doc.path_params)
      if (n == name) schema = s;
    parameters.push_back(json::object{{"name", name}, {"in", "path"}, {"required", true},
                                      {"schema", schema.ToJsonSchema()}});
    pos = end;
  }
  for (const auto& q : route.doc.query) {
    json::object p{{"name", q.name}, {"in", "query"}, {"required", q.required}, {"schema", q.schema.ToJsonSchema()}};
    if (!q.description.empty()) p["description"] = q.description;
    parameters.push_back(std::move(p));
  }
  if (!parameters.empty()) op["parameters"] = std::move(parameters);

  if (route.doc.request) {
    op["requestBody"] = json::object{
        {"required", true},
        {"content", json::object{{route.doc.request_content_type,
                                  json::object{{"schema", route.doc.request->ToJsonSchema()}}}}}};
  }

  json::object responses;
  json::object success{{"description", StatusDescription(route.doc.success_status)}};
  if (route.doc.response)
    success["content"] = json::object{
        {route.doc.response_content_type, json::object{{"schema", route.doc.response->ToJsonSchema()}}}};
  for (const auto& [type, schema] : route.doc.alternate_responses)
    success["content"].as_object()[type] = json::object{{"schema", schema.ToJsonSchema()}};
  responses[std::to_string(route.doc.success_status)] = std::move(success);

  std::set<int> errors(route.doc.errors.begin(), route.doc.errors.end());
  if (route.doc.request) errors.insert({400, 413});
  if (route.auth == Auth::kUser || route.auth == Auth::kSignedIn || route.auth == Auth::kUserOrMachine || route.auth == Auth::kTenantAdmin)
    errors.insert({401, 403});
  if (route.auth == Auth::kDevOnly) errors.insert(404);
  if (route.path.find('{') != std::string::npos) errors.insert(404);
  errors.insert(500);
  for (int status : errors) {
    const auto& foreign = route.doc.foreign_errors;
    if (route.doc.foreign_error_schema && std::find(foreign.begin(), foreign.end(), status) != foreign.end()) {
      responses[std::to_string(status)] = json::object{
          {"description", StatusDescription(status)},
          {"content", json::object{{route.doc.foreign_error_content_type,
                                    json::object{{"schema", route.doc.foreign_error_schema->ToJsonSchema()}}}}}};
      continue;
    }
    responses[std::to_string(status)] = json::object{
        {"description", StatusDescription(status)},
        {"content", json::object{{"application/problem+json",
                                  json::object{{"schema", json::object{{"$ref", "#/components/schemas/Problem"}}}}}}}};
  }
  op["responses"] = std::move(responses);

  switch (route.auth) {
    case Auth::kPublic:
    case Auth::kDevOnly: op["security"] = json::array{}; break;
    case Auth::kSignedIn:
    case Auth::kUser:
    case Auth::kTenantAdmin: op["security"] = json::array{json::object{{"bearerAuth", json::array{}}}}; break;
    case Auth::kUserOrMachine: {
      json::array scopes;
      if (!route.scope.empty()) scopes.emplace_back(route.scope);
      op["security"] = json::array{json::object{{"bearerAuth", json::array{}}},
                                   json::object{{"apiKey", scopes}}};
      op["x-required-scope"] = route.scope;
      break;
    }
  }
  if (route.auth == Auth::kDevOnly) op["x-development-mode-only"] = true;
  return op;
}

}  // namespace

std::string BuildOpenApiDocument(const Router& router, const std::string& version) {
  json::object paths;
  std::set<std::string> used_ids;
  for (const auto& route : router.routes()) {
    std::string method(MethodName(route->method));
    for (char& c : method) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::vector<const std::string*> all{&route->path};
    for (const auto& alias : route->aliases) all.push_back(&alias);
    for (const std::string* path : all) {
      auto& item = paths[*path];
      if (!item.is_object()) item = json::object{};
      item.get_object()[method] = Operation(*route, *path, used_ids);
    }
  }
  json::object doc{
      {"openapi", "3.1.0"},
      {"info", json::object{{"title", "Credence"},
                            {"version", version},
                            {"description",
                             "Trust-control plane for company knowledge: trust evaluation, decision ledger and the "
                             "multilingual knowledge base."}}},
      {"components",
       json::object{
           {"securitySchemes",
            json::object{{"bearerAuth", json::object{{"type", "http"}, {"scheme", "bearer"}}},
                         {"apiKey", json::object{{"type", "apiKey"}, {"in", "header"}, {"name", "X-Api-Key"}}}}},
           {"schemas", json::object{{"Problem", ProblemSchema()}}}}},
      {"paths", std::move(paths)},
  };
  return json::serialize(doc);
}

}  // namespace credence::http
