#include "identity/access_token.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <string>

#include "core/ids.h"
#include "identity/token_format.h"

namespace credence::identity {
namespace {
namespace json = boost::json;

constexpr TimeMs kNow = 1'800'000'000'000;  // 2027-01-15

const std::string kKey(32, 'k');

AccessTokenClaims Claims() {
  AccessTokenClaims c;
  c.tenant_id = "0190f3a2-7b1c-7def-8abc-0123456789ab";
  c.key_id = "0190f3a2-7b1c-7def-8abc-0123456789cd";
  c.client_id = "crd_ci_0123456789abcdef";
  c.scopes = {"trust:evaluate", "trust:read"};
  c.issued_at = kNow / 1000;
  c.expires_at = kNow / 1000 + 3600;
  c.token_id = "0190f3a2-7b1c-7def-8abc-0123456789ef";
  return c;
}

struct Parts {
  std::string header, payload, signature;
};

Parts Split(const std::string& token) {
  const auto a = token.find('.'), b = token.rfind('.');
  return {token.substr(0, a), token.substr(a + 1, b - a - 1), token.substr(b + 1)};
}

json::object Payload(const std::string& token) {
  return json::parse(*Base64Decode(Split(token).payload, true)).as_object();
}

std::string WithPayload(const std::string& token, const json::object& payload) {
  const Parts p = Split(token);
  return p.header + "." + Base64UrlEncode(json::serialize(payload)) + "." + p.signature;
}

TEST(AccessToken, SignedTokenVerifiesWithItsClaims) {
  AccessTokenSigner signer(kKey);
  const std::string token = signer.Sign(Claims());
  auto verified = signer.Verify(token, kNow);
  ASSERT_TRUE(verified.ok()) << verified.error().detail;
  EXPECT_EQ(verified->tenant_id, Claims().tenant_id);
  EXPECT_EQ(verified->key_id, Claims().key_id);
  EXPECT_EQ(verified->client_id, Claims().client_id);
  EXPECT_EQ(verified->scopes, Claims().scopes);
  EXPECT_EQ(verified->issued_at, Claims().issued_at);
  EXPECT_EQ(verified->expires_at, Claims().expires_at);
  EXPECT_EQ(verified->token_id, Claims().token_id);
}

TEST(AccessToken, IsAStandardHs256Jwt) {
  AccessTokenSigner signer(kKey);
  const std::string token = signer.Sign(Claims());
  EXPECT_TRUE(AccessTokenSigner::LooksLikeJwt(token));
  const auto header = json::parse(*Base64Decode(Split(token).header, true));
  EXPECT_EQ(header.at("alg").as_string(), "HS256");
  EXPECT_EQ(header.at("typ").as_string(), "JWT");
  const json::object payload = Payload(token);
  EXPECT_EQ(payload.at("iss").as_string(), "credence");
  EXPECT_EQ(payload.at("sub").as_string(), Claims().key_id);
  EXPECT_EQ(payload.at("tenant").as_string(), Claims().tenant_id);
  EXPECT_EQ(payload.at("client_id").as_string(), Claims().client_id);
  EXPECT_EQ(payload.at("scope").as_string(), "trust:evaluate trust:read");
  EXPECT_EQ(payload.at("iat").as_int64(), Claims().issued_at);
  EXPECT_EQ(payload.at("exp").as_int64(), Claims().expires_at);
  EXPECT_EQ(payload.at("jti").as_string(), Claims().token_id);
  // The signature is HMAC-SHA256: 32 bytes.
  EXPECT_EQ(Base64Decode(Split(token).signature, true)->size(), 32u);
}

TEST(AccessToken, ExpiresAtExp) {
  AccessTokenSigner signer(kKey);
  const std::string token = signer.Sign(Claims());
  const TimeMs exp_ms = Claims().expires_at * 1000;
  EXPECT_TRUE(signer.Verify(token, exp_ms - 1).ok());
  auto expired = signer.Verify(token, exp_ms);
  ASSERT_FALSE(expired.ok());
  EXPECT_EQ(expired.error().code, "invalid_token");
  EXPECT_EQ(expired.error().kind, ErrorKind::kUnauthenticated);
  EXPECT_NE(expired.error().detail.find("expired"), std::string::npos);
}

TEST(AccessToken, AnExpFarInTheFutureIsComparedWithoutOverflow) {
  // exp * 1000 overflowed int64 for an exp this large (found by fuzz/credentials).
  AccessTokenSigner signer(kKey);
  AccessTokenClaims far = Claims();
  far.expires_at = 1'800'003'599'800'003'599;
  EXPECT_TRUE(signer.Verify(signer.Sign(far), kNow).ok());
  far.expires_at = kNow / 1000 - 1;
  EXPECT_FALSE(signer.Verify(signer.Sign(far), kNow).ok());
}

TEST(AccessToken, ChangedPayloadWithTheOriginalSignatureIsRefused) {
  AccessTokenSigner signer(kKey);
  const std::string token = signer.Sign(Claims());
  json::object payload = Payload(token);
  payload["scope"] = "trust:evaluate trust:read trust:usage";
  auto widened = signer.Verify(WithPayload(token, payload), kNow);
  ASSERT_FALSE(widened.ok());
  EXPECT_EQ(widened.error().code, "invalid_token");

  payload = Payload(token);
  payload["tenant"] = "0190f3a2-7b1c-7def-8abc-000000000000";
  EXPECT_FALSE(signer.Verify(WithPayload(token, payload), kNow).ok());

  payload = Payload(token);
  payload["exp"] = Claims().expires_at + 86400;
  EXPECT_FALSE(signer.Verify(WithPayload(token, payload), kNow).ok());
}

TEST(AccessToken, OtherKeyIsRefused) {
  AccessTokenSigner signer(kKey);
  AccessTokenSigner other(std::string(32, 'o'));
  auto result = other.Verify(signer.Sign(Claims()), kNow);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().detail.find("signature"), std::string::npos);
}

TEST(AccessToken, AlgNoneAndOtherHeadersAreRefused) {
  AccessTokenSigner signer(kKey);
  const std::string token = signer.Sign(Claims());
  const Parts p = Split(token);
  const std::string none = Base64UrlEncode(R"({"alg":"none","typ":"JWT"})");
  EXPECT_FALSE(signer.Verify(none + "." + p.payload + ".", kNow).ok());
  EXPECT_FALSE(signer.Verify(none + "." + p.payload + "." + p.signature, kNow).ok());
  const std::string hs512 = Base64UrlEncode(R"({"alg":"HS512","typ":"JWT"})");
  EXPECT_FALSE(signer.Verify(hs512 + "." + p.payload + "." + p.signature, kNow).ok());
}

TEST(AccessToken, MalformedTokensAreRefused) {
  AccessTokenSigner signer(kKey);
  const std::string token = signer.Sign(Claims());
  for (const std::string& bad : {std::string(""), std::string("."), std::string(".."), std::string("a.b.c"),
                                 token + ".x", token.substr(0, token.size() - 2), token + "A",
                                 token.substr(0, token.rfind('.') + 1)}) {
    auto r = signer.Verify(bad, kNow);
    EXPECT_FALSE(r.ok()) << bad;
    if (!r.ok()) {
      EXPECT_EQ(r.error().code, "invalid_token") << bad;
    }
  }
}

TEST(AccessToken, SignedButIncompleteClaimsAreRefused) {
  // Defence in depth: a token signed with the right key still needs every
  // claim this service writes.
  AccessTokenSigner signer(kKey);
  AccessTokenClaims c = Claims();
  c.tenant_id = "not-a-uuid";
  EXPECT_FALSE(signer.Verify(signer.Sign(c), kNow).ok());
}

TEST(AccessToken, AppClaimRoundTripsAndIsAbsentForTenantKeys) {
  AccessTokenSigner signer(kKey);
  EXPECT_FALSE(Payload(signer.Sign(Claims())).contains("app"));
  auto tenant_key = signer.Verify(signer.Sign(Claims()), kNow);
  ASSERT_TRUE(tenant_key.ok());
  EXPECT_TRUE(tenant_key->app_id.empty());

  AccessTokenClaims c = Claims();
  c.app_id = "0190f3a2-7b1c-7def-8abc-0123456789aa";
  const std::string token = signer.Sign(c);
  EXPECT_EQ(Payload(token).at("app").as_string(), c.app_id);
  auto verified = signer.Verify(token, kNow);
  ASSERT_TRUE(verified.ok()) << verified.error().detail;
  EXPECT_EQ(verified->app_id, c.app_id);

  // Signed, but the claim is not a UUID.
  c.app_id = "not-a-uuid";
  EXPECT_FALSE(signer.Verify(signer.Sign(c), kNow).ok());
  // Moving a token to another app breaks its signature.
  json::object payload = Payload(token);
  payload["app"] = "0190f3a2-7b1c-7def-8abc-0123456789bb";
  EXPECT_FALSE(signer.Verify(WithPayload(token, payload), kNow).ok());
}

TEST(AccessToken, ShortKeyIsRejectedAtConstruction) {
  EXPECT_THROW(AccessTokenSigner(std::string(16, 'k')), std::invalid_argument);
}

}  // namespace
}  // namespace credence::identity
