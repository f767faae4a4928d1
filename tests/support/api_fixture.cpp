#include "support/api_fixture.h"

#include <cctype>

#include <atomic>
#include <memory>
#include <thread>

#include "core/ids.h"
#include "support/sinks.h"

namespace credence::test {

ServerOptions SharedServerOptions() {
  ServerOptions options;
  // Tests move time with PUT /dev/clock and run background jobs with
  // POST /dev/jobs/run, so nothing runs behind their backs. Email channels
  // deliver to a real SMTP server, shared by every test of the binary.
  options.extra_args = {"--test-clock", "--jobs-interval-ms", "0", "--smtp-url", SharedSmtpSink().url()};
  return options;
}

ServerProcess& SharedServer() {
  static std::unique_ptr<ServerProcess> server = std::make_unique<ServerProcess>(SharedServerOptions());
  return *server;
}

TestTenant CreateTenant(HttpClient& client, const std::string& prefix) {
  static std::atomic<int> counter{0};
  TestTenant t;
  t.slug = prefix + "-" + NewId().substr(24) + "-" + std::to_string(counter++);
  auto created = client.Post(
      "/api/tenant/create", {{"name", "Tenant " + t.slug}, {"slug", t.slug}, {"enabledLanguages", {"en", "es", "de"}}});
  if (created.status != 201) throw std::runtime_error("tenant creation failed: " + created.body);
  t.id = std::string(created.Json().at("id").as_string());
  for (const char* persona : {"admin", "editor", "viewer", "guest"}) {
    auto login = client.Post("/auth/dev-login", {{"persona", persona}, {"tenantId", t.id}});
    if (login.status != 200) throw std::runtime_error("dev-login failed: " + login.body);
    const auto body = login.Json();
    t.tokens[persona] = std::string(body.at("token").as_string());
    t.user_ids[persona] = std::string(body.at("user").at("id").as_string());
  }
  return t;
}

void ExpectProblem(const Response& r, int status, const std::string& code) {
  EXPECT_EQ(r.status, status) << r.body;
  EXPECT_EQ(r.Header("content-type"), "application/problem+json") << r.body;
  boost::json::value body;
  try {
    body = r.Json();
  } catch (const std::exception&) {
    ADD_FAILURE() << "problem body is not JSON: " << r.body;
    return;
  }
  ASSERT_TRUE(body.is_object()) << r.body;
  const auto& o = body.as_object();
  EXPECT_EQ(o.at("status").as_int64(), status);
  EXPECT_EQ(o.at("code").as_string(), code) << r.body;
  EXPECT_TRUE(o.contains("type") && o.contains("title") && o.contains("detail")) << r.body;
}

std::string Str(const boost::json::value& v, const char* key) { return std::string(v.at(key).as_string()); }

std::set<std::string> ErrorFields(const Response& r) {
  std::set<std::string> out;
  const auto body = r.Json();
  if (const auto* errors = body.as_object().if_contains("errors"))
    for (const auto& e : errors->as_array()) out.insert(Str(e, "field"));
  return out;
}

void ExpectValidation(const Response& r, const std::string& field) {
  ExpectProblem(r, 400, "validation_failed");
  if (r.status == 400) {
    EXPECT_TRUE(ErrorFields(r).count(field)) << field << ": " << r.body;
  }
}

std::vector<Response> Concurrently(int clients, const std::function<Response(HttpClient&)>& send) {
  std::vector<Response> out(static_cast<size_t>(clients));
  std::vector<std::thread> threads;
  for (int i = 0; i < clients; ++i) {
    threads.emplace_back([&out, &send, i] {
      HttpClient client(SharedServer().base_url());
      out[static_cast<size_t>(i)] = send(client);
    });
  }
  for (auto& t : threads) t.join();
  return out;
}

void ApiTest::SetUp() {
  if (BackendUnavailable()) GTEST_SKIP() << "CREDENCE_TEST_PG_URL is not set";
  client_ = std::make_unique<HttpClient>(SharedServer().base_url());
}

std::string PercentEncode(const std::string& s) {
  std::string out;
  static const char* kHex = "0123456789ABCDEF";
  for (const unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::vector<std::string> Codes(const boost::json::value& result) {
  std::vector<std::string> out;
  for (const auto& r : result.at("reasons").as_array()) out.push_back(Str(r, "code"));
  return out;
}

std::vector<std::string> Strings(const boost::json::value& array) {
  std::vector<std::string> out;
  for (const auto& v : array.as_array()) out.emplace_back(v.as_string());
  return out;
}

}  // namespace credence::test
