// JWTs and JWKS of OpenID providers (src/identity/oidc/jwt_verifier.*):
// ParseJwks on a provider's key set, PeekHeader and VerifyIdToken on the ID
// token a sign-in callback receives.
//
// Input: a mode byte, then the rest.
//   'J' rest is a JWKS document
//   'T' rest is an ID token, verified against the provider's keys (an RSA
//       and a P-256 key made at start-up)
//   'C' rest is the claims of a token the provider signs (ES256), so the
//       claim checks after the signature are reached
// Any other first byte picks a mode by its value.
//
// Invariants: nothing throws; a key set that is not one is refused with an
// error, and its keys are RS256 or ES256; no token the fuzzer writes verifies
// (it holds no private key); every refusal is a 401 with a documented code;
// accepted claims meet the expectations (issuer, subject, expiry).
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>

#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/error.h"
#include "core/ids.h"
#include "identity/oidc/jwt_verifier.h"
#include "support/fuzz_support.h"

namespace {

using namespace credence;
using namespace credence::identity::oidc;

constexpr int64_t kNow = 1'800'000'000;

struct Provider {
  EVP_PKEY* rsa = nullptr;
  EVP_PKEY* ec = nullptr;
  std::vector<PublicJwk> keys;
  IdTokenExpectations expect;
};

std::string Bn(EVP_PKEY* key, const char* name) {
  BIGNUM* bn = nullptr;
  EVP_PKEY_get_bn_param(key, name, &bn);
  std::string out(static_cast<size_t>(BN_num_bytes(bn)), '\0');
  BN_bn2bin(bn, reinterpret_cast<unsigned char*>(out.data()));
  BN_free(bn);
  return out;
}

const Provider& TheProvider() {
  static const Provider* provider = [] {
    auto* p = new Provider;
    p->rsa = EVP_RSA_gen(2048);
    p->ec = EVP_EC_gen("P-256");
    unsigned char point[65];
    size_t len = 0;
    EVP_PKEY_get_octet_string_param(p->ec, OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point, &len);
    const std::string xy(reinterpret_cast<char*>(point), len);
    const std::string jwks =
        R"({"keys":[{"kty":"RSA","use":"sig","kid":"rsa-1","alg":"RS256","n":")" +
        Base64UrlEncode(Bn(p->rsa, OSSL_PKEY_PARAM_RSA_N)) + R"(","e":")" +
        Base64UrlEncode(Bn(p->rsa, OSSL_PKEY_PARAM_RSA_E)) + R"("},{"kty":"EC","crv":"P-256","kid":"ec-1","x":")" +
        Base64UrlEncode(xy.substr(1, 32)) + R"(","y":")" + Base64UrlEncode(xy.substr(33, 32)) + R"("}]})";
    std::string error;
    p->keys = ParseJwks(jwks, &error);
    if (p->keys.size() != 2) fuzz::Fail("the provider's own key set does not parse", error);
    p->expect = {.issuer = "https://idp.example", .audience = "credence", .nonce = "n-1", .now_seconds = kNow};
    return p;
  }();
  return *provider;
}

// ES256: the raw r||s of JWS, from OpenSSL's DER.
std::string SignEs256(EVP_PKEY* key, const std::string& input) {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EVP_DigestSignInit(ctx, nullptr, EVP_sha256(), nullptr, key);
  size_t len = 0;
  EVP_DigestSign(ctx, nullptr, &len, reinterpret_cast<const unsigned char*>(input.data()), input.size());
  std::string der(len, '\0');
  EVP_DigestSign(ctx, reinterpret_cast<unsigned char*>(der.data()), &len,
                 reinterpret_cast<const unsigned char*>(input.data()), input.size());
  der.resize(len);
  EVP_MD_CTX_free(ctx);
  const unsigned char* p = reinterpret_cast<const unsigned char*>(der.data());
  ECDSA_SIG* sig = d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(der.size()));
  std::string raw(64, '\0');
  BN_bn2binpad(ECDSA_SIG_get0_r(sig), reinterpret_cast<unsigned char*>(raw.data()), 32);
  BN_bn2binpad(ECDSA_SIG_get0_s(sig), reinterpret_cast<unsigned char*>(raw.data()) + 32, 32);
  ECDSA_SIG_free(sig);
  return raw;
}

void CheckRefusal(const Error& e) {
  static const std::set<std::string> kCodes = {
      "id_token_malformed",     "id_token_unsupported_alg", "id_token_unknown_key",
      "id_token_bad_signature", "id_token_wrong_issuer",    "id_token_wrong_audience",
      "id_token_expired",       "id_token_not_yet_valid",   "id_token_nonce_mismatch"};
  FUZZ_CHECK(e.kind == ErrorKind::kUnauthenticated && kCodes.count(e.code), e.code + ": " + e.detail);
}

void Jwks(std::string_view text) {
  std::string error;
  const std::vector<PublicJwk> keys = ParseJwks(text, &error);
  if (!error.empty()) FUZZ_CHECK(keys.empty(), error);
  for (const auto& key : keys) {
    FUZZ_CHECK(key.alg() == "RS256" || key.alg() == "ES256", key.alg());
    // A key the fuzzer wrote verifies nothing it did not sign.
    (void)key.Verify("a.b", "signature");
  }
}

void Token(std::string_view token) {
  const Provider& p = TheProvider();
  auto header = PeekHeader(token);
  if (!header) FUZZ_CHECK(header.error().kind == ErrorKind::kUnauthenticated, header.error().code);
  auto claims = VerifyIdToken(token, p.keys, p.expect);
  FUZZ_CHECK(!claims, "a token without the provider's signature verified");
  CheckRefusal(claims.error());
}

void SignedClaims(std::string_view claims_json) {
  const Provider& p = TheProvider();
  std::string token = Base64UrlEncode(R"({"alg":"ES256","kid":"ec-1","typ":"JWT"})") + "." + Base64UrlEncode(claims_json);
  token += "." + Base64UrlEncode(SignEs256(p.ec, token));
  auto claims = VerifyIdToken(token, p.keys, p.expect);
  if (!claims) {
    CheckRefusal(claims.error());
    FUZZ_CHECK(claims.error().code != "id_token_bad_signature", claims_json);
    return;
  }
  FUZZ_CHECK(claims->issuer == p.expect.issuer && !claims->subject.empty(), claims_json);
  FUZZ_CHECK(claims->expires_at > kNow - p.expect.leeway_seconds, claims_json);
  FUZZ_CHECK(claims->issued_at <= kNow + p.expect.leeway_seconds, claims_json);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)TheProvider();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view rest(reinterpret_cast<const char*>(data) + 1, size - 1);
  char mode = static_cast<char>(data[0]);
  if (mode != 'J' && mode != 'T' && mode != 'C') mode = "JTC"[data[0] % 3];
  switch (mode) {
    case 'J': Jwks(rest); break;
    case 'T': Token(rest); break;
    default: SignedClaims(rest); break;
  }
  return 0;
}
