// Machine credentials over real HTTP (docs/credentials.md): tenant API keys
// on both path forms (/apikeys and /api/apikeys), the OAuth 2.0 token
// endpoint (RFC 6749: client credentials, body and HTTP Basic client
// authentication, every error answer), access tokens and their expiry on the
// test clock, revocation, tenant isolation, and GET /api/trust/whoami with
// each kind of credential. Scope enforcement per route is covered by the
// dispatcher's unit tests. Runs on SQLite and on PostgreSQL
// (CREDENCE_TEST_BACKEND).
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/ids.h"
#include "support/api_fixture.h"
#include "support/clock_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

constexpr char kForm[] = "application/x-www-form-urlencoded";

// The key format, written out independently of the server's code: base62
// digits and the CRC-32 of the random part as six base62 digits.
constexpr char kBase62[] = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

uint32_t Crc32(const std::string& data) {
  uint32_t crc = 0xFFFFFFFFu;
  for (unsigned char byte : data) {
    crc ^= byte;
    for (int k = 0; k < 8; ++k) crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
  }
  return ~crc;
}

std::string Checksum(const std::string& random) {
  uint32_t v = Crc32(random);
  std::string out(6, '0');
  for (int i = 5; i >= 0 && v > 0; --i, v /= 62) out[static_cast<size_t>(i)] = kBase62[v % 62];
  return out;
}

// A secret with the right shape and checksum that no key has.
std::string WellFormedUnknownSecret() {
  static std::mt19937 random_engine{std::random_device{}()};
  std::string random;
  while (random.size() < 32) random.push_back(kBase62[random_engine() % 62]);
  return "crd_sk_" + random + Checksum(random);
}

std::string Base64UrlDecode(const std::string& in) {
  std::string out;
  uint32_t buffer = 0;
  int bits = 0;
  for (char c : in) {
    const char* at = std::strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", c);
    if (at == nullptr || c == '\0') throw std::runtime_error("not base64url: " + in);
    buffer =
        (buffer << 6) | static_cast<uint32_t>(at - "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_");
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((buffer >> bits) & 0xFF));
    }
  }
  return out;
}

std::string Base64(const std::string& in) {
  static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  auto byte = [&](size_t k) { return static_cast<uint32_t>(static_cast<unsigned char>(in[k])); };
  for (; i + 2 < in.size(); i += 3) {
    const uint32_t v = (byte(i) << 16) | (byte(i + 1) << 8) | byte(i + 2);
    for (int s : {18, 12, 6, 0}) out.push_back(kAlphabet[(v >> s) & 63]);
  }
  if (i + 1 == in.size()) {
    const uint32_t v = byte(i) << 16;
    out += std::string{kAlphabet[(v >> 18) & 63], kAlphabet[(v >> 12) & 63], '=', '='};
  } else if (i + 2 == in.size()) {
    const uint32_t v = (byte(i) << 16) | (byte(i + 1) << 8);
    out += std::string{kAlphabet[(v >> 18) & 63], kAlphabet[(v >> 12) & 63], kAlphabet[(v >> 6) & 63], '='};
  }
  return out;
}

// RFC 6749 section 2.3.1: each part form-urlencoded, then base64.
std::string FormEncode(const std::string& s) {
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '*') {
      out.push_back(static_cast<char>(c));
    } else if (c == ' ') {
      out.push_back('+');
    } else {
      static constexpr char kHex[] = "0123456789ABCDEF";
      out += {'%', kHex[c >> 4], kHex[c & 15]};
    }
  }
  return out;
}

std::string Basic(const std::string& id, const std::string& secret) {
  return "Basic " + Base64(FormEncode(id) + ":" + FormEncode(secret));
}

struct Key {
  std::string id;
  std::string client_id;
  std::string secret;
};

class Credentials : public ClockedApiTest {
 protected:
  Key MakeKey(const TestTenant& t, json::array scopes = {"trust:evaluate", "trust:read", "trust:usage"},
              json::value expires_at = nullptr) {
    json::object body{{"name", "integration"}, {"scopes", std::move(scopes)}};
    if (!expires_at.is_null()) body["expiresAt"] = expires_at;
    auto r = api().Post("/apikeys", body, t.token("admin"));
    EXPECT_EQ(r.status, 201) << r.body;
    if (r.status != 201) return {};
    return {Str(r.Json(), "id"), Str(r.Json(), "clientId"), Str(r.Json(), "clientSecret")};
  }

  Response Token(const std::string& form, const Headers& headers = {{"Content-Type", kForm}}) {
    return api().Send("POST", "/connect/token", form, "", headers);
  }

  std::string TokenFor(const Key& key, const std::string& scope = "") {
    auto r = Token("grant_type=client_credentials&client_id=" + key.client_id + "&client_secret=" + key.secret +
                   (scope.empty() ? "" : "&scope=" + FormEncode(scope)));
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 ? Str(r.Json(), "access_token") : "";
  }

  Response WhoAmI(const std::string& bearer) { return api().Get("/api/trust/whoami", bearer); }
  Response WhoAmIByHeader(const std::string& key) {
    return api().Send("GET", "/api/trust/whoami", "", "", {{"X-Api-Key", key}});
  }

  // The ids of the keys listed to the tenant's admin at `path`.
  std::vector<std::string> ListedIds(const TestTenant& t, const std::string& path = "/apikeys") {
    auto r = api().Get(path, t.token("admin"));
    EXPECT_EQ(r.status, 200) << r.body;
    std::vector<std::string> ids;
    if (r.status != 200) return ids;
    const auto body = r.Json();
    for (const auto& k : body.as_array()) ids.push_back(Str(k, "id"));
    return ids;
  }
};

// An RFC 6749 section 5.2 error: JSON {error, error_description}, never
// problem+json, and never cached.
void ExpectOAuthError(const Response& r, int status, const std::string& error) {
  EXPECT_EQ(r.status, status) << r.body;
  EXPECT_EQ(r.Header("content-type"), "application/json") << r.body;
  EXPECT_EQ(r.Header("cache-control"), "no-store");
  EXPECT_EQ(r.Header("pragma"), "no-cache");
  json::value body;
  try {
    body = r.Json();
  } catch (const std::exception&) {
    ADD_FAILURE() << "not JSON: " << r.body;
    return;
  }
  ASSERT_TRUE(body.is_object()) << r.body;
  EXPECT_EQ(Str(body, "error"), error) << r.body;
  EXPECT_FALSE(Str(body, "error_description").empty());
  for (char c : Str(body, "error_description")) EXPECT_TRUE(c >= 0x20 && c <= 0x7E && c != '"' && c != '\\') << r.body;
  EXPECT_FALSE(body.as_object().contains("code")) << "not a problem: " << r.body;
  if (status == 401) {
    EXPECT_EQ(r.Header("www-authenticate"), "Basic realm=\"credence\"");
  }
}

// --- keys ---

TEST_F(Credentials, CreateAnswersTheSecretOnceAndListShowsMetadataOnly) {
  auto t = CreateTenant(api(), "key");
  auto created = api().Post("/apikeys", {{"name", "  Support bot  "}, {"scopes", {"trust:read", "trust:evaluate"}}},
                            t.token("admin"));
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(created.Header("cache-control"), "no-store");
  const auto k = created.Json();
  const std::string secret = Str(k, "clientSecret");
  EXPECT_EQ(Str(k, "id").size(), 36u);
  EXPECT_EQ(Str(k, "name"), "Support bot");  // trimmed
  EXPECT_EQ(Str(k, "clientId").rfind("crd_ci_", 0), 0u);
  EXPECT_EQ(Str(k, "clientId").size(), 23u);
  ASSERT_EQ(secret.size(), 45u);
  EXPECT_EQ(secret.rfind("crd_sk_", 0), 0u);
  EXPECT_EQ(secret.substr(39), Checksum(secret.substr(7, 32)));
  EXPECT_EQ(Str(k, "secretPrefix"), secret.substr(0, 15));
  // Canonical order, whatever the request's.
  EXPECT_EQ(Strings(k.at("scopes")), (std::vector<std::string>{"trust:evaluate", "trust:read"}));
  EXPECT_EQ(Str(k, "createdBy"), t.user_ids.at("admin"));
  EXPECT_EQ(Str(k, "createdAt").back(), 'Z');
  EXPECT_TRUE(k.at("expiresAt").is_null());

  for (const char* path : {"/apikeys", "/api/apikeys"}) {
    auto list = api().Get(path, t.token("admin"));
    ASSERT_EQ(list.status, 200) << list.body;
    EXPECT_EQ(list.body.find(secret), std::string::npos) << "the secret is never listed";
    EXPECT_EQ(list.body.find(secret.substr(15)), std::string::npos);
    const auto keys = list.Json().as_array();
    ASSERT_EQ(keys.size(), 1u);
    EXPECT_FALSE(keys[0].as_object().contains("clientSecret"));
    EXPECT_EQ(Str(keys[0], "id"), Str(k, "id"));
    EXPECT_EQ(Str(keys[0], "name"), "Support bot");
    EXPECT_EQ(Str(keys[0], "clientId"), Str(k, "clientId"));
    EXPECT_EQ(Str(keys[0], "secretPrefix"), secret.substr(0, 15));
    EXPECT_EQ(Strings(keys[0].at("scopes")), (std::vector<std::string>{"trust:evaluate", "trust:read"}));
  }
}

TEST_F(Credentials, BothPathFormsServeTheSameKeys) {
  auto t = CreateTenant(api(), "key");
  // Listed oldest first (creation time, then id): the clock moves between the two.
  SetServerTime(api(), "2031-01-01T00:00:00Z");
  auto a = api().Post("/api/apikeys", {{"name", "a"}, {"scopes", {"trust:usage"}}}, t.token("admin"));
  ASSERT_EQ(a.status, 201) << a.body;
  SetServerTime(api(), "2031-01-01T00:00:01Z");
  const Key b = MakeKey(t);
  EXPECT_EQ(ListedIds(t, "/apikeys"), (std::vector<std::string>{Str(a.Json(), "id"), b.id}));
  EXPECT_EQ(ListedIds(t, "/api/apikeys"), ListedIds(t, "/apikeys"));
  EXPECT_EQ(api().Delete("/api/apikeys/" + Str(a.Json(), "id"), t.token("admin")).status, 204);
  EXPECT_EQ(api().Delete("/apikeys/" + b.id, t.token("admin")).status, 204);
  EXPECT_TRUE(ListedIds(t).empty());
}

TEST_F(Credentials, CreateValidatesEveryField) {
  auto t = CreateTenant(api(), "key");
  const std::string admin = t.token("admin");
  const json::array scopes{"trust:read"};
  ExpectValidation(api().Post("/apikeys", {{"scopes", scopes}}, admin), "name");
  ExpectValidation(api().Post("/apikeys", {{"name", nullptr}, {"scopes", scopes}}, admin), "name");
  ExpectValidation(api().Post("/apikeys", {{"name", ""}, {"scopes", scopes}}, admin), "name");
  ExpectValidation(api().Post("/apikeys", {{"name", "   "}, {"scopes", scopes}}, admin), "name");
  ExpectValidation(api().Post("/apikeys", {{"name", 42}, {"scopes", scopes}}, admin), "name");
  ExpectValidation(api().Post("/apikeys", {{"name", std::string(201, 'n')}, {"scopes", scopes}}, admin), "name");
  EXPECT_EQ(api().Post("/apikeys", {{"name", std::string(200, 'n')}, {"scopes", scopes}}, admin).status, 201);

  ExpectValidation(api().Post("/apikeys", {{"name", "k"}}, admin), "scopes");
  ExpectValidation(api().Post("/apikeys", {{"name", "k"}, {"scopes", json::array{}}}, admin), "scopes");
  ExpectValidation(api().Post("/apikeys", {{"name", "k"}, {"scopes", "trust:read"}}, admin), "scopes");
  ExpectValidation(api().Post("/apikeys", {{"name", "k"}, {"scopes", {"trust:read", "trust:read"}}}, admin), "scopes");
  // An unknown scope is named with its position, as array items are everywhere.
  ExpectValidation(api().Post("/apikeys", {{"name", "k"}, {"scopes", {"trust:admin"}}}, admin), "scopes[0]");
  ExpectValidation(api().Post("/apikeys", {{"name", "k"}, {"scopes", {"trust:read", 7}}}, admin), "scopes[1]");

  ExpectValidation(api().Post("/apikeys", {{"name", "k"}, {"scopes", scopes}, {"expiresAt", "soon"}}, admin),
                   "expiresAt");
  ExpectValidation(api().Post("/apikeys", {{"name", "k"}, {"scopes", scopes}, {"expiresAt", 1}}, admin), "expiresAt");
  ExpectValidation(
      api().Post("/apikeys", {{"name", "k"}, {"scopes", scopes}, {"expiresAt", "2001-01-01T00:00:00Z"}}, admin),
      "expiresAt");
  // Every field error comes back at once.
  auto several = api().Post(
      "/apikeys", {{"name", " "}, {"scopes", {"trust:read", "trust:read"}}, {"expiresAt", "2001-01-01"}}, admin);
  EXPECT_EQ(ErrorFields(several), (std::set<std::string>{"name", "scopes", "expiresAt"}));

  ExpectProblem(api().Send("POST", "/apikeys", "{\"name\":", admin), 400, "malformed_json");
  EXPECT_EQ(ListedIds(t).size(), 1u);  // only the 200-character one
}

TEST_F(Credentials, OnlyGlobalAdminsManageKeys) {
  auto t = CreateTenant(api(), "key");
  const Key key = MakeKey(t);
  for (const char* persona : {"editor", "viewer", "guest"}) {
    ExpectProblem(api().Get("/apikeys", t.token(persona)), 403, "forbidden");
    ExpectProblem(api().Get("/api/apikeys", t.token(persona)), 403, "forbidden");
    // Refused before the body is read: an invalid body is still a 403.
    ExpectProblem(api().Post("/apikeys", {{"name", 1}}, t.token(persona)), 403, "forbidden");
    ExpectProblem(api().Delete("/apikeys/" + key.id, t.token(persona)), 403, "forbidden");
  }
  ExpectProblem(api().Get("/apikeys"), 401, "missing_credentials");
  ExpectProblem(api().Post("/apikeys", {{"name", "k"}, {"scopes", {"trust:read"}}}), 401, "missing_credentials");
  ExpectProblem(api().Delete("/apikeys/" + key.id), 401, "missing_credentials");
  EXPECT_EQ(ListedIds(t), std::vector<std::string>{key.id});
}

TEST_F(Credentials, MachineCredentialsCannotManageKeysOrReachUserRoutes) {
  auto t = CreateTenant(api(), "key");
  const Key key = MakeKey(t);
  const std::string token = TokenFor(key);
  for (const std::string& credential : {key.secret, token}) {
    ExpectProblem(api().Get("/apikeys", credential), 403, "machine_credentials_not_allowed");
    ExpectProblem(api().Post("/apikeys", {{"name", "k"}, {"scopes", {"trust:read"}}}, credential), 403,
                  "machine_credentials_not_allowed");
    ExpectProblem(api().Delete("/apikeys/" + key.id, credential), 403, "machine_credentials_not_allowed");
    ExpectProblem(api().Get("/api/users/me", credential), 403, "machine_credentials_not_allowed");
    ExpectProblem(api().Get("/api/groups", credential), 403, "machine_credentials_not_allowed");
  }
  ExpectProblem(api().Send("GET", "/users/me", "", "", {{"X-Api-Key", key.secret}}), 403,
                "machine_credentials_not_allowed");
}

TEST_F(Credentials, DeleteRevokesAtOnce) {
  auto t = CreateTenant(api(), "key");
  const Key key = MakeKey(t);
  const Key other = MakeKey(t);
  ASSERT_EQ(WhoAmI(key.secret).status, 200);
  EXPECT_EQ(api().Delete("/apikeys/" + key.id, t.token("admin")).status, 204);
  ExpectProblem(WhoAmI(key.secret), 401, "invalid_token");
  ExpectProblem(WhoAmIByHeader(key.secret), 401, "invalid_token");
  ExpectOAuthError(Token("grant_type=client_credentials&client_id=" + key.client_id + "&client_secret=" + key.secret),
                   401, "invalid_client");
  EXPECT_EQ(ListedIds(t), std::vector<std::string>{other.id});
  ExpectProblem(api().Delete("/apikeys/" + key.id, t.token("admin")), 404, "not_found");  // already revoked
  EXPECT_EQ(WhoAmI(other.secret).status, 200);                                            // the other key is untouched
}

TEST_F(Credentials, DeleteNeedsAKeyIdOfTheTenant) {
  auto t = CreateTenant(api(), "key");
  ExpectProblem(api().Delete(std::string("/apikeys/") + kUnknownId, t.token("admin")), 404, "not_found");
  ExpectProblem(api().Delete("/apikeys/not-a-uuid", t.token("admin")), 400, "invalid_path_parameter");
  const Key key = MakeKey(t);
  std::string upper = key.id;
  for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  EXPECT_EQ(api().Delete("/apikeys/" + upper, t.token("admin")).status, 204);  // ids in any case
}

TEST_F(Credentials, TenantsAreIsolated) {
  auto a = CreateTenant(api(), "keya");
  auto b = CreateTenant(api(), "keyb");
  const Key key_a = MakeKey(a);
  const Key key_b = MakeKey(b);
  EXPECT_EQ(ListedIds(a), std::vector<std::string>{key_a.id});
  EXPECT_EQ(ListedIds(b), std::vector<std::string>{key_b.id});
  // Another tenant's key is not found, and survives the attempt.
  ExpectProblem(api().Delete("/apikeys/" + key_a.id, b.token("admin")), 404, "not_found");
  ExpectProblem(api().Delete("/api/apikeys/" + key_a.id, b.token("admin")), 404, "not_found");
  EXPECT_EQ(ListedIds(a), std::vector<std::string>{key_a.id});
  // A key (and its token) always authenticates as its own tenant.
  for (const std::string& credential : {key_a.secret, TokenFor(key_a)}) {
    auto who = WhoAmI(credential);
    ASSERT_EQ(who.status, 200) << who.body;
    EXPECT_EQ(Str(who.Json(), "tenantId"), a.id);
    EXPECT_EQ(Str(who.Json(), "keyId"), key_a.id);
  }
  EXPECT_EQ(Str(WhoAmI(key_b.secret).Json(), "tenantId"), b.id);
  EXPECT_EQ(Str(WhoAmI(TokenFor(key_b)).Json(), "tenantId"), b.id);
  // A's client id with B's secret (and the reverse) authenticates neither.
  ExpectOAuthError(
      Token("grant_type=client_credentials&client_id=" + key_a.client_id + "&client_secret=" + key_b.secret), 401,
      "invalid_client");
  ExpectOAuthError(
      Token("grant_type=client_credentials&client_id=" + key_b.client_id + "&client_secret=" + key_a.secret), 401,
      "invalid_client");
}

// --- authenticating with a key ---

TEST_F(Credentials, KeyAuthenticatesAsBearerAndAsXApiKey) {
  auto t = CreateTenant(api(), "key");
  const Key key = MakeKey(t, {"trust:usage", "trust:read"});
  for (const auto& who : {WhoAmI(key.secret), WhoAmIByHeader(key.secret)}) {
    ASSERT_EQ(who.status, 200) << who.body;
    const auto body = who.Json();
    EXPECT_EQ(Str(body, "kind"), "machine");
    EXPECT_EQ(Str(body, "tenantId"), t.id);
    EXPECT_TRUE(body.at("userId").is_null());
    EXPECT_EQ(Str(body, "keyId"), key.id);
    EXPECT_EQ(Str(body, "clientId"), key.client_id);
    EXPECT_EQ(Strings(body.at("scopes")), (std::vector<std::string>{"trust:read", "trust:usage"}));
    EXPECT_TRUE(body.at("expiresAt").is_null());
  }
  // The Bearer scheme is case-insensitive for keys too.
  EXPECT_EQ(api().Send("GET", "/api/trust/whoami", "", "", {{"Authorization", "bearer " + key.secret}}).status, 200);
}

TEST_F(Credentials, WhoAmIDescribesSignedInUsers) {
  auto t = CreateTenant(api(), "key");
  for (const char* persona : {"admin", "guest"}) {
    auto who = WhoAmI(t.token(persona));
    ASSERT_EQ(who.status, 200) << who.body;
    const auto body = who.Json();
    EXPECT_EQ(Str(body, "kind"), "user");
    EXPECT_EQ(Str(body, "tenantId"), t.id);
    EXPECT_EQ(Str(body, "userId"), t.user_ids.at(persona));
    EXPECT_TRUE(body.at("keyId").is_null());
    EXPECT_TRUE(body.at("clientId").is_null());
    EXPECT_EQ(Strings(body.at("scopes")), (std::vector<std::string>{"trust:evaluate", "trust:read", "trust:usage"}));
    EXPECT_TRUE(body.at("expiresAt").is_null());
  }
  auto anonymous = WhoAmI("");
  ExpectProblem(anonymous, 401, "missing_credentials");
  EXPECT_EQ(anonymous.Header("www-authenticate"), "Bearer realm=\"credence\"");
}

TEST_F(Credentials, MangledKeyIsRefusedByItsChecksum) {
  auto t = CreateTenant(api(), "key");
  const Key key = MakeKey(t);
  for (size_t position : {size_t{7}, size_t{20}, size_t{38}, size_t{44}}) {
    std::string mangled = key.secret;
    mangled[position] = mangled[position] == 'x' ? 'y' : 'x';
    for (const auto& r : {WhoAmI(mangled), WhoAmIByHeader(mangled)}) {
      ExpectProblem(r, 401, "invalid_token");
      EXPECT_NE(Str(r.Json(), "detail").find("checksum"), std::string::npos) << r.body;
      EXPECT_EQ(r.Header("www-authenticate"), "Bearer realm=\"credence\", error=\"invalid_token\"");
    }
  }
  // Truncated, or with a different prefix: the same.
  ExpectProblem(WhoAmI(key.secret.substr(0, 44)), 401, "invalid_token");
  ExpectProblem(WhoAmI("crd_sk_"), 401, "invalid_token");
}

TEST_F(Credentials, WellFormedUnknownKeyIsRefused) {
  const std::string secret = WellFormedUnknownSecret();
  auto r = WhoAmI(secret);
  ExpectProblem(r, 401, "invalid_token");
  EXPECT_EQ(Str(r.Json(), "detail").find("checksum"), std::string::npos) << "it passed the checksum: " << r.body;
  ExpectProblem(WhoAmIByHeader(secret), 401, "invalid_token");
}

TEST_F(Credentials, ExpiredKeyIsRefused) {
  auto t = CreateTenant(api(), "key");
  SetServerTime(api(), "2031-03-01T12:00:00Z");
  const Key key = MakeKey(t, {"trust:read"}, "2031-03-02T12:00:00Z");
  auto who = WhoAmI(key.secret);
  ASSERT_EQ(who.status, 200) << who.body;
  EXPECT_EQ(Str(who.Json(), "expiresAt"), "2031-03-02T12:00:00.000Z");
  auto listed = api().Get("/apikeys", t.token("admin"));
  EXPECT_EQ(Str(listed.Json().as_array().at(0), "expiresAt"), "2031-03-02T12:00:00.000Z");

  // A token issued shortly before the key expires ends with the key.
  SetServerTime(api(), "2031-03-02T11:30:00Z");
  auto token = Token("grant_type=client_credentials&client_id=" + key.client_id + "&client_secret=" + key.secret);
  ASSERT_EQ(token.status, 200) << token.body;
  EXPECT_EQ(token.Json().at("expires_in").as_int64(), 1800);

  SetServerTime(api(), "2031-03-02T12:00:00Z");
  auto expired = WhoAmI(key.secret);
  ExpectProblem(expired, 401, "invalid_token");
  EXPECT_NE(Str(expired.Json(), "detail").find("expired"), std::string::npos) << expired.body;
  ExpectProblem(WhoAmI(Str(token.Json(), "access_token")), 401, "invalid_token");
  ExpectOAuthError(Token("grant_type=client_credentials&client_id=" + key.client_id + "&client_secret=" + key.secret),
                   401, "invalid_client");
  // Expired keys are still listed (with their expiry) until revoked.
  EXPECT_EQ(ListedIds(t), std::vector<std::string>{key.id});
}

// --- the token endpoint ---

TEST_F(Credentials, TokenWithBodyCredentials) {
  auto t = CreateTenant(api(), "tok");
  const Key key = MakeKey(t, {"trust:evaluate", "trust:read"});
  SetServerTime(api(), "2031-05-01T08:00:00Z");
  auto r = Token("grant_type=client_credentials&client_id=" + key.client_id + "&client_secret=" + key.secret);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.Header("content-type"), "application/json");
  EXPECT_EQ(r.Header("cache-control"), "no-store");
  EXPECT_EQ(r.Header("pragma"), "no-cache");
  const auto body = r.Json().as_object();
  EXPECT_EQ(body.size(), 4u) << "no refresh token, nothing else: " << r.body;
  EXPECT_EQ(Str(body, "token_type"), "Bearer");
  EXPECT_EQ(body.at("expires_in").as_int64(), 3600);
  EXPECT_EQ(Str(body, "scope"), "trust:evaluate trust:read");
  const std::string token = Str(body, "access_token");
  EXPECT_EQ(std::count(token.begin(), token.end(), '.'), 2) << token;
  EXPECT_EQ(token.rfind("eyJ", 0), 0u) << "a JWT: " << token;

  auto who = WhoAmI(token);
  ASSERT_EQ(who.status, 200) << who.body;
  const auto w = who.Json();
  EXPECT_EQ(Str(w, "kind"), "machine");
  EXPECT_EQ(Str(w, "tenantId"), t.id);
  EXPECT_EQ(Str(w, "keyId"), key.id);
  EXPECT_EQ(Str(w, "clientId"), key.client_id);
  EXPECT_EQ(Strings(w.at("scopes")), (std::vector<std::string>{"trust:evaluate", "trust:read"}));
  EXPECT_EQ(Str(w, "expiresAt"), "2031-05-01T09:00:00.000Z");
}

TEST_F(Credentials, TokenWithHttpBasic) {
  auto t = CreateTenant(api(), "tok");
  const Key key = MakeKey(t, {"trust:usage"});
  auto r = Token("grant_type=client_credentials",
                 {{"Content-Type", kForm}, {"Authorization", Basic(key.client_id, key.secret)}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Str(r.Json(), "scope"), "trust:usage");
  EXPECT_EQ(WhoAmI(Str(r.Json(), "access_token")).status, 200);

  // RFC 6749 2.3.1: the parts are form-urlencoded before base64; a client
  // that escapes every underscore is understood.
  auto escape_underscores = [](const std::string& s) {
    std::string out;
    for (char c : s) out += c == '_' ? std::string("%5F") : std::string(1, c);
    return out;
  };
  auto escaped = Token(
      "grant_type=client_credentials",
      {{"Content-Type", kForm},
       {"Authorization", "Basic " + Base64(escape_underscores(key.client_id) + ":" + escape_underscores(key.secret))}});
  EXPECT_EQ(escaped.status, 200) << escaped.body;
  // The scheme is case-insensitive; a client_id beside Basic that names the
  // same client is tolerated.
  auto lower = Token("grant_type=client_credentials&client_id=" + key.client_id,
                     {{"Content-Type", kForm}, {"Authorization", "basic " + Base64(key.client_id + ":" + key.secret)}});
  EXPECT_EQ(lower.status, 200) << lower.body;

  auto wrong = Token("grant_type=client_credentials",
                     {{"Content-Type", kForm}, {"Authorization", Basic(key.client_id, WellFormedUnknownSecret())}});
  ExpectOAuthError(wrong, 401, "invalid_client");
  ExpectOAuthError(Token("grant_type=client_credentials", {{"Content-Type", kForm}, {"Authorization", "Basic %%%"}}),
                   401, "invalid_client");
  ExpectOAuthError(Token("grant_type=client_credentials",
                         {{"Content-Type", kForm}, {"Authorization", "Basic " + Base64("no-colon")}}),
                   401, "invalid_client");
  // Another scheme is not client authentication this endpoint knows.
  ExpectOAuthError(
      Token("grant_type=client_credentials", {{"Content-Type", kForm}, {"Authorization", "Bearer " + key.secret}}), 401,
      "invalid_client");
}

TEST_F(Credentials, TokenScopeNarrowsAndCannotWiden) {
  auto t = CreateTenant(api(), "tok");
  const Key key = MakeKey(t, {"trust:evaluate", "trust:read"});
  const std::string auth = "grant_type=client_credentials&client_id=" + key.client_id + "&client_secret=" + key.secret;

  auto narrowed = Token(auth + "&scope=trust%3Aread");
  ASSERT_EQ(narrowed.status, 200) << narrowed.body;
  EXPECT_EQ(Str(narrowed.Json(), "scope"), "trust:read");
  EXPECT_EQ(Strings(WhoAmI(Str(narrowed.Json(), "access_token")).Json().at("scopes")),
            std::vector<std::string>{"trust:read"});

  // Space-separated ('+' in a form), in any order; answered in canonical order.
  auto both = Token(auth + "&scope=trust:read+trust:evaluate");
  ASSERT_EQ(both.status, 200) << both.body;
  EXPECT_EQ(Str(both.Json(), "scope"), "trust:evaluate trust:read");
  // An empty scope parameter counts as omitted (RFC 6749 3.2): every scope of the key.
  auto empty = Token(auth + "&scope=");
  ASSERT_EQ(empty.status, 200) << empty.body;
  EXPECT_EQ(Str(empty.Json(), "scope"), "trust:evaluate trust:read");

  ExpectOAuthError(Token(auth + "&scope=trust:usage"), 400, "invalid_scope");
  ExpectOAuthError(Token(auth + "&scope=trust:read+trust:usage"), 400, "invalid_scope");
  ExpectOAuthError(Token(auth + "&scope=admin"), 400, "invalid_scope");
  ExpectOAuthError(Token(auth + "&scope=%22quoted%22"), 400, "invalid_scope");  // description stays legal
}

TEST_F(Credentials, TokenRequestErrors) {
  auto t = CreateTenant(api(), "tok");
  const Key key = MakeKey(t, {"trust:read"});
  const std::string creds = "client_id=" + key.client_id + "&client_secret=" + key.secret;

  // Wrong or missing content type.
  ExpectOAuthError(
      api().Send("POST", "/connect/token", json::serialize(json::object{{"grant_type", "client_credentials"}}), "",
                 {{"Content-Type", "application/json"}}),
      400, "invalid_request");
  ExpectOAuthError(Token("grant_type=client_credentials&" + creds, {{"Content-Type", "text/plain"}}), 400,
                   "invalid_request");
  // Parameters on the content type are fine, and its case does not matter.
  EXPECT_EQ(Token("grant_type=client_credentials&" + creds,
                  {{"Content-Type", "Application/X-WWW-Form-Urlencoded; charset=UTF-8"}})
                .status,
            200);

  ExpectOAuthError(Token(creds), 400, "invalid_request");                   // no grant_type
  ExpectOAuthError(Token("grant_type=&" + creds), 400, "invalid_request");  // empty is omitted
  ExpectOAuthError(Token(""), 400, "invalid_request");
  ExpectOAuthError(Token("grant_type=password&" + creds), 400, "unsupported_grant_type");
  ExpectOAuthError(Token("grant_type=authorization_code&code=x&" + creds), 400, "unsupported_grant_type");
  ExpectOAuthError(Token("grant_type=client_credentials&grant_type=client_credentials&" + creds), 400,
                   "invalid_request");
  ExpectOAuthError(Token("grant_type=client_credentials&scope=trust:read&scope=trust:read&" + creds), 400,
                   "invalid_request");
  ExpectOAuthError(Token("grant_type=client_credentials&" + creds + "&client_id=" + key.client_id), 400,
                   "invalid_request");
  ExpectOAuthError(Token("grant_type=client_credentials&bad=%ZZ&" + creds), 400, "invalid_request");
  // Two client authentication methods at once.
  ExpectOAuthError(Token("grant_type=client_credentials&" + creds,
                         {{"Content-Type", kForm}, {"Authorization", Basic(key.client_id, key.secret)}}),
                   400, "invalid_request");
  ExpectOAuthError(Token("grant_type=client_credentials&client_id=crd_ci_0000000000000000",
                         {{"Content-Type", kForm}, {"Authorization", Basic(key.client_id, key.secret)}}),
                   400, "invalid_request");

  // Client authentication failures: 401 invalid_client, with a challenge.
  ExpectOAuthError(Token("grant_type=client_credentials"), 401, "invalid_client");
  ExpectOAuthError(Token("grant_type=client_credentials&client_id=" + key.client_id), 401, "invalid_client");
  ExpectOAuthError(
      Token("grant_type=client_credentials&client_id=" + key.client_id + "&client_secret=" + WellFormedUnknownSecret()),
      401, "invalid_client");
  ExpectOAuthError(Token("grant_type=client_credentials&client_id=crd_ci_0000000000000000&client_secret=" + key.secret),
                   401, "invalid_client");
  std::string mangled = key.secret;
  mangled[20] = mangled[20] == 'x' ? 'y' : 'x';
  ExpectOAuthError(Token("grant_type=client_credentials&client_id=" + key.client_id + "&client_secret=" + mangled), 401,
                   "invalid_client");
  // Another key's secret does not authenticate this client.
  const Key other = MakeKey(t, {"trust:read"});
  ExpectOAuthError(Token("grant_type=client_credentials&client_id=" + key.client_id + "&client_secret=" + other.secret),
                   401, "invalid_client");

  // Only POST is served; that refusal is the router's problem+json.
  ExpectProblem(api().Get("/connect/token"), 405, "method_not_allowed");
}

// --- access tokens ---

TEST_F(Credentials, TokenOutlivesItsRevokedKeyUntilExpiry) {
  auto t = CreateTenant(api(), "tok");
  const Key key = MakeKey(t, {"trust:read"});
  SetServerTime(api(), "2031-07-01T00:00:00Z");
  const std::string token = TokenFor(key);
  ASSERT_EQ(api().Delete("/apikeys/" + key.id, t.token("admin")).status, 204);
  ExpectProblem(WhoAmI(key.secret), 401, "invalid_token");  // the key: at once
  auto still = WhoAmI(token);                               // its token: until exp
  ASSERT_EQ(still.status, 200) << still.body;
  EXPECT_EQ(Str(still.Json(), "keyId"), key.id);

  SetServerTime(api(), "2031-07-01T00:59:59.999Z");
  EXPECT_EQ(WhoAmI(token).status, 200);
  SetServerTime(api(), "2031-07-01T01:00:00Z");
  auto expired = WhoAmI(token);
  ExpectProblem(expired, 401, "invalid_token");
  EXPECT_NE(Str(expired.Json(), "detail").find("expired"), std::string::npos) << expired.body;
  EXPECT_EQ(expired.Header("www-authenticate"), "Bearer realm=\"credence\", error=\"invalid_token\"");
}

TEST_F(Credentials, TamperedTokenIsRefused) {
  auto t = CreateTenant(api(), "tok");
  const Key key = MakeKey(t, {"trust:read", "trust:usage"});
  const std::string token = TokenFor(key, "trust:read");
  ASSERT_EQ(WhoAmI(token).status, 200);
  const auto a = token.find('.'), b = token.rfind('.');
  const std::string header = token.substr(0, a), payload = token.substr(a + 1, b - a - 1),
                    signature = token.substr(b + 1);

  // The payload with wider scopes (and another tenant), the signature kept.
  auto claims = json::parse(Base64UrlDecode(payload)).as_object();
  ASSERT_EQ(Str(claims, "scope"), "trust:read");
  claims["scope"] = "trust:evaluate trust:read trust:usage";
  ExpectProblem(WhoAmI(header + "." + Base64UrlEncode(json::serialize(claims)) + "." + signature), 401,
                "invalid_token");
  claims = json::parse(Base64UrlDecode(payload)).as_object();
  claims["exp"] = claims["exp"].as_int64() + 86400;
  ExpectProblem(WhoAmI(header + "." + Base64UrlEncode(json::serialize(claims)) + "." + signature), 401,
                "invalid_token");
  // Another signature on the original payload.
  std::string resigned = signature;
  resigned[5] = resigned[5] == 'A' ? 'B' : 'A';
  ExpectProblem(WhoAmI(header + "." + payload + "." + resigned), 401, "invalid_token");
  // alg "none" without a signature, and no signature segment at all.
  ExpectProblem(WhoAmI(Base64UrlEncode(R"({"alg":"none","typ":"JWT"})") + "." + payload + "."), 401, "invalid_token");
  ExpectProblem(WhoAmI(header + "." + payload), 401, "invalid_token");
}

// Any node verifies any node's tokens: a second server on the same store
// (here also with a shorter --token-ttl-seconds) shares the signing key.
TEST_F(Credentials, NodesShareTheSigningKeyAndTheTokenLifetimeIsConfigurable) {
  auto t = CreateTenant(api(), "tok");
  const Key key = MakeKey(t, {"trust:evaluate"});
  const std::string from_shared = TokenFor(key);

  ServerProcess second(
      ServerOptions{.dev = true,
                    .extra_args = {"--database", SharedServer().database_url(), "--token-ttl-seconds", "120",
                                   // A second node of the same deployment shares the chain-signing key
                                   // (docs/trust.md); with a key of its own it would retire the first's.
                                   "--chain-signing-key", SharedServer().data_dir() + "/chain-signing-key.pem"}});
  HttpClient other(second.base_url());
  auto who = other.Get("/api/trust/whoami", from_shared);
  ASSERT_EQ(who.status, 200) << who.body;
  EXPECT_EQ(Str(who.Json(), "keyId"), key.id);

  auto issued = other.Send("POST", "/connect/token",
                           "grant_type=client_credentials&client_id=" + key.client_id + "&client_secret=" + key.secret,
                           "", {{"Content-Type", kForm}});
  ASSERT_EQ(issued.status, 200) << issued.body;
  EXPECT_EQ(issued.Json().at("expires_in").as_int64(), 120);
  auto back = WhoAmI(Str(issued.Json(), "access_token"));
  ASSERT_EQ(back.status, 200) << back.body;
  EXPECT_EQ(Str(back.Json(), "keyId"), key.id);
  // The key itself works on either node.
  EXPECT_EQ(other.Send("GET", "/api/trust/whoami", "", "", {{"X-Api-Key", key.secret}}).status, 200);
}

}  // namespace
}  // namespace credence::test
