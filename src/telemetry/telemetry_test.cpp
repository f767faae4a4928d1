// Tracing's pure parts (W3C parsing, samplers, settings, OTLP/JSON), the
// Span's behaviour with and without a sampled trace, and the exporter's
// queue (docs/tracing.md).
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <thread>

#include "telemetry/exporter.h"
#include "telemetry/otlp_json.h"
#include "telemetry/outbound_call.h"
#include "telemetry/sampler.h"
#include "telemetry/settings.h"
#include "telemetry/span.h"
#include "telemetry/w3c.h"

namespace credence::telemetry {
namespace {

constexpr std::string_view kValid = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

std::string Hex(const auto& bytes) {
  std::string out;
  AppendHex(out, bytes.data(), bytes.size());
  return out;
}

TEST(Traceparent, ParsesTheSpecExample) {
  auto c = ParseTraceparent(kValid);
  ASSERT_TRUE(c);
  EXPECT_EQ(Hex(c->trace_id), "0af7651916cd43dd8448eb211c80319c");
  EXPECT_EQ(Hex(c->span_id), "b7ad6b7169203331");
  EXPECT_TRUE(c->sampled());
  EXPECT_EQ(FormatTraceparent(*c), kValid);
  auto unsampled = ParseTraceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00");
  ASSERT_TRUE(unsampled);
  EXPECT_FALSE(unsampled->sampled());
}

TEST(Traceparent, RefusesWhatTheSpecCallsInvalid) {
  for (std::string_view bad : {
           "",
           "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331",          // no flags
           "00-0AF7651916CD43DD8448EB211C80319C-b7ad6b7169203331-01",       // uppercase
           "00-00000000000000000000000000000000-b7ad6b7169203331-01",       // zero trace id
           "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01",       // zero parent id
           "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",       // version ff
           "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-extra", // 00 is exactly 55
           "00_0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",       // separator
           "00-0af7651916cd43dd8448eb211c8031zz-b7ad6b7169203331-01",       // not hex
           "0-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
       })
    EXPECT_FALSE(ParseTraceparent(bad)) << bad;
}

TEST(Traceparent, AcceptsALaterVersionWithMoreFields) {
  EXPECT_TRUE(ParseTraceparent("01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01-whatever"));
  EXPECT_TRUE(ParseTraceparent("01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"));
  EXPECT_FALSE(ParseTraceparent("01-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01x"));
  // Unknown flags are not passed on, only "sampled".
  EXPECT_EQ(ParseTraceparent("00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-ff")->flags, 1);
}

TEST(Tracestate, PassesOnlyWhatIsWellFormed) {
  EXPECT_TRUE(UsableTracestate("congo=t61rcWkgMzE,rojo=00f067aa0ba902b7"));
  EXPECT_FALSE(UsableTracestate(""));
  EXPECT_FALSE(UsableTracestate(std::string(513, 'a')));
  EXPECT_FALSE(UsableTracestate("a=1\nb=2"));
  std::string many;
  for (int i = 0; i < 33; ++i) many += (i ? ",k" : "k") + std::to_string(i) + "=v";
  EXPECT_FALSE(UsableTracestate(many));
}

TEST(Sampler, FollowsTheParentOrTheRatio) {
  std::array<uint8_t, 16> id{};
  id[15] = 1;
  TraceContext sampled_parent;
  sampled_parent.flags = 1;
  TraceContext unsampled_parent;
  EXPECT_TRUE(Sampler().ShouldSample(nullptr, id));  // parentbased_always_on
  EXPECT_TRUE(Sampler().ShouldSample(&sampled_parent, id));
  EXPECT_FALSE(Sampler().ShouldSample(&unsampled_parent, id));
  EXPECT_FALSE(Sampler(Sampler::Kind::kAlwaysOff, 1).ShouldSample(&sampled_parent, id));
  EXPECT_TRUE(Sampler(Sampler::Kind::kAlwaysOn, 1).ShouldSample(&unsampled_parent, id));
  EXPECT_FALSE(Sampler(Sampler::Kind::kParentBasedAlwaysOff, 1).ShouldSample(nullptr, id));
  EXPECT_TRUE(Sampler(Sampler::Kind::kParentBasedAlwaysOff, 1).ShouldSample(&sampled_parent, id));
  EXPECT_FALSE(Sampler(Sampler::Kind::kTraceIdRatio, 0).ShouldSample(nullptr, id));
  // A quarter of random ids, give or take, and the same id always alike.
  const Sampler quarter(Sampler::Kind::kParentBasedTraceIdRatio, 0.25);
  int kept = 0;
  uint64_t x = 88172645463325252ULL;
  for (int i = 0; i < 20'000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    for (int b = 0; b < 8; ++b) id[8 + b] = static_cast<uint8_t>(x >> (8 * b));
    const bool first = quarter.ShouldSample(nullptr, id);
    EXPECT_EQ(first, quarter.ShouldSample(nullptr, id));
    kept += first ? 1 : 0;
  }
  EXPECT_NEAR(kept / 20'000.0, 0.25, 0.02);
  EXPECT_TRUE(quarter.ShouldSample(&sampled_parent, id));
}

Getenv EnvOf(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

TEST(TracingSettings, OffWithoutAnEndpoint) {
  auto s = ReadTracingSettings(EnvOf({{"OTEL_SERVICE_NAME", "x"}}));
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->enabled);
  EXPECT_EQ(s->sampler.kind(), Sampler::Kind::kParentBasedAlwaysOn);
}

TEST(TracingSettings, ReadsTheStandardVariables) {
  auto s = ReadTracingSettings(EnvOf({{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318"},
                                      {"OTEL_SERVICE_NAME", "credence-eu"},
                                      {"OTEL_RESOURCE_ATTRIBUTES", "service.name=ignored,deployment.environment=prod"},
                                      {"OTEL_TRACES_SAMPLER", "parentbased_traceidratio"},
                                      {"OTEL_TRACES_SAMPLER_ARG", "0.1"},
                                      {"OTEL_EXPORTER_OTLP_HEADERS", "api-key=a%20b, x-team=core"},
                                      {"OTEL_EXPORTER_OTLP_TRACES_HEADERS", "x-team=trust"},
                                      {"OTEL_BSP_SCHEDULE_DELAY", "250"}}));
  ASSERT_TRUE(s) << s.error().detail;
  EXPECT_TRUE(s->enabled);
  EXPECT_EQ(s->endpoint, "http://collector:4318/v1/traces");
  EXPECT_EQ(s->service_name, "credence-eu");
  ASSERT_EQ(s->resource_attributes.size(), 1u);
  EXPECT_EQ(s->resource_attributes[0].first, "deployment.environment");
  EXPECT_EQ(s->sampler.kind(), Sampler::Kind::kParentBasedTraceIdRatio);
  EXPECT_DOUBLE_EQ(s->sampler.ratio(), 0.1);
  ASSERT_EQ(s->headers.size(), 2u);
  EXPECT_EQ(s->headers[0], (std::pair<std::string, std::string>{"api-key", "a b"}));
  EXPECT_EQ(s->headers[1], (std::pair<std::string, std::string>{"x-team", "trust"}));
  EXPECT_EQ(s->schedule_delay_ms, 250);

  auto traces = ReadTracingSettings(EnvOf({{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://a:4318/"},
                                           {"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "https://b/custom/path"}}));
  ASSERT_TRUE(traces);
  EXPECT_EQ(traces->endpoint, "https://b/custom/path");  // as it is
  auto slash = ReadTracingSettings(EnvOf({{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://a:4318/base/"}}));
  EXPECT_EQ(slash->endpoint, "http://a:4318/base/v1/traces");
  auto disabled = ReadTracingSettings(
      EnvOf({{"OTEL_EXPORTER_OTLP_ENDPOINT", "http://a:4318"}, {"OTEL_SDK_DISABLED", "TRUE"}}));
  ASSERT_TRUE(disabled);
  EXPECT_FALSE(disabled->enabled);
}

TEST(TracingSettings, AnInvalidValueNamesItsVariable) {
  const std::map<std::string, std::string> bad[] = {
      {{"OTEL_TRACES_SAMPLER", "sometimes"}},
      {{"OTEL_TRACES_SAMPLER", "traceidratio"}, {"OTEL_TRACES_SAMPLER_ARG", "1.5"}},
      {{"OTEL_TRACES_SAMPLER", "traceidratio"}, {"OTEL_TRACES_SAMPLER_ARG", "half"}},
      {{"OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318"}},
      {{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http:///v1/traces"}},
      {{"OTEL_EXPORTER_OTLP_HEADERS", "novalue"}},
      {{"OTEL_EXPORTER_OTLP_HEADERS", "k=%zz"}},
      {{"OTEL_EXPORTER_OTLP_HEADERS", "k=a%0Db"}},
      {{"OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"}},
      {{"OTEL_BSP_SCHEDULE_DELAY", "-1"}},
      {{"OTEL_BSP_MAX_QUEUE_SIZE", "10"}, {"OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "20"}},
      {{"OTEL_SDK_DISABLED", "yes"}},
  };
  for (const auto& vars : bad) {
    auto s = ReadTracingSettings(EnvOf(vars));
    ASSERT_FALSE(s) << vars.begin()->first;
    const std::string& named = vars.size() == 2 ? std::prev(vars.end())->first : vars.begin()->first;
    EXPECT_TRUE(s.error().detail.starts_with(named + ":") || s.error().detail.starts_with(vars.begin()->first + ":"))
        << s.error().detail;
  }
  // An argument for a sampler that takes none is ignored, as OTel says.
  EXPECT_TRUE(ReadTracingSettings(EnvOf({{"OTEL_TRACES_SAMPLER", "always_on"}, {"OTEL_TRACES_SAMPLER_ARG", "x"}})));
}

// A sink that keeps what it is given.
class Collect final : public SpanSink {
 public:
  void Accept(std::unique_ptr<SpanData> span) override {
    std::lock_guard lock(mu);
    spans.push_back(std::move(span));
  }
  std::mutex mu;
  std::vector<std::unique_ptr<SpanData>> spans;
};

class SpanTest : public ::testing::Test {
 protected:
  void Install(Sampler sampler) { InstallTracer(sampler, &sink_); }
  void TearDown() override {
    UninstallTracer();
    CurrentTraceContext() = {};
  }
  Collect sink_;
};

TEST_F(SpanTest, InertWhenTracingIsOff) {
  {
    Span server = Span::Server("GET /x", kValid, "");
    EXPECT_FALSE(server.recording());
    EXPECT_FALSE(CurrentTraceContext().valid());
    Span child("work");
    EXPECT_FALSE(child.recording());
  }
  EXPECT_TRUE(sink_.spans.empty());
}

TEST_F(SpanTest, ContinuesTheCallersTraceAndNestsChildren) {
  Install(Sampler());
  {
    Span server = Span::Server("GET /x", kValid, "rojo=1");
    ASSERT_TRUE(server.recording());
    EXPECT_EQ(Hex(CurrentTraceContext().trace_id), "0af7651916cd43dd8448eb211c80319c");
    {
      Span child("storage read transaction");
      EXPECT_TRUE(child.recording());
      EXPECT_EQ(CurrentTraceContext().span_id, child.context().span_id);
      OutboundCall call("webhook", "POST", "https://hooks.example:8443/secret/path?k=v");
      const auto lines = call.HeaderLines();
      ASSERT_EQ(lines.size(), 2u);
      EXPECT_EQ(lines[0], "traceparent: " + FormatTraceparent(call.span().context()));
      EXPECT_EQ(lines[1], "tracestate: rojo=1");
      call.Finish(503);
    }
    EXPECT_EQ(CurrentTraceContext().span_id, server.context().span_id);
  }
  EXPECT_FALSE(CurrentTraceContext().valid());
  ASSERT_EQ(sink_.spans.size(), 3u);
  const SpanData& call = *sink_.spans[0];
  const SpanData& child = *sink_.spans[1];
  const SpanData& server = *sink_.spans[2];
  EXPECT_EQ(Hex(server.parent_span_id), "b7ad6b7169203331");
  EXPECT_EQ(server.kind, SpanKind::kServer);
  EXPECT_EQ(child.parent_span_id, server.context.span_id);
  EXPECT_EQ(call.parent_span_id, child.context.span_id);
  EXPECT_EQ(call.name, "POST webhook");
  EXPECT_TRUE(call.error);
  EXPECT_LE(server.start_unix_ns, child.start_unix_ns);
  EXPECT_GE(server.end_unix_ns, child.end_unix_ns);
  // The URL's path and query (secrets, sometimes) are not recorded.
  for (const auto& a : call.attributes)
    if (const auto* s = std::get_if<std::string>(&a.value)) {
      EXPECT_EQ(s->find("secret"), std::string::npos) << a.key;
    }
}

TEST_F(SpanTest, AnUnsampledTraceKeepsItsIdsButRecordsNothing) {
  Install(Sampler(Sampler::Kind::kAlwaysOff, 1));
  {
    Span server = Span::Server("GET /x", "", "");
    EXPECT_FALSE(server.recording());
    EXPECT_TRUE(CurrentTraceContext().valid());  // log lines name it
    Span child("work");
    EXPECT_FALSE(child.recording());
    EXPECT_EQ(CurrentTraceContext().span_id, server.context().span_id);
    OutboundCall call("webhook", "POST", "http://h/");
    ASSERT_EQ(call.HeaderLines().size(), 1u);
    EXPECT_TRUE(call.HeaderLines()[0].ends_with("-00"));  // the callee is told: not sampled
  }
  EXPECT_TRUE(sink_.spans.empty());
}

TEST_F(SpanTest, AnInvalidTraceparentStartsANewTrace) {
  Install(Sampler());
  {
    Span server = Span::Server("GET /x", "00-0af7651916cd43dd8448eb211c80319c-0000000000000000-01", "rojo=1");
    ASSERT_TRUE(server.recording());
    EXPECT_NE(Hex(server.context().trace_id), "0af7651916cd43dd8448eb211c80319c");
    EXPECT_TRUE(server.context().tracestate.empty());  // not without its traceparent
  }
  ASSERT_EQ(sink_.spans.size(), 1u);
  EXPECT_EQ(sink_.spans[0]->parent_span_id, (std::array<uint8_t, 8>{}));
}

TEST_F(SpanTest, ADeactivatedSpanEndsOnAnotherThread) {
  Install(Sampler());
  Span server = Span::Server("POST /api/trust/evaluate", kValid, "");
  server.Deactivate();
  EXPECT_FALSE(CurrentTraceContext().valid());
  const TraceContext trace = server.context();
  std::thread([&] {
    ScopedTraceContext in_trace(trace);
    Span finish("finish");
    EXPECT_TRUE(finish.recording());
    finish.End();
    server.End();
  }).join();
  ASSERT_EQ(sink_.spans.size(), 2u);
  EXPECT_EQ(sink_.spans[0]->parent_span_id, trace.span_id);
}

TEST(OtlpJson, EncodesTheProtoJsonMapping) {
  auto span = std::make_unique<SpanData>();
  span->context = *ParseTraceparent(kValid);
  span->parent_span_id = {1, 2, 3, 4, 5, 6, 7, 8};
  span->name = "GET \"quoted\"";
  span->kind = SpanKind::kServer;
  span->start_unix_ns = 1'700'000'000'000'000'000;
  span->end_unix_ns = 1'700'000'000'000'000'500;
  span->attributes = {{"http.response.status_code", int64_t{503}}, {"ok", false}, {"s", std::string("v")}};
  span->error = true;
  span->status_message = "HTTP 503";
  std::vector<std::unique_ptr<SpanData>> spans;
  spans.push_back(std::move(span));
  const std::string body = EncodeOtlpJson({"credence", "0.1.0", {{"deployment.environment", "test"}}}, spans);
  const auto doc = boost::json::parse(body);
  const auto& rs = doc.at("resourceSpans").at(0);
  EXPECT_EQ(rs.at("resource").at("attributes").at(0).at("value").at("stringValue"), "credence");
  const auto& s = rs.at("scopeSpans").at(0).at("spans").at(0);
  EXPECT_EQ(s.at("traceId"), "0af7651916cd43dd8448eb211c80319c");
  EXPECT_EQ(s.at("spanId"), "b7ad6b7169203331");
  EXPECT_EQ(s.at("parentSpanId"), "0102030405060708");
  EXPECT_EQ(s.at("name"), "GET \"quoted\"");
  EXPECT_EQ(s.at("kind"), 2);
  EXPECT_EQ(s.at("startTimeUnixNano"), "1700000000000000000");
  EXPECT_EQ(s.at("attributes").at(0).at("value").at("intValue"), "503");
  EXPECT_EQ(s.at("attributes").at(1).at("value").at("boolValue"), false);
  EXPECT_EQ(s.at("status").at("code"), 2);
}

std::unique_ptr<SpanData> SomeSpan() {
  auto span = std::make_unique<SpanData>();
  span->context = *ParseTraceparent(kValid);
  span->name = "s";
  return span;
}

TEST(BatchExporter, BatchesBySizeAndFlushesOnShutdown) {
  std::mutex mu;
  std::vector<size_t> batches;
  BatchExporter exporter({.resource = {"credence", "", {}}, .schedule_delay_ms = 60'000, .max_queue_size = 100,
                          .max_batch_size = 3},
                         [&](const std::string& body) {
                           const auto doc = boost::json::parse(body);
                           std::lock_guard lock(mu);
                           batches.push_back(
                               doc.at("resourceSpans").at(0).at("scopeSpans").at(0).at("spans").as_array().size());
                           return std::string();
                         });
  for (int i = 0; i < 7; ++i) exporter.Accept(SomeSpan());
  // Two full batches go at once, long before the minute's delay.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (exporter.exported() < 6 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(exporter.exported(), 6u);
  exporter.Shutdown();  // the last one
  EXPECT_EQ(exporter.exported(), 7u);
  EXPECT_EQ(batches, (std::vector<size_t>{3, 3, 1}));
  exporter.Accept(SomeSpan());  // after shutdown: dropped, counted
  EXPECT_EQ(exporter.dropped(), 1u);
}

TEST(BatchExporter, DropsAndCountsWhenTheQueueIsFull) {
  std::atomic<bool> release{false};
  std::atomic<int> sent{0};
  BatchExporter exporter({.resource = {"credence", "", {}}, .schedule_delay_ms = 10, .max_queue_size = 4,
                          .max_batch_size = 2},
                         [&](const std::string&) {
                           // A collector that hangs: the queue fills behind it.
                           while (!release) std::this_thread::sleep_for(std::chrono::milliseconds(1));
                           ++sent;
                           return std::string("unreachable");
                         });
  exporter.Accept(SomeSpan());
  exporter.Accept(SomeSpan());
  // The thread takes the first two and hangs on them.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  for (int i = 0; i < 10; ++i) exporter.Accept(SomeSpan());  // never blocks
  EXPECT_EQ(exporter.dropped(), 6u);
  release = true;
  exporter.Shutdown();
  EXPECT_EQ(exporter.failed(), 6u);
  EXPECT_EQ(exporter.exported(), 0u);
}

TEST(HostPort, OfTheUrlsOutboundCallsMake) {
  EXPECT_EQ(HostPortOf("https://hooks.slack.com/services/T/B/X").host, "hooks.slack.com");
  EXPECT_EQ(HostPortOf("https://hooks.slack.com/services/T/B/X").port, 443);
  EXPECT_EQ(HostPortOf("http://user:pw@127.0.0.1:8080/x").host, "127.0.0.1");
  EXPECT_EQ(HostPortOf("http://user:pw@127.0.0.1:8080/x").port, 8080);
  EXPECT_EQ(HostPortOf("http://[::1]:9/x").host, "::1");
  EXPECT_EQ(HostPortOf("not a url").host, "");
}

}  // namespace
}  // namespace credence::telemetry
