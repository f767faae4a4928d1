#pragma once
// Access tokens of the client-credentials flow: JWTs (RFC 7519) signed with
// HS256, so any node holding the shared signing key verifies them without a
// database lookup (docs/credentials.md).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "core/result.h"

namespace credence::storage {
class Database;
}

namespace credence::identity {

inline constexpr std::string_view kAccessTokenIssuer = "credence";
inline constexpr size_t kSigningKeyBytes = 32;

struct AccessTokenClaims {
  std::string tenant_id;            // "tenant"
  std::string key_id;               // "sub": the API key the token was issued to
  std::string client_id;            // "client_id" (RFC 9068)
  std::string app_id;               // "app": the app of an app-bound key; empty (and no claim) for tenant keys
  std::string connector_id;         // "connector": the bound connector of a connector:push key; else none
  std::vector<std::string> scopes;  // "scope", space-separated on the wire
  int64_t issued_at = 0;            // "iat", seconds since the epoch
  int64_t expires_at = 0;           // "exp", seconds since the epoch
  std::string token_id;             // "jti"
  // "aud": the resource (RFC 8707) the token was requested for; empty (and
  // no claim) for tokens requested without one, which the REST API takes.
  std::string audience;
};

class AccessTokenSigner {
 public:
  // `key`: the raw signing key (kSigningKeyBytes bytes).
  explicit AccessTokenSigner(std::string key);

  std::string Sign(const AccessTokenClaims& claims) const;

  // The claims of a token this service signed that has not expired at
  // `now`; otherwise Unauthenticated with code invalid_token. No I/O.
  Result<AccessTokenClaims> Verify(std::string_view token, TimeMs now) const;

  // Three dot-separated segments: worth verifying as a JWT.
  static bool LooksLikeJwt(std::string_view token);

 private:
  std::string Mac(std::string_view signing_input) const;
  std::string key_;
};

// The shared signing key: read from signing_keys, or created there (32
// random bytes) by the first node to start. Concurrent first starts agree
// on one key (INSERT ... ON CONFLICT DO NOTHING, then read). Throws
// StorageError.
std::string LoadOrCreateSigningKey(storage::Database& db, const Clock& clock);

// OAuth scope strings: scopes separated by spaces (RFC 6749 section 3.3).
std::vector<std::string> SplitScopes(std::string_view text);
std::string JoinScopes(const std::vector<std::string>& scopes);

}  // namespace credence::identity
