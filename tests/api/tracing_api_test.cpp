// Tracing (issue 25, docs/tracing.md): OpenTelemetry spans over OTLP/HTTP
// JSON to a receiver on loopback, configured by the OTEL_* variables; the
// caller's W3C traceparent continued, and sent on to an admission hook; the
// trace id in the request's log lines; sampling off sends nothing; a bad
// traceparent starts a new trace; a bad setting stops the start. Each test
// starts a server of its own (the variables are read at start).
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <boost/json.hpp>

#include "plugins/admission/testing/hook_test_server.h"
#include "support/api_fixture.h"
#include "support/http_client.h"
#include "support/kb_fixture.h"
#include "support/server_process.h"
#include "support/sinks.h"

namespace credence::test {
namespace {
namespace json = boost::json;
using plugins::admission::test::HookTestServer;

constexpr char kTraceId[] = "4bf92f3577b34da6a3ce929d0e0e4736";
constexpr char kCallerSpanId[] = "00f067aa0ba902b7";
const std::string kTraceparent = std::string("00-") + kTraceId + "-" + kCallerSpanId + "-01";

// Sets environment variables for the servers started in its scope (a child
// process takes the environment it is forked with), then removes them.
class ScopedEnv {
 public:
  explicit ScopedEnv(std::map<std::string, std::string> vars) : vars_(std::move(vars)) {
    for (const auto& [k, v] : vars_) ::setenv(k.c_str(), v.c_str(), 1);
  }
  ~ScopedEnv() {
    for (const auto& [k, v] : vars_) ::unsetenv(k.c_str());
  }

 private:
  std::map<std::string, std::string> vars_;
};

struct ReceivedSpan {
  std::string trace_id, span_id, parent_span_id, name;
  int64_t kind = 0;
  json::object attributes;  // key -> the OTLP value object
  std::string Attr(const std::string& key) const {
    const auto* v = attributes.if_contains(key);
    if (v == nullptr || !v->is_object() || v->as_object().empty()) return "";
    const json::value& inner = v->as_object().begin()->value();
    return inner.is_string() ? std::string(inner.as_string()) : json::serialize(inner);
  }
};

// An OTLP/HTTP receiver: every POST /v1/traces answered 200, kept.
class Collector {
 public:
  Collector() : server_([](const HookTestServer::Request&) {
    HookTestServer::Response r;
    r.body = "{}";
    return r;
  }) {}
  std::string endpoint() const { return server_.Url(""); }
  size_t posts() const { return server_.Requests().size(); }
  std::vector<ReceivedSpan> Spans() const {
    std::vector<ReceivedSpan> out;
    for (const auto& request : server_.Requests()) {
      EXPECT_EQ(request.target, "/v1/traces");
      EXPECT_EQ(request.headers.count("content-type") ? request.headers.at("content-type") : "", "application/json");
      const json::value doc = json::parse(request.body);
      for (const auto& rs : doc.at("resourceSpans").as_array())
        for (const auto& ss : rs.at("scopeSpans").as_array())
          for (const auto& s : ss.at("spans").as_array()) {
            ReceivedSpan span;
            span.trace_id = json::value_to<std::string>(s.at("traceId"));
            span.span_id = json::value_to<std::string>(s.at("spanId"));
            if (const auto* p = s.as_object().if_contains("parentSpanId"))
              span.parent_span_id = json::value_to<std::string>(*p);
            span.name = json::value_to<std::string>(s.at("name"));
            span.kind = s.at("kind").to_number<int64_t>();
            for (const auto& a : s.at("attributes").as_array())
              span.attributes[a.at("key").as_string()] = a.at("value");
            out.push_back(std::move(span));
          }
    }
    return out;
  }
  // The first span named `name` in `trace_id` (waits up to 10 s for it).
  std::optional<ReceivedSpan> Find(const std::string& trace_id, const std::string& name) const {
    std::optional<ReceivedSpan> found;
    WaitUntil(
        [&] {
          for (auto& s : Spans())
            if (s.trace_id == trace_id && s.name == name) {
              found = s;
              return true;
            }
          return false;
        },
        std::chrono::seconds(10));
    return found;
  }
  std::string ResourceServiceName() const {
    const auto requests = server_.Requests();
    if (requests.empty()) return "";
    const json::value doc = json::parse(requests.front().body);
    for (const auto& a : doc.at("resourceSpans").at(0).at("resource").at("attributes").as_array())
      if (a.at("key") == "service.name") return json::value_to<std::string>(a.at("value").at("stringValue"));
    return "";
  }

 private:
  HookTestServer server_;
};

class TracingApi : public ::testing::Test {
 protected:
  void SetUp() override {
    if (BackendUnavailable()) GTEST_SKIP() << "backend unavailable";
  }
  void Start(std::map<std::string, std::string> env) {
    env.emplace("OTEL_EXPORTER_OTLP_ENDPOINT", collector_.endpoint());
    env.emplace("OTEL_BSP_SCHEDULE_DELAY", "100");  // tests should not wait 5 s for a batch
    env.emplace("OTEL_SERVICE_NAME", "credence-under-test");
    ScopedEnv scoped(std::move(env));
    server_ = std::make_unique<ServerProcess>();
    client_ = std::make_unique<HttpClient>(server_->base_url());
  }
  HttpClient& api() { return *client_; }

  std::string MachineKey(const TestTenant& t) {
    auto r = api().Post("/apikeys", {{"name", "bot"}, {"scopes", {"trust:evaluate"}}}, t.token("admin"));
    EXPECT_EQ(r.status, 201) << r.body;
    return r.status == 201 ? Str(r.Json(), "clientSecret") : "";
  }
  Response Evaluate(const std::string& key, const Headers& more) {
    Headers headers{{"X-Api-Key", key}};
    headers.insert(headers.end(), more.begin(), more.end());
    return api().Send("POST", "/api/trust/evaluate", R"({"sources":["wiki:unknown"]})", "", headers);
  }
  // The server's log lines that mention `text`.
  std::vector<std::string> LogLinesWith(const std::string& text) const {
    std::vector<std::string> out;
    std::istringstream in(server_->ReadLog());
    for (std::string line; std::getline(in, line);)
      if (line.find(text) != std::string::npos) out.push_back(line);
    return out;
  }

  Collector collector_;
  std::unique_ptr<ServerProcess> server_;
  std::unique_ptr<HttpClient> client_;
};

TEST_F(TracingApi, SpansArriveInTheCallersTrace) {
  Start({});
  auto t = CreateTenant(api(), "trace");
  const std::string key = MachineKey(t);
  auto r = Evaluate(key, {{"traceparent", kTraceparent}, {"tracestate", "congo=t61rcWkgMzE"}});
  ASSERT_EQ(r.status, 200) << r.body;

  auto request = collector_.Find(kTraceId, "POST /api/trust/evaluate");
  ASSERT_TRUE(request) << "no request span in the caller's trace";
  EXPECT_EQ(request->parent_span_id, kCallerSpanId);  // the caller's span is its parent
  EXPECT_EQ(request->kind, 2);                        // SPAN_KIND_SERVER
  EXPECT_EQ(request->Attr("http.route"), "/api/trust/evaluate");
  EXPECT_EQ(request->Attr("http.request.method"), "POST");
  EXPECT_EQ(request->Attr("http.response.status_code"), "200");
  EXPECT_EQ(request->Attr("credence.tenant_id"), t.id);

  auto evaluate = collector_.Find(kTraceId, "trust evaluate");
  ASSERT_TRUE(evaluate);
  EXPECT_EQ(evaluate->parent_span_id, request->span_id);
  EXPECT_EQ(evaluate->Attr("credence.trust.sources"), "1");
  EXPECT_EQ(evaluate->Attr("credence.trust.decision_id"), Str(r.Json(), "decisionId"));
  // The first evaluation of a source reads the store.
  auto read = collector_.Find(kTraceId, "storage read transaction");
  ASSERT_TRUE(read);
  EXPECT_EQ(read->parent_span_id, evaluate->span_id);
  EXPECT_EQ(read->Attr("credence.transaction.outcome"), "rollback");
  EXPECT_EQ(collector_.ResourceServiceName(), "credence-under-test");

  // The request's log lines carry the trace id, the access line included.
  const auto lines = LogLinesWith(std::string("\"traceId\":\"") + kTraceId + "\"");
  bool access_line = false;
  for (const auto& line : lines)
    access_line = access_line || (line.find("\"msg\":\"request\"") != std::string::npos &&
                                  line.find("/api/trust/evaluate") != std::string::npos);
  EXPECT_TRUE(access_line) << server_->ReadLog();
}

TEST_F(TracingApi, AnAdmissionHookCallCarriesTheTrace) {
  Start({});
  HookTestServer hook([](const HookTestServer::Request&) {
    HookTestServer::Response r;
    r.body = R"({"allowed":true})";
    return r;
  });
  auto t = CreateTenant(api(), "trace-hook");
  ASSERT_EQ(api().Post("/api/tenant/plugins/admission-hooks/install", json::object{}, t.token("admin")).status, 201);
  ASSERT_EQ(api()
                .Post("/api/plugins/admission-hooks/hooks", {{"name", "h"}, {"url", hook.Url("/guard")}},
                      t.token("admin"))
                .status,
            201);
  MakeHub(api(), t.token("admin"), "docs", "Editor");
  auto draft = api().Post(
      "/api/entries",
      {{"hubKey", "docs"}, {"key", "e"}, {"originalLanguage", "en"}, {"title", "Policy"}, {"content", Doc({"Body"})}},
      t.token("editor"));
  ASSERT_EQ(draft.status, 201) << draft.body;
  auto published = api().Send("POST", "/api/entries/" + Str(draft.Json(), "id") + "/publish", "{}",
                              t.token("editor"), {{"traceparent", kTraceparent}});
  ASSERT_EQ(published.status, 200) << published.body;

  const auto requests = hook.Requests();
  ASSERT_FALSE(requests.empty());
  const auto& asked = requests.back();
  ASSERT_TRUE(asked.headers.count("traceparent")) << "the hook was called without a traceparent";
  const std::string sent = asked.headers.at("traceparent");
  ASSERT_EQ(sent.size(), 55u) << sent;
  EXPECT_EQ(sent.substr(3, 32), kTraceId);
  EXPECT_TRUE(sent.ends_with("-01"));
  // Its parent is the client span of the call, itself in the request's trace.
  auto call = collector_.Find(kTraceId, "POST admission-hook");
  ASSERT_TRUE(call);
  EXPECT_EQ(sent.substr(36, 16), call->span_id);
  EXPECT_EQ(call->kind, 3);  // SPAN_KIND_CLIENT
  EXPECT_EQ(call->Attr("server.address"), "127.0.0.1");
  EXPECT_EQ(call->Attr("http.response.status_code"), "200");
  auto request = collector_.Find(kTraceId, "POST /api/entries/{id}/publish");
  ASSERT_TRUE(request);
  EXPECT_TRUE(collector_.Find(kTraceId, "plugins guards"));
  EXPECT_TRUE(collector_.Find(kTraceId, "storage write transaction"));
}

TEST_F(TracingApi, ABadTraceparentStartsANewTrace) {
  Start({});
  const std::string bad = std::string("00-") + "4BF92F3577B34DA6A3CE929D0E0E4736" + "-" + kCallerSpanId + "-01";
  ASSERT_EQ(api().Send("GET", "/auth/dev-tenants", "", "", {{"traceparent", bad}}).status, 200);
  std::optional<ReceivedSpan> span;
  ASSERT_TRUE(WaitUntil(
      [&] {
        for (auto& s : collector_.Spans())
          if (s.name == "GET /auth/dev-tenants") span = s;
        return span.has_value();
      },
      std::chrono::seconds(10)));
  EXPECT_NE(span->trace_id, "4bf92f3577b34da6a3ce929d0e0e4736");
  EXPECT_EQ(span->trace_id.size(), 32u);
  EXPECT_EQ(span->parent_span_id, "");  // a root: the bad parent is not used
  EXPECT_FALSE(LogLinesWith("\"traceId\":\"" + span->trace_id + "\"").empty());
}

TEST_F(TracingApi, SamplingOffSendsNothing) {
  Start({{"OTEL_TRACES_SAMPLER", "always_off"}});
  auto t = CreateTenant(api(), "trace-off");
  const std::string key = MachineKey(t);
  // always_off overrides even a caller that sampled its trace.
  ASSERT_EQ(Evaluate(key, {{"traceparent", kTraceparent}}).status, 200);
  ASSERT_EQ(Evaluate(key, {}).status, 200);
  std::this_thread::sleep_for(std::chrono::milliseconds(1000));  // ten export periods
  EXPECT_EQ(collector_.posts(), 0u);
  // The trace is still named in the logs, for correlation with the caller.
  EXPECT_FALSE(LogLinesWith(std::string("\"traceId\":\"") + kTraceId + "\"").empty());
}

TEST_F(TracingApi, AnInvalidSettingStopsTheStartNamingTheVariable) {
  for (const auto& [variable, value] : std::vector<std::pair<std::string, std::string>>{
           {"OTEL_TRACES_SAMPLER", "sometimes"},
           {"OTEL_TRACES_SAMPLER_ARG", "2"},
           {"OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318"}}) {
    std::map<std::string, std::string> env{{variable, value}};
    if (variable == "OTEL_TRACES_SAMPLER_ARG") env["OTEL_TRACES_SAMPLER"] = "traceidratio";
    ScopedEnv scoped(env);
    // A data directory it cannot create: were the setting accepted, the
    // start would fail there (exit 1) instead of serving forever.
    const CommandResult r = RunCredence({"serve", "--dev", "--data-dir", "/proc/credence-nowhere", "--listen",
                                         "127.0.0.1:" + std::to_string(FreePort())});
    EXPECT_EQ(r.exit_code, 2) << variable << ": " << r.err;
    EXPECT_NE(r.err.find(variable + ":"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace credence::test
