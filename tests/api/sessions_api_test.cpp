// Sign-in sessions as every caller meets them, without a provider: the
// development sign-in can answer a real session token (the same table,
// format and checks as an OpenID Connect sign-in, docs/sign-in.md), and the
// clock is the test clock. The provider flow itself: sign_in_api_test.cpp.
#include <boost/json.hpp>
#include <gtest/gtest.h>

#include "support/api_fixture.h"
#include "support/clock_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

class SessionsApiTest : public ClockedApiTest {
 protected:
  std::string Session(const TestTenant& t, const std::string& persona) {
    auto r = api().Post("/auth/dev-login", json::object{{"persona", persona}, {"tenantId", t.id}, {"session", true}});
    EXPECT_EQ(r.status, 200) << r.body;
    const std::string token = Str(r.Json(), "token");
    EXPECT_EQ(token.rfind("crd_ss_", 0), 0u) << token;
    return token;
  }
};

TEST_F(SessionsApiTest, ASessionActsAsItsUserUntilLogout) {
  TestTenant t = CreateTenant(api(), "sess");
  const std::string token = Session(t, "editor");
  auto me = api().Get("/api/users/me", token);
  ASSERT_EQ(me.status, 200) << me.body;
  EXPECT_EQ(Str(me.Json(), "id"), t.user_ids.at("editor"));
  EXPECT_EQ(Str(me.Json(), "tenantId"), t.id);
  EXPECT_EQ(Str(me.Json(), "tenantRole"), "Member");
  EXPECT_EQ(api().Get("/api/hubs", token).status, 200);

  auto out = api().Send("POST", "/auth/logout", "", token);
  ASSERT_EQ(out.status, 200) << out.body;
  EXPECT_EQ(out.Json().at("signedOut"), true);
  auto after = api().Get("/api/users/me", token);
  ExpectProblem(after, 401, "invalid_token");
  EXPECT_NE(after.Header("www-authenticate").find("invalid_token"), std::string::npos);
  // Logging out twice, or without a session, is not an error.
  EXPECT_EQ(api().Send("POST", "/auth/logout", "").Json().at("signedOut"), false);
}

TEST_F(SessionsApiTest, MalformedAndUnknownTokensAreRefused) {
  ExpectProblem(api().Get("/api/users/me", "crd_ss_tooShort"), 401, "invalid_token");
  // Well-formed (checksum right) but never issued.
  TestTenant t = CreateTenant(api(), "sess");
  std::string token = Session(t, "viewer");
  std::string forged = token;
  forged[10] = forged[10] == 'A' ? 'B' : 'A';  // breaks the checksum
  ExpectProblem(api().Get("/api/users/me", forged), 401, "invalid_token");
}

TEST_F(SessionsApiTest, AnIdleSessionEndsAndAnActiveOneLastsUntilItsAbsoluteLifetime) {
  TestTenant t = CreateTenant(api(), "sess");
  SetServerTime(api(), "2031-03-01T08:00:00Z");
  const std::string idle = Session(t, "viewer");
  const std::string active = Session(t, "editor");
  // Defaults: idle 12 hours, absolute 7 days. The active one is used every
  // 11 hours; the idle one is not.
  for (int i = 0; i < 1; ++i) {
    AdvanceServerDays(api(), 11.0 / 24);
    EXPECT_EQ(api().Get("/api/users/me", active).status, 200);
  }
  AdvanceServerDays(api(), 1.5 / 24);  // 12.5 hours after sign-in
  ExpectProblem(api().Get("/api/users/me", idle), 401, "invalid_token");
  EXPECT_EQ(api().Get("/api/users/me", active).status, 200);
  for (int i = 0; i < 14; ++i) {  // up to 7 days + a little
    AdvanceServerDays(api(), 11.0 / 24);
    auto r = api().Get("/api/users/me", active);
    const double hours = 12.5 + 11.0 * (i + 1);
    if (hours < 168) {
      EXPECT_EQ(r.status, 200) << "after " << hours << " hours: " << r.body;
    } else {
      ExpectProblem(r, 401, "invalid_token");
      EXPECT_NE(r.Json().at("detail").as_string().find("expired"), json::string::npos) << r.body;
    }
  }
}

TEST_F(SessionsApiTest, RemovingAUserEndsTheirSessionAtOnce) {
  TestTenant t = CreateTenant(api(), "sess");
  const std::string token = Session(t, "viewer");
  ASSERT_EQ(api().Get("/api/users/me", token).status, 200);
  auto removed = api().Delete("/users/" + t.user_ids.at("viewer"), t.token("admin"));
  ASSERT_EQ(removed.status, 204) << removed.body;
  ExpectProblem(api().Get("/api/users/me", token), 401, "invalid_token");
  ExpectProblem(api().Get("/api/hubs", token), 401, "invalid_token");
}

TEST_F(SessionsApiTest, ASessionIsBoundToItsTenant) {
  TestTenant a = CreateTenant(api(), "sessa");
  TestTenant b = CreateTenant(api(), "sessb");
  const std::string token = Session(a, "admin");
  // The persona belongs to tenant a only: selecting b is a 404, as for a
  // tenant that does not exist.
  auto select = api().Post("/auth/select-tenant", json::object{{"tenantId", b.id}}, token);
  ExpectProblem(select, 404, "tenant_not_found");
  ExpectProblem(api().Post("/auth/select-tenant", json::object{{"tenantId", "00000000-0000-4000-8000-000000000000"}},
                           token),
                404, "tenant_not_found");
  auto tenants = api().Get("/auth/tenants", token);
  ASSERT_EQ(tenants.status, 200) << tenants.body;
  ASSERT_EQ(tenants.Json().as_array().size(), 1u);
  EXPECT_EQ(Str(tenants.Json().as_array()[0], "id"), a.id);
  EXPECT_EQ(Str(tenants.Json().as_array()[0], "role"), "Owner");
  auto again = api().Post("/auth/select-tenant", json::object{{"tenantId", a.id}}, token);
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(Str(again.Json().at("user"), "tenantId"), a.id);
  // Tokens of other kinds are bound to their tenant and cannot select.
  ExpectProblem(api().Post("/auth/select-tenant", json::object{{"tenantId", a.id}}, a.token("admin")), 403,
                "forbidden");
  ExpectValidation(api().Post("/auth/select-tenant", json::object{{"tenantId", "nope"}}, token), "tenantId");
}

TEST_F(SessionsApiTest, LoginRequiresAConfiguredProvider) {
  ExpectProblem(api().Get("/auth/login/nobody"), 404, "unknown_provider");
  ExpectProblem(api().Get("/auth/login"), 400, "missing_provider");
  ExpectProblem(api().Get("/auth/callback?code=x&state=never-issued"), 400, "invalid_state");
  ExpectProblem(api().Post("/auth/callback", json::object{{"code", "x"}, {"state", "never-issued"}}), 400,
                "invalid_state");
  ExpectValidation(api().Post("/auth/callback", json::object{{"code", "x"}}), "state");
  auto providers = api().Get("/auth/providers");
  ASSERT_EQ(providers.status, 200);
  EXPECT_TRUE(providers.Json().as_array().empty());
}

// Browser sessions (docs/sign-in.md, "Browser sessions"): the web client's
// session is an HttpOnly cookie, and a request it alone signs in that
// changes something needs the X-Credence-CSRF header.
std::vector<std::string> SetCookies(const Response& r) {
  std::vector<std::string> out;
  for (const auto& [name, value] : r.headers)
    if (name == "set-cookie") out.push_back(value);
  return out;
}

// The value the Set-Cookie header `set_cookie` gives its cookie.
std::string CookieValueOf(const std::string& set_cookie) {
  const auto eq = set_cookie.find('=');
  return set_cookie.substr(eq + 1, set_cookie.find(';') - eq - 1);
}

class BrowserSessionsApiTest : public SessionsApiTest {
 protected:
  // Signs `persona` in as the web client does; answers the cookie's value.
  std::string BrowserSignIn(const TestTenant& t, const std::string& persona) {
    auto r = api().Send("POST", "/auth/dev-login",
                        json::serialize(json::object{{"persona", persona}, {"tenantId", t.id}, {"cookie", true}}), "",
                        {{"X-Credence-CSRF", "1"}});
    EXPECT_EQ(r.status, 200) << r.body;
    const auto cookies = SetCookies(r);
    EXPECT_EQ(cookies.size(), 1u) << r.body;
    return cookies.empty() ? "" : CookieValueOf(cookies[0]);
  }

  // A request the browser sends: the cookie, and the CSRF header when `csrf`.
  Response AsBrowser(const std::string& method, const std::string& path, const std::string& session,
                     const std::string& body = "", bool csrf = true) {
    Headers headers{{"Cookie", "theme=dark; credence_session=" + session}};
    if (csrf) headers.emplace_back("X-Credence-CSRF", "1");
    return api().Send(method, path, body, "", headers);
  }
};

TEST_F(BrowserSessionsApiTest, TheSessionIsAnHttpOnlyCookieSetAtSignInAndClearedAtSignOut) {
  TestTenant t = CreateTenant(api(), "bsess");
  const json::object login{{"persona", "editor"}, {"tenantId", t.id}, {"cookie", true}};
  // Asking for the cookie without the header is refused (login CSRF).
  ExpectProblem(api().Post("/auth/dev-login", login), 403, "csrf_header_missing");

  auto r = api().Send("POST", "/auth/dev-login", json::serialize(login), "", {{"X-Credence-CSRF", "1"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_FALSE(r.Json().as_object().contains("token")) << "the token is for the cookie only: " << r.body;
  EXPECT_EQ(Str(r.Json().at("user"), "id"), t.user_ids.at("editor"));
  const auto cookies = SetCookies(r);
  ASSERT_EQ(cookies.size(), 1u);
  const std::string session = CookieValueOf(cookies[0]);
  EXPECT_EQ(session.rfind("crd_ss_", 0), 0u) << cookies[0];
  // Until the session's absolute lifetime (7 days by default); over http, not Secure.
  EXPECT_EQ(cookies[0], "credence_session=" + session + "; Path=/; Max-Age=604800; HttpOnly; SameSite=Lax");

  // The cookie signs requests in.
  auto me = AsBrowser("GET", "/api/users/me", session, "", /*csrf=*/false);
  ASSERT_EQ(me.status, 200) << me.body;
  EXPECT_EQ(Str(me.Json(), "id"), t.user_ids.at("editor"));

  // A change without the header is a 403 problem and changes nothing; with it, it is made.
  const std::string spanish = json::serialize(json::object{{"languageCode", "es"}});
  auto forged = AsBrowser("PUT", "/api/users/me/preferred-language", session, spanish, /*csrf=*/false);
  ExpectProblem(forged, 403, "csrf_header_missing");
  EXPECT_EQ(forged.Header("content-type"), "application/problem+json");
  EXPECT_TRUE(AsBrowser("GET", "/api/users/me", session).Json().at("preferredLanguage").is_null());
  ExpectProblem(AsBrowser("POST", "/api/hubs", session,
                          json::serialize(json::object{{"key", "forged"}, {"name", "F"}, {"defaultExpiryDays", 30}}),
                          false),
                403, "csrf_header_missing");
  ExpectProblem(AsBrowser("DELETE", "/users/" + t.user_ids.at("viewer"), session, "", false), 403,
                "csrf_header_missing");
  auto changed = AsBrowser("PUT", "/api/users/me/preferred-language", session, spanish);
  ASSERT_EQ(changed.status, 200) << changed.body;
  EXPECT_EQ(Str(AsBrowser("GET", "/api/users/me", session).Json(), "preferredLanguage"), "es");

  // API clients are as before: a bearer token needs no CSRF header, even beside a cookie.
  const std::string english = json::serialize(json::object{{"languageCode", "en"}});
  EXPECT_EQ(api().Send("PUT", "/api/users/me/preferred-language", english, t.token("editor")).status, 200);
  EXPECT_EQ(api().Send("PUT", "/api/users/me/preferred-language", english, session).status, 200);
  EXPECT_EQ(api().Send("PUT", "/api/users/me/preferred-language", english, t.token("editor"),
                       {{"Cookie", "credence_session=" + session}})
                .status,
            200);
  // Only sessions live in the cookie.
  ExpectProblem(AsBrowser("GET", "/api/users/me", t.token("editor")), 401, "invalid_token");

  // Sign-out needs the header too; then the session ends on the server and the cookie is cleared.
  ExpectProblem(AsBrowser("POST", "/auth/logout", session, "", false), 403, "csrf_header_missing");
  ASSERT_EQ(AsBrowser("GET", "/api/users/me", session).status, 200);
  auto out = AsBrowser("POST", "/auth/logout", session);
  ASSERT_EQ(out.status, 200) << out.body;
  EXPECT_EQ(out.Json().at("signedOut"), true);
  EXPECT_EQ(SetCookies(out), std::vector<std::string>{"credence_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax"});
  ExpectProblem(AsBrowser("GET", "/api/users/me", session), 401, "invalid_token");
  ExpectProblem(api().Get("/api/users/me", session), 401, "invalid_token");  // revoked, not just forgotten
  // An ended session's cookie on a public route is anonymous; signing out again clears it again.
  auto again = AsBrowser("POST", "/auth/logout", session);
  EXPECT_EQ(again.Json().at("signedOut"), false);
  EXPECT_EQ(SetCookies(again).size(), 1u);
  // A bearer client's sign-out sets no cookie.
  const std::string bearer = Session(t, "viewer");
  auto bearer_out = api().Send("POST", "/auth/logout", "", bearer);
  EXPECT_EQ(bearer_out.Json().at("signedOut"), true);
  EXPECT_TRUE(SetCookies(bearer_out).empty());
}

TEST_F(BrowserSessionsApiTest, ACookieSessionStaysInItsTenant) {
  TestTenant a = CreateTenant(api(), "bsessa");
  TestTenant b = CreateTenant(api(), "bsessb");
  ASSERT_EQ(api().Post("/api/hubs", json::object{{"key", "b-only"}, {"name", "B"}, {"defaultExpiryDays", 30}},
                       b.token("admin")).status,
            201);
  const std::string session = BrowserSignIn(a, "admin");
  ExpectProblem(AsBrowser("GET", "/api/hubs/b-only", session), 404, "not_found");
  ExpectProblem(AsBrowser("PUT", "/api/hubs/b-only", session,
                          json::serialize(json::object{{"name", "Taken"}, {"defaultExpiryDays", 30}})),
                404, "not_found");
  auto hubs = AsBrowser("GET", "/api/hubs", session);
  ASSERT_EQ(hubs.status, 200);
  EXPECT_EQ(hubs.body.find("b-only"), std::string::npos);
  ExpectProblem(AsBrowser("POST", "/auth/select-tenant", session, json::serialize(json::object{{"tenantId", b.id}})),
                404, "tenant_not_found");
  // Removing the person from the tenant ends the cookie's session at once, as a bearer token's.
  const std::string viewer = BrowserSignIn(a, "viewer");
  ASSERT_EQ(AsBrowser("GET", "/api/hubs", viewer).status, 200);
  ASSERT_EQ(AsBrowser("DELETE", "/users/" + a.user_ids.at("viewer"), session).status, 204);
  ExpectProblem(AsBrowser("GET", "/api/hubs", viewer), 401, "invalid_token");
}

// Behind https (the public URL's scheme) the cookie is Secure and named
// __Host-credence_session; a plain-named cookie is not read there.
TEST(BrowserSessionsHttpsApiTest, TheCookieIsSecureWhenThePublicUrlIsHttps) {
  if (BackendUnavailable()) GTEST_SKIP() << "backend unavailable";
  ServerProcess server(ServerOptions{.dev = true, .extra_args = {"--public-url", "https://credence.example.test"}});
  HttpClient client(server.base_url());
  TestTenant t = CreateTenant(client, "bsecure");
  auto r = client.Send("POST", "/auth/dev-login",
                       json::serialize(json::object{{"persona", "viewer"}, {"tenantId", t.id}, {"cookie", true}}), "",
                       {{"X-Credence-CSRF", "1"}});
  ASSERT_EQ(r.status, 200) << r.body;
  const auto cookies = SetCookies(r);
  ASSERT_EQ(cookies.size(), 1u);
  const std::string session = CookieValueOf(cookies[0]);
  EXPECT_EQ(cookies[0],
            "__Host-credence_session=" + session + "; Path=/; Max-Age=604800; HttpOnly; SameSite=Lax; Secure");
  EXPECT_EQ(client.Send("GET", "/api/users/me", "", "", {{"Cookie", "__Host-credence_session=" + session}}).status, 200);
  ExpectProblem(client.Send("GET", "/api/users/me", "", "", {{"Cookie", "credence_session=" + session}}), 401,
                "missing_credentials");
  auto out = client.Send("POST", "/auth/logout", "", "",
                         {{"Cookie", "__Host-credence_session=" + session}, {"X-Credence-CSRF", "1"}});
  EXPECT_EQ(SetCookies(out),
            std::vector<std::string>{"__Host-credence_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure"});
}

// Outside development mode: no dev sign-in, and provisioning needs a person.
TEST(ProductionModeApiTest, TenantCreationNeedsASignedInPerson) {
  if (BackendUnavailable()) GTEST_SKIP() << "backend unavailable";
  ServerProcess server(ServerOptions{.dev = false, .extra_args = {}});
  HttpClient client(server.base_url());
  auto anonymous =
      client.Post("/api/tenant/create", json::object{{"name", "Initech"}, {"slug", "initech"}});
  ExpectProblem(anonymous, 401, "missing_credentials");
  ExpectProblem(client.Post("/auth/dev-login", json::object{{"persona", "admin"}, {"tenantId", "x"}}), 404,
                "route_not_found");
  ExpectProblem(client.Get("/api/users/me", "dev-token-00000000-0000-4000-8000-000000000000:"
                                            "00000000-0000-4000-8000-000000000001"),
                401, "invalid_token");
}

}  // namespace
}  // namespace credence::test
