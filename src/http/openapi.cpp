#include "http/openapi.h"

#include <algorithm>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <cctype>
#include <set>

#include "http/router.h"
#include "http/session_cookie.h"

namespace credence::http {
namespace json = boost::json;
namespace {

// RFC 9457 problem details. Closed: every member the server writes is named
// here, the extension members included, so the API tests' response
// validation fails on a member nobody documented. A new extension
// (Error::With) needs its entry here.
json::value ProblemSchema() {
  return Schema::Object(
             {
                 Required("type", Schema::String().Describe("urn:credence:problem:<code>")),
                 Required("title", Schema::String().Describe("the status's reason phrase")),
                 Required("status", Schema::Integer()),
                 Required("detail", Schema::String()),
                 Required("code", Schema::String().Describe("stable snake_case error code")),
                 Optional("errors", Schema::Array(Schema::Object({
                                        Required("field", Schema::String()),
                                        Required("message", Schema::String()),
                                    }))
                                        .Describe("validation failures, one per field")),
                 Optional("instance", Schema::String().Describe("the request path")),
                 Optional("requestId", Schema::String().Describe("quote it to an operator")),
                 // Extension members (Error::With).
                 Optional("scope", Schema::String().Describe(
                                       "insufficient_scope: the scope the route needs (also in WWW-Authenticate)")),
                 Optional("allow",
                          Schema::String().Describe("method_not_allowed: the allowed methods (also in Allow)")),
                 Optional("retryAfter", Schema::String().Describe(
                                            "seconds to wait before retrying (also in Retry-After), as a string")),
                 Optional("policy", Schema::String().Enum({"key", "app", "user", "address"}).Describe(
                                        "rate_limited: the limit that refused the request (RateLimit-Policy)")),
                 Optional("blockers", Schema::Array(Schema::String())
                                          .Describe("renewal_blocked: the codes of what blocks the renewal")),
                 Optional("usageCount", Schema::Integer().Min(0).Describe(
                                            "in_use: how many hubs and entries use the category or tag")),
                 Optional("reasonCode", Schema::String().Describe("guard_denied: the denying guard's reason code")),
                 Optional("message", Schema::String().Describe("guard_denied: the denying guard's message")),
                 Optional("metadata", Schema::FreeObject().Describe("guard_denied: the denying guard's metadata")),
                 Optional("pluginId", Schema::String().Describe("guard_denied: the plugin whose guard denied")),
                 Optional("missingPlugin",
                          Schema::String().Describe("plugin_dependency_missing: the dependency to install first")),
                 Optional("archives", Schema::Array(Schema::FreeObject())
                                          .Describe("decision_archived: the archive files that hold the decision "
                                                    "(as GET /trust-admin/retention/archives lists them)")),
                 Optional("archived", Schema::Object({
                                          Required("before", Schema::Timestamp()),
                                          Required("archives", Schema::Array(Schema::FreeObject())),
                                      })
                                          .Describe("window_archived: records before `before` were archived into "
                                                    "these files (as GET /trust-admin/retention/archives lists "
                                                    "them)")),
             })
      .Describe("An RFC 9457 problem (application/problem+json).")
      .ToJsonSchema(Schema::Use::kResponse);
}

std::string_view StatusDescription(int status) {
  switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 202: return "Accepted";
    case 204: return "No Content";
    case 302: return "Found: a redirect (Location)";
    case 303: return "See Other: a redirect (Location)";
    case 400: return "Malformed request, malformed JSON or failed validation";
    case 401: return "Missing or invalid credentials";
    case 403: return "Authenticated but not allowed";
    case 404: return "Not found (also for other tenants' resources)";
    case 405: return "Method not allowed";
    case 408: return "The request did not arrive within the read timeout";
    case 409: return "Conflict";
    case 410: return "Gone: moved out of the database for good (an archived record)";
    case 413: return "Request body too large";
    case 422: return "A plugin action guard denied the action";
    case 429: return "Rate limited (Retry-After; RateLimit-Policy and RateLimit name the limit)";
    case 431: return "Request header fields too large";
    case 502: return "An upstream service failed";
    case 503: return "Temporarily unavailable; retry (Retry-After)";
    default: return "Internal error";
  }
}

// Statuses any request can be answered with before or around its route:
// the server refuses malformed HTTP (400), oversized bodies (413) and
// headers (431) before routing; the dispatcher answers 500 on a failure and
// 503 when the store is busy, full or failing. Every operation lists them
// (as references to components/responses).
constexpr int kServerStatuses[] = {400, 413, 431, 500, 503};

std::string ServerResponseName(int status) { return "Status" + std::to_string(status); }

json::object ProblemContent() {
  return json::object{
      {"application/problem+json", json::object{{"schema", json::object{{"$ref", "#/components/schemas/Problem"}}}}}};
}

// Descriptions of the tags routes use; a tag missing here still gets a
// generic one, but deserves its own line.
std::string TagDescription(const std::string& tag) {
  static const std::pair<const char*, const char*> kTags[] = {
      {"system", "Health, readiness, metrics and this document."},
      {"auth", "Development sign-in and the caller's identity."},
      {"sign-in", "OpenID Connect sign-in, sessions and tenant selection (docs/sign-in.md)."},
      {"tenants", "Creating tenants and their settings."},
      {"users", "The tenant's members, invitations and roles."},
      {"groups", "Groups of users, for knowledge-base permissions."},
      {"hubs", "Knowledge-base hubs: containers of entries with their own access."},
      {"entries", "Knowledge-base entries: content, blocks, publishing, search."},
      {"translations", "Translations of entries, block by block, with staleness."},
      {"memberships", "Hub memberships and entry permissions."},
      {"expiry", "Entry expiry: status, configuration and templates in effect (docs/lifecycle.md)."},
      {"expiry-templates", "Expiry templates the tenant defines."},
      {"expiry-dashboard", "Dashboards of entries by expiry state."},
      {"review-checklists", "Checklists reviews are made against."},
      {"reviews", "Reviews and renewals of entries (docs/reviews-and-renewals.md)."},
      {"notification-channels", "Email, Slack, Teams and webhook channels (docs/notifications.md)."},
      {"notifications", "The notification outbox and its deliveries."},
      {"credentials", "Tenant API keys and OAuth client credentials for machines."},
      {"trust", "Evaluating and filtering sources, the decision ledger and usage (docs/trust.md)."},
      {"trust-admin", "Trust policies, rules and context configuration (docs/trust-admin.md)."},
      {"apps", "The registry of AI applications and their app-bound keys (docs/apps.md)."},
      {"reports", "Compliance reports over the ledger, usage and the registry (docs/reports.md)."},
      {"audit", "The hash-chained audit log: entries, export, verification (docs/audit.md)."},
      {"scanning", "Content scanning findings (docs/scanning.md)."},
      {"analytics", "Reading analytics of entries: reads, edits, time spent, inactive entries (docs/analytics.md)."},
      {"plugins", "Plugins: manifests, tenant installations and settings, action guards (docs/plugins.md)."},
      {"dev", "Development mode only (--dev): clock, jobs and seeding for tests."},
      {"mcp", "The MCP server for AI agents and the OAuth metadata its clients discover (docs/agents.md)."},
      {"scim", "SCIM 2.0 provisioning of users and groups by an identity provider (docs/scim.md)."},
  };
  for (const auto& [name, description] : kTags)
    if (tag == name) return description;
  return "Operations on " + tag + ".";
}

// Who may call the route, in words, for the operation's description.
std::string AccessSentence(const Route& route) {
  switch (route.auth) {
    case Auth::kPublic: return "No credentials needed.";
    case Auth::kDevOnly: return "Development mode only (`--dev`); 404 otherwise. No credentials needed.";
    case Auth::kSignedIn:
      return "Needs a signed-in session (`Authorization: Bearer`, or the browser session cookie); the session need "
             "not have selected a tenant.";
    case Auth::kUser:
      return "Needs a signed-in user of the tenant (`Authorization: Bearer`, or the browser session cookie).";
    case Auth::kTenantAdmin: return "Needs a signed-in owner of the tenant (tenant role Owner).";
    case Auth::kScimKey:
      return "Needs a SCIM key: a tenant API key with the scope `scim` (`Authorization: Bearer`); sessions and "
             "access tokens are refused (docs/scim.md).";
    case Auth::kUserOrMachine:
      return route.scope.empty() ? "Needs a signed-in user or a machine credential (API key or access token)."
                                 : "Needs a signed-in user, or a machine credential (API key or access token) "
                                   "holding the `" +
                                       route.scope + "` scope.";
  }
  return {};
}

std::string OperationDescription(const Route& route) {
  if (!route.doc.description.empty()) return route.doc.description;
  std::string out = route.doc.summary;
  if (!out.empty() && out.back() != '.') out += '.';
  out += "\n\n" + AccessSentence(route);
  if (route.doc.request && route.doc.request_content_type == "application/json")
    out += " The body is validated against its schema; failures are a 400 `validation_failed` naming each field.";
  return out;
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

// "entry.published" -> "webhookEntryPublished"
std::string WebhookOperationId(std::string_view event) {
  std::string out = "webhook";
  bool upper = true;
  for (char c : event) {
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
  op["description"] = OperationDescription(route);
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
                                  json::object{{"schema", route.doc.request->ToJsonSchema(Schema::Use::kRequest)}}}}}};
  }

  json::object responses;
  json::object success{{"description", StatusDescription(route.doc.success_status)}};
  if (route.doc.response)
    success["content"] = json::object{
        {route.doc.response_content_type,
         json::object{{"schema", route.doc.response->ToJsonSchema(Schema::Use::kResponse)}}}};
  for (const auto& [type, schema] : route.doc.alternate_responses)
    success["content"].as_object()[type] = json::object{{"schema", schema.ToJsonSchema(Schema::Use::kResponse)}};
  for (int status : route.doc.other_success) {
    // A redirect among them carries no body, only its Location; a 202
    // (a notification taken, /mcp) none at all.
    if (status == 202) {
      responses["202"] = json::object{{"description", StatusDescription(202)}};
      continue;
    }
    json::object other = status >= 300 && status < 400
                             ? json::object{{"headers", json::object{{"Location", json::object{
                                                {"schema", json::object{{"type", "string"}}}}}}}}
                             : success;
    other["description"] = StatusDescription(status);
    responses[std::to_string(status)] = std::move(other);
  }
  responses[std::to_string(route.doc.success_status)] = std::move(success);

  std::set<int> errors(route.doc.errors.begin(), route.doc.errors.end());
  if (route.doc.request) errors.insert(400);
  if (!route.doc.path_params.empty() || !route.doc.query.empty()) errors.insert(400);  // malformed parameters
  if (route.auth == Auth::kUser || route.auth == Auth::kSignedIn || route.auth == Auth::kUserOrMachine ||
      route.auth == Auth::kTenantAdmin || route.auth == Auth::kScimKey)
    errors.insert({401, 403});
  // Any unsafe request carrying the browser session cookie without the CSRF
  // header, whatever the route (http/session_cookie.h).
  if (IsUnsafeMethod(route.method)) errors.insert(403);
  if (route.auth == Auth::kDevOnly) errors.insert(404);
  // Rate limits (http/rate_limiter.h): every route a credential reaches,
  // and the routes limited per client address.
  if (route.auth != Auth::kPublic && route.auth != Auth::kDevOnly) errors.insert(429);
  if (route.limit_by_address) errors.insert(429);
  if (route.path.find('{') != std::string::npos) errors.insert(404);
  const auto& foreign = route.doc.foreign_errors;
  if (route.doc.foreign_error_schema) errors.insert(foreign.begin(), foreign.end());
  for (int status : errors) {
    json::object content;
    if (route.doc.foreign_error_schema && std::find(foreign.begin(), foreign.end(), status) != foreign.end()) {
      content[route.doc.foreign_error_content_type] =
          json::object{{"schema", route.doc.foreign_error_schema->ToJsonSchema(Schema::Use::kResponse)}};
      // The server and the dispatcher may still answer these statuses
      // with a problem (a malformed request, a failing store).
      const bool server_status =
          std::find(std::begin(kServerStatuses), std::end(kServerStatuses), status) != std::end(kServerStatuses);
      if (server_status && route.doc.foreign_error_content_type != "application/problem+json")
        content["application/problem+json"] = ProblemContent().at("application/problem+json");
    } else {
      content = ProblemContent();
    }
    responses[std::to_string(status)] =
        json::object{{"description", StatusDescription(status)}, {"content", std::move(content)}};
    if (status == 429) {
      // http/rate_limiter.h; the RateLimit headers are on every answer of
      // a limited route, documented here once.
      auto header = [](const char* description) {
        return json::object{{"description", description}, {"schema", json::object{{"type", "string"}}}};
      };
      responses["429"].as_object()["headers"] = json::object{
          {"Retry-After", header("seconds to wait, rounded up")},
          {"RateLimit-Policy", header("draft-ietf-httpapi-ratelimit-headers: the limits that apply, e.g. "
                                      "\"key\";q=200;w=2 (also on successful answers)")},
          {"RateLimit", header("draft-ietf-httpapi-ratelimit-headers: what is left of each, e.g. "
                               "\"key\";r=0;t=2 (also on successful answers)")}};
    }
  }
  for (int status : kServerStatuses)
    if (!responses.contains(std::to_string(status)))
      responses[std::to_string(status)] =
          json::object{{"$ref", "#/components/responses/" + ServerResponseName(status)}};
  op["responses"] = std::move(responses);

  // A person: a bearer token, or the browser session cookie, which on an
  // unsafe method goes with the CSRF header (both of one requirement).
  json::object cookie{{"sessionCookie", json::array{}}};
  if (IsUnsafeMethod(route.method)) cookie["csrfHeader"] = json::array{};
  switch (route.auth) {
    case Auth::kPublic:
    case Auth::kDevOnly: op["security"] = json::array{}; break;
    case Auth::kSignedIn:
    case Auth::kUser:
    case Auth::kTenantAdmin:
      op["security"] = json::array{json::object{{"bearerAuth", json::array{}}}, std::move(cookie)};
      break;
    case Auth::kScimKey: op["security"] = json::array{json::object{{"bearerAuth", json::array{"scim"}}}}; break;
    case Auth::kUserOrMachine: {
      json::array scopes;
      if (!route.scope.empty()) scopes.emplace_back(route.scope);
      op["security"] = json::array{json::object{{"bearerAuth", json::array{}}}, std::move(cookie),
                                   json::object{{"apiKey", scopes}}};
      op["x-required-scope"] = route.scope;
      break;
    }
  }
  if (route.auth == Auth::kDevOnly) op["x-development-mode-only"] = true;
  return op;
}

}  // namespace

std::string BuildOpenApiDocument(const Router& router, const std::string& version,
                                 const std::vector<WebhookDoc>& webhooks) {
  json::object paths;
  std::set<std::string> used_ids;
  std::set<std::string> tag_names;
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
    if (!route->doc.tag.empty()) tag_names.insert(route->doc.tag);
  }
  json::array tags;
  for (const auto& name : tag_names)
    tags.push_back(json::object{{"name", name}, {"description", TagDescription(name)}});
  json::object server_responses;
  for (int status : kServerStatuses)
    server_responses[ServerResponseName(status)] =
        json::object{{"description", std::string(StatusDescription(status)) +
                                         " (any operation: answered by the server or the dispatcher around the route)"},
                     {"content", ProblemContent()}};
  json::object doc{
      {"openapi", "3.1.0"},
      {"jsonSchemaDialect", "https://spec.openapis.org/oas/3.1/dialect/base"},
      {"info", json::object{{"title", "Credence"},
                            {"version", version},
                            {"description",
                             "Trust-control plane for company knowledge: trust evaluation, decision ledger and the "
                             "multilingual knowledge base."}}},
      {"servers", json::array{json::object{
                      {"url", "/"},
                      {"description", "The server that serves this document (paths are relative to it)."}}}},
      {"tags", std::move(tags)},
      {"components",
       json::object{
           {"securitySchemes",
            json::object{
                {"bearerAuth", json::object{{"type", "http"}, {"scheme", "bearer"}}},
                {"apiKey", json::object{{"type", "apiKey"}, {"in", "header"}, {"name", "X-Api-Key"}}},
                {"sessionCookie",
                 json::object{{"type", "apiKey"},
                              {"in", "cookie"},
                              {"name", "credence_session"},
                              {"description",
                               "The web client's session (docs/sign-in.md, \"Browser sessions\"): HttpOnly, "
                               "SameSite=Lax, set by POST /auth/callback or /auth/dev-login with \"cookie\": true "
                               "and cleared by POST /auth/logout. Named __Host-credence_session (and Secure) when "
                               "the public URL is https. Read only when neither Authorization nor X-Api-Key is "
                               "sent."}}},
                {"csrfHeader",
                 json::object{{"type", "apiKey"},
                              {"in", "header"},
                              {"name", "X-Credence-CSRF"},
                              {"description",
                               "Any non-empty value. Required with the session cookie on POST, PUT, PATCH and "
                               "DELETE (403 csrf_header_missing otherwise), on every route; not with a bearer token "
                               "or an API key."}}}}},
           {"schemas", json::object{{"Problem", ProblemSchema()}}},
           {"responses", std::move(server_responses)}}},
      {"paths", std::move(paths)},
  };
  if (!webhooks.empty()) {
    // Each event as the request Credence sends to a registered URL.
    json::object map;
    for (const auto& w : webhooks) {
      map[w.event] = json::object{
          {"post",
           json::object{
               {"operationId", WebhookOperationId(w.event)},
               {"summary", w.description},
               {"tags", json::array{"webhooks"}},
               // Credence calls the receiver; the receiver authenticates it
               // by the signature, not by an OpenAPI security scheme.
               {"security", json::array{}},
               {"parameters",
                json::array{
                    json::object{{"name", "webhook-id"}, {"in", "header"}, {"required", true},
                                 {"schema", json::object{{"type", "string"}}}},
                    json::object{{"name", "webhook-timestamp"}, {"in", "header"}, {"required", true},
                                 {"schema", json::object{{"type", "string"}}},
                                 {"description", "Unix seconds of this attempt"}},
                    json::object{{"name", "webhook-signature"}, {"in", "header"}, {"required", true},
                                 {"schema", json::object{{"type", "string"}}},
                                 {"description",
                                  "space-separated v1,<base64 HMAC-SHA256 of \"<id>.<timestamp>.<body>\">, one "
                                  "per live secret"}}}},
               {"requestBody",
                json::object{{"required", true},
                             {"content", json::object{{"application/json",
                                                       json::object{{"schema", w.payload.ToJsonSchema()}}}}}}},
               {"responses",
                json::object{{"2XX", json::object{{"description", "Delivered; any other answer is retried"}}}}}}}};
    }
    doc["webhooks"] = std::move(map);
  }
  return json::serialize(doc);
}

}  // namespace credence::http
