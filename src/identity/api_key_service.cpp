#include "identity/api_key_service.h"

#include <openssl/crypto.h>

#include <boost/json/array.hpp>

#include <algorithm>
#include <map>

#include "core/ids.h"
#include "core/text.h"
#include "identity/authorization.h"
#include "identity/internal/api_key_queries.h"
#include "identity/token_format.h"
#include "storage/session.h"

namespace credence::identity {
namespace {

bool Contains(const std::vector<std::string>& values, std::string_view value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

// `scopes` in the canonical order of TenantKeyScopes().
std::vector<std::string> Canonical(const std::vector<std::string>& scopes) {
  std::vector<std::string> out;
  for (const auto& s : TenantKeyScopes())
    if (Contains(scopes, s)) out.push_back(s);
  return out;
}

// Both sides are SHA-256 hex digests of equal length; the comparison takes
// the same time wherever they differ.
bool SameHash(const std::string& a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

Error ApiKeyInvalidToken(std::string detail) { return Error::Unauthenticated("invalid_token", std::move(detail)); }

Error InvalidClient(std::string detail) { return Error::Unauthenticated("invalid_client", std::move(detail)); }

Error InvalidScope(std::string detail) { return Error::InvalidArgument("invalid_scope", std::move(detail)); }

Error KeyDisabled() { return Error::Unauthenticated("key_disabled", "The API key is disabled."); }

Error KeyExpired() { return Error::Unauthenticated("key_expired", "The API key has expired."); }

// The name and scopes of a new key, trimmed and in canonical order; every
// field error is appended to `errors`.
void ValidateNameAndScopes(const std::string& name, const std::vector<std::string>& scopes, ApiKey& k,
                           std::vector<FieldError>& errors, bool tenant_key = false) {
  const auto& allowed = tenant_key ? TenantKeyScopes() : MachineScopes();
  k.name = Trim(name);
  if (k.name.empty()) errors.push_back({"name", "must not be blank"});
  if (Utf8Length(k.name) > kMaxApiKeyNameLength)
    errors.push_back({"name", "must be at most " + std::to_string(kMaxApiKeyNameLength) + " characters"});
  if (scopes.empty()) errors.push_back({"scopes", "must not be empty"});
  for (size_t i = 0; i < scopes.size(); ++i) {
    if (!Contains(allowed, scopes[i])) {
      errors.push_back({"scopes[" + std::to_string(i) + "]",
                        tenant_key ? "must be one of: trust:evaluate, trust:read, trust:usage, connector:push, scim"
                                   : "must be one of: trust:evaluate, trust:read, trust:usage"});
    } else if (std::find(scopes.begin(), scopes.begin() + static_cast<std::ptrdiff_t>(i), scopes[i]) !=
               scopes.begin() + static_cast<std::ptrdiff_t>(i)) {
      errors.push_back({"scopes", "must not repeat a scope (" + scopes[i] + ")"});
    }
  }
}

ApiKey KeyFromRow(const storage::Row& r) {
  return {r.Text(0), r.Text(1), r.Text(2),   r.Text(3),   SplitScopes(r.TextView(4)),
          r.Text(5), r.Int(6),  r.OptInt(7), r.OptText(8)};
}

// A live key found by its credential, before any expiry check.
struct KeyRow {
  std::string tenant_id;
  std::string key_id;
  std::string client_id;
  std::vector<std::string> scopes;
  std::optional<TimeMs> expires_at;
  std::string app_id;  // empty for tenant keys
  bool disabled = false;
  std::string connector_id;  // keys with connector:push
};

// The row among `rows` (see kFindApiKeysBy*) whose hash is `hash`.
std::optional<KeyRow> MatchHash(const storage::Rows& rows, const std::string& hash) {
  for (const auto& r : rows)
    if (SameHash(hash, r.TextView(3)))
      return KeyRow{r.Text(0),   r.Text(1), r.Text(2),    SplitScopes(r.TextView(4)),
                    r.OptInt(5), r.Text(6), !r.IsNull(7), r.Text(8)};
  return std::nullopt;
}

// Columns of kListAppKeys / kFindAppKey.
AppKey AppKeyFromRow(const storage::Row& r) {
  AppKey a;
  a.key = {r.Text(0), r.Text(1), r.Text(2), r.Text(3), SplitScopes(r.TextView(4)), r.Text(5), r.Int(6), r.OptInt(7)};
  a.app_id = r.Text(8);
  a.disabled_at = r.OptInt(9);
  a.revoked_at = r.OptInt(10);
  a.rotated_at = r.OptInt(11);
  return a;
}

KeyEvent EventFromRow(const storage::Row& r) { return {r.Text(1), r.Int(2), r.OptText(3)}; }

Error AppKeyNotFound() { return Error::NotFound("App key not found."); }

// What the audit log keeps of a key: never its secret nor its hash.
boost::json::object KeyDetails(const ApiKey& k, const std::string& app_id = {}) {
  boost::json::object d{{"name", k.name}, {"clientId", k.client_id}};
  boost::json::array scopes;
  for (const auto& s : k.scopes) scopes.emplace_back(s);
  d["scopes"] = std::move(scopes);
  if (k.expires_at) d["expiresAt"] = FormatTimestamp(*k.expires_at);
  if (k.connector_id) d["connectorId"] = *k.connector_id;
  if (!app_id.empty()) d["appId"] = app_id;
  return d;
}

void RecordEvent(storage::TenantSession& tenant, const std::string& key_id, const char* event, TimeMs at,
                 const std::string& by_user_id) {
  tenant.Run(internal::kInsertKeyEvent, {key_id, event, at, by_user_id});
}

}  // namespace

std::string_view AppKey::StatusAt(TimeMs now) const {
  if (revoked_at) return kKeyRevoked;
  if (key.expires_at && now >= *key.expires_at) return kKeyExpired;
  if (disabled_at) return kKeyDisabled;
  return kKeyEnabled;
}

const std::vector<std::string>& MachineScopes() {
  static const std::vector<std::string> kScopes = {"trust:evaluate", "trust:read", "trust:usage"};
  return kScopes;
}

const std::vector<std::string>& TenantKeyScopes() {
  static const std::vector<std::string> kScopes = {"trust:evaluate", "trust:read", "trust:usage", kConnectorPushScope,
                                                   kScimScope};
  return kScopes;
}

ApiKeyService::ApiKeyService(storage::Database& db, const Clock& clock, const AuditRecorder& audit,
                             std::string signing_key, int64_t token_ttl_seconds, const EventSink& events)
    : db_(db),
      clock_(clock),
      audit_(audit),
      events_(events),
      signer_(std::move(signing_key)),
      token_ttl_seconds_(token_ttl_seconds) {}

Result<CreatedApiKey> ApiKeyService::Create(const Principal& caller, const NewApiKey& request) const {
  CR_TRY(RequireGlobalAdmin(caller));
  const TimeMs now = clock_.Now();
  std::vector<FieldError> errors;
  CreatedApiKey out;
  ApiKey& k = out.key;
  ValidateNameAndScopes(request.name, request.scopes, k, errors, /*tenant_key=*/true);
  if (request.expires_at && *request.expires_at <= now) errors.push_back({"expiresAt", "must be in the future"});
  // A SCIM key creates and removes users: it must not also read knowledge
  // or evaluate, so that it can be handed to an identity provider alone.
  if (Contains(request.scopes, kScimScope) && request.scopes.size() > 1)
    errors.push_back({"scopes", "scim cannot be combined with other scopes"});
  const bool pushes = Contains(request.scopes, kConnectorPushScope);
  if (pushes && !request.connector_id) errors.push_back({"connectorId", "is required with the scope connector:push"});
  if (!pushes && request.connector_id)
    errors.push_back({"connectorId", "is only for keys with the scope connector:push"});
  if (request.connector_id && !IsUuid(*request.connector_id)) errors.push_back({"connectorId", "must be a UUID"});
  if (!errors.empty()) return Error::Validation(std::move(errors));
  if (request.connector_id) k.connector_id = CanonicalUuid(*request.connector_id);

  out.secret = NewSecret();
  k.id = NewId();
  k.client_id = NewClientId();
  k.secret_prefix = std::string(SecretLookupPrefix(out.secret));
  k.scopes = Canonical(request.scopes);
  k.created_by = caller.user_id;
  k.created_at = now;
  k.expires_at = request.expires_at;

  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (k.connector_id && (!connector_check_ || !connector_check_(tenant, *k.connector_id)))
    return Error::Validation({{"connectorId", "is not a connector of this tenant"}});
  tenant.Run(internal::kInsertApiKey, {k.id, k.name, k.client_id, k.secret_prefix, Sha256Hex(out.secret),
                                       JoinScopes(k.scopes), k.created_by, k.created_at, k.expires_at, k.connector_id});
  events_.Emit(tenant, "apikey.created", {{"keyId", k.id}, {"name", k.name}, {"actorId", caller.user_id}});
  audit_.Record(tenant, AuditOf(caller, "apikey.created", {"apikey", k.id}, KeyDetails(k)));
  session.Commit();
  return out;
}

Result<std::vector<ApiKey>> ApiKeyService::List(const Principal& caller) const {
  CR_TRY(RequireGlobalAdmin(caller));
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  std::vector<ApiKey> out;
  for (const auto& row : tenant.Run(internal::kListApiKeys)) out.push_back(KeyFromRow(row));
  return out;
}

Status ApiKeyService::Revoke(const Principal& caller, const std::string& key_id) const {
  CR_TRY(RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (tenant.Run(internal::kRevokeApiKey, {key_id, clock_.Now(), caller.user_id}).affected() == 0)
    return Error::NotFound("API key not found.");
  events_.Emit(tenant, "apikey.revoked", {{"keyId", key_id}, {"actorId", caller.user_id}});
  audit_.Record(tenant, AuditOf(caller, "apikey.revoked", {"apikey", key_id}));
  session.Commit();
  return Ok();
}

Result<IssuedToken> ApiKeyService::IssueToken(std::string_view client_id, std::string_view client_secret,
                                              const std::optional<std::string>& requested_scope,
                                              const std::optional<std::string>& resource) const {
  // One answer for every way the credentials can be wrong, so a caller
  // cannot tell an unknown client from a wrong secret.
  constexpr const char* kBadCredentials = "The client credentials are not valid.";
  if (!IsWellFormedClientId(client_id) || !IsWellFormedSecret(client_secret)) return InvalidClient(kBadCredentials);
  std::optional<KeyRow> key;
  {
    storage::Session session(db_);
    key = MatchHash(session.Run(internal::kFindApiKeysByClientId, {client_id}), Sha256Hex(client_secret));
  }
  if (!key) return InvalidClient(kBadCredentials);
  // A SCIM key is sent as itself to /scim/v2/, which takes no access token.
  if (Contains(key->scopes, kScimScope))
    return InvalidClient("A SCIM key is a bearer secret for /scim/v2/ only; it cannot obtain access tokens.");
  const TimeMs now = clock_.Now();
  if (key->expires_at && now >= *key->expires_at) return InvalidClient("The client's API key has expired.");
  if (key->disabled) return InvalidClient("The client's API key is disabled.");

  std::vector<std::string> granted = key->scopes;
  if (requested_scope) {
    const auto requested = SplitScopes(*requested_scope);
    for (const auto& s : requested) {
      if (!Contains(TenantKeyScopes(), s)) return InvalidScope("Unknown scope '" + s + "'.");
      if (!Contains(key->scopes, s)) return InvalidScope("The client's API key does not hold the scope '" + s + "'.");
    }
    // A scope parameter of blanks only asks for nothing in particular.
    if (!requested.empty()) granted = Canonical(requested);
  }

  // Checked after the client: an unauthenticated caller learns nothing of
  // which resources exist beyond what the metadata already publishes.
  if (resource && !Contains(resources_, *resource))
    return Error::InvalidArgument("invalid_target", "The resource '" + *resource +
                                                        "' is not one this server issues tokens for; omit it for the "
                                                        "REST API.");

  AccessTokenClaims claims;
  if (resource) claims.audience = *resource;
  claims.tenant_id = key->tenant_id;
  claims.key_id = key->key_id;
  claims.client_id = key->client_id;
  claims.app_id = key->app_id;
  claims.connector_id = key->connector_id;
  claims.scopes = granted;
  claims.issued_at = now / 1000;
  // A token never outlives its key's expiry.
  TimeMs expires_ms = now + token_ttl_seconds_ * 1000;
  if (key->expires_at) expires_ms = std::min(expires_ms, *key->expires_at);
  claims.expires_at = expires_ms / 1000;
  claims.token_id = NewId();

  IssuedToken out;
  out.access_token = signer_.Sign(claims);
  out.expires_in = std::max<int64_t>(0, claims.expires_at - claims.issued_at);
  out.scopes = std::move(granted);
  return out;
}

Result<Principal> ApiKeyService::AuthenticateKey(std::string_view secret) const {
  if (!IsWellFormedSecret(secret)) return ApiKeyInvalidToken("The API key is malformed (its checksum does not match).");
  std::optional<KeyRow> key;
  {
    storage::Session session(db_);
    key = MatchHash(session.Run(internal::kFindApiKeysBySecretPrefix, {SecretLookupPrefix(secret)}), Sha256Hex(secret));
  }
  if (!key) return ApiKeyInvalidToken("The API key is not valid (unknown or revoked).");
  // App keys say why they stopped working; tenant keys keep the answer of
  // docs/credentials.md (invalid_token, "expired").
  if (key->expires_at && clock_.Now() >= *key->expires_at)
    return key->app_id.empty() ? ApiKeyInvalidToken("The API key has expired.") : KeyExpired();
  if (key->disabled) return KeyDisabled();
  Principal p;
  p.kind = PrincipalKind::kMachine;
  p.tenant_id = std::move(key->tenant_id);
  p.key_id = std::move(key->key_id);
  p.client_id = std::move(key->client_id);
  p.app_id = std::move(key->app_id);
  p.connector_id = std::move(key->connector_id);
  p.scopes = std::move(key->scopes);
  p.expires_at = key->expires_at;
  return p;
}

Result<Principal> ApiKeyService::AuthenticateAccessToken(std::string_view token) const {
  const TimeMs now = clock_.Now();
  CR_TRY_ASSIGN(AccessTokenClaims claims, signer_.Verify(token, now));
  if (!claims.audience.empty()) {
    // A bound token answers for its key at once (a key revoked, or its app
    // archived, is refused on the next request), where an unbound one lives
    // out its hour (docs/credentials.md): agents hold tokens for long
    // sessions, and the MCP spec's resource server is expected to notice.
    storage::Session session(db_);
    storage::TenantSession tenant(session, claims.tenant_id);
    auto rows = tenant.Run(internal::kKeyState, {claims.key_id});
    if (rows.empty() || !rows.front().IsNull(2))
      return ApiKeyInvalidToken("The access token's API key has been revoked.");
    const auto& row = rows.front();
    const bool app_key = !row.IsNull(3);
    if (auto expires = row.OptInt(0); expires && now >= *expires)
      return app_key ? KeyExpired() : ApiKeyInvalidToken("The access token's API key has expired.");
    if (!row.IsNull(1)) return KeyDisabled();
  }
  Principal p;
  p.access_token = true;
  p.audience = std::move(claims.audience);
  p.kind = PrincipalKind::kMachine;
  p.tenant_id = std::move(claims.tenant_id);
  p.key_id = std::move(claims.key_id);
  p.client_id = std::move(claims.client_id);
  p.app_id = std::move(claims.app_id);
  p.connector_id = std::move(claims.connector_id);
  p.scopes = std::move(claims.scopes);
  p.expires_at = claims.expires_at * 1000;
  return p;
}

// --- App-bound keys ---

Result<CreatedAppKey> ApiKeyService::CreateAppKey(storage::TenantSession& tenant, const Principal& caller,
                                                  const std::string& app_id, const NewAppKey& request,
                                                  int64_t max_lifetime_ms) const {
  CR_TRY(RequireGlobalAdmin(caller));
  const TimeMs now = clock_.Now();
  std::vector<FieldError> errors;
  CreatedAppKey out;
  AppKey& a = out.key;
  ValidateNameAndScopes(request.name, request.scopes.value_or(MachineScopes()), a.key, errors);
  if (!request.expires_at) {
    errors.push_back({"expiresAt", "is required: app keys must expire"});
  } else if (*request.expires_at <= now) {
    errors.push_back({"expiresAt", "must be in the future"});
  } else if (*request.expires_at - now > max_lifetime_ms) {
    errors.push_back({"expiresAt", "must be at most " + std::to_string(max_lifetime_ms / kMsPerDay) +
                                       " days ahead (the server's --app-key-max-days)"});
  }
  if (!errors.empty()) return Error::Validation(std::move(errors));

  out.secret = NewSecret();
  ApiKey& k = a.key;
  k.id = NewId();
  k.client_id = NewClientId();
  k.secret_prefix = std::string(SecretLookupPrefix(out.secret));
  k.scopes = Canonical(request.scopes.value_or(MachineScopes()));
  k.created_by = caller.user_id;
  k.created_at = now;
  k.expires_at = request.expires_at;
  a.app_id = app_id;
  tenant.Run(internal::kInsertAppKey, {k.id, k.name, k.client_id, k.secret_prefix, Sha256Hex(out.secret),
                                       JoinScopes(k.scopes), k.created_by, k.created_at, k.expires_at, app_id});
  RecordEvent(tenant, k.id, "created", now, caller.user_id);
  audit_.Record(tenant, AuditOf(caller, "appkey.created", {"appkey", k.id}, KeyDetails(k, app_id)));
  a.history.push_back({"created", now, caller.user_id});
  a.status = a.StatusAt(now);
  return out;
}

Result<std::vector<AppKey>> ApiKeyService::ListAppKeys(storage::TenantSession& tenant, const Principal& caller,
                                                       const std::string& app_id) const {
  CR_TRY(RequireGlobalAdmin(caller));
  std::vector<AppKey> out;
  std::map<std::string, size_t, std::less<>> index;
  const TimeMs now = clock_.Now();
  for (const auto& row : tenant.Run(internal::kListAppKeys, {app_id})) {
    index[row.Text(0)] = out.size();
    out.push_back(AppKeyFromRow(row));
    out.back().status = out.back().StatusAt(now);
  }
  if (out.empty()) return out;
  for (const auto& row : tenant.Run(internal::kAppKeysEvents, {app_id})) {
    const auto it = index.find(row.TextView(0));
    if (it != index.end()) out[it->second].history.push_back(EventFromRow(row));
  }
  return out;
}

Result<AppKey> ApiKeyService::GetAppKey(storage::TenantSession& tenant, const Principal& caller,
                                        const std::string& app_id, const std::string& key_id) const {
  CR_TRY(RequireGlobalAdmin(caller));
  auto rows = tenant.Run(internal::kFindAppKey, {app_id, key_id});
  if (rows.empty()) return AppKeyNotFound();
  AppKey a = AppKeyFromRow(rows.front());
  a.status = a.StatusAt(clock_.Now());
  for (const auto& row : tenant.Run(internal::kAppKeyEvents, {key_id})) a.history.push_back(EventFromRow(row));
  return a;
}

Result<AppKey> ApiKeyService::SetAppKeyEnabled(storage::TenantSession& tenant, const Principal& caller,
                                               const std::string& app_id, const std::string& key_id,
                                               bool enabled) const {
  CR_TRY(RequireGlobalAdmin(caller));
  const TimeMs now = clock_.Now();
  const auto changed = enabled ? tenant.Run(internal::kEnableAppKey, {app_id, key_id})
                               : tenant.Run(internal::kDisableAppKey, {app_id, key_id, now, caller.user_id});
  if (changed.affected() > 0) {
    RecordEvent(tenant, key_id, enabled ? "enabled" : "disabled", now, caller.user_id);
    if (!enabled)
      events_.Emit(tenant, "app.key.disabled", {{"appId", app_id}, {"keyId", key_id}, {"actorId", caller.user_id}});
    audit_.Record(tenant, AuditOf(caller, enabled ? "appkey.enabled" : "appkey.disabled", {"appkey", key_id},
                                  {{"appId", app_id}}));
  }
  CR_TRY_ASSIGN(AppKey a, GetAppKey(tenant, caller, app_id, key_id));
  // Nothing changed: the key is unknown (404 above), revoked, or already
  // in the state asked for (answered as it is).
  if (changed.affected() == 0 && a.revoked_at)
    return Error::Conflict("key_revoked", "The key is revoked; it cannot be enabled or disabled.");
  return a;
}

Result<CreatedAppKey> ApiKeyService::RegenerateAppKey(storage::TenantSession& tenant, const Principal& caller,
                                                      const std::string& app_id, const std::string& key_id) const {
  CR_TRY(RequireGlobalAdmin(caller));
  const TimeMs now = clock_.Now();
  CR_TRY_ASSIGN(AppKey current, GetAppKey(tenant, caller, app_id, key_id));
  if (current.revoked_at) return Error::Conflict("key_revoked", "The key is revoked; it cannot be regenerated.");
  if (current.key.expires_at && now >= *current.key.expires_at)
    return Error::Conflict("key_expired", "The key has expired; a new secret would not work either. Mint a new key.");
  CreatedAppKey out;
  out.secret = NewSecret();
  const std::string prefix(SecretLookupPrefix(out.secret));
  // Conditional on the key not being revoked meanwhile (PostgreSQL runs
  // writers side by side; the app registry holds the app's row as well).
  if (tenant.Run(internal::kRotateAppKey, {app_id, key_id, prefix, Sha256Hex(out.secret), now}).affected() == 0)
    return Error::Conflict("key_revoked", "The key is revoked; it cannot be regenerated.");
  RecordEvent(tenant, key_id, "regenerated", now, caller.user_id);
  audit_.Record(tenant, AuditOf(caller, "appkey.regenerated", {"appkey", key_id}, {{"appId", app_id}}));
  CR_TRY_ASSIGN(out.key, GetAppKey(tenant, caller, app_id, key_id));
  return out;
}

Result<int64_t> ApiKeyService::RevokeAppKeys(storage::TenantSession& tenant, const Principal& caller,
                                             const std::string& app_id) const {
  CR_TRY(RequireGlobalAdmin(caller));
  const TimeMs now = clock_.Now();
  const auto revoked = tenant.Run(internal::kRevokeAppKeys, {app_id, now, caller.user_id});
  for (const auto& row : revoked) {
    RecordEvent(tenant, row.Text(0), "revoked", now, caller.user_id);
    audit_.Record(tenant, AuditOf(caller, "appkey.revoked", {"appkey", row.Text(0)},
                                  {{"appId", app_id}, {"reason", "app archived"}}));
  }
  return static_cast<int64_t>(revoked.size());
}

}  // namespace credence::identity
