// Tenant-supplied guards over real HTTP (docs/plugins.md): script-guards'
// Lua scripts (upload compiled, list, update, enable/disable, delete, dry
// run; allow and deny on publish; the sandbox from the API: io.open,
// os.execute, an endless loop, a 1 GB string, each stopped, counted as
// allow and reported, the server unharmed) and admission-hooks' HTTP hooks
// (a loopback hook allowing and denying, a timeout and a 500 counting as
// allow and reported, the URL checked at registration). Isolation between
// tenants. Runs on SQLite and on PostgreSQL (CREDENCE_TEST_BACKEND).
#include <atomic>
#include <chrono>
#include <thread>
#include <string>

#include "plugins/admission/testing/hook_test_server.h"
#include "support/api_fixture.h"
#include "support/kb_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;
using plugins::admission::test::HookTestServer;

constexpr char kScripts[] = "/api/plugins/script-guards/scripts";
constexpr char kHooks[] = "/api/plugins/admission-hooks/hooks";

constexpr char kDenyDrafts[] = R"lua(
function guard(ctx)
  if ctx.action ~= "Entry.Publish" then return true end
  if string.find(string.lower(ctx.properties.title), "draft", 1, true) then
    return false, "draft_title", "Titles saying draft are not published.", {title = ctx.properties.title}
  end
  return true
end
)lua";

class PluginGuards : public ApiTest {
 protected:
  void Install(const TestTenant& t, const std::string& id) {
    auto r = api().Post("/api/tenant/plugins/" + id + "/install", json::object{}, t.token("admin"));
    ASSERT_EQ(r.status, 201) << r.body;
  }
  std::string Upload(const TestTenant& t, const std::string& name, const std::string& source,
                     const std::string& action = "") {
    json::object body{{"name", name}, {"source", source}};
    if (!action.empty()) body["action"] = action;
    auto r = api().Post(kScripts, body, t.token("admin"));
    EXPECT_EQ(r.status, 201) << r.body;
    return r.status == 201 ? Str(r.Json(), "id") : "";
  }
  // A draft entry titled `title` in a new hub; its id.
  std::string Draft(const TestTenant& t, const std::string& hub, const std::string& title) {
    MakeHub(api(), t.token("admin"), hub, "Editor");
    auto r = api().Post(
        "/api/entries",
        {{"hubKey", hub}, {"key", "e"}, {"originalLanguage", "en"}, {"title", title}, {"content", Doc({"Body"})}},
        t.token("editor"));
    EXPECT_EQ(r.status, 201) << r.body;
    return Str(r.Json(), "id");
  }
  Response Publish(const TestTenant& t, const std::string& id) {
    return api().Post("/api/entries/" + id + "/publish", json::object{}, t.token("editor"));
  }
  json::value Health(const TestTenant& t, const std::string& plugin) {
    auto r = api().Get("/plugins", t.token("viewer"));
    EXPECT_EQ(r.status, 200);
    const json::value plugins = r.Json();
    for (const auto& p : plugins.as_array())
      if (Str(p, "id") == plugin) return p.at("health");
    ADD_FAILURE() << plugin << " not active";
    return json::object{};
  }
};

TEST_F(PluginGuards, ScriptsAreManagedThroughThePlugin) {
  auto t = CreateTenant(api(), "lua");
  ExpectProblem(api().Get(kScripts, t.token("admin")), 404, "plugin_not_enabled");
  Install(t, "script-guards");
  ExpectProblem(api().Get(kScripts, t.token("editor")), 403, "forbidden");
  auto bad =
      api().Post(kScripts, {{"name", "broken"}, {"source", "function guard(ctx) return true"}}, t.token("admin"));
  ExpectValidation(bad, "source");
  ExpectValidation(
      api().Post(kScripts, {{"name", "x"}, {"source", "return 1"}, {"action", "Entry.Explode"}}, t.token("admin")),
      "action");
  const std::string id = Upload(t, "no drafts", kDenyDrafts, "Entry.Publish");
  auto list = api().Get(kScripts, t.token("admin"));
  ASSERT_EQ(list.status, 200) << list.body;
  ASSERT_EQ(list.Json().as_array().size(), 1u);
  EXPECT_EQ(list.Json().as_array()[0].at("version").as_int64(), 1);

  // Dry runs: deny, allow, and what the sandbox stops.
  const std::string test = std::string(kScripts) + "/" + id + "/test";
  auto dry = api().Post(test, {{"context", {{"action", "Entry.Publish"}, {"properties", {{"title", "Draft 1"}}}}}},
                        t.token("admin"));
  ASSERT_EQ(dry.status, 200) << dry.body;
  EXPECT_EQ(Str(dry.Json(), "verdict"), "deny");
  EXPECT_EQ(Str(dry.Json(), "reasonCode"), "draft_title");
  EXPECT_EQ(Str(dry.Json().at("metadata"), "title"), "Draft 1");
  dry = api().Post(test, {{"context", {{"action", "Entry.Publish"}, {"properties", {{"title", "Final"}}}}}},
                   t.token("admin"));
  EXPECT_EQ(Str(dry.Json(), "verdict"), "allow");

  auto updated =
      api().Put(std::string(kScripts) + "/" + id,
                {{"name", "no drafts"}, {"source", "function guard(ctx) return true end"}}, t.token("admin"));
  ASSERT_EQ(updated.status, 200) << updated.body;
  EXPECT_EQ(updated.Json().at("version").as_int64(), 2);
  EXPECT_TRUE(updated.Json().at("action").is_null());
  ExpectValidation(api().Put(std::string(kScripts) + "/" + id, {{"name", "n"}, {"source", "guard("}}, t.token("admin")),
                   "source");
  auto disabled = api().Post(std::string(kScripts) + "/" + id + "/disable", json::object{}, t.token("admin"));
  ASSERT_EQ(disabled.status, 200) << disabled.body;
  EXPECT_FALSE(disabled.Json().at("isEnabled").as_bool());
  EXPECT_EQ(api().Post(std::string(kScripts) + "/" + id + "/enable", json::object{}, t.token("admin")).status, 200);
  EXPECT_EQ(api().Delete(std::string(kScripts) + "/" + id, t.token("admin")).status, 204);
  ExpectProblem(api().Delete(std::string(kScripts) + "/" + id, t.token("admin")), 404, "not_found");
}

TEST_F(PluginGuards, AScriptDeniesPublishAndTheEntryStaysUnchanged) {
  auto t = CreateTenant(api(), "lua");
  Install(t, "script-guards");
  Upload(t, "no drafts", kDenyDrafts, "Entry.Publish");
  const std::string draft = Draft(t, "docs", "Draft of the policy");
  auto denied = Publish(t, draft);
  ExpectProblem(denied, 422, "guard_denied");
  EXPECT_EQ(Str(denied.Json(), "reasonCode"), "draft_title");
  EXPECT_EQ(Str(denied.Json(), "pluginId"), "script-guards");
  EXPECT_EQ(Str(denied.Json().at("metadata"), "title"), "Draft of the policy");
  EXPECT_EQ(Str(api().Get("/api/entries/" + draft, t.token("editor")).Json(), "status"), "Draft");
  const std::string final_entry = Draft(t, "docs2", "The policy");
  EXPECT_EQ(Publish(t, final_entry).status, 200);

  // Another tenant's scripts never act here.
  auto other = CreateTenant(api(), "lua-other");
  EXPECT_EQ(Publish(other, Draft(other, "docs", "Draft too")).status, 200);
}

TEST_F(PluginGuards, TheSandboxStopsHostileScriptsAndTheyCountAsAllow) {
  auto t = CreateTenant(api(), "lua");
  Install(t, "script-guards");
  ASSERT_EQ(api().Put("/api/tenant/plugins/script-guards/settings", {{"timeoutMs", 200}}, t.token("admin")).status,
            200);
  const struct {
    const char* name;
    const char* source;
  } hostile[] = {
      {"io", "function guard(ctx) local f = io.open('/etc/passwd') return false, 'read', f:read('a') end"},
      {"os", "function guard(ctx) os.execute('touch /tmp/pwned') return false, 'ran' end"},
      {"loop", "function guard(ctx) while true do end end"},
      {"bomb", "function guard(ctx) local s = string.rep('x', 1024 * 1024 * 1024) return false, 'big', #s end"},
      {"grow", "function guard(ctx) local s = 'x' for i = 1, 40 do s = s .. s end return false, 'grew' end"},
  };
  for (const auto& h : hostile) {
    SCOPED_TRACE(h.name);
    const std::string id = Upload(t, h.name, h.source);
    auto dry = api().Post(std::string(kScripts) + "/" + id + "/test", {{"context", {{"action", "Entry.Publish"}}}},
                          t.token("admin"));
    ASSERT_EQ(dry.status, 200) << dry.body;
    EXPECT_EQ(Str(dry.Json(), "verdict"), "error") << dry.body;
    const std::string entry = Draft(t, std::string("hub-") + h.name, "Policy");
    auto published = Publish(t, entry);
    EXPECT_EQ(published.status, 200) << published.body;  // a failing script counts as allow
    EXPECT_EQ(api().Delete(std::string(kScripts) + "/" + id, t.token("admin")).status, 204);
  }
  auto health = Health(t, "script-guards");
  EXPECT_EQ(Str(health, "status"), "degraded");
  EXPECT_EQ(health.at("guardFailures").as_int64(), 5);
  auto metrics = api().Get("/metrics");
  EXPECT_NE(metrics.body.find(R"(credence_plugin_guard_evaluations_total{plugin="script-guards",outcome=)"),
            std::string::npos);
  // The server is unharmed.
  EXPECT_EQ(api().Get("/healthz").status, 200);
}

TEST_F(PluginGuards, AdmissionHooksAllowDenyAndFailOpen) {
  std::atomic<int> mode{0};  // 0 allow, 1 deny, 2 slow, 3 error
  HookTestServer hook([&mode](const HookTestServer::Request&) {
    HookTestServer::Response r;
    switch (mode.load()) {
      case 0:
        r.body = R"({"allowed":true})";
        break;
      case 1:
        r.body = R"({"allowed":false,"reasonCode":"hook_says_no","message":"No.","metadata":{"why":"test"}})";
        break;
      case 2:
        r.delay_ms = 1500;
        r.body = R"({"allowed":false,"reasonCode":"too_late"})";
        break;
      default:
        r.status = 500;
        break;
    }
    return r;
  });
  auto t = CreateTenant(api(), "hook");
  ExpectProblem(api().Post(kHooks, {{"name", "h"}, {"url", hook.Url("/guard")}}, t.token("admin")), 404,
                "plugin_not_enabled");
  Install(t, "admission-hooks");
  ExpectProblem(api().Post(kHooks, {{"name", "h"}, {"url", "https://169.254.169.254/latest"}}, t.token("admin")), 400,
                "url_not_allowed");
  // The same address, and a private one, in inet_aton's numeric forms (docs/outbound.md).
  for (const char* url : {"https://2852039166/latest", "https://0xa9fea9fe/", "https://0251.0376.0251.0376/",
                          "https://0xa9.0xfe.0xa9.0xfe/", "https://169.254.43518/", "https://167772167/guard",
                          "https://012.0.0.7/guard"}) {
    SCOPED_TRACE(url);
    auto refused = api().Post(kHooks, {{"name", "h"}, {"url", url}}, t.token("admin"));
    ExpectProblem(refused, 400, "url_not_allowed");
    EXPECT_EQ(ErrorFields(refused).count("url"), 1u) << refused.body;
  }
  auto created = api().Post(kHooks, {{"name", "h"}, {"url", hook.Url("/guard")}, {"timeoutMs", 500}}, t.token("admin"));
  ASSERT_EQ(created.status, 201) << created.body;
  EXPECT_EQ(Str(created.Json(), "secret").rfind("whsec_", 0), 0u);
  auto list = api().Get(kHooks, t.token("admin"));
  ASSERT_EQ(list.status, 200);
  EXPECT_FALSE(list.Json().as_array()[0].as_object().contains("secret"));

  const std::string a = Draft(t, "a", "A");
  mode = 1;
  auto denied = Publish(t, a);
  ExpectProblem(denied, 422, "guard_denied");
  EXPECT_EQ(Str(denied.Json(), "reasonCode"), "hook_says_no");
  EXPECT_EQ(Str(denied.Json().at("metadata"), "why"), "test");
  EXPECT_EQ(Str(api().Get("/api/entries/" + a, t.token("editor")).Json(), "status"), "Draft");
  ASSERT_FALSE(hook.Requests().empty());
  EXPECT_NE(hook.Requests().back().body.find("\"Entry.Publish\""), std::string::npos);
  EXPECT_TRUE(hook.Requests().back().headers.count("webhook-signature"));
  mode = 2;
  EXPECT_EQ(Publish(t, a).status, 200);  // timed out: allow
  const std::string b = Draft(t, "b", "B");
  mode = 3;
  EXPECT_EQ(Publish(t, b).status, 200);  // HTTP 500: allow
  auto health = Health(t, "admission-hooks");
  EXPECT_EQ(health.at("guardFailures").as_int64(), 2);
  const std::string c = Draft(t, "c", "C");
  mode = 0;
  EXPECT_EQ(Publish(t, c).status, 200);

  const std::string id = Str(created.Json(), "id");
  EXPECT_EQ(api().Post(std::string(kHooks) + "/" + id + "/disable", json::object{}, t.token("admin")).status, 200);
  EXPECT_EQ(api().Delete(std::string(kHooks) + "/" + id, t.token("admin")).status, 204);
}

}  // namespace
}  // namespace credence::test

namespace credence::test {
namespace {

// A request that takes its time holds one worker thread, and nothing else:
// connections accepted meanwhile go to workers that are free, so health
// checks (and HAProxy's, which open a connection each) answer at once
// (docs/operations.md). The shared server runs two workers.
TEST_F(PluginGuards, ASlowRequestDelaysNoHealthCheck) {
  HookTestServer hook([](const HookTestServer::Request&) {
    HookTestServer::Response r;
    r.delay_ms = 2500;
    r.body = R"({"allowed":true})";
    return r;
  });
  auto t = CreateTenant(api(), "slow-hook");
  Install(t, "admission-hooks");
  ASSERT_EQ(api().Post(kHooks, {{"name", "slow"}, {"url", hook.Url("/guard")}, {"timeoutMs", 4000}}, t.token("admin"))
                .status,
            201);
  const std::string entry = Draft(t, "slow", "Slow");
  std::thread publish([&] {
    HttpClient client(SharedServer().base_url());
    EXPECT_EQ(client.Post("/api/entries/" + entry + "/publish", json::object{}, t.token("editor")).status, 200);
  });
  // Until the hook has the request, the publish has not reached its worker.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (hook.Requests().empty() && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  ASSERT_FALSE(hook.Requests().empty());
  for (int i = 0; i < 8; ++i) {
    HttpClient fresh(SharedServer().base_url());  // a new connection each
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(fresh.Get(i % 2 == 0 ? "/healthz" : "/readyz").status, 200);
    const auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
    EXPECT_LT(took.count(), 500) << "health check " << i << " waited behind the slow request";
  }
  publish.join();
}

}  // namespace
}  // namespace credence::test

namespace credence::test {
namespace {

// An admission hook is asked outside the action's write transaction
// (core/outside_transaction.h): while one tenant's hook takes its time,
// another tenant's writes keep their latency (on SQLite the transaction
// would hold the one write lock), and the hook's verdict still decides the
// action.
TEST_F(PluginGuards, ASlowHookHoldsNoOtherTenantsWrites) {
  std::atomic<bool> deny{false};
  HookTestServer hook([&deny](const HookTestServer::Request&) {
    HookTestServer::Response r;
    r.delay_ms = 2500;
    r.body = deny ? R"({"allowed":false,"reasonCode":"hook_says_no","message":"No."})" : R"({"allowed":true})";
    return r;
  });
  auto slow = CreateTenant(api(), "slow-hook-tenant");
  auto other = CreateTenant(api(), "busy-tenant");
  Install(slow, "admission-hooks");
  ASSERT_EQ(
      api().Post(kHooks, {{"name", "slow"}, {"url", hook.Url("/guard")}, {"timeoutMs", 4000}}, slow.token("admin")).status,
      201);
  for (const bool denied : {false, true}) {
    deny = denied;
    const std::string entry = Draft(slow, denied ? "denied" : "allowed", "Slow");
    const size_t asked_before = hook.Requests().size();
    Response published;
    std::thread publish([&] {
      HttpClient client(SharedServer().base_url());
      published = client.Post("/api/entries/" + entry + "/publish", json::object{}, slow.token("editor"));
    });
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (hook.Requests().size() == asked_before && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    // The hook is thinking: the other tenant writes (on connections of
    // their own, which go to a worker that is not waiting on the hook).
    for (int i = 0; i < 4; ++i) {
      HttpClient fresh(SharedServer().base_url());
      const auto start = std::chrono::steady_clock::now();
      auto created = fresh.Post("/api/hubs",
                                {{"key", "busy-" + std::to_string(denied) + "-" + std::to_string(i)},
                                 {"name", "Busy"},
                                 {"defaultExpiryDays", 90}},
                                other.token("admin"));
      EXPECT_EQ(created.status, 201) << created.body;
      const auto took =
          std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start);
      // Well below the hook's 2.5 s, with room for a busy machine.
      EXPECT_LT(took.count(), 1000) << "a write of another tenant waited " << took.count() << " ms behind the hook (write " << i << ", denied " << denied << ")";
    }
    publish.join();
    if (denied) {
      ExpectProblem(published, 422, "guard_denied");
      EXPECT_EQ(Str(api().Get("/api/entries/" + entry, slow.token("editor")).Json(), "status"), "Draft");
    } else {
      EXPECT_EQ(published.status, 200) << published.body;
    }
    // Asked once per action, though the action ran twice.
    EXPECT_EQ(hook.Requests().size(), asked_before + 1);
  }
}

}  // namespace
}  // namespace credence::test
