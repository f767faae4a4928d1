#include "identity/access_token.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <stdexcept>

#include "core/ids.h"
#include "identity/internal/api_key_queries.h"
#include "identity/token_format.h"
#include "storage/session.h"

namespace credence::identity {
namespace json = boost::json;
namespace {

// base64url of {"alg":"HS256","typ":"JWT"}: every token this service signs
// starts with it.
const std::string& EncodedHeader() {
  static const std::string kHeader = Base64UrlEncode(R"({"alg":"HS256","typ":"JWT"})");
  return kHeader;
}

constexpr std::string_view kSigningKeyName = "access_token";

Error InvalidToken(std::string detail) { return Error::Unauthenticated("invalid_token", std::move(detail)); }

std::string ToHex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (char c : bytes) {
    out.push_back(kHex[static_cast<unsigned char>(c) >> 4]);
    out.push_back(kHex[static_cast<unsigned char>(c) & 0xF]);
  }
  return out;
}

std::string FromHex(std::string_view hex) {
  auto nibble = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  if (hex.size() % 2 != 0) throw std::runtime_error("the stored signing key is not hex");
  std::string out;
  for (size_t i = 0; i < hex.size(); i += 2) {
    const int hi = nibble(hex[i]), lo = nibble(hex[i + 1]);
    if (hi < 0 || lo < 0) throw std::runtime_error("the stored signing key is not hex");
    out.push_back(static_cast<char>(hi * 16 + lo));
  }
  return out;
}

const json::value* Claim(const json::object& o, std::string_view name) { return o.if_contains(name); }

std::optional<int64_t> IntClaim(const json::object& o, std::string_view name) {
  const json::value* v = Claim(o, name);
  if (v == nullptr) return std::nullopt;
  if (v->is_int64()) return v->get_int64();
  if (v->is_uint64() && v->get_uint64() <= static_cast<uint64_t>(INT64_MAX))
    return static_cast<int64_t>(v->get_uint64());
  return std::nullopt;
}

std::optional<std::string> StringClaim(const json::object& o, std::string_view name) {
  const json::value* v = Claim(o, name);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return std::string(v->get_string());
}

}  // namespace

AccessTokenSigner::AccessTokenSigner(std::string key) : key_(std::move(key)) {
  if (key_.size() < kSigningKeyBytes) throw std::invalid_argument("the access-token signing key is too short");
}

std::string AccessTokenSigner::Mac(std::string_view signing_input) const {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (HMAC(EVP_sha256(), key_.data(), static_cast<int>(key_.size()),
           reinterpret_cast<const unsigned char*>(signing_input.data()), signing_input.size(), digest,
           &length) == nullptr)
    throw std::runtime_error("HMAC-SHA256 failed");
  return std::string(reinterpret_cast<const char*>(digest), length);
}

std::string AccessTokenSigner::Sign(const AccessTokenClaims& c) const {
  json::object payload{
      {"iss", kAccessTokenIssuer},     {"sub", c.key_id},    {"tenant", c.tenant_id}, {"client_id", c.client_id},
      {"scope", JoinScopes(c.scopes)}, {"iat", c.issued_at}, {"exp", c.expires_at},   {"jti", c.token_id}};
  if (!c.app_id.empty()) payload["app"] = c.app_id;
  if (!c.connector_id.empty()) payload["connector"] = c.connector_id;
  if (!c.audience.empty()) payload["aud"] = c.audience;
  std::string token = EncodedHeader() + "." + Base64UrlEncode(json::serialize(payload));
  const std::string signature = Base64UrlEncode(Mac(token));
  token += '.';
  token += signature;
  return token;
}

bool AccessTokenSigner::LooksLikeJwt(std::string_view token) {
  const auto first = token.find('.');
  if (first == std::string_view::npos) return false;
  const auto second = token.find('.', first + 1);
  return second != std::string_view::npos && token.find('.', second + 1) == std::string_view::npos;
}

Result<AccessTokenClaims> AccessTokenSigner::Verify(std::string_view token, TimeMs now) const {
  if (!LooksLikeJwt(token)) return InvalidToken("The access token is malformed.");
  const auto first = token.find('.'), second = token.find('.', first + 1);
  const std::string_view header = token.substr(0, first);
  const std::string_view payload = token.substr(first + 1, second - first - 1);

  // Only the header this service writes is accepted: no "alg":"none", no
  // algorithm chosen by the token.
  auto signature = Base64Decode(token.substr(second + 1), /*url_alphabet=*/true);
  if (header != EncodedHeader() || !signature) return InvalidToken("The access token is malformed.");
  const std::string expected = Mac(token.substr(0, second));
  if (signature->size() != expected.size() || CRYPTO_memcmp(signature->data(), expected.data(), expected.size()) != 0)
    return InvalidToken("The access token's signature is not valid.");

  // Signed by us from here on; the checks below guard against our own
  // mistakes rather than forgery.
  auto decoded = Base64Decode(payload, /*url_alphabet=*/true);
  if (!decoded) return InvalidToken("The access token is malformed.");
  boost::system::error_code ec;
  json::value parsed = json::parse(*decoded, ec);
  if (ec || !parsed.is_object()) return InvalidToken("The access token is malformed.");
  const json::object& o = parsed.get_object();
  AccessTokenClaims c;
  auto iss = StringClaim(o, "iss");
  auto sub = StringClaim(o, "sub");
  auto tenant = StringClaim(o, "tenant");
  auto client = StringClaim(o, "client_id");
  auto scope = StringClaim(o, "scope");
  auto iat = IntClaim(o, "iat");
  auto exp = IntClaim(o, "exp");
  auto jti = StringClaim(o, "jti");
  // "app" is optional (tokens of tenant keys have none), but a UUID when sent.
  const bool app_present = Claim(o, "app") != nullptr;
  auto app = StringClaim(o, "app");
  if (app_present && (!app || !IsUuid(*app))) return InvalidToken("The access token is malformed.");
  if (!iss || *iss != kAccessTokenIssuer || !sub || !IsUuid(*sub) || !tenant || !IsUuid(*tenant) || !client || !scope ||
      !iat || !exp || !jti)
    return InvalidToken("The access token is malformed.");
  // Compared in seconds: exp * 1000 overflows for an exp near the int64 limit.
  if (now / 1000 >= *exp) return InvalidToken("The access token has expired.");
  c.key_id = std::move(*sub);
  c.tenant_id = std::move(*tenant);
  c.client_id = std::move(*client);
  if (app) c.app_id = std::move(*app);
  const bool connector_present = Claim(o, "connector") != nullptr;
  auto connector = StringClaim(o, "connector");
  if (connector_present && (!connector || !IsUuid(*connector))) return InvalidToken("The access token is malformed.");
  if (connector) c.connector_id = std::move(*connector);
  // RFC 7519 lets "aud" be an array; this service writes one string.
  const bool audience_present = Claim(o, "aud") != nullptr;
  auto audience = StringClaim(o, "aud");
  if (audience_present && (!audience || audience->empty())) return InvalidToken("The access token is malformed.");
  if (audience) c.audience = std::move(*audience);
  c.scopes = SplitScopes(*scope);
  c.issued_at = *iat;
  c.expires_at = *exp;
  c.token_id = std::move(*jti);
  return c;
}

std::string LoadOrCreateSigningKey(storage::Database& db, const Clock& clock) {
  storage::Session session(db);
  auto rows = session.Run(internal::kFindSigningKey, {kSigningKeyName});
  if (rows.empty()) {
    // A node starting at the same moment may insert first; both then read
    // the one row that won.
    session.Run(internal::kInsertSigningKey,
                {kSigningKeyName, ToHex(SecureRandomBytes(kSigningKeyBytes)), clock.Now()});
    rows = session.Run(internal::kFindSigningKey, {kSigningKeyName});
  }
  if (rows.empty()) throw std::runtime_error("the access-token signing key could not be stored");
  return FromHex(rows.front().Text(0));
}

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

}  // namespace credence::identity
