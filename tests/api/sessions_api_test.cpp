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
