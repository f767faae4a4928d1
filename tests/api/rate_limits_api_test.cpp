// Rate limits (issue 25, "Rate limits"; docs/operations.md): token buckets
// per API key, per AI application (its own rateLimit in the registry), per
// signed-in user and per client address on the routes that need no
// credential. Over a limit: 429 problem+json rate_limited with Retry-After;
// every limited answer carries RateLimit-Policy and RateLimit
// (draft-ietf-httpapi-ratelimit-headers). Each test starts a server of its
// own with low limits.
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

#include <boost/json.hpp>

#include "support/api_fixture.h"
#include "support/http_client.h"
#include "support/server_process.h"

namespace credence::test {
namespace {
namespace json = boost::json;

constexpr char kForm[] = "application/x-www-form-urlencoded";

// Keys: 1 request per second, 3 at once; users and addresses: generous
// enough for the set-up, except where a test lowers them.
ServerOptions LowLimits(std::vector<std::string> more = {}) {
  ServerOptions options;
  options.extra_args = {"--rate-limit-key-rps",     "1",  "--rate-limit-key-burst",     "3",
                        "--rate-limit-user-rps",    "500", "--rate-limit-user-burst",   "1000",
                        "--rate-limit-address-rps", "1",  "--rate-limit-address-burst", "6"};
  for (auto& m : more) options.extra_args.push_back(std::move(m));
  return options;
}

struct Key {
  std::string id, client_id, secret;
};


class RateLimits : public ::testing::Test {
 protected:
  void SetUp() override {
    if (BackendUnavailable()) GTEST_SKIP() << "backend unavailable";
  }

  void Start(ServerOptions options = LowLimits()) {
    server_ = std::make_unique<ServerProcess>(std::move(options));
    client_ = std::make_unique<HttpClient>(server_->base_url());
  }
  HttpClient& api() { return *client_; }

  Key TenantKey(const TestTenant& t) {
    auto r = api().Post("/apikeys", {{"name", "bot"}, {"scopes", {"trust:read", "trust:evaluate"}}}, t.token("admin"));
    EXPECT_EQ(r.status, 201) << r.body;
    if (r.status != 201) return {};
    return {Str(r.Json(), "id"), Str(r.Json(), "clientId"), Str(r.Json(), "clientSecret")};
  }

  // `rate_limit` is sent as given, null included.
  Response RegisterApp(const TestTenant& t, const std::string& name, json::value rate_limit) {
    json::object body{{"name", name}, {"channel", "internal"}, {"risk", "low"}, {"rateLimit", std::move(rate_limit)}};
    return api().Post("/trust-admin/apps", body, t.token("admin"));
  }

  Key AppKey(const TestTenant& t, const std::string& app_id, const std::string& name) {
    // Thirty days ahead (the server runs on the real clock here).
    const std::time_t later = std::time(nullptr) + 30 * 86'400;
    std::tm tm{};
    ::gmtime_r(&later, &tm);
    char expires[32];
    std::strftime(expires, sizeof expires, "%Y-%m-%dT%H:%M:%SZ", &tm);
    auto r = api().Post("/trust-admin/apps/" + app_id + "/keys", {{"name", name}, {"expiresAt", expires}},
                        t.token("admin"));
    EXPECT_EQ(r.status, 201) << r.body;
    if (r.status != 201) return {};
    return {Str(r.Json(), "id"), Str(r.Json(), "clientId"), Str(r.Json(), "clientSecret")};
  }

  Response WhoAmI(const Key& key) { return api().Get("/api/trust/whoami", key.secret); }

  std::unique_ptr<ServerProcess> server_;
  std::unique_ptr<HttpClient> client_;
};

void ExpectLimited(const Response& r, const std::string& policy) {
  ExpectProblem(r, 429, "rate_limited");
  const std::string retry = r.Header("retry-after");
  ASSERT_FALSE(retry.empty()) << r.body;
  EXPECT_GE(std::stoi(retry), 1);
  const auto body = r.Json();
  EXPECT_EQ(Str(body, "policy"), policy) << r.body;
  EXPECT_EQ(Str(body, "retryAfter"), retry);
  EXPECT_NE(r.Header("ratelimit-policy").find("\"" + policy + "\";q="), std::string::npos) << r.Header("ratelimit-policy");
  EXPECT_NE(r.Header("ratelimit").find("\"" + policy + "\";r=0;t="), std::string::npos) << r.Header("ratelimit");
}

TEST_F(RateLimits, AKeyOverItsLimitIsRefusedThenServedAgainAndKeysDoNotShare) {
  Start();
  const TestTenant t = CreateTenant(api(), "rl");
  const Key a = TenantKey(t);
  const Key b = TenantKey(t);
  for (int i = 0; i < 3; ++i) {
    auto r = WhoAmI(a);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.Header("ratelimit-policy"), "\"key\";q=3;w=3");
    EXPECT_EQ(r.Header("ratelimit").rfind("\"key\";r=" + std::to_string(2 - i) + ";t=", 0), 0u) << r.Header("ratelimit");
  }
  ExpectLimited(WhoAmI(a), "key");
  // Another key of the same tenant has a bucket of its own.
  EXPECT_EQ(WhoAmI(b).status, 200);
  // One token back after a second.
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  EXPECT_EQ(WhoAmI(a).status, 200);
  ExpectLimited(WhoAmI(a), "key");
  // An access token issued to the key counts against the key.
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  auto token = api().Send("POST", "/connect/token",
                          "grant_type=client_credentials&client_id=" + b.client_id + "&client_secret=" + b.secret, "",
                          {{"Content-Type", kForm}});
  ASSERT_EQ(token.status, 200) << token.body;
  const std::string access = Str(token.Json(), "access_token");
  int served = 0;
  for (int i = 0; i < 4; ++i) served += api().Get("/api/trust/whoami", access).status == 200 ? 1 : 0;
  EXPECT_LE(served, 3);
}

TEST_F(RateLimits, AnAppsOwnLimitAppliesToAllItsKeysTogether) {
  Start();
  const TestTenant t = CreateTenant(api(), "rla");
  auto created = RegisterApp(t, "Helpdesk", json::object{{"requestsPerSecond", 0.5}, {"burst", 2}});
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string app_id = Str(created.Json(), "id");
  EXPECT_EQ(created.Json().at("rateLimit").at("burst").as_int64(), 2);
  EXPECT_DOUBLE_EQ(created.Json().at("rateLimit").at("requestsPerSecond").to_number<double>(), 0.5);
  const Key k1 = AppKey(t, app_id, "one");
  const Key k2 = AppKey(t, app_id, "two");
  auto first = WhoAmI(k1);
  ASSERT_EQ(first.status, 200) << first.body;
  EXPECT_EQ(first.Header("ratelimit-policy"), "\"key\";q=3;w=3, \"app\";q=2;w=4");
  EXPECT_EQ(WhoAmI(k2).status, 200);
  // Each key has tokens left; the app has none.
  ExpectLimited(WhoAmI(k1), "app");
  ExpectLimited(WhoAmI(k2), "app");

  // Read back, then cleared with null: within a second (the nodes' cache
  // of an app's limit) only the keys' own limits apply.
  auto read = api().Get("/trust-admin/apps/" + app_id, t.token("admin"));
  ASSERT_EQ(read.status, 200);
  EXPECT_EQ(read.Json().at("rateLimit").at("burst").as_int64(), 2);
  auto cleared = api().Patch("/trust-admin/apps/" + app_id, {{"rateLimit", nullptr}}, t.token("admin"));
  ASSERT_EQ(cleared.status, 200) << cleared.body;
  EXPECT_TRUE(cleared.Json().at("rateLimit").is_null());
  // A change that does not name it keeps it cleared.
  auto renamed = api().Patch("/trust-admin/apps/" + app_id, {{"name", "Helpdesk 2"}}, t.token("admin"));
  EXPECT_TRUE(renamed.Json().at("rateLimit").is_null());
  std::this_thread::sleep_for(std::chrono::milliseconds(2100));
  auto after = WhoAmI(k1);
  EXPECT_EQ(after.status, 200) << after.body;
  EXPECT_EQ(after.Header("ratelimit-policy"), "\"key\";q=3;w=3");

  // Set again through PATCH.
  auto set = api().Patch("/trust-admin/apps/" + app_id, {{"rateLimit", {{"requestsPerSecond", 1}, {"burst", 1}}}},
                         t.token("admin"));
  ASSERT_EQ(set.status, 200) << set.body;
  EXPECT_EQ(set.Json().at("rateLimit").at("burst").as_int64(), 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  EXPECT_EQ(WhoAmI(k2).status, 200);
  ExpectLimited(WhoAmI(k2), "app");
}

TEST_F(RateLimits, BadValuesOfTheAppFieldAreRefusedNamingIt) {
  Start(LowLimits({"--rate-limit-address-burst", "20"}));  // two tenants' dev logins
  const TestTenant t = CreateTenant(api(), "rlv");
  ExpectValidation(RegisterApp(t, "A", json::object{{"requestsPerSecond", 0}, {"burst", 5}}),
                   "rateLimit.requestsPerSecond");
  ExpectValidation(RegisterApp(t, "A", json::object{{"requestsPerSecond", -1}, {"burst", 5}}),
                   "rateLimit.requestsPerSecond");
  ExpectValidation(RegisterApp(t, "A", json::object{{"requestsPerSecond", 1e9}, {"burst", 5}}),
                   "rateLimit.requestsPerSecond");
  ExpectValidation(RegisterApp(t, "A", json::object{{"requestsPerSecond", 5}, {"burst", 0}}), "rateLimit.burst");
  ExpectValidation(RegisterApp(t, "A", json::object{{"requestsPerSecond", 5}, {"burst", 2000000}}),
                   "rateLimit.burst");
  ExpectValidation(RegisterApp(t, "A", json::object{{"requestsPerSecond", 5}, {"burst", 1.5}}), "rateLimit.burst");
  ExpectValidation(RegisterApp(t, "A", json::object{{"requestsPerSecond", "fast"}, {"burst", 5}}),
                   "rateLimit.requestsPerSecond");
  ExpectValidation(RegisterApp(t, "A", json::object{{"burst", 5}}), "rateLimit.requestsPerSecond");
  ExpectValidation(RegisterApp(t, "A", json::value("10/s")), "rateLimit");
  // null on creation: none.
  auto none = RegisterApp(t, "A", nullptr);
  ASSERT_EQ(none.status, 201) << none.body;
  EXPECT_TRUE(none.Json().at("rateLimit").is_null());
  const std::string app_id = Str(none.Json(), "id");
  ExpectValidation(api().Patch("/trust-admin/apps/" + app_id,
                               {{"rateLimit", {{"requestsPerSecond", 100001}, {"burst", 5}}}}, t.token("admin")),
                   "rateLimit.requestsPerSecond");

  // Another tenant's app cannot be changed; a non-admin cannot change one.
  const TestTenant other = CreateTenant(api(), "rlo");
  ExpectProblem(api().Patch("/trust-admin/apps/" + app_id, {{"rateLimit", {{"requestsPerSecond", 1}, {"burst", 1}}}},
                            other.token("admin")),
                404, "not_found");
  EXPECT_EQ(api()
                .Patch("/trust-admin/apps/" + app_id, {{"rateLimit", {{"requestsPerSecond", 1}, {"burst", 1}}}},
                       t.token("editor"))
                .status,
            403);
  EXPECT_TRUE(api().Get("/trust-admin/apps/" + app_id, t.token("admin")).Json().at("rateLimit").is_null());
}

TEST_F(RateLimits, TheTokenEndpointIsLimitedPerAddress) {
  Start(LowLimits({"--rate-limit-key-rps", "100"}));
  // The set-up's four dev logins took four of the address's six tokens.
  const TestTenant t = CreateTenant(api(), "rlt");
  const Key key = TenantKey(t);
  const std::string form = "grant_type=client_credentials&client_id=" + key.client_id + "&client_secret=" + key.secret;
  int served = 0;
  Response last;
  for (int i = 0; i < 8; ++i) {
    last = api().Send("POST", "/connect/token", form, "", {{"Content-Type", kForm}});
    if (last.status == 200) {
      ++served;
      EXPECT_EQ(last.Header("ratelimit-policy"), "\"address\";q=6;w=6");
    }
  }
  EXPECT_LT(served, 8);
  EXPECT_GE(served, 1);
  ExpectLimited(last, "address");
  // Dev login shares the address's bucket; a route with a credential does not.
  ExpectLimited(api().Post("/auth/dev-login", {{"persona", "admin"}, {"tenantId", t.id}}), "address");
  EXPECT_EQ(api().Get("/api/users/me", t.token("admin")).status, 200);
  // Health checks are never limited.
  auto health = api().Get("/healthz");
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(health.Header("ratelimit-policy"), "");
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  EXPECT_EQ(api().Send("POST", "/connect/token", form, "", {{"Content-Type", kForm}}).status, 200);
}

TEST_F(RateLimits, ASignedInUserIsLimited) {
  Start(LowLimits({"--rate-limit-user-rps", "1", "--rate-limit-user-burst", "0"}));
  // Burst 0 is twice the rps: 2.
  const TestTenant t = CreateTenant(api(), "rlu");
  int served = 0;
  Response last;
  for (int i = 0; i < 3; ++i) {
    last = api().Get("/api/users/me", t.token("viewer"));
    served += last.status == 200 ? 1 : 0;
  }
  EXPECT_EQ(served, 2);
  ExpectLimited(last, "user");
  // Another user of the tenant has a bucket of its own.
  EXPECT_EQ(api().Get("/api/users/me", t.token("editor")).status, 200);
}

TEST_F(RateLimits, ZeroDisablesALimit) {
  Start(LowLimits({"--rate-limit-key-rps", "0"}));
  const TestTenant t = CreateTenant(api(), "rlz");
  const Key key = TenantKey(t);
  for (int i = 0; i < 10; ++i) {
    auto r = WhoAmI(key);
    ASSERT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(r.Header("ratelimit-policy"), "");
  }
}

TEST_F(RateLimits, EveryNodeEnforcesItsShare) {
  // Every limit halved, the address's too (the set-up's dev logins).
  Start(LowLimits({"--rate-limit-key-burst", "4", "--rate-limit-address-burst", "20", "--rate-limit-nodes", "2"}));
  const TestTenant t = CreateTenant(api(), "rln");
  const Key key = TenantKey(t);
  auto r = WhoAmI(key);
  EXPECT_EQ(r.Header("ratelimit-policy"), "\"key\";q=2;w=4");
  EXPECT_EQ(WhoAmI(key).status, 200);
  ExpectLimited(WhoAmI(key), "key");
}

TEST(RateLimitFlags, BadValuesStopTheServerNamingTheFlag) {
  if (BackendUnavailable()) GTEST_SKIP() << "backend unavailable";
  const std::vector<std::vector<std::string>> bad = {
      {"--rate-limit-key-rps", "-1"},         {"--rate-limit-key-rps", "fast"},
      {"--rate-limit-key-burst", "20000000"}, {"--rate-limit-user-rps", "2000000"},
      {"--rate-limit-address-rps", "1.5"},    {"--rate-limit-address-burst", ""},
      {"--rate-limit-nodes", "0"},            {"--rate-limit-nodes", "1001"},
  };
  for (const auto& flags : bad) {
    const CommandResult started =
        RunCredence({"serve", "--data-dir", "/tmp/credence-rate-limit-flags", flags[0], flags[1]});
    EXPECT_EQ(started.exit_code, 2) << flags[0] << " " << flags[1];
    EXPECT_NE(started.err.find(flags[0]), std::string::npos) << started.err;
  }
}

}  // namespace
}  // namespace credence::test
