// The MCP endpoint and its OAuth metadata through the real server, so that
// every answer is checked against the served OpenAPI document (the client
// libraries' own tests are tests/mcp: the SDK and the Inspector).
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <chrono>

#include "core/clock.h"
#include "support/api_fixture.h"
#include "support/kb_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

class McpApi : public ApiTest {
 protected:
  struct World {
    TestTenant t;
    std::string entry;
    std::string key;
    std::string client_id;
  };

  World Make(const std::string& prefix) {
    World w{CreateTenant(api(), prefix), "", "", ""};
    EXPECT_EQ(api().Post("/api/hubs", {{"key", "kb"}, {"name", "KB"}, {"defaultExpiryDays", 365},
                                       {"defaultOrgRole", "Editor"}},
                         w.t.token("admin"))
                  .status,
              201);
    w.entry = Str(MakeEntry(api(), w.t.token("editor"), "kb", "refunds", {"Refunds take five days."}), "id");
    auto app = api().Post("/trust-admin/apps", {{"name", "Agent"}, {"channel", "internal"}, {"risk", "low"}},
                          w.t.token("admin"));
    EXPECT_EQ(app.status, 201) << app.body;
    auto key = api().Post("/trust-admin/apps/" + Str(app.Json(), "id") + "/keys",
                          {{"name", "k"}, {"expiresAt", FormatTimestamp(NowMs() + 86'400'000)}}, w.t.token("admin"));
    EXPECT_EQ(key.status, 201) << key.body;
    w.key = Str(key.Json(), "clientSecret");
    w.client_id = Str(key.Json(), "clientId");
    return w;
  }

  Response Mcp(const json::value& message, const std::string& key, Headers extra = {}) {
    Headers headers{{"Accept", "application/json, text/event-stream"}, {"Content-Type", "application/json"}};
    if (!key.empty()) headers.emplace_back("X-Api-Key", key);
    for (auto& h : extra) headers.push_back(std::move(h));
    return api().Send("POST", "/mcp", json::serialize(message), "", headers);
  }

  static int64_t NowMs() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  }
};

TEST_F(McpApi, MetadataAndTheChallenge) {
  auto prm = api().Get("/.well-known/oauth-protected-resource/mcp");
  ASSERT_EQ(prm.status, 200) << prm.body;
  const std::string resource = Str(prm.Json(), "resource");
  EXPECT_TRUE(resource.ends_with("/mcp"));
  EXPECT_EQ(api().Get("/.well-known/oauth-protected-resource").body, prm.body);
  auto as = api().Get("/.well-known/oauth-authorization-server");
  ASSERT_EQ(as.status, 200);
  EXPECT_TRUE(as.Json().at("response_types_supported").as_array().empty());
  auto authorize = api().Get("/connect/authorize?response_type=code");
  EXPECT_EQ(authorize.status, 400);
  EXPECT_EQ(Str(authorize.Json(), "error"), "unsupported_response_type");

  auto unauthenticated = Mcp({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "ping"}}, "");
  EXPECT_EQ(unauthenticated.status, 401);
  EXPECT_NE(unauthenticated.Header("www-authenticate").find("resource_metadata=\""), std::string::npos);
}

TEST_F(McpApi, ExchangesAndErrors) {
  auto w = Make("mcp-api");
  auto init = Mcp({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "initialize"},
                   {"params", {{"protocolVersion", "2025-11-25"}, {"capabilities", json::object{}},
                               {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}},
                  w.key);
  ASSERT_EQ(init.status, 200) << init.body;
  EXPECT_EQ(init.Json().at("result").at("protocolVersion"), "2025-11-25");
  EXPECT_EQ(Mcp({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}}, w.key).status, 202);
  auto parse = api().Send("POST", "/mcp", "{", "",
                          {{"Accept", "application/json, text/event-stream"}, {"Content-Type", "application/json"},
                           {"X-Api-Key", w.key}});
  EXPECT_EQ(parse.status, 400);
  EXPECT_EQ(parse.Json().at("error").at("code"), -32700);
  auto version = Mcp({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "tools/list"}}, w.key,
                     {{"MCP-Protocol-Version", "2024-11-05"}});
  EXPECT_EQ(version.status, 400);
  EXPECT_EQ(version.Json().at("error").at("code"), -32022);
  auto origin = Mcp({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "ping"}}, w.key, {{"Origin", "http://evil.example"}});
  ExpectProblem(origin, 403, "origin_not_allowed");
  auto person = api().Send("POST", "/mcp", R"({"jsonrpc":"2.0","id":4,"method":"ping"})", w.t.token("admin"),
                           {{"Accept", "application/json, text/event-stream"}, {"Content-Type", "application/json"}});
  ExpectProblem(person, 403, "app_key_required");
  auto form = api().Send("POST", "/connect/token",
                         "grant_type=client_credentials&client_id=" + w.client_id + "&client_secret=" + w.key +
                             "&resource=https%3A%2F%2Felsewhere.example%2Fmcp",
                         "", {{"Content-Type", "application/x-www-form-urlencoded"}});
  EXPECT_EQ(form.status, 400);
  EXPECT_EQ(Str(form.Json(), "error"), "invalid_target");
}

TEST_F(McpApi, AnotherTenantsEntryReadsLikeAnUnknownOne) {
  auto a = Make("mcp-iso-a");
  auto b = Make("mcp-iso-b");
  auto read = [&](const World& caller, const std::string& entry) {
    return Mcp({{"jsonrpc", "2.0"}, {"id", 5}, {"method", "tools/call"},
                {"params", {{"name", "read_entry"}, {"arguments", {{"entryId", entry}}}}}},
               caller.key, {{"MCP-Protocol-Version", "2025-11-25"}});
  };
  auto own = read(a, a.entry);  // a draft: blocked, but resolved
  ASSERT_EQ(own.status, 200) << own.body;
  EXPECT_EQ(own.Json().at("result").at("structuredContent").at("decision"), "block");
  auto foreign = read(a, b.entry);
  ASSERT_EQ(foreign.status, 200) << foreign.body;
  const json::value body = foreign.Json();  // Json() answers a value: keep it alive
  const auto& result = body.at("result");
  EXPECT_TRUE(result.at("isError").as_bool());
  EXPECT_TRUE(result.at("structuredContent").at("entryId").is_null()) << foreign.body;
  EXPECT_EQ(foreign.body.find("Entry refunds"), std::string::npos) << foreign.body;
}

}  // namespace
}  // namespace credence::test
