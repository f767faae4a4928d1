// API keys, session tokens and access tokens (src/identity): the
// Authenticator the dispatcher runs on every request's Authorization and
// X-Api-Key headers, over the real services in development mode, and the
// access-token verifier behind it.
//
// Input: a mode byte, then the rest.
//   'A' rest is the Authorization header     'K' rest is the X-Api-Key header
//   'P' rest is the payload of an access token signed with the fuzz key, so
//       the claim checks after the signature are reached (a forged HMAC
//       never gets there)
// Any other first byte picks a mode by its value.
//
// Invariants: nothing throws (the dispatcher would answer 500); with an
// empty store no credential authenticates: every refusal is a 401 (a
// development token a malformed-token 401 or a lookup that finds nobody);
// the shape checks agree with the formats of token_format.h; a token signed
// over any payload verifies to claims that sign and verify to themselves.
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <string>
#include <string_view>

#include "app/service_set.h"
#include "core/error.h"
#include "core/ids.h"
#include "identity/access_token.h"
#include "identity/authenticator.h"
#include "identity/session_service.h"
#include "identity/token_format.h"
#include "support/fuzz_support.h"

namespace {

using namespace credence;

const std::string kKey(identity::kSigningKeyBytes, 'k');
constexpr TimeMs kNow = 1'800'000'000'000;

const identity::Authenticator& TheAuthenticator() {
  static const auto* authenticator = [] {
    const auto& set = fuzz::FuzzServices();
    return new identity::Authenticator(fuzz::FuzzDatabase(), /*dev_mode=*/true, &set.api_keys, &set.sessions);
  }();
  return *authenticator;
}

void CheckShapes(std::string_view token) {
  if (identity::IsWellFormedSecret(token)) {
    FUZZ_CHECK(token.size() == identity::kSecretLength && token.starts_with(identity::kSecretPrefix), token);
    FUZZ_CHECK(identity::SecretLookupPrefix(token).size() == identity::kSecretLookupLength, token);
  }
  if (identity::LooksLikeSessionToken(token))
    FUZZ_CHECK(token.size() == identity::kSecretLength && token.starts_with(identity::kSessionTokenPrefix), token);
  if (identity::IsWellFormedClientId(token))
    FUZZ_CHECK(token.size() == identity::kClientIdLength && token.starts_with(identity::kClientIdPrefix), token);
}

void Authenticate(std::string_view header, bool authorization) {
  identity::Credentials credentials;
  (authorization ? credentials.authorization : credentials.api_key) = header;
  auto result = TheAuthenticator().Authenticate(credentials);
  if (!result) {
    FUZZ_CHECK(result.error().kind == ErrorKind::kUnauthenticated, result.error().code + ": " + result.error().detail);
    return;
  }
  // Nothing was sent, or something authenticated in a store that has no
  // tenant, user or key.
  FUZZ_CHECK(header.empty() && !result->has_value(), header);
}

std::string Hmac(std::string_view key, std::string_view input) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(input.data()),
       input.size(), mac, &n);
  return std::string(reinterpret_cast<const char*>(mac), n);
}

void VerifySignedPayload(std::string_view payload) {
  const identity::AccessTokenSigner signer(kKey);
  const std::string header = Base64UrlEncode(R"({"alg":"HS256","typ":"JWT"})");
  std::string token = header + "." + Base64UrlEncode(payload);
  token += "." + Base64UrlEncode(Hmac(kKey, token));
  auto claims = signer.Verify(token, kNow);
  if (!claims) {
    FUZZ_CHECK(claims.error().kind == ErrorKind::kUnauthenticated && claims.error().code == "invalid_token",
               claims.error().code);
    return;
  }
  auto again = signer.Verify(signer.Sign(*claims), kNow);
  FUZZ_CHECK(static_cast<bool>(again), payload);
  FUZZ_CHECK(again->tenant_id == claims->tenant_id && again->key_id == claims->key_id &&
                 again->client_id == claims->client_id && again->app_id == claims->app_id &&
                 again->connector_id == claims->connector_id && again->scopes == claims->scopes &&
                 again->issued_at == claims->issued_at && again->expires_at == claims->expires_at &&
                 again->token_id == claims->token_id,
             payload);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)TheAuthenticator();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  char mode = static_cast<char>(data[0]);
  if (mode != 'A' && mode != 'K' && mode != 'P') mode = "AKP"[data[0] % 3];
  CheckShapes(rest);
  switch (mode) {
    case 'A': Authenticate(rest, true); break;
    case 'K': Authenticate(rest, false); break;
    default: VerifySignedPayload(rest); break;
  }
  return 0;
}
