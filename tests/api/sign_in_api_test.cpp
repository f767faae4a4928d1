// Real sign-in, end to end: the credence binary, a real OpenID provider
// (tests/oidc/provider.mjs: the oidc-provider package) and a scripted
// browser that fills the provider's login and consent pages
// (support/oidc.h). docs/sign-in.md describes what is checked.
#include <boost/json.hpp>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <sys/wait.h>

#include "support/api_fixture.h"
#include "support/clock_fixture.h"
#include "storage/database.h"
#include "storage/session.h"
#include "support/oidc.h"

namespace credence::test {
namespace {

namespace json = boost::json;

CredenceOidcProviderEntry Rs(std::vector<std::string> allowed_domains = {}) {
  return {.name = "test", .client = {.id = "credence-rs", .secret = "rs-secret"}, .allowed_domains = allowed_domains};
}
CredenceOidcProviderEntry Es() {
  return {.name = "test-es", .client = {.id = "credence-es", .secret = "es-secret", .id_token_alg = "ES256"}};
}

class SignInApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (BackendUnavailable()) GTEST_SKIP() << "backend unavailable";
  }

  // Signs `login` in through `provider`; answers the callback's JSON.
  json::value SignIn(OidcEnvironment& env, const std::string& login, const std::string& provider = "test") {
    Browser browser;
    auto r = SignInThroughProvider(browser, env.server().base_url(), provider, login);
    EXPECT_EQ(r.callback.status(), 200) << browser.Trace();
    return r.callback.response.Json();
  }

  // The problem a sign-in of `login` ends in.
  static void ExpectSignInFails(OidcEnvironment& env, const std::string& login, int status, const std::string& code,
                                const std::string& provider = "test") {
    Browser browser;
    auto r = SignInThroughProvider(browser, env.server().base_url(), provider, login);
    ExpectProblem(r.callback.response, status, code);
  }
};

TEST_F(SignInApiTest, APersonSignsInWithRs256AndEs256ProvidersAndIsOneUser) {
  OidcEnvironment env({Rs(), Es()});
  HttpClient api(env.server().base_url());
  auto providers = api.Get("/auth/providers");
  ASSERT_EQ(providers.status, 200);
  EXPECT_EQ(providers.Json().as_array().size(), 2u);

  json::value first = SignIn(env, "ada@example.com", "test");
  const std::string token = Str(first, "token");
  EXPECT_EQ(token.rfind("crd_ss_", 0), 0u);
  EXPECT_EQ(Str(first.at("user"), "email"), "ada@example.com");
  EXPECT_TRUE(first.at("user").at("tenantId").is_null());  // no tenant yet
  EXPECT_TRUE(first.at("tenants").as_array().empty());
  // The same person through the ES256 provider, and again: one user.
  json::value second = SignIn(env, "ada@example.com", "test-es");
  json::value third = SignIn(env, "ada@example.com", "test");
  EXPECT_EQ(Str(second.at("user"), "id"), Str(first.at("user"), "id"));
  EXPECT_EQ(Str(third.at("user"), "id"), Str(first.at("user"), "id"));

  // Without a tenant, only sign-in routes and tenant creation.
  ExpectProblem(api.Get("/api/users/me", token), 403, "tenant_not_selected");
  ExpectProblem(api.Get("/api/hubs", token), 403, "tenant_not_selected");
  auto tenants = api.Get("/auth/tenants", token);
  ASSERT_EQ(tenants.status, 200);
  EXPECT_TRUE(tenants.Json().as_array().empty());
  auto created = api.Post("/api/tenant/create", json::object{{"name", "Ada's"}, {"slug", "ada-co"}}, token);
  ASSERT_EQ(created.status, 201) << created.body;
  tenants = api.Get("/auth/tenants", token);
  ASSERT_EQ(tenants.Json().as_array().size(), 1u);
  EXPECT_EQ(Str(tenants.Json().as_array()[0], "role"), "Owner");
  auto selected = api.Post("/auth/select-tenant", json::object{{"tenantId", Str(created.Json(), "id")}}, token);
  ASSERT_EQ(selected.status, 200) << selected.body;
  auto me = api.Get("/api/users/me", token);
  ASSERT_EQ(me.status, 200) << me.body;
  EXPECT_EQ(Str(me.Json(), "tenantRole"), "Owner");
  EXPECT_EQ(Str(me.Json(), "email"), "ada@example.com");

  // A later sign-in of a one-tenant user has the tenant selected.
  json::value later = SignIn(env, "ada@example.com");
  EXPECT_EQ(Str(later.at("user"), "tenantId"), Str(created.Json(), "id"));
  EXPECT_EQ(api.Get("/api/hubs", Str(later, "token")).status, 200);

  // Logout ends that session only.
  EXPECT_EQ(api.Send("POST", "/auth/logout", "", token).status, 200);
  ExpectProblem(api.Get("/auth/tenants", token), 401, "invalid_token");
  EXPECT_EQ(api.Get("/api/hubs", Str(later, "token")).status, 200);
}

TEST_F(SignInApiTest, InvitationsAreAcceptedBySigningInAndTenantsAreSelected) {
  OidcEnvironment env({Rs(), {.name = "corp",
                              .client = {.id = "credence-corp", .secret = "corp-secret"},
                              .allowed_domains = {"corp.example"}}});
  HttpClient api(env.server().base_url());
  TestTenant a = CreateTenant(api, "inva");
  TestTenant b = CreateTenant(api, "invb");
  ASSERT_EQ(api.Post("/users/invite", json::object{{"email", "Grace@Example.com"}, {"role", "Member"}}, a.token("admin"))
                .status / 100, 2);
  ASSERT_EQ(api.Post("/users/invite", json::object{{"email", "grace@example.com"}, {"role", "Guest"}}, b.token("admin"))
                .status / 100, 2);

  json::value grace = SignIn(env, "grace@example.com");
  std::string token = Str(grace, "token");
  ASSERT_EQ(grace.at("tenants").as_array().size(), 2u) << grace;
  EXPECT_TRUE(grace.at("user").at("tenantId").is_null());  // two tenants: none selected
  ExpectProblem(api.Get("/api/hubs", token), 403, "tenant_not_selected");

  ASSERT_EQ(api.Post("/auth/select-tenant", json::object{{"tenantId", b.id}}, token).status, 200);
  auto me = api.Get("/api/users/me", token);
  EXPECT_EQ(Str(me.Json(), "tenantId"), b.id);
  EXPECT_EQ(Str(me.Json(), "tenantRole"), "Guest");
  ASSERT_EQ(api.Post("/auth/select-tenant", json::object{{"tenantId", a.id}}, token).status, 200);
  me = api.Get("/api/users/me", token);
  EXPECT_EQ(Str(me.Json(), "tenantRole"), "Member");

  // The admin sees the new member and the accepted invitation.
  auto users = api.Get("/users", a.token("admin"));
  const json::value user_list = users.Json();
  bool listed = false;
  for (const auto& u : user_list.as_array()) listed = listed || Str(u, "email") == "grace@example.com";
  EXPECT_TRUE(listed) << users.body;
  auto invitations = api.Get("/users/invitations?status=Accepted", a.token("admin"));
  ASSERT_EQ(invitations.status, 200) << invitations.body;
  ASSERT_EQ(invitations.Json().as_array().size(), 1u) << invitations.body;

  // What the audit log of tenant a holds of it, newest first: the
  // selection, her sign-in and the invitation's acceptance, by her, from
  // this client; then a refused sign-in, and her logout.
  const std::string grace_id = Str(grace.at("user"), "id");
  auto audit_of = [&](const std::string& query) {
    auto r = api.Get("/admin/audit?actor=" + grace_id + query, a.token("admin"));
    EXPECT_EQ(r.status, 200) << r.body;
    return r.Json().at("entries").as_array();
  };
  std::vector<std::string> actions;
  for (const auto& e : audit_of("")) actions.push_back(Str(e, "action"));
  // (Selecting tenant b is in b's log, not a's.)
  EXPECT_EQ(actions, (std::vector<std::string>{"tenant.selected", "signin.succeeded", "invitation.accepted"}));
  const json::value signed_in = audit_of("&action=signin.succeeded").at(0);
  EXPECT_EQ(Str(signed_in.at("actor"), "label"), "grace@example.com");
  EXPECT_EQ(Str(signed_in, "outcome"), "success");
  EXPECT_EQ(Str(signed_in, "clientAddress"), "127.0.0.1");
  EXPECT_EQ(Str(signed_in.at("details"), "provider"), "test");
  ExpectSignInFails(env, "grace@example.com", 403, "email_domain_not_allowed", "corp");
  const auto failed = audit_of("&action=signin.failed");
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(Str(failed.at(0), "outcome"), "failure");
  EXPECT_EQ(Str(failed.at(0).at("details"), "code"), "email_domain_not_allowed");
  ASSERT_EQ(api.Send("POST", "/auth/logout", "", token).status, 200);
  EXPECT_EQ(audit_of("&action=session.ended").size(), 1u);
  // Tenant b's log has her sign-in too, and the chain verifies.
  auto b_log = api.Get("/admin/audit?action=signin.", b.token("admin"));
  EXPECT_EQ(b_log.Json().at("entries").as_array().size(), 2u) << b_log.body;  // succeeded, failed
  auto verified = api.Get("/admin/audit/verify", a.token("admin"));
  EXPECT_EQ(verified.Json().at("ok"), true) << verified.body;
  token = Str(SignIn(env, "grace@example.com"), "token");
  ASSERT_EQ(api.Post("/auth/select-tenant", json::object{{"tenantId", a.id}}, token).status, 200);

  // Removal ends her access to that tenant at once, not to the other.
  ASSERT_EQ(api.Delete("/users/" + grace_id, a.token("admin")).status, 204);
  ExpectProblem(api.Get("/api/hubs", token), 401, "invalid_token");
  json::value again = SignIn(env, "grace@example.com");  // only tenant b now: selected
  ASSERT_EQ(again.at("tenants").as_array().size(), 1u);
  EXPECT_EQ(Str(again.at("user"), "tenantId"), b.id);
}

TEST_F(SignInApiTest, ATenantOpenToItsDomainAdmitsItsPeopleButNotThoseRemoved) {
  OidcEnvironment env({Rs()});
  HttpClient api(env.server().base_url());
  auto created = api.Post("/api/tenant/create", json::object{{"name", "Initech"},
                                                              {"slug", "initech"},
                                                              {"domain", "initech.example"},
                                                              {"allowAllUsers", true}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string tenant_id = Str(created.Json(), "id");
  json::value peter = SignIn(env, "peter@Initech.example");
  ASSERT_EQ(peter.at("tenants").as_array().size(), 1u) << peter;
  EXPECT_EQ(Str(peter.at("user"), "tenantId"), tenant_id);
  EXPECT_EQ(Str(peter.at("user"), "tenantRole"), "Member");
  EXPECT_TRUE(SignIn(env, "bob@elsewhere.example").at("tenants").as_array().empty());

  // Removed by an admin, Peter does not come back by signing in again.
  auto admin = api.Post("/auth/dev-login", json::object{{"persona", "admin"}, {"tenantId", tenant_id}});
  ASSERT_EQ(admin.status, 200) << admin.body;
  ASSERT_EQ(api.Delete("/users/" + Str(peter.at("user"), "id"), Str(admin.Json(), "token")).status, 204);
  EXPECT_TRUE(SignIn(env, "peter@initech.example").at("tenants").as_array().empty());
}

// Starting a sign-in needs no credential and stores a row: beyond 10,000
// started in the last 10 minutes, a start is refused until they age out.
TEST_F(SignInApiTest, AFloodOfStartedSignInsIsBounded) {
  OidcEnvironment env({Rs()});
  HttpClient api(env.server().base_url());
  const int64_t now = std::chrono::duration_cast<std::chrono::milliseconds>(
                          std::chrono::system_clock::now().time_since_epoch())
                          .count();
  auto flood = [&](const std::string& prefix, int64_t created_at) {
    auto db = storage::OpenDatabase(env.server().database_url(), {});
    storage::Session session(*db);
    session.connection().Execute(
        "test.flood",
        "INSERT INTO oidc_login_requests (state, browser_hash, provider, nonce, code_verifier, created_at)"
        " WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 10000)"
        " SELECT '" + prefix + "' || i, 'x', 'test', 'n', 'v', " + std::to_string(created_at) + " FROM n",
        {});
  };
  flood("old-", now - 11 * 60 * 1000);  // started 11 minutes ago: they no longer count
  EXPECT_EQ(api.Get("/auth/login/test").status, 302);
  flood("new-", now);
  auto refused = api.Get("/auth/login/test");
  ExpectProblem(refused, 429, "too_many_sign_ins");
  EXPECT_EQ(refused.Header("retry-after"), "60");
}

TEST_F(SignInApiTest, EachFailureOfTheCallbackHasItsOwnCode) {
  OidcEnvironment env({Rs(), {.name = "corp",
                              .client = {.id = "credence-corp", .secret = "corp-secret"},
                              .allowed_domains = {"corp.example"}}});
  const std::string base = env.server().base_url();
  HttpClient api(base);

  ExpectSignInFails(env, "unverified-bob@example.com", 403, "email_not_verified");
  ExpectSignInFails(env, "bob@example.com", 403, "email_domain_not_allowed", "corp");
  EXPECT_EQ(SignIn(env, "bob@corp.example", "corp").at("user").at("email"), "bob@corp.example");
  ExpectProblem(api.Get("/auth/login/nobody"), 404, "unknown_provider");
  ExpectProblem(api.Get("/auth/login?provider=nobody"), 404, "unknown_provider");

  {  // The cookie is missing: the login was started in another browser.
    Browser browser;
    Hop login = StartSignIn(browser, base, "test");
    ProviderRedirect back = AuthorizeAtProvider(browser, login.location, "cy@example.com", env.callback_url());
    browser.DropCookie("credence_oidc");
    ExpectProblem(CompleteSignIn(browser, back.url).response, 400, "state_mismatch");
  }
  {  // The callback names another issuer (a mix-up attack, RFC 9207).
    Browser browser;
    Hop login = StartSignIn(browser, base, "test");
    ProviderRedirect back = AuthorizeAtProvider(browser, login.location, "cy@example.com", env.callback_url());
    ExpectProblem(CompleteSignIn(browser, WithQueryParam(back.url, "iss", "https://evil.example")).response, 400,
                  "issuer_mismatch");
  }
  {  // A state this service never issued.
    Browser browser;
    Hop login = StartSignIn(browser, base, "test");
    ProviderRedirect back = AuthorizeAtProvider(browser, login.location, "cy@example.com", env.callback_url());
    ExpectProblem(CompleteSignIn(browser, WithQueryParam(back.url, "state", "forged")).response, 400, "invalid_state");
  }
  {  // A replayed callback, and the same code with a fresh login's state.
    Browser browser;
    Hop login = StartSignIn(browser, base, "test");
    ProviderRedirect back = AuthorizeAtProvider(browser, login.location, "cy@example.com", env.callback_url());
    ASSERT_EQ(CompleteSignIn(browser, back.url).status(), 200) << browser.Trace();
    ExpectProblem(CompleteSignIn(browser, back.url).response, 400, "login_already_used");
    Hop fresh = StartSignIn(browser, base, "test");
    const std::string fresh_state = *QueryParam(fresh.location, "state");
    ExpectProblem(CompleteSignIn(browser, WithQueryParam(back.url, "state", fresh_state)).response, 400,
                  "code_rejected");
  }
  {  // The provider refused (the person cancelled).
    Browser browser;
    Hop login = StartSignIn(browser, base, "test");
    const std::string state = *QueryParam(login.location, "state");
    ExpectProblem(browser.Get(base + "/auth/callback?error=access_denied&state=" + state).response, 400,
                  "provider_error");
  }
  {  // Failures that name no tenant are in the platform chain, which the
     // operator reads with `credence admin platform-audit`.
    const std::string command = std::string(CREDENCE_BINARY_PATH) + " admin platform-audit --database '" +
                                env.server().database_url() + "' 2>&1";
    FILE* pipe = popen(command.c_str(), "r");
    ASSERT_NE(pipe, nullptr);
    std::string output;
    char buffer[1024];
    while (fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
    EXPECT_EQ(WEXITSTATUS(pclose(pipe)), 0) << output;
    EXPECT_NE(output.find(R"("action":"signin.failed")"), std::string::npos) << output;
    EXPECT_NE(output.find(R"("code":"invalid_state")"), std::string::npos) << output;
    EXPECT_NE(output.find(R"("code":"email_not_verified")"), std::string::npos) << output;
    EXPECT_NE(output.find(R"({"verified":true)"), std::string::npos) << output;
  }
  {  // The web client's POST form completes a sign-in too.
    Browser browser;
    Hop login = StartSignIn(browser, base, "test");
    ProviderRedirect back = AuthorizeAtProvider(browser, login.location, "dee@example.com", env.callback_url());
    Hop posted = browser.Send("POST", base + "/auth/callback",
                              json::serialize(json::object{{"code", *back.code}, {"state", *back.state}}),
                              {{"Content-Type", "application/json"}});
    ASSERT_EQ(posted.status(), 200) << browser.Trace();
    EXPECT_EQ(Str(posted.response.Json().at("user"), "email"), "dee@example.com");
  }
}

// The web client completes a sign-in with "cookie": true (docs/sign-in.md,
// "Browser sessions"): the session goes into an HttpOnly cookie, the answer
// carries no token, and the cookie signs the browser's later requests in.
TEST_F(SignInApiTest, TheWebClientsSignInKeepsTheSessionInAnHttpOnlyCookie) {
  OidcEnvironment env({Rs()});
  const std::string base = env.server().base_url();
  Browser browser;
  Hop login = StartSignIn(browser, base, "test");
  ProviderRedirect back = AuthorizeAtProvider(browser, login.location, "eve@example.com", env.callback_url());
  const std::string body =
      json::serialize(json::object{{"code", *back.code}, {"state", *back.state}, {"cookie", true}});
  const Headers json_type{{"Content-Type", "application/json"}};
  // Without the CSRF header it is refused before the login is used...
  ExpectProblem(browser.Send("POST", base + "/auth/callback", body, json_type).response, 403, "csrf_header_missing");
  // ...so the real request still completes it.
  Hop posted = browser.Send("POST", base + "/auth/callback", body,
                            {{"Content-Type", "application/json"}, {"X-Credence-CSRF", "1"}});
  ASSERT_EQ(posted.status(), 200) << browser.Trace();
  EXPECT_FALSE(posted.response.Json().as_object().contains("token")) << posted.body();
  EXPECT_EQ(Str(posted.response.Json().at("user"), "email"), "eve@example.com");
  bool set = false;
  for (const auto& c : posted.set_cookies)
    if (c.rfind("credence_session=crd_ss_", 0) == 0) {
      set = true;
      EXPECT_NE(c.find("; Path=/; Max-Age="), std::string::npos) << c;
      EXPECT_NE(c.find("; HttpOnly; SameSite=Lax"), std::string::npos) << c;
    }
  EXPECT_TRUE(set) << browser.Trace();
  ASSERT_TRUE(browser.CookieValue("credence_session").has_value());
  for (const auto& c : browser.Cookies())
    if (c.name == "credence_session") EXPECT_TRUE(c.http_only);

  // The cookie is the browser's credential from now on.
  auto tenants = browser.Get(base + "/auth/tenants");
  ASSERT_EQ(tenants.status(), 200) << browser.Trace();
  EXPECT_TRUE(tenants.response.Json().as_array().empty());
  const std::string create = json::serialize(json::object{{"name", "Eve's"}, {"slug", "eve-co"}});
  ExpectProblem(browser.Send("POST", base + "/api/tenant/create", create, json_type).response, 403,
                "csrf_header_missing");
  Hop created = browser.Send("POST", base + "/api/tenant/create", create,
                             {{"Content-Type", "application/json"}, {"X-Credence-CSRF", "1"}});
  ASSERT_EQ(created.status(), 201) << browser.Trace();
  Hop selected = browser.Send("POST", base + "/auth/select-tenant",
                              json::serialize(json::object{{"tenantId", Str(created.response.Json(), "id")}}),
                              {{"Content-Type", "application/json"}, {"X-Credence-CSRF", "1"}});
  ASSERT_EQ(selected.status(), 200) << browser.Trace();
  auto me = browser.Get(base + "/api/users/me");
  ASSERT_EQ(me.status(), 200) << browser.Trace();
  EXPECT_EQ(Str(me.response.Json(), "tenantRole"), "Owner");

  // Sign-out ends it on the server and the browser forgets it.
  const std::string token = *browser.CookieValue("credence_session");
  Hop out = browser.Send("POST", base + "/auth/logout", "", {{"X-Credence-CSRF", "1"}});
  ASSERT_EQ(out.status(), 200) << browser.Trace();
  EXPECT_EQ(out.set_cookies, std::vector<std::string>{"credence_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax"});
  // The browser sends nothing any more (missing, not an invalid credential)...
  ExpectProblem(browser.Get(base + "/auth/tenants").response, 401, "missing_credentials");
  // ...and the token itself no longer works anywhere.
  ExpectProblem(HttpClient(base).Get("/api/users/me", token), 401, "invalid_token");
}

TEST_F(SignInApiTest, IdTokensOutsideTheirLifetimeOrSignedWithAnotherKeyAreRefused) {
  OidcEnvironment env({Rs()});
  const std::string base = env.server().base_url();
  HttpClient api(base);
  ASSERT_EQ(Str(SignIn(env, "eve@example.com").at("user"), "email"), "eve@example.com");  // keys now cached

  // Credence's clock two hours ahead of the provider's: the token has expired.
  auto sign_in_at = [&](const std::string& iso) {
    SetServerTime(api, iso);
    Browser browser;
    auto r = SignInThroughProvider(browser, base, "test", "eve@example.com");
    ResetServerTime(api);
    return r.callback.response;
  };
  auto shifted = [](int hours) {
    std::time_t t = std::time(nullptr) + hours * 3600;
    char out[32];
    std::strftime(out, sizeof out, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
    return std::string(out);
  };
  ExpectProblem(sign_in_at(shifted(3)), 401, "id_token_expired");
  ExpectProblem(sign_in_at(shifted(-2)), 401, "id_token_not_yet_valid");

  // The provider rotates to new key ids: Credence fetches the key set again.
  env.idp().Restart(KeyRotation::kNewKeys);
  EXPECT_EQ(Str(SignIn(env, "eve@example.com").at("user"), "email"), "eve@example.com");
  // New keys under the key ids Credence has cached: the signature does not
  // verify with the cached key (a forged token looks exactly like this).
  env.idp().Restart(KeyRotation::kNewKeysSameKids);
  ExpectSignInFails(env, "eve@example.com", 401, "id_token_bad_signature");

  // The provider is gone: starting still redirects (its discovery document
  // is cached), completing is a 502, not a hang or a 500.
  env.idp().Stop();
  Browser browser;
  Hop login = StartSignIn(browser, base, "test");
  ASSERT_EQ(login.status(), 302) << browser.Trace();
  const std::string state = *QueryParam(login.location, "state");
  ExpectProblem(CompleteSignIn(browser, base + "/auth/callback?code=any&state=" + state).response, 502,
                "provider_unavailable");
  // A server whose provider was never reachable answers 502 at once.
  const int dead_port = FreePort();
  ServerOptions options = SharedServerOptions();
  options.oidc_config = OidcConfigJson({Rs()}, "http://127.0.0.1:" + std::to_string(dead_port));
  ServerProcess lonely(options);
  ExpectProblem(HttpClient(lonely.base_url()).Get("/auth/login/test"), 502, "provider_unavailable");
}

TEST_F(SignInApiTest, AnOperatorCreatesTheFirstOwnerWhoThenSignsIn) {
  OidcEnvironment env({Rs()}, ServerOptions{.dev = false});
  HttpClient api(env.server().base_url());
  // `credence admin create-tenant` against the running server's store.
  const std::string command = std::string(CREDENCE_BINARY_PATH) + " admin create-tenant --name 'Hooli' --slug hooli" +
                              " --owner-email Gavin@Hooli.example --owner-name 'Gavin B' --languages en,de" +
                              " --database '" + env.server().database_url() + "' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char buffer[512];
  while (fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
  ASSERT_EQ(WEXITSTATUS(pclose(pipe)), 0) << output;
  const json::value printed = json::parse(output);
  EXPECT_EQ(Str(printed, "slug"), "hooli");
  EXPECT_EQ(Str(printed, "owner"), "gavin@hooli.example");

  json::value gavin = SignIn(env, "gavin@hooli.example");
  EXPECT_EQ(Str(gavin.at("user"), "tenantId"), Str(printed, "id"));
  EXPECT_EQ(Str(gavin.at("user"), "tenantRole"), "Owner");
  EXPECT_EQ(Str(gavin.at("user"), "displayName"), "Gavin B");
  const std::string token = Str(gavin, "token");
  // An Owner outside development mode: mints a key, invites people.
  auto key = api.Post("/apikeys", json::object{{"name", "bot"}, {"scopes", json::array{"trust:evaluate"}}}, token);
  EXPECT_EQ(key.status, 201) << key.body;

  // The same slug again is refused, with exit status 1 and a reason.
  pipe = popen(command.c_str(), "r");
  output.clear();
  while (fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
  EXPECT_EQ(WEXITSTATUS(pclose(pipe)), 1) << output;
  EXPECT_NE(output.find("already exists"), std::string::npos) << output;
}

TEST_F(SignInApiTest, OutsideDevelopmentModeTenantCreationIsForSignedInPeopleWithinALimit) {
  OidcEnvironment env({Rs()}, ServerOptions{.dev = false, .extra_args = {"--tenant-creations-per-day", "2"}});
  HttpClient api(env.server().base_url());
  ExpectProblem(api.Post("/api/tenant/create", json::object{{"name", "Anon"}, {"slug", "anon"}}), 401,
                "missing_credentials");
  const std::string token = Str(SignIn(env, "ric@example.com"), "token");
  // What the web client asks before offering "Create a workspace".
  ExpectProblem(api.Get("/auth/tenant-creation"), 401, "missing_credentials");
  auto allowance = [&] { return api.Get("/auth/tenant-creation", token).Json().as_object(); };
  EXPECT_EQ(json::serialize(allowance()), R"({"allowed":true,"perDay":2,"remainingToday":2})");
  for (const char* slug : {"pied-piper", "pied-piper-2"}) {
    auto r = api.Post("/api/tenant/create", json::object{{"name", slug}, {"slug", slug}}, token);
    ASSERT_EQ(r.status, 201) << r.body;
    if (std::string_view(slug) == "pied-piper")
      EXPECT_EQ(json::serialize(allowance()), R"({"allowed":true,"perDay":2,"remainingToday":1})");
  }
  EXPECT_EQ(json::serialize(allowance()), R"({"allowed":false,"perDay":2,"remainingToday":0})");
  auto third = api.Post("/api/tenant/create", json::object{{"name", "Three"}, {"slug", "pied-piper-3"}}, token);
  ExpectProblem(third, 429, "tenant_creation_rate_limited");
  EXPECT_FALSE(third.Header("retry-after").empty());
  // No personas outside development mode: the creator is the only member.
  auto tenants = api.Get("/auth/tenants", token).Json().as_array();
  ASSERT_EQ(tenants.size(), 2u);
  ASSERT_EQ(api.Post("/auth/select-tenant", json::object{{"tenantId", Str(tenants[0], "id")}}, token).status, 200);
  auto users = api.Get("/users", token);
  ASSERT_EQ(users.status, 200) << users.body;
  EXPECT_EQ(users.Json().as_array().size(), 1u);
}

}  // namespace
}  // namespace credence::test
