#include "identity/api_key_service.h"

#include <openssl/crypto.h>

#include <algorithm>

#include "core/ids.h"
#include "core/text.h"
#include "identity/authorization.h"
#include "identity/internal/api_key_queries.h"
#include "identity/token_format.h"
#include "storage/session.h"

namespace credence::identity {
namespace {

std::vector<std::string> SplitScopes(std::string_view text) {
  std::vector<std::string> out;
  while (!text.empty()) {
    const auto space = text.find(' ');
    if (space != 0) out.emplace_back(text.substr(0, space));
    text = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
  }
  return out;
}

std::string JoinScopes(const std::vector<std::string>& scopes) {
  std::string out;
  for (const auto& s : scopes) {
    if (!out.empty()) out += ' ';
    out += s;
  }
  return out;
}

bool Contains(const std::vector<std::string>& values, std::string_view value) {
  return std::find(values.begin(), values.end(), value) != values.end();
}

// `scopes` in the canonical order of MachineScopes().
std::vector<std::string> Canonical(const std::vector<std::string>& scopes) {
  std::vector<std::string> out;
  for (const auto& s : MachineScopes())
    if (Contains(scopes, s)) out.push_back(s);
  return out;
}

// Both sides are SHA-256 hex digests of equal length; the comparison takes
// the same time wherever they differ.
bool SameHash(const std::string& a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

Error InvalidToken(std::string detail) { return Error::Unauthenticated("invalid_token", std::move(detail)); }

Error InvalidClient(std::string detail) { return Error::Unauthenticated("invalid_client", std::move(detail)); }

Error InvalidScope(std::string detail) { return Error::InvalidArgument("invalid_scope", std::move(detail)); }

ApiKey KeyFromRow(const storage::Row& r) {
  return {r.Text(0), r.Text(1), r.Text(2), r.Text(3), SplitScopes(r.TextView(4)), r.Text(5), r.Int(6), r.OptInt(7)};
}

// A live key found by its credential, before any expiry check.
struct KeyRow {
  std::string tenant_id;
  std::string key_id;
  std::string client_id;
  std::vector<std::string> scopes;
  std::optional<TimeMs> expires_at;
};

// The row among `rows` (see kFindApiKeysBy*) whose hash is `hash`.
std::optional<KeyRow> MatchHash(const storage::Rows& rows, const std::string& hash) {
  for (const auto& r : rows)
    if (SameHash(hash, r.TextView(3))) return KeyRow{r.Text(0), r.Text(1), r.Text(2), SplitScopes(r.TextView(4)), r.OptInt(5)};
  return std::nullopt;
}

}  // namespace

const std::vector<std::string>& MachineScopes() {
  static const std::vector<std::string> kScopes = {"trust:evaluate", "trust:read", "trust:usage"};
  return kScopes;
}

ApiKeyService::ApiKeyService(storage::Database& db, const Clock& clock, std::string signing_key,
                             int64_t token_ttl_seconds)
    : db_(db), clock_(clock), signer_(std::move(signing_key)), token_ttl_seconds_(token_ttl_seconds) {}

Result<CreatedApiKey> ApiKeyService::Create(const Principal& caller, const NewApiKey& request) const {
  CR_TRY(RequireGlobalAdmin(caller));
  const TimeMs now = clock_.Now();
  std::vector<FieldError> errors;
  CreatedApiKey out;
  ApiKey& k = out.key;
  k.name = Trim(request.name);
  if (k.name.empty()) errors.push_back({"name", "must not be blank"});
  if (Utf8Length(k.name) > kMaxApiKeyNameLength)
    errors.push_back({"name", "must be at most " + std::to_string(kMaxApiKeyNameLength) + " characters"});
  if (request.scopes.empty()) errors.push_back({"scopes", "must not be empty"});
  for (size_t i = 0; i < request.scopes.size(); ++i) {
    if (!Contains(MachineScopes(), request.scopes[i])) {
      errors.push_back({"scopes[" + std::to_string(i) + "]", "must be one of: trust:evaluate, trust:read, trust:usage"});
    } else if (std::find(request.scopes.begin(), request.scopes.begin() + static_cast<std::ptrdiff_t>(i),
                         request.scopes[i]) != request.scopes.begin() + static_cast<std::ptrdiff_t>(i)) {
      errors.push_back({"scopes", "must not repeat a scope (" + request.scopes[i] + ")"});
    }
  }
  if (request.expires_at && *request.expires_at <= now) errors.push_back({"expiresAt", "must be in the future"});
  if (!errors.empty()) return Error::Validation(std::move(errors));

  out.secret = NewSecret();
  k.id = NewId();
  k.client_id = NewClientId();
  k.secret_prefix = std::string(SecretLookupPrefix(out.secret));
  k.scopes = Canonical(request.scopes);
  k.created_by = caller.user_id;
  k.created_at = now;
  k.expires_at = request.expires_at;

  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  tenant.Run(internal::kInsertApiKey, {k.id, k.name, k.client_id, k.secret_prefix, Sha256Hex(out.secret),
                                       JoinScopes(k.scopes), k.created_by, k.created_at, k.expires_at});
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
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (tenant.Run(internal::kRevokeApiKey, {key_id, clock_.Now(), caller.user_id}).affected() == 0)
    return Error::NotFound("API key not found.");
  return Ok();
}

Result<IssuedToken> ApiKeyService::IssueToken(std::string_view client_id, std::string_view client_secret,
                                              const std::optional<std::string>& requested_scope) const {
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
  const TimeMs now = clock_.Now();
  if (key->expires_at && now >= *key->expires_at) return InvalidClient("The client's API key has expired.");

  std::vector<std::string> granted = key->scopes;
  if (requested_scope) {
    const auto requested = SplitScopes(*requested_scope);
    for (const auto& s : requested) {
      if (!Contains(MachineScopes(), s)) return InvalidScope("Unknown scope '" + s + "'.");
      if (!Contains(key->scopes, s)) return InvalidScope("The client's API key does not hold the scope '" + s + "'.");
    }
    // A scope parameter of blanks only asks for nothing in particular.
    if (!requested.empty()) granted = Canonical(requested);
  }

  AccessTokenClaims claims;
  claims.tenant_id = key->tenant_id;
  claims.key_id = key->key_id;
  claims.client_id = key->client_id;
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
  if (!IsWellFormedSecret(secret)) return InvalidToken("The API key is malformed (its checksum does not match).");
  std::optional<KeyRow> key;
  {
    storage::Session session(db_);
    key = MatchHash(session.Run(internal::kFindApiKeysBySecretPrefix, {SecretLookupPrefix(secret)}), Sha256Hex(secret));
  }
  if (!key) return InvalidToken("The API key is not valid (unknown or revoked).");
  if (key->expires_at && clock_.Now() >= *key->expires_at) return InvalidToken("The API key has expired.");
  Principal p;
  p.kind = PrincipalKind::kMachine;
  p.tenant_id = std::move(key->tenant_id);
  p.key_id = std::move(key->key_id);
  p.client_id = std::move(key->client_id);
  p.scopes = std::move(key->scopes);
  p.expires_at = key->expires_at;
  return p;
}

Result<Principal> ApiKeyService::AuthenticateAccessToken(std::string_view token) const {
  CR_TRY_ASSIGN(AccessTokenClaims claims, signer_.Verify(token, clock_.Now()));
  Principal p;
  p.kind = PrincipalKind::kMachine;
  p.tenant_id = std::move(claims.tenant_id);
  p.key_id = std::move(claims.key_id);
  p.client_id = std::move(claims.client_id);
  p.scopes = std::move(claims.scopes);
  p.expires_at = claims.expires_at * 1000;
  return p;
}

}  // namespace credence::identity
