#pragma once
// Verification of OpenID Connect ID tokens (JWS compact serialization,
// RFC 7515) against a provider's JSON Web Key Set (RFC 7517), with OpenSSL.
// Pure: keys, expectations and the time go in, claims or a typed failure
// come out; fetching keys is the provider client's job.
//
// Only RS256 and ES256 are accepted. The algorithm is taken from the key the
// token names, never trusted from the token alone: a token whose header says
// "none", HS256 or anything else is refused before any key is touched, and a
// key's own "alg", when present, must match the header.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace credence::identity::oidc {

// One public key of a JWKS, parsed and ready for verification.
class PublicJwk {
 public:
  ~PublicJwk();
  PublicJwk(PublicJwk&&) noexcept;
  PublicJwk& operator=(PublicJwk&&) noexcept;

  const std::string& kid() const { return kid_; }
  const std::string& alg() const { return alg_; }  // RS256 or ES256

  // True when `signature` (JWS form: PKCS#1 v1.5 for RS256, raw r||s for
  // ES256) signs `signing_input`.
  bool Verify(std::string_view signing_input, std::string_view signature) const;

 private:
  friend std::vector<PublicJwk> ParseJwks(std::string_view json, std::string* error);
  PublicJwk() = default;
  std::string kid_;
  std::string alg_;
  void* pkey_ = nullptr;  // EVP_PKEY*
};

// The signature keys of a JWKS document: RSA keys (kty RSA) and P-256 keys
// (kty EC, crv P-256) with use "sig" or no use. Other keys are skipped.
// Empty with `error` set when the document is not a JWKS.
std::vector<PublicJwk> ParseJwks(std::string_view json, std::string* error);

struct IdTokenExpectations {
  std::string issuer;
  std::string audience;  // the client id
  std::string nonce;
  int64_t now_seconds = 0;
  int64_t leeway_seconds = 60;  // clock skew allowed on exp, iat and nbf
};

struct IdTokenClaims {
  std::string issuer;
  std::string subject;
  std::optional<std::string> email;
  bool email_verified = false;
  std::optional<std::string> name;
  std::optional<std::string> preferred_username;
  int64_t expires_at = 0;
  int64_t issued_at = 0;
};

// The header's "kid" and "alg" without verifying anything, to pick a key
// (and to know when the key set must be fetched again). Fails for a token
// that is not three base64url segments with a JSON header.
struct JwsHeader {
  std::string alg;
  std::string kid;
};
Result<JwsHeader> PeekHeader(std::string_view token);

// Verifies signature, iss, aud (and azp when several audiences), exp, iat,
// nbf and nonce. Each failure is Unauthenticated with its own code:
// id_token_malformed, id_token_unsupported_alg, id_token_unknown_key,
// id_token_bad_signature, id_token_wrong_issuer, id_token_wrong_audience,
// id_token_expired, id_token_not_yet_valid, id_token_nonce_mismatch.
Result<IdTokenClaims> VerifyIdToken(std::string_view token, const std::vector<PublicJwk>& keys,
                                    const IdTokenExpectations& expect);

}  // namespace credence::identity::oidc
