// Machine credentials (docs/credentials.md): tenant API keys at /apikeys and
// /api/apikeys (decisions.md 9), the OAuth 2.0 token endpoint
// /connect/token (client credentials, RFC 6749 section 4.4), and
// GET /api/trust/whoami, which tells a caller what its credential is.
#include <boost/url/encoding_opts.hpp>
#include <boost/url/parse_query.hpp>
#include <boost/url/params_view.hpp>

#include <cctype>
#include <map>

#include "core/ids.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"
#include "identity/api_key_service.h"
#include "identity/token_format.h"

namespace credence::http {
namespace json = boost::json;

namespace {


Schema ScopeSchema() { return Schema::String().Enum(identity::MachineScopes()); }
Schema TenantKeyScopeSchema() { return Schema::String().Enum(identity::TenantKeyScopes()); }

json::object ApiKeyJson(const identity::ApiKey& k) {
  return {{"id", k.id},
          {"name", k.name},
          {"clientId", k.client_id},
          {"secretPrefix", k.secret_prefix},
          {"scopes", ToJsonArray(k.scopes)},
          {"createdBy", k.created_by},
          {"createdAt", FormatTimestamp(k.created_at)},
          {"expiresAt", OptTime(k.expires_at)},
          {"connectorId", OptJson(k.connector_id)}};
}

std::vector<Property> ApiKeyProperties() {
  return {
      Required("id", Schema::Uuid()),
      Required("name", Schema::String()),
      Required("clientId", Schema::String().Describe("crd_ci_ and 16 base62 characters; the client_id at /connect/token")),
      Required("secretPrefix",
               Schema::String().Describe("the first 15 characters of the secret, to tell keys apart (not a credential)")),
      Required("scopes", Schema::Array(TenantKeyScopeSchema())),
      Required("createdBy", Schema::Uuid().Describe("the admin who created the key")),
      Required("createdAt", Schema::Timestamp()),
      Required("expiresAt", Schema::Timestamp().Nullable().Describe("null: the key does not expire")),
      Required("connectorId",
               Schema::Uuid().Nullable().Describe("the push connector a key with connector:push pushes to; else null")),
  };
}

Schema ApiKeySchema() { return Schema::Object(ApiKeyProperties()); }

Schema CreatedApiKeySchema() {
  auto properties = ApiKeyProperties();
  properties.push_back(Required(
      "clientSecret", Schema::String().Describe("crd_sk_, 32 random and 6 checksum base62 characters; shown only in "
                                                "this answer. Send it as Authorization: Bearer, as X-Api-Key, or "
                                                "as client_secret at /connect/token")));
  return Schema::Object(std::move(properties));
}

// --- /connect/token (RFC 6749) ---

// Every token-endpoint answer carries the caching headers of RFC 6749
// section 5.1, errors included (they may echo credentials' fate).
HttpResponse OAuthJson(int status, const json::object& body) {
  HttpResponse r = JsonResponse(status, body);
  r.WithHeader("Cache-Control", "no-store");
  r.WithHeader("Pragma", "no-cache");
  return r;
}

// error_description may only hold %x20-21 / %x23-5B / %x5D-7E (RFC 6749
// section 5.2); anything else a client sent is shown as '?'.
std::string Description(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c < 0x20 || c > 0x7E || c == '"' || c == '\\') c = '?';
  return out;
}

// invalid_client is a 401, and every 401 carries a challenge (RFC 9110
// section 15.5.2); Basic is the scheme this endpoint accepts in a header.
HttpResponse OAuthError(std::string_view error, std::string_view description) {
  const int status = error == "invalid_client" ? 401 : 400;
  HttpResponse r = OAuthJson(status, {{"error", error}, {"error_description", Description(description)}});
  if (status == 401) r.WithHeader("WWW-Authenticate", "Basic realm=\"credence\"");
  return r;
}

bool HasScheme(std::string_view header, std::string_view lowercase_scheme) {
  if (header.size() <= lowercase_scheme.size() || header[lowercase_scheme.size()] != ' ') return false;
  for (size_t i = 0; i < lowercase_scheme.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(header[i])) != lowercase_scheme[i]) return false;
  return true;
}

bool IsFormContentType(std::string_view content_type) {
  std::string_view media = content_type.substr(0, content_type.find(';'));
  while (!media.empty() && media.back() == ' ') media.remove_suffix(1);
  constexpr std::string_view kForm = "application/x-www-form-urlencoded";
  if (media.size() != kForm.size()) return false;
  for (size_t i = 0; i < kForm.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(media[i])) != kForm[i]) return false;
  return true;
}

struct ClientCredentials {
  std::string id;
  std::string secret;
};

// RFC 6749 section 2.3.1: base64 of the form-urlencoded id, ':', and the
// form-urlencoded secret.
std::optional<ClientCredentials> DecodeBasic(std::string_view header) {
  std::string_view encoded = header.substr(6);
  while (!encoded.empty() && encoded.front() == ' ') encoded.remove_prefix(1);
  auto decoded = Base64Decode(encoded, /*url_alphabet=*/false);
  if (!decoded) return std::nullopt;
  const auto colon = decoded->find(':');
  if (colon == std::string::npos) return std::nullopt;
  auto id = PercentDecode(std::string_view(*decoded).substr(0, colon), /*plus_is_space=*/true);
  auto secret = PercentDecode(std::string_view(*decoded).substr(colon + 1), /*plus_is_space=*/true);
  if (!id || !secret) return std::nullopt;
  return ClientCredentials{std::move(*id), std::move(*secret)};
}

HttpResponse Token(const identity::ApiKeyService& api_keys, const HttpRequest& request) {
  if (!IsFormContentType(request.Header("content-type")))
    return OAuthError("invalid_request", "The token request must be sent as application/x-www-form-urlencoded.");
  // Validated first: the decoding view below throws on malformed input.
  if (!boost::urls::parse_query(request.body))
    return OAuthError("invalid_request", "The request body is not valid form-urlencoded data.");
  boost::urls::encoding_opts options;
  options.space_as_plus = true;
  // Parameters without a value count as omitted (RFC 6749 section 3.2), but
  // still count as sent: no parameter may be sent twice.
  std::map<std::string, std::string, std::less<>> params;
  std::map<std::string, int, std::less<>> seen;
  for (const auto& p : boost::urls::params_view(request.body, options)) {
    if (p.key.empty() && !p.has_value) continue;  // "a&&b" or an empty body
    if (++seen[p.key] > 1) return OAuthError("invalid_request", "The parameter " + p.key + " is sent more than once.");
    if (p.has_value && !p.value.empty()) params[p.key] = p.value;
  }
  auto param = [&params](std::string_view name) -> std::optional<std::string> {
    const auto it = params.find(name);
    if (it == params.end()) return std::nullopt;
    return it->second;
  };

  const auto grant_type = param("grant_type");
  if (!grant_type) return OAuthError("invalid_request", "The grant_type parameter is required.");
  if (*grant_type != "client_credentials")
    return OAuthError("unsupported_grant_type", "Only the client_credentials grant is supported.");

  // One client authentication method per request (RFC 6749 section 2.3).
  ClientCredentials client;
  const std::string_view authorization = request.Header("authorization");
  const auto body_id = param("client_id"), body_secret = param("client_secret");
  if (!authorization.empty()) {
    if (!HasScheme(authorization, "basic"))
      return OAuthError("invalid_client",
                        "The token endpoint accepts client credentials by HTTP Basic or in the request body.");
    auto basic = DecodeBasic(authorization);
    if (!basic) return OAuthError("invalid_client", "The HTTP Basic credentials are malformed.");
    if (body_secret)
      return OAuthError("invalid_request",
                        "Send the client credentials either by HTTP Basic or in the request body, not both.");
    // A client_id beside Basic is tolerated when it names the same client.
    if (body_id && *body_id != basic->id)
      return OAuthError("invalid_request", "The client_id parameter differs from the HTTP Basic client id.");
    client = std::move(*basic);
  } else if (body_id && body_secret) {
    client = {*body_id, *body_secret};
  } else {
    return OAuthError("invalid_client",
                      "Client authentication is required: HTTP Basic, or client_id and client_secret in the body.");
  }

  auto issued = api_keys.IssueToken(client.id, client.secret, param("scope"), param("resource"));
  if (!issued) return OAuthError(issued.error().code, issued.error().detail);
  std::string scope;
  for (const auto& s : issued->scopes) scope += (scope.empty() ? "" : " ") + s;
  return OAuthJson(200, {{"access_token", issued->access_token},
                         {"token_type", "Bearer"},
                         {"expires_in", issued->expires_in},
                         {"scope", scope}});
}

}  // namespace

void AddCredentialRoutes(Router& router, const Services& s) {
  const identity::ApiKeyService& api_keys = s.api_keys;

  router.Add(Aliased({"/apikeys"},
                     {Method::kGet,
                      "/api/apikeys",
                      Auth::kUser,
                      "",
                      [&api_keys](RequestContext& ctx) {
                        auto list = api_keys.List(ctx.Caller());
                        if (!list) return Problem(ctx, list.error());
                        json::array out;
                        for (const auto& k : *list) out.push_back(ApiKeyJson(k));
                        return JsonResponse(200, out);
                      },
                      {.summary = "The tenant's API keys that are not revoked, oldest first (global admin). Metadata "
                                  "only: the secret is never shown again after creation.",
                       .tag = "credentials",
                       .response = Schema::Array(ApiKeySchema())}}));

  static const Schema kCreateRequest = Schema::Object({
      Required("name", Schema::String()
                           .MinLength(1)
                           .MaxLength(static_cast<int64_t>(identity::kMaxApiKeyNameLength))
                           .Describe("surrounding blanks are trimmed; need not be unique")),
      Required("scopes",
               Schema::Array(TenantKeyScopeSchema()).MinItems(1).Describe("a non-empty set, without repeats")),
      Optional("expiresAt", Schema::Timestamp().Nullable().Describe(
                                "in the future; from then on the key is refused; null or left out: never")),
      Optional("connectorId", Schema::Uuid().Nullable().Describe(
                                  "required with connector:push (and only then): the push connector the key may "
                                  "push to (docs/connectors.md); null or left out: none")),
  });
  router.Add(Aliased({"/apikeys"},
                     {Method::kPost,
                      "/api/apikeys",
                      Auth::kTenantAdmin,
                      "",
                      [&api_keys](RequestContext& ctx) {
                        auto body = ParseBody(ctx.request, kCreateRequest);
                        if (!body) return Problem(ctx, body.error());
                        identity::NewApiKey request;
                        request.name = GetString(*body, "name");
                        request.scopes = GetStringArray(*body, "scopes");
                        if (auto expires = GetOptString(*body, "expiresAt"))
                          request.expires_at = ParseTimestamp(*expires);
                        request.connector_id = GetOptString(*body, "connectorId");
                        auto created = api_keys.Create(ctx.Caller(), request);
                        if (!created) return Problem(ctx, created.error());
                        json::object out = ApiKeyJson(created->key);
                        out["clientSecret"] = created->secret;
                        HttpResponse r = JsonResponse(201, out);
                        r.WithHeader("Cache-Control", "no-store");
                        return r;
                      },
                      {.summary = "Create a tenant API key (global admin). The answer is the only one that shows the "
                                  "secret (clientSecret); the server keeps only its SHA-256.",
                       .tag = "credentials",
                       .request = kCreateRequest,
                       .response = CreatedApiKeySchema(),
                       .success_status = 201}}));

  router.Add(Aliased({"/apikeys/{id}"},
                     {Method::kDelete,
                      "/api/apikeys/{id}",
                      Auth::kUser,
                      "",
                      [&api_keys](RequestContext& ctx) {
                        auto revoked = api_keys.Revoke(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                        if (!revoked) return Problem(ctx, revoked.error());
                        return NoContent();
                      },
                      {.summary = "Revoke a key (global admin): it stops authenticating at once; access tokens already "
                                  "issued to it stay valid until they expire. 404 for an unknown, revoked or other "
                                  "tenant's key.",
                       .tag = "credentials",
                       .success_status = 204,
                       .path_params = {{"id", Schema::Uuid()}}}}));

  static const Schema kTokenRequest = Schema::Object({
      Required("grant_type", Schema::String().Enum({"client_credentials"})),
      Optional("client_id", Schema::String().Describe("the key's clientId; or use HTTP Basic")),
      Optional("client_secret", Schema::String().Describe("the key's clientSecret; or use HTTP Basic")),
      Optional("scope", Schema::String().Describe("space-separated subset of the key's scopes; omitted: all of them")),
      Optional("resource", Schema::String().Describe(
                               "RFC 8707: the resource the token is for; only <public-url>/mcp (the MCP endpoint, "
                               "docs/agents.md) is issued for, and such a token is taken there only. Omitted: a token "
                               "for the REST API")),
  });
  router.Add(LimitedByAddress({Method::kPost, "/connect/token", Auth::kPublic, "",
              [&api_keys](RequestContext& ctx) { return Token(api_keys, ctx.request); },
              {.summary = "OAuth 2.0 token endpoint, client-credentials grant (RFC 6749 section 4.4). Client "
                          "authentication by HTTP Basic (RFC 6749 section 2.3.1) or client_id and client_secret "
                          "in the body, not both. Errors are RFC 6749 section 5.2 JSON {error, "
                          "error_description}, not problem+json: invalid_request, unsupported_grant_type, "
                          "invalid_scope, invalid_target (400), invalid_client (401, WWW-Authenticate: Basic). "
                          "Every answer carries Cache-Control: no-store.",
               .tag = "credentials",
               .request = kTokenRequest,
               .request_content_type = "application/x-www-form-urlencoded",
               .response = Schema::Object({
                   Required("access_token", Schema::String().Describe("a JWT (HS256); send as Authorization: Bearer")),
                   Required("token_type", Schema::String().Enum({"Bearer"})),
                   Required("expires_in", Schema::Integer().Min(0).Describe("seconds")),
                   Required("scope", Schema::String().Describe("the granted scopes, space-separated")),
               }),
               .errors = {400, 401},
               .foreign_errors = {400, 401},
               .foreign_error_schema = Schema::Object({
                   Required("error", Schema::String().Enum({"invalid_request", "invalid_client", "invalid_scope",
                                                            "invalid_target", "unsupported_grant_type"})),
                   Optional("error_description", Schema::String()),
               })}}));

  router.Add({Method::kGet, "/api/trust/whoami", Auth::kUserOrMachine, "",
              [](RequestContext& ctx) {
                const identity::Principal& p = ctx.Caller();
                const bool user = p.is_user();
                auto text_or_null = [](bool present, const std::string& v) {
                  return present && !v.empty() ? json::value(v) : json::value(nullptr);
                };
                return JsonResponse(200, json::object{{"kind", user ? "user" : "machine"},
                                                      {"tenantId", p.tenant_id},
                                                      {"userId", text_or_null(user, p.user_id)},
                                                      {"keyId", text_or_null(!user, p.key_id)},
                                                      {"clientId", text_or_null(!user, p.client_id)},
                                                      {"appId", text_or_null(!user, p.app_id)},
                                                      {"scopes", ToJsonArray(user ? identity::MachineScopes() : p.scopes)},
                                                      {"expiresAt", OptTime(p.expires_at)}});
              },
              {.summary = "What the caller's credential is: a signed-in user (every trust scope) or a machine "
                          "credential (an API key or an access token) with its key, client id, scopes and expiry. "
                          "Any credential of the tenant may call it; no scope is needed.",
               .tag = "credentials",
               .response = Schema::Object({
                   Required("kind", Schema::String().Enum({"user", "machine"})),
                   Required("tenantId", Schema::Uuid()),
                   Required("userId", Schema::Uuid().Nullable().Describe("users only")),
                   Required("keyId", Schema::Uuid().Nullable().Describe("machine credentials only")),
                   Required("clientId", Schema::String().Nullable().Describe("machine credentials only")),
                   Required("appId", Schema::Uuid().Nullable().Describe(
                                         "the app of an app-bound key (or of a token issued to one); null otherwise")),
                   Required("scopes", Schema::Array(ScopeSchema()).Describe("users: every trust scope")),
                   Required("expiresAt", Schema::Timestamp().Nullable().Describe(
                                             "when the credential stops working: an access token's exp or the "
                                             "key's expiresAt; null for sessions and keys without expiry")),
               })}});
}

}  // namespace credence::http
