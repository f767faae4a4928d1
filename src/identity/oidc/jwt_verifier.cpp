#include "identity/oidc/jwt_verifier.h"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

#include <cstdint>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include "core/ids.h"

namespace credence::identity::oidc {
namespace {

namespace json = boost::json;

// RSA keys shorter than this are refused (NIST SP 800-131A).
constexpr int kMinRsaBits = 2048;

Error Invalid(const char* code, std::string detail) { return Error::Unauthenticated(code, std::move(detail)); }

struct BnFree {
  void operator()(BIGNUM* b) const { BN_free(b); }
};
using Bignum = std::unique_ptr<BIGNUM, BnFree>;

Bignum BignumOf(std::string_view bytes) {
  return Bignum(BN_bin2bn(reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()),
                          nullptr));
}

std::optional<std::string> B64Field(const json::object& o, std::string_view name) {
  const auto* v = o.if_contains(name);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return Base64Decode(std::string_view(v->as_string()), /*url_alphabet=*/true);
}

std::string StringField(const json::object& o, std::string_view name) {
  const auto* v = o.if_contains(name);
  return v != nullptr && v->is_string() ? std::string(v->as_string()) : std::string();
}

EVP_PKEY* FromParams(const char* type, OSSL_PARAM_BLD* bld) {
  OSSL_PARAM* params = OSSL_PARAM_BLD_to_param(bld);
  EVP_PKEY* pkey = nullptr;
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(nullptr, type, nullptr);
  if (params != nullptr && ctx != nullptr && EVP_PKEY_fromdata_init(ctx) == 1)
    EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params);
  EVP_PKEY_CTX_free(ctx);
  OSSL_PARAM_free(params);
  return pkey;
}

EVP_PKEY* RsaKey(const json::object& jwk) {
  auto n = B64Field(jwk, "n"), e = B64Field(jwk, "e");
  if (!n || !e || n->empty() || e->empty()) return nullptr;
  Bignum bn_n = BignumOf(*n), bn_e = BignumOf(*e);
  if (!bn_n || !bn_e || BN_num_bits(bn_n.get()) < kMinRsaBits) return nullptr;
  OSSL_PARAM_BLD* bld = OSSL_PARAM_BLD_new();
  EVP_PKEY* pkey = nullptr;
  if (bld != nullptr && OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, bn_n.get()) == 1 &&
      OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, bn_e.get()) == 1)
    pkey = FromParams("RSA", bld);
  OSSL_PARAM_BLD_free(bld);
  return pkey;
}

EVP_PKEY* P256Key(const json::object& jwk) {
  if (StringField(jwk, "crv") != "P-256") return nullptr;
  auto x = B64Field(jwk, "x"), y = B64Field(jwk, "y");
  if (!x || !y || x->size() != 32 || y->size() != 32) return nullptr;
  std::string point = "\x04" + *x + *y;  // SEC 1 uncompressed point
  OSSL_PARAM_BLD* bld = OSSL_PARAM_BLD_new();
  EVP_PKEY* pkey = nullptr;
  if (bld != nullptr && OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) == 1 &&
      OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, point.data(), point.size()) == 1)
    pkey = FromParams("EC", bld);  // fails for a point not on the curve
  OSSL_PARAM_BLD_free(bld);
  return pkey;
}

// JWS carries an ECDSA signature as r||s; OpenSSL verifies DER.
std::optional<std::string> EcdsaDer(std::string_view raw) {
  if (raw.size() != 64) return std::nullopt;
  ECDSA_SIG* sig = ECDSA_SIG_new();
  if (sig == nullptr) return std::nullopt;
  BIGNUM* r = BN_bin2bn(reinterpret_cast<const unsigned char*>(raw.data()), 32, nullptr);
  BIGNUM* s = BN_bin2bn(reinterpret_cast<const unsigned char*>(raw.data()) + 32, 32, nullptr);
  if (r == nullptr || s == nullptr || ECDSA_SIG_set0(sig, r, s) != 1) {
    BN_free(r);
    BN_free(s);
    ECDSA_SIG_free(sig);
    return std::nullopt;
  }
  unsigned char* der = nullptr;
  const int len = i2d_ECDSA_SIG(sig, &der);
  ECDSA_SIG_free(sig);
  if (len <= 0) return std::nullopt;
  std::string out(reinterpret_cast<char*>(der), static_cast<size_t>(len));
  OPENSSL_free(der);
  return out;
}

struct Segments {
  std::string_view header, payload, signature, signing_input;
};

std::optional<Segments> Split(std::string_view token) {
  const auto a = token.find('.');
  if (a == std::string_view::npos) return std::nullopt;
  const auto b = token.find('.', a + 1);
  if (b == std::string_view::npos || token.find('.', b + 1) != std::string_view::npos) return std::nullopt;
  return Segments{token.substr(0, a), token.substr(a + 1, b - a - 1), token.substr(b + 1), token.substr(0, b)};
}

std::optional<json::object> DecodeObject(std::string_view segment) {
  auto text = Base64Decode(segment, /*url_alphabet=*/true);
  if (!text) return std::nullopt;
  boost::system::error_code ec;
  json::value v = json::parse(*text, ec);
  if (ec || !v.is_object()) return std::nullopt;
  return std::move(v.as_object());
}

std::optional<int64_t> IntClaim(const json::object& o, std::string_view name) {
  const auto* v = o.if_contains(name);
  if (v == nullptr) return std::nullopt;
  if (v->is_int64()) return v->as_int64();
  // Seconds since the epoch: a value no int64 holds is no time (casting it
  // would be undefined behaviour; fuzz/jwt_jwks).
  if (v->is_uint64())
    return v->as_uint64() <= static_cast<uint64_t>(INT64_MAX) ? std::optional<int64_t>(v->as_uint64()) : std::nullopt;
  if (v->is_double()) {
    const double d = v->as_double();
    if (!(d >= -9.2e18 && d <= 9.2e18)) return std::nullopt;  // also NaN
    return static_cast<int64_t>(d);
  }
  return std::nullopt;
}

}  // namespace

PublicJwk::~PublicJwk() { EVP_PKEY_free(static_cast<EVP_PKEY*>(pkey_)); }
PublicJwk::PublicJwk(PublicJwk&& o) noexcept : kid_(std::move(o.kid_)), alg_(std::move(o.alg_)), pkey_(o.pkey_) {
  o.pkey_ = nullptr;
}
PublicJwk& PublicJwk::operator=(PublicJwk&& o) noexcept {
  if (this != &o) {
    EVP_PKEY_free(static_cast<EVP_PKEY*>(pkey_));
    kid_ = std::move(o.kid_);
    alg_ = std::move(o.alg_);
    pkey_ = o.pkey_;
    o.pkey_ = nullptr;
  }
  return *this;
}

bool PublicJwk::Verify(std::string_view signing_input, std::string_view signature) const {
  std::string der;
  if (alg_ == "ES256") {
    auto converted = EcdsaDer(signature);
    if (!converted) return false;
    der = std::move(*converted);
    signature = der;
  }
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  if (ctx == nullptr) return false;
  bool ok = EVP_DigestVerifyInit(ctx, nullptr, EVP_sha256(), nullptr, static_cast<EVP_PKEY*>(pkey_)) == 1 &&
            EVP_DigestVerify(ctx, reinterpret_cast<const unsigned char*>(signature.data()), signature.size(),
                             reinterpret_cast<const unsigned char*>(signing_input.data()), signing_input.size()) == 1;
  EVP_MD_CTX_free(ctx);
  return ok;
}

std::vector<PublicJwk> ParseJwks(std::string_view text, std::string* error) {
  std::vector<PublicJwk> keys;
  boost::system::error_code ec;
  json::value doc = json::parse(text, ec);
  const json::value* list = (!ec && doc.is_object()) ? doc.as_object().if_contains("keys") : nullptr;
  if (list == nullptr || !list->is_array()) {
    if (error != nullptr) *error = "the key set is not a JWKS document (no \"keys\" array)";
    return keys;
  }
  for (const auto& item : list->as_array()) {
    if (!item.is_object()) continue;
    const auto& jwk = item.as_object();
    const std::string use = StringField(jwk, "use"), kty = StringField(jwk, "kty"), alg = StringField(jwk, "alg");
    if (!use.empty() && use != "sig") continue;
    PublicJwk key;
    if (kty == "RSA" && (alg.empty() || alg == "RS256")) {
      key.pkey_ = RsaKey(jwk);
      key.alg_ = "RS256";
    } else if (kty == "EC" && (alg.empty() || alg == "ES256")) {
      key.pkey_ = P256Key(jwk);
      key.alg_ = "ES256";
    }
    if (key.pkey_ == nullptr) continue;
    key.kid_ = StringField(jwk, "kid");
    keys.push_back(std::move(key));
  }
  return keys;
}

Result<JwsHeader> PeekHeader(std::string_view token) {
  auto segments = Split(token);
  if (!segments) return Invalid("id_token_malformed", "The ID token is not a compact JWS (three segments).");
  auto header = DecodeObject(segments->header);
  if (!header) return Invalid("id_token_malformed", "The ID token's header is not base64url JSON.");
  return JwsHeader{StringField(*header, "alg"), StringField(*header, "kid")};
}

Result<IdTokenClaims> VerifyIdToken(std::string_view token, const std::vector<PublicJwk>& keys,
                                    const IdTokenExpectations& expect) {
  CR_TRY_ASSIGN(JwsHeader header, PeekHeader(token));
  if (header.alg != "RS256" && header.alg != "ES256")
    return Invalid("id_token_unsupported_alg",
                   "The ID token is signed with '" + header.alg + "'; only RS256 and ES256 are accepted.");
  const PublicJwk* key = nullptr;
  for (const auto& k : keys) {
    if (k.alg() != header.alg) continue;
    if (!header.kid.empty() && k.kid() != header.kid) continue;
    key = &k;
    break;
  }
  if (key == nullptr)
    return Invalid("id_token_unknown_key", "No key of the provider matches the ID token's key id '" + header.kid + "'.");
  const Segments segments = *Split(token);
  auto signature = Base64Decode(segments.signature, /*url_alphabet=*/true);
  if (!signature || !key->Verify(segments.signing_input, *signature))
    return Invalid("id_token_bad_signature", "The ID token's signature does not verify with the provider's key.");

  auto payload = DecodeObject(segments.payload);
  if (!payload) return Invalid("id_token_malformed", "The ID token's payload is not base64url JSON.");
  const json::object& claims = *payload;
  IdTokenClaims out;
  out.issuer = StringField(claims, "iss");
  if (out.issuer != expect.issuer)
    return Invalid("id_token_wrong_issuer", "The ID token was issued by '" + out.issuer + "', not by the provider.");

  bool audience_ok = false;
  size_t audiences = 0;
  if (const auto* aud = claims.if_contains("aud")) {
    if (aud->is_string()) {
      audiences = 1;
      audience_ok = aud->as_string() == expect.audience;
    } else if (aud->is_array()) {
      for (const auto& a : aud->as_array()) {
        ++audiences;
        if (a.is_string() && a.as_string() == expect.audience) audience_ok = true;
      }
    }
  }
  // OpenID Connect Core 3.1.3.7: with several audiences, azp names us.
  if (audience_ok && audiences > 1 && StringField(claims, "azp") != expect.audience) audience_ok = false;
  if (!audience_ok) return Invalid("id_token_wrong_audience", "The ID token was not issued to this client.");

  const auto exp = IntClaim(claims, "exp"), iat = IntClaim(claims, "iat");
  if (!exp || !iat) return Invalid("id_token_malformed", "The ID token lacks exp or iat.");
  // The leeway moves `now`, not the claims: a claim near INT64_MAX must not
  // overflow.
  if (expect.now_seconds - expect.leeway_seconds >= *exp)
    return Invalid("id_token_expired", "The ID token has expired.");
  if (*iat > expect.now_seconds + expect.leeway_seconds)
    return Invalid("id_token_not_yet_valid", "The ID token was issued in the future.");
  if (auto nbf = IntClaim(claims, "nbf"); nbf && *nbf > expect.now_seconds + expect.leeway_seconds)
    return Invalid("id_token_not_yet_valid", "The ID token is not valid yet.");
  if (StringField(claims, "nonce") != expect.nonce || expect.nonce.empty())
    return Invalid("id_token_nonce_mismatch", "The ID token's nonce does not match the sign-in request.");

  out.subject = StringField(claims, "sub");
  if (out.subject.empty()) return Invalid("id_token_malformed", "The ID token has no subject.");
  out.expires_at = *exp;
  out.issued_at = *iat;
  if (auto e = StringField(claims, "email"); !e.empty()) out.email = e;
  if (const auto* v = claims.if_contains("email_verified")) {
    // Some providers send the string "true".
    out.email_verified = (v->is_bool() && v->as_bool()) || (v->is_string() && v->as_string() == "true");
  }
  if (auto n = StringField(claims, "name"); !n.empty()) out.name = n;
  if (auto p = StringField(claims, "preferred_username"); !p.empty()) out.preferred_username = p;
  return out;
}

}  // namespace credence::identity::oidc
