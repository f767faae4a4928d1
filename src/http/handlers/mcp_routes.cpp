// The MCP endpoint over Streamable HTTP (POST /mcp; GET and DELETE are 405,
// as a stateless server answers them in both revisions) and the OAuth
// metadata an MCP client finds its way to a token with (docs/agents.md).
// The protocol itself is src/mcp's; this file is the transport: Origin,
// Accept and Content-Type, the reply's status, and the wait for the
// ledger without holding a thread.
#include <boost/json/serialize.hpp>
#include <boost/url/parse.hpp>

#include <algorithm>
#include <cctype>

#include "core/text.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"
#include "identity/api_key_service.h"
#include "mcp/server.h"

namespace credence::http {
namespace json = boost::json;

namespace {

// scheme://host[:port] of a URL, lowercased, with the scheme's default
// port left out (RFC 6454 serializes an origin that way).
std::string OriginOf(std::string_view url) {
  auto parsed = boost::urls::parse_uri(url);
  if (!parsed) return AsciiLower(url);
  std::string origin = AsciiLower(parsed->scheme()) + "://" + AsciiLower(parsed->encoded_host_and_port());
  auto drop = [&origin](std::string_view port) {
    if (origin.ends_with(port)) origin.resize(origin.size() - port.size());
  };
  if (parsed->scheme() == "http") drop(":80");
  if (parsed->scheme() == "https") drop(":443");
  return origin;
}

bool ListsMediaType(std::string_view header, std::string_view type) {
  // Accept is a comma-separated list of media ranges with parameters.
  while (!header.empty()) {
    const auto comma = header.find(',');
    std::string_view item = header.substr(0, comma);
    item = item.substr(0, item.find(';'));
    while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    if (AsciiLower(item) == type) return true;
    if (comma == std::string_view::npos) break;
    header.remove_prefix(comma + 1);
  }
  return false;
}

// A transport-level refusal in the shape MCP clients read: a JSON-RPC error
// without an id.
HttpResponse JsonRpcError(int status, int code, std::string_view message) {
  HttpResponse r;
  r.status = status;
  r.content_type = "application/json";
  r.body =
      json::serialize(json::object{{"jsonrpc", "2.0"}, {"error", json::object{{"code", code}, {"message", message}}}});
  return r;
}

// The status of a reply (2026-07-28 "Sending Messages" and "Server
// Validation"): 202 for a notification taken, 200 for any response about
// the request's content, and for the transport's own refusals 404 for an
// unknown method, 400 for the rest.
HttpResponse ToResponse(mcp::Reply reply) {
  HttpResponse r;
  if (reply.kind == mcp::Reply::Kind::kAccepted) {
    r.status = 202;
    return r;
  }
  r.status = reply.kind == mcp::Reply::Kind::kAnswered ? 200 : reply.error_code == mcp::kMethodNotFound ? 404 : 400;
  r.content_type = "application/json";
  r.body = std::move(reply.body);
  return r;
}

std::optional<std::string_view> OptionalHeader(const HttpRequest& request, std::string_view name) {
  for (const auto& [n, v] : request.headers)
    if (n == name) return std::string_view(v);
  return std::nullopt;
}

Schema JsonRpcErrorSchema() {
  return Schema::Object({
      Required("jsonrpc", Schema::String().Enum({"2.0"})),
      Optional("id", Schema::Any().Describe("the request's id, when it could be read")),
      Required("error", Schema::Object({
                            Required("code", Schema::Integer()),
                            Required("message", Schema::String()),
                            Optional("data", Schema::Any()),
                        })),
  });
}

HttpResponse Cacheable(HttpResponse r) {
  // Metadata changes only with the server's configuration.
  r.WithHeader("Cache-Control", "public, max-age=3600");
  return r;
}

}  // namespace

std::string McpResource(const McpEndpoint& endpoint) { return endpoint.public_url + "/mcp"; }

void AddMcpRoutes(Router& router, const Services& s) {
  const mcp::McpServer& mcp = s.mcp;
  const std::string resource = McpResource(s.mcp_endpoint);
  const std::string metadata_url = s.mcp_endpoint.public_url + "/.well-known/oauth-protected-resource/mcp";
  std::vector<std::string> origins{OriginOf(s.mcp_endpoint.public_url)};
  for (const auto& o : s.mcp_endpoint.allowed_origins) origins.push_back(OriginOf(o));

  Route endpoint{
      Method::kPost,
      "/mcp",
      Auth::kUserOrMachine,
      "trust:evaluate",
      [&mcp, origins](RequestContext& ctx) -> HttpResponse {
        const HttpRequest& request = ctx.request;
        // DNS rebinding (both revisions, "Security"): a browser page from
        // elsewhere must not reach a server it resolved to this one.
        if (auto origin = OptionalHeader(request, "origin"))
          if (std::find(origins.begin(), origins.end(), OriginOf(*origin)) == origins.end())
            return Problem(ctx, Error{ErrorKind::kPermissionDenied,
                                      "origin_not_allowed",
                                      "Requests from the origin " + std::string(*origin) +
                                          " are not taken (--mcp-allowed-origins names the others).",
                                      {},
                                      {}});
        const std::string_view accept = request.Header("accept");
        if (!ListsMediaType(accept, "application/json") || !ListsMediaType(accept, "text/event-stream"))
          return JsonRpcError(406, -32000, "Not Acceptable: Accept must list application/json and text/event-stream");
        const std::string_view type = request.Header("content-type");
        if (AsciiLower(type.substr(0, type.find(';'))) != "application/json")
          return JsonRpcError(415, -32000, "Unsupported Media Type: Content-Type must be application/json");

        mcp::Inbound inbound{request.body, OptionalHeader(request, "mcp-protocol-version"),
                             OptionalHeader(request, "mcp-method"), OptionalHeader(request, "mcp-name")};
        auto pending = std::make_shared<PendingResponse>();
        auto started = mcp.Start(ctx.Caller(), inbound, [pending] { pending->Ready(); });
        if (!started) return Problem(ctx, started.error());
        if (auto* reply = std::get_if<mcp::Reply>(&*started)) return ToResponse(std::move(*reply));
        // A call waiting for its decision to reach the ledger: no thread
        // waits meanwhile, as with POST /api/trust/evaluate.
        pending->SetFinish([&mcp, call = std::get<std::shared_ptr<mcp::PendingCall>>(*started)] {
          return ToResponse(mcp.Finish(*call));
        });
        return Deferred(std::move(pending));
      },
      {.summary = "The MCP server (Model Context Protocol over Streamable HTTP, revisions 2026-07-28 and "
                  "2025-11-25; docs/agents.md). One JSON-RPC request or notification per POST; the answer is "
                  "one JSON object (202 without a body for a notification). Tools search_knowledge, "
                  "read_entry and evaluate_sources and the resources credence://entries/{id}: every retrieval "
                  "is a trust decision in the ledger, for the calling AI application. App keys, or access "
                  "tokens requested with resource=<public-url>/mcp; other credentials are 403 "
                  "app_key_required. An Origin other than the server's own or --mcp-allowed-origins is 403. "
                  "Protocol errors are JSON-RPC errors: 400 (parse, invalid request or params, -32020 header "
                  "mismatch, -32022 unsupported protocol version), 404 (-32601, 2026-07-28), 406 and 415.",
       .tag = "mcp",
       .request = Schema::FreeObject().Describe("a JSON-RPC 2.0 request or notification"),
       .response = Schema::FreeObject().Describe("a JSON-RPC 2.0 response"),
       .other_success = {202},
       .errors = {400, 403, 404, 406, 415},
       .foreign_errors = {400, 404, 406, 415},
       .foreign_error_schema = JsonRpcErrorSchema()}};
  endpoint.resource = resource;
  endpoint.resource_metadata = metadata_url;
  router.Add(std::move(endpoint));

  // RFC 9728: the MCP endpoint's protected resource metadata, at the path
  // its URL gives (/.well-known/oauth-protected-resource/mcp) and at the
  // root, where clients that do not insert the path look.
  const json::object protected_resource{{"resource", resource},
                                        {"authorization_servers", json::array{s.mcp_endpoint.public_url}},
                                        {"scopes_supported", json::array{"trust:evaluate"}},
                                        {"bearer_methods_supported", json::array{"header"}},
                                        {"resource_name", "Credence MCP server"}};
  const Schema protected_resource_schema = Schema::Object({
      Required("resource", Schema::String().Describe("<public-url>/mcp")),
      Required("authorization_servers", Schema::Array(Schema::String())),
      Required("scopes_supported", Schema::Array(Schema::String())),
      Required("bearer_methods_supported", Schema::Array(Schema::String())),
      Required("resource_name", Schema::String()),
  });
  router.Add(
      Aliased({"/.well-known/oauth-protected-resource"},
              {Method::kGet,
               "/.well-known/oauth-protected-resource/mcp",
               Auth::kPublic,
               "",
               [protected_resource](RequestContext&) { return Cacheable(JsonResponse(200, protected_resource)); },
               {.summary = "OAuth 2.0 protected resource metadata of the MCP endpoint (RFC 9728): its resource "
                           "indicator and the authorization server (this server) that issues tokens for it. The same "
                           "document at the root path, for clients that look there.",
                .tag = "mcp",
                .response = protected_resource_schema}}));

  // RFC 8414. Credence issues tokens by the client-credentials grant only;
  // authorization_endpoint is there because RFC 8414 requires it of a
  // server with any grant using it and MCP clients require it of every
  // server (docs/decisions.md, "MCP authorization"): it answers every
  // request with unsupported_response_type, and response_types_supported
  // is empty.
  const std::string& base = s.mcp_endpoint.public_url;
  json::array scopes;
  // A SCIM key obtains no tokens (docs/scim.md).
  for (const auto& scope : identity::TenantKeyScopes())
    if (scope != identity::kScimScope) scopes.emplace_back(scope);
  const json::object authorization_server{
      {"issuer", base},
      {"token_endpoint", base + "/connect/token"},
      {"authorization_endpoint", base + "/connect/authorize"},
      {"response_types_supported", json::array{}},
      {"grant_types_supported", json::array{"client_credentials"}},
      {"token_endpoint_auth_methods_supported", json::array{"client_secret_basic", "client_secret_post"}},
      {"scopes_supported", std::move(scopes)}};
  router.Add({Method::kGet,
              "/.well-known/oauth-authorization-server",
              Auth::kPublic,
              "",
              [authorization_server](RequestContext&) { return Cacheable(JsonResponse(200, authorization_server)); },
              {.summary = "OAuth 2.0 authorization server metadata (RFC 8414): the client-credentials token "
                          "endpoint, which issues tokens bound to the MCP endpoint when asked with its resource "
                          "indicator (RFC 8707). There is no authorization-code flow: response_types_supported "
                          "is empty and the authorization endpoint refuses every request.",
               .tag = "mcp",
               .response = Schema::Object({
                   Required("issuer", Schema::String()),
                   Required("token_endpoint", Schema::String()),
                   Required("authorization_endpoint", Schema::String()),
                   Required("response_types_supported", Schema::Array(Schema::String())),
                   Required("grant_types_supported", Schema::Array(Schema::String())),
                   Required("token_endpoint_auth_methods_supported", Schema::Array(Schema::String())),
                   Required("scopes_supported", Schema::Array(Schema::String())),
               })}});

  router.Add(LimitedByAddress(
      {Method::kGet,
       "/connect/authorize",
       Auth::kPublic,
       "",
       [](RequestContext&) {
         // RFC 6749 section 4.1.2.1: without a registered redirection URI
         // the error is shown, not redirected to.
         HttpResponse r =
             JsonResponse(400, json::object{{"error", "unsupported_response_type"},
                                            {"error_description",
                                             "This server issues tokens by the client-credentials grant only (POST "
                                             "/connect/token with an app key's client id and secret); it has no "
                                             "authorization-code flow."}});
         r.WithHeader("Cache-Control", "no-store");
         return r;
       },
       {.summary = "The authorization endpoint RFC 8414 metadata names: every request is refused with "
                   "unsupported_response_type (RFC 6749 section 4.1.2.1), since tokens are issued by the "
                   "client-credentials grant only (docs/decisions.md, \"MCP authorization\").",
        .tag = "mcp",
        .errors = {400},
        .foreign_errors = {400},
        .foreign_error_schema = Schema::Object({
            Required("error", Schema::String().Enum({"unsupported_response_type"})),
            Required("error_description", Schema::String()),
        })}}));
}

}  // namespace credence::http
