// ID token verification against keys made here with OpenSSL: every failure
// code, token forgery (another key, alg none, HS256 signed with the public
// key), and both algorithms.
#include "identity/oidc/jwt_verifier.h"

#include "core/ids.h"

#include <gtest/gtest.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rsa.h>

#include <memory>

namespace credence::identity::oidc {
namespace {

struct PkeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
using Pkey = std::unique_ptr<EVP_PKEY, PkeyFree>;

Pkey Generate(bool rsa) {
  return Pkey(rsa ? EVP_RSA_gen(2048) : EVP_EC_gen("P-256"));
}

std::string Bn(EVP_PKEY* key, const char* name) {
  BIGNUM* bn = nullptr;
  EVP_PKEY_get_bn_param(key, name, &bn);
  std::string out(static_cast<size_t>(BN_num_bytes(bn)), '\0');
  BN_bn2bin(bn, reinterpret_cast<unsigned char*>(out.data()));
  BN_free(bn);
  return out;
}

std::string Jwk(EVP_PKEY* key, bool rsa, const std::string& kid) {
  if (rsa)
    return R"({"kty":"RSA","use":"sig","kid":")" + kid + R"(","n":")" + Base64UrlEncode(Bn(key, OSSL_PKEY_PARAM_RSA_N)) +
           R"(","e":")" + Base64UrlEncode(Bn(key, OSSL_PKEY_PARAM_RSA_E)) + "\"}";
  unsigned char point[65];
  size_t len = 0;
  EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point, &len);
  std::string p(reinterpret_cast<char*>(point), len);
  return R"({"kty":"EC","crv":"P-256","kid":")" + kid + R"(","x":")" + Base64UrlEncode(p.substr(1, 32)) +
         R"(","y":")" + Base64UrlEncode(p.substr(33, 32)) + "\"}";
}

std::string Sign(EVP_PKEY* key, bool rsa, const std::string& input) {
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EVP_DigestSignInit(ctx, nullptr, EVP_sha256(), nullptr, key);
  size_t len = 0;
  EVP_DigestSign(ctx, nullptr, &len, reinterpret_cast<const unsigned char*>(input.data()), input.size());
  std::string sig(len, '\0');
  EVP_DigestSign(ctx, reinterpret_cast<unsigned char*>(sig.data()), &len,
                 reinterpret_cast<const unsigned char*>(input.data()), input.size());
  sig.resize(len);
  EVP_MD_CTX_free(ctx);
  if (rsa) return sig;
  const unsigned char* p = reinterpret_cast<const unsigned char*>(sig.data());
  ECDSA_SIG* ecdsa = d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(sig.size()));
  std::string raw(64, '\0');
  BN_bn2binpad(ECDSA_SIG_get0_r(ecdsa), reinterpret_cast<unsigned char*>(raw.data()), 32);
  BN_bn2binpad(ECDSA_SIG_get0_s(ecdsa), reinterpret_cast<unsigned char*>(raw.data()) + 32, 32);
  ECDSA_SIG_free(ecdsa);
  return raw;
}

constexpr int64_t kNow = 1'800'000'000;

std::string Claims(const std::string& extra = "") {
  return R"({"iss":"https://idp.example","sub":"u-1","aud":"credence","nonce":"n-1","email":"ann@example.com",)"
         R"("email_verified":true,"name":"Ann","iat":)" +
         std::to_string(kNow - 10) + R"(,"exp":)" + std::to_string(kNow + 300) + extra + "}";
}

class JwtVerifierTest : public ::testing::Test {
 protected:
  void SetUp() override {
    rsa_ = Generate(true);
    ec_ = Generate(false);
    other_ = Generate(true);
    keys_ = ParseJwks(R"({"keys":[)" + Jwk(rsa_.get(), true, "r1") + "," + Jwk(ec_.get(), false, "e1") + "]}", nullptr);
  }

  std::string Token(EVP_PKEY* key, bool rsa, const std::string& kid, const std::string& claims) {
    const std::string header = std::string(R"({"alg":")") + (rsa ? "RS256" : "ES256") + R"(","kid":")" + kid + "\"}";
    const std::string input = Base64UrlEncode(header) + "." + Base64UrlEncode(claims);
    return input + "." + Base64UrlEncode(Sign(key, rsa, input));
  }

  Result<IdTokenClaims> Verify(const std::string& token, IdTokenExpectations expect = {}) {
    if (expect.issuer.empty()) expect = {"https://idp.example", "credence", "n-1", kNow, 60};
    return VerifyIdToken(token, keys_, expect);
  }

  std::string Code(const std::string& token) {
    auto r = Verify(token);
    return r ? "ok" : r.error().code;
  }

  Pkey rsa_, ec_, other_;
  std::vector<PublicJwk> keys_;
};

TEST_F(JwtVerifierTest, AcceptsRs256AndEs256) {
  auto rs = Verify(Token(rsa_.get(), true, "r1", Claims()));
  ASSERT_TRUE(rs) << rs.error().code;
  EXPECT_EQ(rs->subject, "u-1");
  EXPECT_EQ(rs->email, "ann@example.com");
  EXPECT_TRUE(rs->email_verified);
  EXPECT_EQ(rs->name, "Ann");
  auto es = Verify(Token(ec_.get(), false, "e1", Claims()));
  ASSERT_TRUE(es) << es.error().code;
  EXPECT_EQ(keys_.size(), 2u);
}

TEST_F(JwtVerifierTest, EachFailureHasItsOwnCode) {
  EXPECT_EQ(Code(Token(other_.get(), true, "r1", Claims())), "id_token_bad_signature");
  EXPECT_EQ(Code(Token(rsa_.get(), true, "unknown", Claims())), "id_token_unknown_key");
  EXPECT_EQ(Code(Token(rsa_.get(), true, "r1",
                       R"({"iss":"https://evil.example","sub":"u","aud":"credence","nonce":"n-1","iat":)" +
                           std::to_string(kNow) + R"(,"exp":)" + std::to_string(kNow + 60) + "}")),
            "id_token_wrong_issuer");
  EXPECT_EQ(Code(Token(rsa_.get(), true, "r1",
                       R"({"iss":"https://idp.example","sub":"u","aud":"someone-else","nonce":"n-1","iat":)" +
                           std::to_string(kNow) + R"(,"exp":)" + std::to_string(kNow + 60) + "}")),
            "id_token_wrong_audience");
  EXPECT_EQ(Code(Token(rsa_.get(), true, "r1",
                       R"({"iss":"https://idp.example","sub":"u","aud":"credence","nonce":"n-1","iat":)" +
                           std::to_string(kNow - 3600) + R"(,"exp":)" + std::to_string(kNow - 61) + "}")),
            "id_token_expired");
  EXPECT_EQ(Code(Token(rsa_.get(), true, "r1",
                       R"({"iss":"https://idp.example","sub":"u","aud":"credence","nonce":"other","iat":)" +
                           std::to_string(kNow) + R"(,"exp":)" + std::to_string(kNow + 60) + "}")),
            "id_token_nonce_mismatch");
  EXPECT_EQ(Code(Token(rsa_.get(), true, "r1",
                       R"({"iss":"https://idp.example","sub":"u","aud":"credence","nonce":"n-1","iat":)" +
                           std::to_string(kNow + 600) + R"(,"exp":)" + std::to_string(kNow + 900) + "}")),
            "id_token_not_yet_valid");
  EXPECT_EQ(Code("not-a-token"), "id_token_malformed");
}

TEST_F(JwtVerifierTest, ClockSkewIsAllowedWithinTheLeeway) {
  const std::string just_expired =
      R"({"iss":"https://idp.example","sub":"u","aud":"credence","nonce":"n-1","iat":)" + std::to_string(kNow - 600) +
      R"(,"exp":)" + std::to_string(kNow - 30) + "}";
  EXPECT_EQ(Code(Token(rsa_.get(), true, "r1", just_expired)), "ok");
}

TEST_F(JwtVerifierTest, ForgedAlgorithmsAreRefused) {
  const std::string claims = Base64UrlEncode(Claims());
  // alg none, with and without a signature.
  EXPECT_EQ(Code(Base64UrlEncode(R"({"alg":"none"})") + "." + claims + "."), "id_token_unsupported_alg");
  EXPECT_EQ(Code(Base64UrlEncode(R"({"alg":"none","kid":"r1"})") + "." + claims + ".AAAA"), "id_token_unsupported_alg");
  // HS256 keyed with the RSA public key's bytes (the classic key confusion).
  const std::string input = Base64UrlEncode(R"({"alg":"HS256","kid":"r1"})") + "." + claims;
  const std::string secret = Bn(rsa_.get(), OSSL_PKEY_PARAM_RSA_N);
  unsigned char mac[32];
  unsigned int mac_len = 0;
  HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()), reinterpret_cast<const unsigned char*>(input.data()),
       input.size(), mac, &mac_len);
  EXPECT_EQ(Code(input + "." + Base64UrlEncode(std::string(reinterpret_cast<char*>(mac), mac_len))),
            "id_token_unsupported_alg");
  // An ES256 header over an RSA signature: the EC key does not verify it.
  const std::string es_input = Base64UrlEncode(R"({"alg":"ES256","kid":"e1"})") + "." + claims;
  EXPECT_EQ(Code(es_input + "." + Base64UrlEncode(Sign(rsa_.get(), true, es_input))), "id_token_bad_signature");
  // A payload changed after signing.
  std::string token = Token(rsa_.get(), true, "r1", Claims());
  const auto first = token.find('.'), second = token.find('.', first + 1);
  token.replace(first + 1, second - first - 1, Base64UrlEncode(Claims(R"(,"email":"boss@example.com")")));
  EXPECT_EQ(Code(token), "id_token_bad_signature");
}

TEST_F(JwtVerifierTest, UnusableKeysAreSkipped) {
  std::string error;
  auto keys = ParseJwks(R"({"keys":[{"kty":"oct","k":"AAAA"},{"kty":"RSA","n":"AQAB","e":"AQAB"},)"
                        R"({"kty":"EC","crv":"P-256","x":"AAAA","y":"AAAA"},)" +
                            Jwk(ec_.get(), false, "e1") + "]}",
                        &error);
  EXPECT_TRUE(error.empty());
  ASSERT_EQ(keys.size(), 1u);
  EXPECT_EQ(keys[0].kid(), "e1");
  ParseJwks("[]", &error);
  EXPECT_FALSE(error.empty());
}

// Found by fuzz/jwt_jwks: times no int64 holds were cast (undefined
// behaviour), and an exp near INT64_MAX overflowed with the leeway added.
TEST_F(JwtVerifierTest, TimesBeyondInt64AreMalformedNotUndefined) {
  const std::string base = R"({"iss":"https://idp.example","sub":"u-1","aud":"credence","nonce":"n-1","iat":)" +
                           std::to_string(kNow - 10);
  EXPECT_EQ(Code(Token(ec_.get(), false, "e1", base + R"(,"exp":1e30})")), "id_token_malformed");
  EXPECT_EQ(Code(Token(ec_.get(), false, "e1", base + R"(,"exp":18446744073709551615})")), "id_token_malformed");
  EXPECT_EQ(Code(Token(ec_.get(), false, "e1", base + R"(,"exp":9223372036854775807})")), "ok");
  EXPECT_EQ(Code(Token(ec_.get(), false, "e1", base + R"(,"exp":-9223372036854775807})")), "id_token_expired");
}

}  // namespace
}  // namespace credence::identity::oidc
