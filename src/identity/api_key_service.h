#pragma once
// Tenant API keys (machine credentials) and the OAuth 2.0 client-credentials
// grant that exchanges one for a short-lived access token
// (docs/credentials.md). Also what the Authenticator asks to turn a key or
// an access token into a machine Principal.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/access_token.h"
#include "identity/principal.h"

namespace credence::storage {
class Database;
}

namespace credence::identity {

// The scopes a tenant key can hold, in their canonical order (the order
// they are stored and answered in).
const std::vector<std::string>& MachineScopes();

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
};

struct NewApiKey {
  std::string name;
  std::vector<std::string> scopes;
  std::optional<TimeMs> expires_at;
};

// The one answer that carries the secret; it is not stored anywhere.
struct CreatedApiKey {
  ApiKey key;
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
  ApiKeyService(storage::Database& db, const Clock& clock, std::string signing_key,
                int64_t token_ttl_seconds = kDefaultTokenTtlSeconds);

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
  // invalid_scope (InvalidArgument).
  Result<IssuedToken> IssueToken(std::string_view client_id, std::string_view client_secret,
                                 const std::optional<std::string>& requested_scope) const;

  // A key sent as the credential of a request: a malformed secret (checksum)
  // is refused without a database lookup; otherwise one indexed lookup.
  // Unauthenticated invalid_token when it is not a live key.
  Result<Principal> AuthenticateKey(std::string_view secret) const;

  // An access token: verified by signature and expiry alone, no I/O.
  Result<Principal> AuthenticateAccessToken(std::string_view token) const;

  int64_t token_ttl_seconds() const { return token_ttl_seconds_; }

 private:
  storage::Database& db_;
  const Clock& clock_;
  AccessTokenSigner signer_;
  const int64_t token_ttl_seconds_;
};

}  // namespace credence::identity
