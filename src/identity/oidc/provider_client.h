#pragma once
// One configured OpenID Connect provider (decisions.md 10, docs/sign-in.md):
// its configuration, its discovery document and its keys (fetched on first
// use and cached; the keys fetched again when a token names a key id the
// cache does not hold), the authorization URL of a login, and the exchange
// of an authorization code for a verified ID token. Thread-safe.
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/oidc/jwt_verifier.h"

namespace credence::identity::oidc {

struct ProviderConfig {
  std::string name;    // as in /auth/login/{provider}
  std::string issuer;  // exactly as the provider states it in its tokens
  std::string client_id;
  std::string client_secret;
  std::vector<std::string> scopes = {"openid", "email", "profile"};
  std::vector<std::string> allowed_domains;  // empty: any; else the email's domain must be one (lowercase)
};

// The providers of an --oidc-config file: {"providers":[{"name","issuer",
// "clientId","clientSecret","scopes","allowedDomains"}]}. An error names the
// field and the provider, so a broken file stops the server at start.
Result<std::vector<ProviderConfig>> ParseProviderConfig(std::string_view json_text);
Result<std::vector<ProviderConfig>> LoadProviderConfig(const std::string& path);

// An outbound HTTP exchange (libcurl), bounded in time and size.
struct FetchRequest {
  std::string url;
  std::string form_body;  // POST application/x-www-form-urlencoded when not empty
  std::string basic_user, basic_password;  // HTTP Basic when basic_user is not empty
};
struct FetchResponse {
  long status = 0;  // 0: no answer (error says why)
  std::string body;
  std::string error;
};
FetchResponse Fetch(const FetchRequest& request);

class ProviderClient {
 public:
  explicit ProviderClient(ProviderConfig config) : config_(std::move(config)) {}

  const ProviderConfig& config() const { return config_; }

  // The provider's authorization endpoint with the login's parameters
  // (response_type code, PKCE S256). 502 provider_unavailable when the
  // discovery document cannot be had.
  Result<std::string> AuthorizationUrl(const std::string& redirect_uri, const std::string& state,
                                       const std::string& nonce, const std::string& code_challenge) const;

  // Exchanges the code at the token endpoint and verifies the ID token it
  // answers (signature, iss, aud, exp/iat with 60 s of skew, nonce).
  // 400 code_rejected when the provider refuses the code (used, expired,
  // or not ours); 502 provider_unavailable when it cannot be reached;
  // 401 id_token_* when the token does not verify.
  Result<IdTokenClaims> Redeem(const std::string& code, const std::string& code_verifier,
                               const std::string& redirect_uri, const std::string& nonce, TimeMs now) const;

  // The verification step alone, with the cached keys (fetched again once
  // when the token names an unknown key id).
  Result<IdTokenClaims> VerifyToken(const std::string& id_token, const std::string& nonce, TimeMs now) const;

 private:
  struct Metadata {
    std::string authorization_endpoint;
    std::string token_endpoint;
    std::string jwks_uri;
    bool basic_auth = true;  // client_secret_basic, else client_secret_post
  };
  Result<Metadata> Discover() const;
  Result<std::shared_ptr<const std::vector<PublicJwk>>> Keys(bool refresh) const;

  const ProviderConfig config_;
  mutable std::mutex mu_;
  mutable std::optional<Metadata> metadata_;
  mutable std::shared_ptr<const std::vector<PublicJwk>> keys_;
  mutable int64_t last_forced_refresh_at_ = 0;  // steady clock, ms
};

}  // namespace credence::identity::oidc
