// The admission hook against a real HTTP server on loopback. The server
// verifies the Standard Webhooks signature itself, with OpenSSL's HMAC, not
// with the client's code.
#include "plugins/admission/admission_hook.h"
#include "plugins/admission/internal/answer.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "plugins/admission/testing/hook_test_server.h"

namespace credence::plugins::admission {
namespace {

namespace json = boost::json;
using test::HookTestServer;
using Kind = HookVerdict::Kind;

// The Standard Webhooks test vector's secret.
constexpr const char* kSecret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
constexpr const char* kContext =
    R"({"action":"Entry.Publish","tenantId":"t1","userId":"u1","entityId":"e1","properties":{"hubKey":"hr"}})";

std::string Base64Decode(const std::string& text) {
  std::string out(text.size() / 4 * 3, '\0');
  const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
  size_t len = static_cast<size_t>(n);
  if (!text.empty() && text.back() == '=') --len;
  if (text.size() >= 2 && text[text.size() - 2] == '=') --len;
  out.resize(len);
  return out;
}

// "v1," + base64(HMAC-SHA256(decoded secret, id.timestamp.body)), written
// here independently of notify's code.
std::string ExpectedSignature(const std::string& secret, const std::string& id, const std::string& timestamp,
                              const std::string& body) {
  const std::string key = Base64Decode(secret.substr(6));
  const std::string content = id + "." + timestamp + "." + body;
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(content.data()),
       content.size(), digest, &length);
  std::string out(4 * ((length + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), digest, static_cast<int>(length));
  out.resize(static_cast<size_t>(n));
  return "v1," + out;
}

bool SignatureValid(const HookTestServer::Request& r) {
  const auto id = r.headers.find("webhook-id");
  const auto ts = r.headers.find("webhook-timestamp");
  const auto sig = r.headers.find("webhook-signature");
  if (id == r.headers.end() || ts == r.headers.end() || sig == r.headers.end()) return false;
  return sig->second == ExpectedSignature(kSecret, id->second, ts->second, r.body);
}

HookTestServer::Response JsonAnswer(const std::string& body, int status = 200) {
  HookTestServer::Response r;
  r.status = status;
  r.body = body;
  return r;
}

outbound::Policy DevPolicy() { return {.allow_private = false, .allow_loopback = true}; }

HookRequest Request(const std::string& url, int64_t timeout_ms = 2000) {
  HookRequest r;
  r.url = url;
  r.secret = kSecret;
  r.context_json = kContext;
  r.timeout_ms = timeout_ms;
  r.policy = DevPolicy();
  return r;
}

// A server answering `body` (JSON, 200) to every request, for one test.
HookVerdict CallAnswering(const std::string& body, int status = 200) {
  HookTestServer server([&](const HookTestServer::Request&) { return JsonAnswer(body, status); });
  return Call(Request(server.Url("/guard")));
}

TEST(AdmissionHookTest, TheTestsVerifierMatchesTheStandardWebhooksVector) {
  EXPECT_EQ(ExpectedSignature(kSecret, "msg_p5jXN8AQM9LWM0D4loKWxJek", "1614265330", R"({"test": 2432232314})"),
            "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
}

TEST(AdmissionHookTest, AllowsAndSendsASignedGuardRequest) {
  HookTestServer server([](const HookTestServer::Request& r) {
    return JsonAnswer(SignatureValid(r) ? R"({"allowed": true})" : R"({"allowed": false, "reasonCode": "bad_sig"})");
  });
  const auto v = Call(Request(server.Url("/guard?x=1")));
  EXPECT_EQ(v.kind, Kind::kAllow) << v.error << v.reason_code;
  EXPECT_EQ(v.http_status, 200);
  EXPECT_EQ(v.metadata_json, "{}");
  ASSERT_EQ(server.Requests().size(), 1u);
  const auto r = server.Requests()[0];
  EXPECT_EQ(r.method, "POST");
  EXPECT_EQ(r.target, "/guard?x=1");
  EXPECT_EQ(r.headers.at("content-type"), "application/json");
  EXPECT_TRUE(SignatureValid(r));
  EXPECT_EQ(r.headers.at("webhook-id").size(), 36u);  // a UUID
  const int64_t ts = std::stoll(r.headers.at("webhook-timestamp"));
  const int64_t now =
      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  EXPECT_LE(std::abs(now - ts), 5);
  EXPECT_TRUE(r.headers.at("webhook-signature").starts_with("v1,"));
  const json::value body = json::parse(r.body);
  EXPECT_EQ(body.at("type").as_string(), "guard.request");
  EXPECT_TRUE(body.at("timestamp").is_string());
  EXPECT_EQ(body.at("data"), json::parse(kContext));
}

TEST(AdmissionHookTest, ATamperedBodyFailsTheIndependentCheck) {
  HookTestServer server([](const HookTestServer::Request&) { return JsonAnswer(R"({"allowed": true})"); });
  (void)Call(Request(server.Url("/")));
  auto r = server.Requests().at(0);
  r.body += " ";
  EXPECT_FALSE(SignatureValid(r));
}

TEST(AdmissionHookTest, DeniesWithReasonMessageAndMetadata) {
  const auto v = CallAnswering(
      R"({"allowed": false, "reasonCode": "missing_approval", "message": "Needs an approval by an editor.",
          "metadata": {"approvers": ["ann", "bo"], "count": 2}})");
  EXPECT_EQ(v.kind, Kind::kDeny) << v.error;
  EXPECT_EQ(v.reason_code, "missing_approval");
  EXPECT_EQ(v.message, "Needs an approval by an editor.");
  EXPECT_EQ(json::parse(v.metadata_json), json::parse(R"({"approvers": ["ann", "bo"], "count": 2})"));
  EXPECT_TRUE(v.error.empty());
}

TEST(AdmissionHookTest, ADenialWithoutMessageOrMetadataGetsDefaults) {
  const auto v = CallAnswering(R"({"allowed": false, "reasonCode": "no"})");
  EXPECT_EQ(v.kind, Kind::kDeny) << v.error;
  EXPECT_FALSE(v.message.empty());
  EXPECT_EQ(v.metadata_json, "{}");
}

TEST(AdmissionHookTest, MalformedAnswersAreErrors) {
  const std::string big_metadata =
      R"({"allowed": false, "reasonCode": "x", "metadata": {"a": ")" + std::string(9000, 'a') + R"("}})";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"not json", "bad answer: not JSON"},
      {"", "bad answer: not JSON"},
      {"[true]", "bad answer: not a JSON object"},
      {R"({"allow": true})", "bad answer: \"allowed\" is missing"},
      {R"({"allowed": "yes"})", "bad answer: \"allowed\" is missing"},
      {R"({"allowed": false})", "bad answer: a denial needs \"reasonCode\""},
      {R"({"allowed": false, "reasonCode": "Not-Snake"})", "bad answer: a denial needs \"reasonCode\""},
      {R"({"allowed": false, "reasonCode": ")" + std::string(101, 'a') + "\"}", "bad answer: a denial needs"},
      {R"({"allowed": false, "reasonCode": "x", "message": 5})", "bad answer: \"message\""},
      {R"({"allowed": false, "reasonCode": "x", "message": ")" + std::string(1001, 'm') + "\"}",
       "bad answer: \"message\""},
      {R"({"allowed": false, "reasonCode": "x", "metadata": []})", "bad answer: \"metadata\" must be an object"},
      {big_metadata, "bad answer: \"metadata\" is larger than 8 KiB"},
  };
  HookTestServer server([&](const HookTestServer::Request& r) {
    return JsonAnswer(cases.at(static_cast<size_t>(std::stoi(r.target.substr(1)))).first);
  });
  for (size_t i = 0; i < cases.size(); ++i) {
    const auto v = Call(Request(server.Url("/" + std::to_string(i))));
    EXPECT_EQ(v.kind, Kind::kError) << i;
    EXPECT_TRUE(v.error.starts_with(cases[i].second)) << i << ": " << v.error;
    EXPECT_EQ(v.http_status, 200) << i;
  }
}

TEST(AdmissionHookTest, LimitsCountCodePointsAndAllowIgnoresExtras) {
  std::string message;
  for (int i = 0; i < 1000; ++i) message += "\xc3\xa9";  // 1000 code points, 2000 bytes
  auto v = CallAnswering(R"({"allowed": false, "reasonCode": "a1_b2", "message": ")" + message + "\"}");
  EXPECT_EQ(v.kind, Kind::kDeny) << v.error;
  EXPECT_EQ(v.message, message);
  v = CallAnswering(R"({"allowed": true, "reasonCode": "Ignored Here", "extra": 1})");
  EXPECT_EQ(v.kind, Kind::kAllow) << v.error;
}

TEST(AdmissionHookTest, Non2xxIsAnError) {
  auto v = CallAnswering(R"({"allowed": false, "reasonCode": "x"})", 500);
  EXPECT_EQ(v.kind, Kind::kError);
  EXPECT_EQ(v.error, "HTTP 500");
  EXPECT_EQ(v.http_status, 500);
  v = CallAnswering(R"({"allowed": true})", 403);
  EXPECT_EQ(v.error, "HTTP 403");
}

TEST(AdmissionHookTest, RedirectsAreNotFollowed) {
  HookTestServer target([](const HookTestServer::Request&) { return JsonAnswer(R"({"allowed": true})"); });
  HookTestServer server([&](const HookTestServer::Request&) {
    auto r = JsonAnswer("", 307);
    r.headers.emplace_back("Location", target.Url("/"));
    return r;
  });
  const auto v = Call(Request(server.Url("/")));
  EXPECT_EQ(v.kind, Kind::kError);
  EXPECT_EQ(v.http_status, 307);
  EXPECT_TRUE(v.error.starts_with("HTTP 307")) << v.error;
  EXPECT_TRUE(target.Requests().empty());
}

TEST(AdmissionHookTest, OversizedAnswersAreErrors) {
  const std::string huge = R"({"allowed": true, "pad": ")" + std::string(size_t{70} * 1024, 'p') + "\"}";
  for (const bool without_length : {false, true}) {
    HookTestServer server([&](const HookTestServer::Request&) {
      auto r = JsonAnswer(huge);
      r.without_length = without_length;
      return r;
    });
    const auto v = Call(Request(server.Url("/")));
    EXPECT_EQ(v.kind, Kind::kError) << without_length;
    EXPECT_EQ(v.error, "bad answer: larger than 65536 bytes") << without_length << ": " << v.error;
  }
  // Just under the bound is read whole.
  const std::string fits = R"({"allowed": true, "pad": ")" + std::string((size_t{64} * 1024) - 40, 'p') + "\"}";
  EXPECT_EQ(CallAnswering(fits).kind, Kind::kAllow);
}

TEST(AdmissionHookTest, ASlowHookTimesOutWithinTheTimeout) {
  HookTestServer server([](const HookTestServer::Request&) {
    auto r = JsonAnswer(R"({"allowed": false, "reasonCode": "late"})");
    r.delay_ms = 5000;
    return r;
  });
  const auto start = std::chrono::steady_clock::now();
  const auto v = Call(Request(server.Url("/"), 300));
  const auto elapsed =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(v.kind, Kind::kError);
  EXPECT_EQ(v.error, "timed out after 300 ms");
  EXPECT_GE(elapsed, 290);
  EXPECT_LE(elapsed, 300 + 200);
  EXPECT_GE(v.duration_ms, 290);
  EXPECT_LE(v.duration_ms, 300 + 200);
}

TEST(AdmissionHookTest, SlowResolutionCountsAgainstTheTimeout) {
  const outbound::Resolver slow = [](const std::string&) {
    std::this_thread::sleep_for(std::chrono::seconds(2));
    return std::vector<std::string>{"127.0.0.1"};
  };
  const auto v = Call(Request("http://hook.example.test:9/", 200), slow);
  EXPECT_EQ(v.kind, Kind::kError);
  EXPECT_EQ(v.error, "timed out after 200 ms (resolving the host)");
  EXPECT_LE(v.duration_ms, 200 + 150);
}

TEST(AdmissionHookTest, TheConnectionIsPinnedToTheCheckedAddress) {
  HookTestServer server([](const HookTestServer::Request&) { return JsonAnswer(R"({"allowed": true})"); });
  int resolved = 0;
  const outbound::Resolver resolve = [&](const std::string& host) {
    EXPECT_EQ(host, "hook.example.test");
    ++resolved;
    return std::vector<std::string>{"127.0.0.1"};
  };
  const auto v = Call(Request("http://hook.example.test:" + std::to_string(server.port()) + "/g"), resolve);
  EXPECT_EQ(v.kind, Kind::kAllow) << v.error;
  EXPECT_EQ(resolved, 1);
  ASSERT_EQ(server.Requests().size(), 1u);
  EXPECT_EQ(server.Requests()[0].headers.at("host"), "hook.example.test:" + std::to_string(server.port()));
}

TEST(AdmissionHookTest, ANameWithAnyRefusedAddressIsRefused) {
  const outbound::Resolver mixed = [](const std::string&) {
    return std::vector<std::string>{"93.184.216.34", "10.0.0.7"};
  };
  HookRequest r = Request("https://hook.example.test/");
  r.policy = {};
  const auto v = Call(r, mixed);
  EXPECT_EQ(v.kind, Kind::kError);
  EXPECT_TRUE(v.error.starts_with("url_not_allowed: ")) << v.error;
  EXPECT_NE(v.error.find("10.0.0.7"), std::string::npos) << v.error;
  const outbound::Resolver none = [](const std::string&) { return std::vector<std::string>{}; };
  EXPECT_TRUE(Call(r, none).error.starts_with("host_unresolvable: "));
}

TEST(AdmissionHookTest, LiteralPrivateAndMetadataAddressesAreRefusedUnderTheStrictPolicy) {
  for (const std::string url :
       {"https://10.1.2.3/hook", "https://169.254.169.254/latest/meta-data", "https://[::ffff:169.254.169.254]/",
        "https://127.0.0.1:8443/", "https://localhost/", "https://192.168.0.10/"}) {
    HookRequest r = Request(url, 500);
    r.policy = {};
    const auto v = Call(r);
    EXPECT_EQ(v.kind, Kind::kError) << url;
    EXPECT_TRUE(v.error.starts_with("url_not_allowed: ")) << url << ": " << v.error;
    EXPECT_LT(v.duration_ms, 100) << url;  // refused before any connection
  }
  // Metadata stays refused even when private ranges and loopback are allowed.
  HookRequest r = Request("https://169.254.169.254/", 500);
  r.policy = {.allow_private = true, .allow_loopback = true};
  EXPECT_TRUE(Call(r).error.starts_with("url_not_allowed: "));
}

TEST(AdmissionHookTest, LoopbackOverHttpOnlyUnderTheDevPolicy) {
  HookTestServer server([](const HookTestServer::Request&) { return JsonAnswer(R"({"allowed": true})"); });
  HookRequest r = Request(server.Url("/"));
  EXPECT_EQ(Call(r).kind, Kind::kAllow);
  r.policy = {};
  const auto v = Call(r);
  EXPECT_EQ(v.kind, Kind::kError);
  EXPECT_TRUE(v.error.starts_with("url_not_allowed: ")) << v.error;
  EXPECT_EQ(server.Requests().size(), 1u);
}

TEST(AdmissionHookTest, BadSecretsContextsAndConnectionsAreErrors) {
  HookTestServer server([](const HookTestServer::Request&) { return JsonAnswer(R"({"allowed": true})"); });
  HookRequest r = Request(server.Url("/"));
  r.secret = "not-a-secret";
  EXPECT_EQ(Call(r).error, "bad request: the secret is not a whsec_ secret");
  r = Request(server.Url("/"));
  r.context_json = "[1]";
  EXPECT_EQ(Call(r).error, "bad request: the context is not a JSON object");
  EXPECT_TRUE(server.Requests().empty());
  // Nobody listening: a transport error, reported.
  {
    HookTestServer closed([](const HookTestServer::Request&) { return JsonAnswer("{}"); });
    r = Request(closed.Url("/"));
  }
  const auto v = Call(r);
  EXPECT_EQ(v.kind, Kind::kError);
  EXPECT_TRUE(v.error.starts_with("HTTP request failed: ")) << v.error;
  EXPECT_EQ(v.http_status, 0);
  r.url.clear();
  EXPECT_TRUE(Call(r).error.starts_with("url_not_allowed: ")) << Call(r).error;
}

TEST(AdmissionHookTest, ValidateHookUrlTable) {
  const outbound::Policy strict{};
  const outbound::Policy dev = DevPolicy();
  const outbound::Policy company{.allow_private = true, .allow_loopback = false};
  struct Case {
    std::string url;
    outbound::Policy policy;
    std::string code;  // "" when valid
  };
  const std::vector<Case> cases = {
      {"https://hooks.example.com/guard", strict, ""},
      {"https://hooks.example.com:8443/guard?tenant=1", strict, ""},
      {"HTTPS://Hooks.Example.com/", strict, ""},
      {"https://93.184.216.34/", strict, ""},
      {"https://internal.corp/", strict, ""},  // a name: checked when called
      {"http://hooks.example.com/guard", strict, "url_not_allowed"},
      {"http://hooks.example.com/guard", company, "url_not_allowed"},
      {"http://127.0.0.1:8080/", dev, ""},
      {"http://localhost:8080/", dev, ""},
      {"https://localhost/", strict, "url_not_allowed"},
      {"https://127.0.0.1/", strict, "url_not_allowed"},
      {"https://10.0.0.1/", strict, "url_not_allowed"},
      {"https://10.0.0.1/", company, ""},
      {"https://[fd12::1]/", company, ""},
      {"https://169.254.169.254/", company, "url_not_allowed"},
      {"https://[fe80::1]/", dev, "url_not_allowed"},
      {"https://0.0.0.0/", dev, "url_not_allowed"},
      {"https://224.0.0.1/", strict, "url_not_allowed"},
      {"https://user:pass@hooks.example.com/", strict, "url_not_allowed"},
      {"https://hooks.example.com/#frag", strict, "url_not_allowed"},
      {"ftp://hooks.example.com/", strict, "url_not_allowed"},
      {"file:///etc/passwd", dev, "url_not_allowed"},
      {"hooks.example.com/guard", strict, "url_not_allowed"},
      {"https:///nohost", strict, "url_not_allowed"},
      {"", strict, "validation_failed"},
      {"https://example.com/" + std::string(2000, 'a'), strict, "validation_failed"},
  };
  for (const auto& c : cases) {
    const Status s = ValidateHookUrl(c.url, c.policy, "config.hookUrl");
    if (c.code.empty()) {
      EXPECT_TRUE(s.ok()) << c.url << ": " << (s ? "" : s.error().detail);
      continue;
    }
    ASSERT_FALSE(s.ok()) << c.url;
    EXPECT_EQ(s.error().code, c.code) << c.url;
    EXPECT_EQ(s.error().kind, ErrorKind::kInvalidArgument) << c.url;
    ASSERT_EQ(s.error().fields.size(), 1u) << c.url;
    EXPECT_EQ(s.error().fields[0].field, "config.hookUrl") << c.url;
  }
}

TEST(AdmissionHookTest, CallsConcurrently) {
  HookTestServer server([](const HookTestServer::Request& r) {
    return JsonAnswer(SignatureValid(r) ? R"({"allowed": true})" : R"({"allowed": false, "reasonCode": "bad_sig"})");
  });
  std::vector<std::thread> threads;
  threads.reserve(4);
  std::atomic<int> allowed{0};
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 10; ++i)
        if (Call(Request(server.Url("/"))).kind == Kind::kAllow) ++allowed;
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(allowed.load(), 40);
}

TEST(AdmissionHookTest, LatencyAgainstLoopback) {
  HookTestServer server([](const HookTestServer::Request&) { return JsonAnswer(R"({"allowed": true})"); });
  const HookRequest r = Request(server.Url("/guard"));
  (void)Call(r);  // warm-up: curl's global initialisation
  constexpr int kCalls = 200;
  std::vector<double> us;
  us.reserve(kCalls);
  for (int i = 0; i < kCalls; ++i) {
    const auto start = std::chrono::steady_clock::now();
    const auto v = Call(r);
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
    ASSERT_EQ(v.kind, Kind::kAllow) << v.error;
  }
  std::sort(us.begin(), us.end());
  double sum = 0;
  for (const double u : us) sum += u;
  std::printf(
      "admission hook latency over %d calls (loopback, http, new connection each): mean %.0f us, p50 %.0f us, "
      "p95 %.0f us, p99 %.0f us, max %.0f us\n",
      kCalls, sum / kCalls, us[kCalls / 2], us[kCalls * 95 / 100], us[kCalls * 99 / 100], us.back());
  EXPECT_LT(us[kCalls / 2], 50'000.0);
}

// Found by fuzz/hook_answer: 1e999 was read as infinity and written into
// the denial's metadata as Infinity, which is not JSON.
TEST(AdmissionHookAnswer, MetadataNumbersBeyondADoubleAreABadAnswer) {
  const HookVerdict v =
      internal::ParseAnswer(R"({"allowed":false,"reasonCode":"too_big","metadata":{"t":[1e999]}})", 200);
  EXPECT_EQ(v.kind, HookVerdict::Kind::kError);
  EXPECT_NE(v.error.find("beyond a double's range"), std::string::npos) << v.error;
  EXPECT_EQ(internal::ParseAnswer(R"({"allowed":false,"reasonCode":"ok_code","metadata":{"t":1e308}})", 200).kind,
            HookVerdict::Kind::kDeny);
}

}  // namespace
}  // namespace credence::plugins::admission
