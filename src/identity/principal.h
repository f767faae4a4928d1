#pragma once
// Who is calling: a signed-in user of a tenant, or a machine credential of a
// tenant. Resolved once per request by the Authenticator.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace credence::identity {

enum class TenantRole { kOwner, kMember, kGuest };

std::string_view TenantRoleName(TenantRole role);
std::optional<TenantRole> ParseTenantRole(std::string_view name);

enum class PrincipalKind { kUser, kMachine };

// Where a request came from, as the server saw it. Carried on the Principal
// (set by the dispatcher once it has authenticated the caller) because the
// domain services see only `const Principal& caller`: they record it in the
// audit log inside their own transaction (identity/audit.h, docs/audit.md)
// without a second parameter on every service method. Empty outside a
// request (background jobs, seeding, unit tests).
struct RequestMeta {
  std::string request_id;      // the X-Request-Id answered (the client's, or a fresh UUID)
  std::string client_address;  // the socket peer's IP address, never a forwarded header
  std::string user_agent;      // the User-Agent header, cut at 512 bytes
};

struct Principal {
  PrincipalKind kind = PrincipalKind::kUser;
  std::string tenant_id;

  // Users. A user signed in through a session may not have selected a
  // tenant yet: tenant_id is empty until POST /auth/select-tenant.
  std::string user_id;
  std::string session_id;  // the sign-in session, for sessions only
  TenantRole role = TenantRole::kGuest;
  std::string email;
  std::string display_name;
  std::optional<std::string> preferred_language;

  // Machine credentials: a tenant API key used directly, or an access token
  // issued to one (docs/credentials.md).
  std::string key_id;
  std::string app_id;  // empty for tenant keys
  std::string client_id;
  // A key with the scope connector:push: the one connector it may push to.
  std::string connector_id;
  std::vector<std::string> scopes;
  // When the credential stops working (milliseconds since the epoch): the
  // key's expiry or the token's exp; nullopt for keys without one.
  std::optional<int64_t> expires_at;
  // Access tokens: true, with the resource (RFC 8707) the token is bound to
  // in `audience` ("" for tokens requested without one). A bound token is
  // taken only by that resource's routes (http/route.h, Route::resource).
  bool access_token = false;
  std::string audience;

  RequestMeta request;

  bool is_user() const { return kind == PrincipalKind::kUser; }
  bool has_tenant() const { return !tenant_id.empty(); }
  // decisions.md 4: TenantRole Owner is a global admin of its tenant.
  bool is_global_admin() const { return is_user() && role == TenantRole::kOwner; }
  bool HasScope(std::string_view scope) const {
    return std::find(scopes.begin(), scopes.end(), scope) != scopes.end();
  }
};

}  // namespace credence::identity
