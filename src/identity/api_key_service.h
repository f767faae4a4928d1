#pragma once
// Tenant API keys and app-bound keys (machine credentials) and the OAuth
// 2.0 client-credentials grant that exchanges one for a short-lived access token
// (docs/credentials.md). Also what the Authenticator asks to turn a key or
// an access token into a machine Principal.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/access_token.h"
#include "identity/audit.h"
#include "identity/events.h"
#include "identity/principal.h"

namespace credence::storage {
class Database;
class TenantSession;
}

namespace credence::identity {

// The trust scopes, in their canonical order (the order they are stored
// and answered in): what app keys can hold, and what users have.
const std::vector<std::string>& MachineScopes();

// connector:push: pushes documents to one push connector (docs/connectors.md).
// Only tenant keys hold it, and a key that does names its connector.
inline constexpr char kConnectorPushScope[] = "connector:push";
// scim: provisions users and groups at /scim/v2/ (docs/scim.md). A key with
// it holds no other scope and reaches nothing else (identity/scim/
// scim_service.h), and it cannot obtain access tokens.
inline constexpr char kScimScope[] = "scim";
// The scopes a tenant key can hold: MachineScopes(), connector:push, scim.
const std::vector<std::string>& TenantKeyScopes();

inline constexpr size_t kMaxApiKeyNameLength = 200;
inline constexpr int64_t kDefaultTokenTtlSeconds = 3600;

struct ApiKey {
  std::string id;
  std::string name;
  std::string client_id;
  std::string secret_prefix;  // the secret's first 15 characters, to tell keys apart
  std::vector<std::string> scopes;
  std::string created_by;  // user id
  TimeMs created_at = 0;
  std::optional<TimeMs> expires_at;
  std::optional<std::string> connector_id;  // keys with connector:push
};

struct NewApiKey {
  std::string name;
  std::vector<std::string> scopes;
  std::optional<TimeMs> expires_at;
  // Required with connector:push (and only then): a connector of the tenant.
  std::optional<std::string> connector_id;
};

// The one answer that carries the secret; it is not stored anywhere.
struct CreatedApiKey {
  ApiKey key;
  std::string secret;
};

// --- App-bound keys (docs/credentials.md, "App keys"). An app key is an
// api_keys row with an app id: the same format, storage and authentication
// as a tenant key, plus a lifecycle (disable, enable, regenerate) and a
// history.

inline constexpr char kKeyEnabled[] = "enabled";
inline constexpr char kKeyDisabled[] = "disabled";
inline constexpr char kKeyExpired[] = "expired";
inline constexpr char kKeyRevoked[] = "revoked";

struct KeyEvent {
  std::string event;  // created | disabled | enabled | regenerated | revoked
  TimeMs at = 0;
  std::optional<std::string> by_user_id;
};

struct AppKey {
  ApiKey key;  // expires_at is always set for app keys
  std::string app_id;
  std::optional<TimeMs> disabled_at;
  std::optional<TimeMs> revoked_at;
  std::optional<TimeMs> rotated_at;
  std::vector<KeyEvent> history;  // oldest first
  // StatusAt(the service's clock) when the key was read.
  std::string status;

  // revoked, else expired (at `now`), else disabled, else enabled: the
  // state that keeps the key from working which the admin can least undo.
  std::string_view StatusAt(TimeMs now) const;
};

struct NewAppKey {
  std::string name;
  std::optional<std::vector<std::string>> scopes;  // nullopt: every scope
  std::optional<TimeMs> expires_at;                // required
};

struct CreatedAppKey {
  AppKey key;
  std::string secret;
};

struct IssuedToken {
  std::string access_token;
  int64_t expires_in = 0;  // seconds
  std::vector<std::string> scopes;
};

class ApiKeyService {
 public:
  // `signing_key`: the shared access-token key (LoadOrCreateSigningKey).
  // Creating and revoking keys are recorded in `audit` (docs/audit.md).
  // `events` gets apikey.created, apikey.revoked and app.key.disabled
  // (docs/webhooks.md).
  ApiKeyService(storage::Database& db, const Clock& clock, const AuditRecorder& audit, std::string signing_key,
                int64_t token_ttl_seconds = kDefaultTokenTtlSeconds, const EventSink& events = kNoEvents);

  // Global admins only. `name` is trimmed, 1..200 characters; `scopes` a
  // non-empty set of MachineScopes() without repeats; `expires_at`, when
  // given, in the future. All field errors are answered together.
  Result<CreatedApiKey> Create(const Principal& caller, const NewApiKey& request) const;

  // The keys of the caller's tenant that are not revoked, oldest first,
  // without secrets. Global admins only.
  Result<std::vector<ApiKey>> List(const Principal& caller) const;

  // Global admins only. The key stops authenticating at once; access tokens
  // already issued to it stay valid until they expire (the spec's key
  // lifecycle). 404 for an unknown, revoked or other tenant's key.
  Status Revoke(const Principal& caller, const std::string& key_id) const;

  // The client-credentials grant (RFC 6749 section 4.4). `requested_scope`
  // is the scope parameter (nullopt when omitted: every scope of the key).
  // Errors carry the OAuth error code: invalid_client (Unauthenticated) or
  // invalid_scope (InvalidArgument). Disabled and expired keys are
  // invalid_client. The token of an app key carries the app id.
  // `resource` (RFC 8707), when sent, must be one of AcceptResources(); the
  // token is then bound to it (claim "aud") and checked against its key on
  // every use (AuthenticateAccessToken); anything else is invalid_target
  // (InvalidArgument).
  Result<IssuedToken> IssueToken(std::string_view client_id, std::string_view client_secret,
                                 const std::optional<std::string>& requested_scope,
                                 const std::optional<std::string>& resource = std::nullopt) const;

  // The resources (RFC 8707 indicators, absolute URLs) tokens may be bound
  // to: the MCP endpoint's URL (docs/agents.md). Set once, before use.
  void AcceptResources(std::vector<std::string> resources) { resources_ = std::move(resources); }
  const std::vector<std::string>& accepted_resources() const { return resources_; }

  // A key sent as the credential of a request: a malformed secret (checksum)
  // is refused without a database lookup; otherwise one indexed lookup.
  // Unauthenticated invalid_token when it is not a live key (unknown,
  // revoked, a regenerated key's old secret, an expired tenant key); an app
  // key that is disabled or expired is key_disabled or key_expired. The
  // principal of an app key carries its app id.
  Result<Principal> AuthenticateKey(std::string_view secret) const;

  // An access token: verified by signature and expiry alone, no I/O. A
  // token issued to an app key carries the app id (claim "app"). A token
  // bound to a resource (claim "aud") is also held against its key, one
  // indexed read: refused (invalid_token, key_disabled, key_expired) once
  // the key is revoked, disabled or expired, as the key itself would be.
  Result<Principal> AuthenticateAccessToken(std::string_view token) const;

  int64_t token_ttl_seconds() const { return token_ttl_seconds_; }

  // Whether a connector id names a connector of the session's tenant; set
  // by the wiring (connectors sit above identity). Until set, a key with
  // connector:push cannot be created.
  using ConnectorCheck = std::function<bool(storage::TenantSession&, const std::string& connector_id)>;
  void SetConnectorCheck(ConnectorCheck check) { connector_check_ = std::move(check); }

  // App-bound keys. Each runs in the caller's transaction (`tenant`, a
  // write transaction of the caller's tenant for the changes), so that the
  // app registry checks the app and changes its keys atomically; the
  // registry has checked the app exists, is the tenant's and, for changes,
  // is not archived. Global admins only. Unknown keys, tenant keys and
  // other apps' keys are 404.

  // `name` trimmed, 1..200; `scopes` as for Create (nullopt: all of them);
  // `expires_at` required (400 naming expiresAt otherwise), in the future
  // and at most `max_lifetime_ms` ahead. Records the "created" event.
  Result<CreatedAppKey> CreateAppKey(storage::TenantSession& tenant, const Principal& caller,
                                     const std::string& app_id, const NewAppKey& request,
                                     int64_t max_lifetime_ms) const;
  // Every key of the app, revoked ones included, oldest first, with history.
  Result<std::vector<AppKey>> ListAppKeys(storage::TenantSession& tenant, const Principal& caller,
                                          const std::string& app_id) const;
  Result<AppKey> GetAppKey(storage::TenantSession& tenant, const Principal& caller, const std::string& app_id,
                           const std::string& key_id) const;
  // Disabling stops the key at once (401 key_disabled); enabling undoes it.
  // Idempotent: a key already in the asked state is answered as it is,
  // without a history event. A revoked key is 409 key_revoked.
  Result<AppKey> SetAppKeyEnabled(storage::TenantSession& tenant, const Principal& caller,
                                  const std::string& app_id, const std::string& key_id, bool enabled) const;
  // A new secret for the same key (id, client id, scopes, expiry, state and
  // history kept); the old secret stops authenticating at once. 409
  // key_revoked, or key_expired (a new secret would not work either).
  Result<CreatedAppKey> RegenerateAppKey(storage::TenantSession& tenant, const Principal& caller,
                                         const std::string& app_id, const std::string& key_id) const;
  // Revokes every live key of the app with a "revoked" event each (the app
  // is being archived). Answers how many.
  Result<int64_t> RevokeAppKeys(storage::TenantSession& tenant, const Principal& caller,
                                const std::string& app_id) const;

 private:
  storage::Database& db_;
  const Clock& clock_;
  const AuditRecorder& audit_;
  const EventSink& events_;
  AccessTokenSigner signer_;
  const int64_t token_ttl_seconds_;
  ConnectorCheck connector_check_;
  std::vector<std::string> resources_;
};

}  // namespace credence::identity
