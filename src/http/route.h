#pragma once
// A route: method, path template, who may call it, the handler, and its
// documentation. The router serves from this table and /openapi.json is
// generated from the same table, so the two cannot disagree.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "http/request.h"
#include "http/schema.h"
#include "identity/principal.h"

namespace credence::http {

enum class Auth {
  kPublic,        // no credentials; a valid principal is still resolved when sent
  kDevOnly,       // only in development mode; 404 otherwise
  kSignedIn,      // a signed-in user, who may not have selected a tenant yet (sign-in routes)
  kUser,          // a signed-in user
  kUserOrMachine, // a signed-in user, or a machine credential holding `scope`
  kTenantAdmin,   // a signed-in global admin of the tenant (TenantRole Owner), checked before the body
  kScimKey,       // a tenant key with the scope scim, sent as itself (/scim/v2/; docs/scim.md); nothing else
};

struct QueryParamDoc {
  std::string name;
  Schema schema;
  bool required = false;
  std::string description;
};

struct RouteDoc {
  std::string summary;
  std::string tag;
  // The operation's description in /openapi.json. When empty, the
  // generator writes the summary followed by who may call the route and how
  // its body is validated (openapi.cpp, OperationDescription).
  std::string description;
  std::optional<Schema> request;  // JSON request body
  std::string request_content_type = "application/json";
  std::optional<Schema> response;  // success body; none for 204
  int success_status = 200;
  // The same success body answered with other statuses too (e.g. 200 when
  // an idempotent create finds what it would have created); a 3xx among
  // them is a redirect, documented without a body.
  std::vector<int> other_success;
  std::string response_content_type = "application/json";
  // The same success status in other content types, chosen by the request
  // (e.g. ?format=csv): content type -> schema.
  std::vector<std::pair<std::string, Schema>> alternate_responses;
  std::vector<QueryParamDoc> query;
  std::vector<int> errors;  // error statuses this route can answer besides 401/500
  // Error statuses answered in another shape than problem+json (e.g. the
  // OAuth token endpoint's RFC 6749 errors), with that shape.
  std::vector<int> foreign_errors;
  std::optional<Schema> foreign_error_schema;
  std::string foreign_error_content_type = "application/json";
  // Path parameters are strings unless listed here (e.g. {"id", Schema::Uuid()}).
  std::vector<std::pair<std::string, Schema>> path_params;
};

class RequestContext {
 public:
  RequestContext(const HttpRequest& request, std::string request_id)
      : request(request), request_id(std::move(request_id)) {}

  const HttpRequest& request;
  std::string request_id;
  std::vector<std::pair<std::string_view, std::string>> path_params;  // decoded
  std::optional<identity::Principal> principal;
  // Request id, client address and user agent; also on `principal` (set by
  // the dispatcher), here for handlers of anonymous calls.
  identity::RequestMeta meta;

  // The decoded path parameter; the route template guarantees it exists.
  const std::string& PathParam(std::string_view name) const;
  // The authenticated principal; only on routes that require one.
  const identity::Principal& Caller() const { return *principal; }
};

using Handler = std::function<HttpResponse(RequestContext&)>;

struct Route {
  Method method;
  std::string path;  // "/api/hubs/{key}"
  Auth auth;
  std::string scope;  // for kUserOrMachine
  Handler handler;
  RouteDoc doc;
  // Further paths serving this same route (decisions.md 9: "/groups" beside
  // "/api/groups"). Each must name the same path parameters in the same
  // order as `path`; the router serves them all, /openapi.json lists them
  // all, logs and metrics name the route by `path`.
  std::vector<std::string> aliases;
  // A route that needs no credential but is limited per client address
  // (the token endpoint, sign-in starts, dev login; http/rate_limiter.h).
  bool limit_by_address = false;
  // The protected resource (RFC 8707 indicator) the route belongs to: the
  // MCP endpoint's URL; empty for the REST API. Access tokens bound to a
  // resource are taken only by its routes, and its routes take no unbound
  // access token (docs/agents.md).
  std::string resource;
  // That resource's metadata URL (RFC 9728), named in the route's 401 and
  // 403 challenges as resource_metadata.
  std::string resource_metadata;
};

// `route` served at `aliases` too, for route tables written as one
// aggregate: router.Add(Aliased({"/groups"}, {Method::kGet, "/api/groups", ...})).
inline Route Aliased(std::vector<std::string> aliases, Route route) {
  route.aliases = std::move(aliases);
  return route;
}

// `route`, limited per client address when called without a credential.
inline Route LimitedByAddress(Route route) {
  route.limit_by_address = true;
  return route;
}

}  // namespace credence::http
