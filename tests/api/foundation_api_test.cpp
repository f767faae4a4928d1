// The foundation over real HTTP: health, metrics, OpenAPI, development
// sign-in, tenants, users, errors and bad input, request ids and logs,
// shutdown and durability. Runs on SQLite and on PostgreSQL
// (CREDENCE_TEST_BACKEND).
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <chrono>
#include <set>
#include <sstream>
#include <thread>

#include "support/api_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;


using Foundation = ApiTest;

TEST_F(Foundation, HealthAndReadiness) {
  auto health = api().Get("/healthz");
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(Str(health.Json(), "status"), "ok");
  auto ready = api().Get("/readyz");
  EXPECT_EQ(ready.status, 200);
  EXPECT_EQ(Str(ready.Json(), "status"), "ready");
}

TEST_F(Foundation, MetricsCountRequestsByRouteTemplateAndStatus) {
  auto t = CreateTenant(api());
  ASSERT_EQ(api().Get("/api/users/me", t.token("viewer")).status, 200);
  ASSERT_EQ(api().Get("/api/users/me").status, 401);
  auto metrics = api().Get("/metrics");
  ASSERT_EQ(metrics.status, 200);
  EXPECT_NE(metrics.Header("content-type").find("text/plain"), std::string::npos);
  EXPECT_NE(metrics.body.find("credence_http_requests_total{route=\"/api/users/me\",method=\"GET\",status=\"200\"}"),
            std::string::npos);
  EXPECT_NE(metrics.body.find("credence_http_requests_total{route=\"/api/users/me\",method=\"GET\",status=\"401\"}"),
            std::string::npos);
  EXPECT_NE(metrics.body.find("credence_http_request_duration_seconds_bucket{route=\"/api/users/me\",le=\"+Inf\"}"),
            std::string::npos);
  EXPECT_NE(metrics.body.find("credence_http_request_duration_seconds_count{route=\"/api/users/me\"}"),
            std::string::npos);
}

// Every documented operation is served: calling it never answers
// route_not_found or method_not_allowed.
TEST_F(Foundation, OpenApiDocumentsServedRoutes) {
  auto doc = api().Get("/openapi.json");
  ASSERT_EQ(doc.status, 200);
  auto spec = doc.Json();
  EXPECT_EQ(Str(spec, "openapi"), "3.1.0");
  const auto& paths = spec.at("paths").as_object();
  std::set<std::string> documented;
  for (const auto& [path, item] : paths) {
    std::string concrete(path);
    size_t open;
    while ((open = concrete.find('{')) != std::string::npos)
      concrete.replace(open, concrete.find('}', open) - open + 1, "00000000-0000-4000-8000-000000000000");
    for (const auto& [method, op] : item.as_object()) {
      std::string upper(method);
      for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      documented.insert(upper + " " + std::string(path));
      auto r = api().Send(upper, concrete, upper == "GET" || upper == "DELETE" ? "" : "{}");
      if (r.status == 404 || r.status == 405) {
        auto body = r.Json();
        EXPECT_NE(Str(body, "code"), "route_not_found") << upper << " " << path;
        EXPECT_NE(Str(body, "code"), "method_not_allowed") << upper << " " << path;
      }
      EXPECT_TRUE(op.as_object().contains("responses")) << path;
    }
  }
  for (const char* expected : {"GET /healthz", "GET /readyz", "GET /metrics", "GET /openapi.json",
                               "GET /auth/dev-tenants", "POST /auth/dev-login", "POST /api/tenant/create",
                               "POST /tenant/create", "GET /api/tenant/known-languages", "GET /api/users/me",
                               "GET /users/me", "GET /api/users", "GET /users", "PUT /api/users/me/preferred-language",
                               "DELETE /api/users/me/preferred-language", "DELETE /users/{id}"})
    EXPECT_TRUE(documented.count(expected)) << expected;
}

TEST_F(Foundation, DevTenantsListTheSeededDemoTenant) {
  auto r = api().Get("/auth/dev-tenants");
  ASSERT_EQ(r.status, 200);
  bool found = false;
  const auto tenants = r.Json();
  for (const auto& t : tenants.as_array()) {
    if (Str(t, "slug") == "acme") {
      found = true;
      EXPECT_EQ(Str(t, "name"), "Acme Corporation");
      EXPECT_EQ(Str(t, "id").size(), 36u);
    }
  }
  EXPECT_TRUE(found);
}

TEST_F(Foundation, DevLoginGivesEachPersonaItsRole) {
  const auto tenants_json = api().Get("/auth/dev-tenants").Json();
  const auto& tenants = tenants_json.as_array();
  std::string acme;
  for (const auto& t : tenants)
    if (Str(t, "slug") == "acme") acme = Str(t, "id");
  const std::map<std::string, std::pair<std::string, bool>> expected = {
      {"admin", {"Owner", true}}, {"editor", {"Member", false}}, {"viewer", {"Member", false}}, {"guest", {"Guest", false}}};
  for (const auto& [persona, role] : expected) {
    auto login = api().Post("/auth/dev-login", {{"persona", persona}, {"tenantId", acme}});
    ASSERT_EQ(login.status, 200) << login.body;
    auto body = login.Json();
    const std::string token = Str(body, "token");
    const auto& user = body.at("user");
    EXPECT_EQ(token, "dev-token-" + acme + ":" + Str(user, "id"));
    EXPECT_EQ(Str(user, "tenantRole"), role.first);
    EXPECT_EQ(user.at("isGlobalAdmin").as_bool(), role.second);

    for (const char* path : {"/api/users/me", "/users/me"}) {
      auto me = api().Get(path, token);
      ASSERT_EQ(me.status, 200) << me.body;
      EXPECT_EQ(Str(me.Json(), "id"), Str(user, "id"));
      EXPECT_EQ(Str(me.Json(), "tenantId"), acme);
      EXPECT_EQ(Str(me.Json(), "tenantRole"), role.first);
    }
  }
}

TEST_F(Foundation, DevLoginRejectsUnknownPersonaTenantAndBadInput) {
  auto t = CreateTenant(api());
  ExpectProblem(api().Post("/auth/dev-login", {{"persona", "pirate"}, {"tenantId", t.id}}), 404, "not_found");
  ExpectProblem(api().Post("/auth/dev-login", {{"persona", "admin"}, {"tenantId", "00000000-0000-4000-8000-000000000000"}}),
                404, "not_found");
  auto bad_uuid = api().Post("/auth/dev-login", {{"persona", "admin"}, {"tenantId", "acme"}});
  ExpectProblem(bad_uuid, 400, "validation_failed");
  EXPECT_EQ(Str(bad_uuid.Json().at("errors").as_array()[0], "field"), "tenantId");
  auto missing = api().Post("/auth/dev-login", json::object{});
  ExpectProblem(missing, 400, "validation_failed");
  EXPECT_EQ(missing.Json().at("errors").as_array().size(), 2u);
  ExpectProblem(api().Post("/auth/dev-login", {{"persona", 7}, {"tenantId", t.id}}), 400, "validation_failed");
  ExpectProblem(api().Send("POST", "/auth/dev-login", "{\"persona\": \"admin\","), 400, "malformed_json");
  ExpectProblem(api().Send("POST", "/auth/dev-login", "[1,2]"), 400, "validation_failed");
}

TEST_F(Foundation, TenantCreationStoresEveryField) {
  const std::string slug = "full-" + std::to_string(::getpid()) + "-" + std::to_string(std::rand() % 100000);
  auto r = api().Post("/api/tenant/create", {{"name", "Full Tenant"},
                                             {"slug", slug},
                                             {"domain", "full.example.com"},
                                             {"allowAllUsers", true},
                                             {"enabledLanguages", {"en", "fr"}},
                                             {"enabledPlugins", {"approval-workflow"}},
                                             {"unknownField", "ignored"}});
  ASSERT_EQ(r.status, 201) << r.body;
  auto t = r.Json();
  EXPECT_EQ(Str(t, "name"), "Full Tenant");
  EXPECT_EQ(Str(t, "slug"), slug);
  EXPECT_EQ(Str(t, "domain"), "full.example.com");
  EXPECT_TRUE(t.at("allowAllUsers").as_bool());
  EXPECT_EQ(json::serialize(t.at("enabledLanguages")), "[\"en\",\"fr\"]");
  EXPECT_EQ(json::serialize(t.at("enabledPlugins")), "[\"approval-workflow\"]");
  EXPECT_EQ(Str(t, "defaultLanguage"), "en");
  EXPECT_EQ(Str(t, "createdAt").back(), 'Z');

  // The same provisioning at the platform path; the slug is now taken.
  ExpectProblem(api().Post("/tenant/create", {{"name", "Again"}, {"slug", slug}}), 409, "slug_taken");
  // The new tenant has the four personas.
  auto login = api().Post("/auth/dev-login", {{"persona", "guest"}, {"tenantId", Str(t, "id")}});
  EXPECT_EQ(login.status, 200);
}

TEST_F(Foundation, TenantCreationValidatesInput) {
  auto r = api().Post("/api/tenant/create", {{"name", ""}, {"slug", "Not URL Safe"}, {"allowAllUsers", "yes"},
                                             {"enabledLanguages", {"en", "xx-unknown"}}});
  ExpectProblem(r, 400, "validation_failed");
  std::set<std::string> fields;
  const auto problem = r.Json();
  for (const auto& e : problem.at("errors").as_array()) fields.insert(Str(e, "field"));
  EXPECT_TRUE(fields.count("name"));
  EXPECT_TRUE(fields.count("slug"));
  EXPECT_TRUE(fields.count("allowAllUsers"));

  auto unknown_language = api().Post("/api/tenant/create", {{"name", "X"}, {"slug", "lang-check-x"},
                                                            {"enabledLanguages", {"en", "xx-unknown"}}});
  ExpectProblem(unknown_language, 400, "validation_failed");
  EXPECT_EQ(Str(unknown_language.Json().at("errors").as_array()[0], "field"), "enabledLanguages[1]");

  ExpectProblem(api().Post("/api/tenant/create", {{"slug", "no-name"}}), 400, "validation_failed");
  ExpectProblem(api().Post("/api/tenant/create", {{"name", "N"}, {"slug", "-leading"}}), 400, "validation_failed");
  ExpectProblem(api().Send("POST", "/api/tenant/create", ""), 400, "malformed_json");
  ExpectProblem(api().Send("POST", "/api/tenant/create", "{\"name\":"), 400, "malformed_json");
  ExpectProblem(api().Send("POST", "/api/tenant/create", "null"), 400, "validation_failed");
}

TEST_F(Foundation, KnownLanguagesArePublic) {
  auto r = api().Get("/api/tenant/known-languages");
  ASSERT_EQ(r.status, 200);
  bool english = false;
  const auto languages = r.Json();
  for (const auto& l : languages.as_array())
    if (Str(l, "code") == "en") english = Str(l, "displayName") == "English";
  EXPECT_TRUE(english);
}

TEST_F(Foundation, MissingAndInvalidCredentialsAre401WithChallenge) {
  auto missing = api().Get("/api/users/me");
  ExpectProblem(missing, 401, "missing_credentials");
  EXPECT_EQ(missing.Header("www-authenticate"), "Bearer realm=\"credence\"");

  auto garbage = api().Get("/api/users/me", "not-a-real-token");
  ExpectProblem(garbage, 401, "invalid_token");
  EXPECT_NE(garbage.Header("www-authenticate").find("error=\"invalid_token\""), std::string::npos);

  auto basic = api().Send("GET", "/api/users/me", "", "", {{"Authorization", "Basic dXNlcjpwYXNz"}});
  ExpectProblem(basic, 401, "invalid_token");

  auto malformed_dev = api().Get("/api/users/me", "dev-token-nonsense");
  ExpectProblem(malformed_dev, 401, "invalid_token");
}

// A user of tenant A cannot act in tenant B by pairing B's id with their
// own user id, and each tenant sees only its own users.
TEST_F(Foundation, TenantsAreIsolated) {
  auto a = CreateTenant(api(), "iso-a");
  auto b = CreateTenant(api(), "iso-b");
  ExpectProblem(api().Get("/api/users/me", "dev-token-" + b.id + ":" + a.user_ids["admin"]), 401, "invalid_token");

  auto users_a = api().Get("/api/users", a.token("viewer"));
  ASSERT_EQ(users_a.status, 200);
  std::set<std::string> ids;
  const auto users = users_a.Json();
  for (const auto& u : users.as_array()) ids.insert(Str(u, "id"));
  EXPECT_EQ(ids.size(), 4u);
  for (const auto& [persona, id] : b.user_ids) EXPECT_FALSE(ids.count(id)) << persona;

  // Removing another tenant's user is a 404, never a 403.
  ExpectProblem(api().Delete("/users/" + b.user_ids["viewer"], a.token("admin")), 404, "not_found");
  EXPECT_EQ(api().Get("/api/users/me", b.token("viewer")).status, 200);
}

TEST_F(Foundation, PreferredLanguageCanBeSetAndCleared) {
  auto t = CreateTenant(api());
  auto set = api().Put("/api/users/me/preferred-language", {{"languageCode", "es"}}, t.token("editor"));
  ASSERT_EQ(set.status, 200) << set.body;
  EXPECT_EQ(Str(api().Get("/users/me", t.token("editor")).Json(), "preferredLanguage"), "es");
  ExpectProblem(api().Put("/users/me/preferred-language", {{"languageCode", "klingon"}}, t.token("editor")), 400,
                "validation_failed");
  ExpectProblem(api().Put("/users/me/preferred-language", {{"languageCode", 3}}, t.token("editor")), 400,
                "validation_failed");
  EXPECT_EQ(api().Delete("/api/users/me/preferred-language", t.token("editor")).status, 204);
  EXPECT_TRUE(api().Get("/users/me", t.token("editor")).Json().at("preferredLanguage").is_null());
}

TEST_F(Foundation, RemovingAUserNeedsAGlobalAdminAndRevokesAccess) {
  auto t = CreateTenant(api());
  ExpectProblem(api().Delete("/users/" + t.user_ids["viewer"], t.token("editor")), 403, "forbidden");
  ExpectProblem(api().Delete("/users/not-a-uuid", t.token("admin")), 400, "invalid_path_parameter");
  ExpectProblem(api().Delete("/users/" + t.user_ids["admin"], t.token("admin")), 400, "cannot_remove_self");
  EXPECT_EQ(api().Delete("/api/users/" + t.user_ids["viewer"], t.token("admin")).status, 204);
  ExpectProblem(api().Get("/api/users/me", t.token("viewer")), 401, "invalid_token");
  ExpectProblem(api().Delete("/users/" + t.user_ids["viewer"], t.token("admin")), 404, "not_found");
  EXPECT_EQ(api().Get("/api/users", t.token("admin")).Json().as_array().size(), 3u);
}

TEST_F(Foundation, UnknownRouteIs404AndWrongMethodIs405WithAllow) {
  ExpectProblem(api().Get("/api/nothing-here"), 404, "route_not_found");
  auto wrong = api().Send("PATCH", "/api/users/me");
  ExpectProblem(wrong, 405, "method_not_allowed");
  EXPECT_EQ(wrong.Header("allow"), "GET, HEAD");
  auto wrong_post = api().Send("DELETE", "/api/tenant/create");
  ExpectProblem(wrong_post, 405, "method_not_allowed");
  EXPECT_EQ(wrong_post.Header("allow"), "POST");
  ExpectProblem(api().Delete("/api/users/%zz"), 400, "invalid_path");
}

TEST_F(Foundation, HugeBodyIs413AndServerKeepsServing) {
  const std::string huge(2 << 20, 'x');
  auto r = api().Send("POST", "/api/tenant/create", huge);
  ExpectProblem(r, 413, "payload_too_large");
  // Chunked bodies have no Content-Length; the limit still holds.
  std::string chunked = "POST /api/tenant/create HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n"
                        "Content-Type: application/json\r\n\r\n";
  const std::string chunk(64 * 1024, 'y');
  std::ostringstream size;
  size << std::hex << chunk.size();
  for (int i = 0; i < 20; ++i) chunked += size.str() + "\r\n" + chunk + "\r\n";
  chunked += "0\r\n\r\n";
  auto raw = RawExchange(SharedServer().port(), chunked);
  EXPECT_EQ(raw.rfind("HTTP/1.1 413", 0), 0u) << raw.substr(0, 200);
  EXPECT_EQ(api().Get("/healthz").status, 200);
}

TEST_F(Foundation, OversizedHeadersAreRefused) {
  std::string request = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(64 * 1024, 'h') + "\r\n\r\n";
  auto raw = RawExchange(SharedServer().port(), request);
  EXPECT_EQ(raw.rfind("HTTP/1.1 431", 0), 0u) << raw.substr(0, 200);
  EXPECT_NE(raw.find("application/problem+json"), std::string::npos);
  EXPECT_EQ(api().Get("/healthz").status, 200);
}

TEST_F(Foundation, GarbageRequestLineIs400) {
  auto raw = RawExchange(SharedServer().port(), "THIS IS NOT HTTP\r\n\r\n");
  EXPECT_EQ(raw.rfind("HTTP/1.1 400", 0), 0u) << raw;
  EXPECT_EQ(api().Get("/healthz").status, 200);
}

TEST_F(Foundation, RequestIdIsEchoedOrGenerated) {
  auto generated = api().Get("/healthz");
  EXPECT_EQ(generated.Header("x-request-id").size(), 36u);
  auto kept = api().Send("GET", "/healthz", "", "", {{"X-Request-Id", "client-abc.123"}});
  EXPECT_EQ(kept.Header("x-request-id"), "client-abc.123");
  auto problem = api().Send("GET", "/api/users/me", "", "", {{"X-Request-Id", "trace-me-42"}});
  EXPECT_EQ(Str(problem.Json(), "requestId"), "trace-me-42");
}

TEST_F(Foundation, AccessLogHasOneJsonLinePerRequest) {
  auto t = CreateTenant(api());
  auto r = api().Send("GET", "/api/users/me", "", t.token("viewer"), {{"X-Request-Id", "log-check-" + t.slug}});
  ASSERT_EQ(r.status, 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::istringstream log(SharedServer().ReadLog());
  std::string line;
  int matches = 0;
  while (std::getline(log, line)) {
    if (line.find("log-check-" + t.slug) == std::string::npos) continue;
    ++matches;
    auto entry = json::parse(line);
    EXPECT_EQ(Str(entry, "msg"), "request");
    EXPECT_EQ(Str(entry, "method"), "GET");
    EXPECT_EQ(Str(entry, "route"), "/api/users/me");
    EXPECT_EQ(entry.at("status").as_int64(), 200);
    EXPECT_TRUE(entry.at("durationMs").is_number());
    EXPECT_EQ(Str(entry, "tenant"), t.id);
  }
  EXPECT_EQ(matches, 1);
}

// Servers with their own settings.

class FoundationServer : public ::testing::Test {
 protected:
  void SetUp() override {
    if (BackendUnavailable()) GTEST_SKIP() << "CREDENCE_TEST_PG_URL is not set";
  }
};

TEST_F(FoundationServer, WithoutDevModeDevSignInIsGone) {
  ServerProcess server(ServerOptions{.dev = false});
  HttpClient client(server.base_url());
  ExpectProblem(client.Get("/auth/dev-tenants"), 404, "route_not_found");
  ExpectProblem(client.Post("/auth/dev-login", {{"persona", "admin"}, {"tenantId", "00000000-0000-4000-8000-000000000000"}}),
                404, "route_not_found");
  auto refused = client.Get("/api/users/me",
                            "dev-token-00000000-0000-4000-8000-000000000000:00000000-0000-4000-8000-000000000001");
  ExpectProblem(refused, 401, "invalid_token");
  // Provisioning needs a signed-in owner outside development mode.
  ExpectProblem(client.Post("/api/tenant/create", {{"name", "Nope"}, {"slug", "nope"}}), 401, "missing_credentials");
}

TEST_F(FoundationServer, SlowClientIsDisconnectedAndOthersAreServed) {
  ServerProcess server(ServerOptions{.extra_args = {"--read-timeout-ms", "300", "--idle-timeout-ms", "600"}});
  const auto start = std::chrono::steady_clock::now();
  // Half a request, then silence: the server closes the connection.
  auto partial = RawExchange(server.port(), "POST /api/tenant/create HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n{",
                             5000);
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_TRUE(partial.empty() || partial.rfind("HTTP/1.1 4", 0) == 0) << partial;
  EXPECT_LT(waited, std::chrono::seconds(3));
  // An idle keep-alive connection is closed after the idle timeout.
  const auto idle_start = std::chrono::steady_clock::now();
  auto idle = RawExchange(server.port(), "", 5000);
  EXPECT_TRUE(idle.empty());
  EXPECT_LT(std::chrono::steady_clock::now() - idle_start, std::chrono::seconds(3));
  HttpClient client(server.base_url());
  EXPECT_EQ(client.Get("/healthz").status, 200);
}

TEST_F(FoundationServer, SmallerBodyLimitIsConfigurable) {
  ServerProcess server(ServerOptions{.extra_args = {"--max-body-bytes", "2048"}});
  HttpClient client(server.base_url());
  ExpectProblem(client.Send("POST", "/api/tenant/create", std::string(4096, ' ')), 413, "payload_too_large");
  auto ok = client.Post("/api/tenant/create", {{"name", "Small"}, {"slug", "small-body"}});
  EXPECT_EQ(ok.status, 201) << ok.body;
}

// SIGTERM: stop accepting, finish the request in flight, exit 0.
TEST_F(FoundationServer, GracefulShutdownFinishesInFlightRequest) {
  ServerProcess server;
  const std::string body = R"({"name":"Late","slug":"late-tenant"})";
  std::string head = "POST /api/tenant/create HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: " +
                     std::to_string(body.size()) + "\r\n\r\n";
  // The head goes now, the body after SIGTERM: the request is in flight.
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(server.port()));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  ASSERT_EQ(::send(fd, head.data(), head.size(), 0), static_cast<ssize_t>(head.size()));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  ::kill(server.pid(), SIGTERM);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ASSERT_EQ(::send(fd, body.data(), body.size(), 0), static_cast<ssize_t>(body.size()));
  std::string response;
  char buf[4096];
  ssize_t n;
  while ((n = ::recv(fd, buf, sizeof buf, 0)) > 0) response.append(buf, static_cast<size_t>(n));
  ::close(fd);
  EXPECT_EQ(response.rfind("HTTP/1.1 201", 0), 0u) << response;
  EXPECT_NE(response.find("Connection: close"), std::string::npos) << response;
  EXPECT_EQ(server.Terminate(), 0);
  EXPECT_NE(server.ReadLog().find("server stopped"), std::string::npos);
}

// A write the API acknowledged survives kill -9, and seeding stays
// idempotent across restarts.
TEST_F(FoundationServer, AcknowledgedWritesSurviveACrash) {
  ServerProcess server;
  HttpClient client(server.base_url());
  std::vector<std::string> slugs;
  for (int i = 0; i < 20; ++i) {
    slugs.push_back("crash-" + std::to_string(i));
    ASSERT_EQ(client.Post("/api/tenant/create", {{"name", "C"}, {"slug", slugs.back()}}).status, 201);
  }
  server.Kill();
  server.Restart();
  HttpClient after(server.base_url());
  std::set<std::string> present;
  int acme = 0;
  const auto tenants = after.Get("/auth/dev-tenants").Json();
  for (const auto& t : tenants.as_array()) {
    present.insert(Str(t, "slug"));
    if (Str(t, "slug") == "acme") ++acme;
  }
  for (const auto& s : slugs) EXPECT_TRUE(present.count(s)) << s;
  EXPECT_EQ(acme, 1);
}

}  // namespace
}  // namespace credence::test
