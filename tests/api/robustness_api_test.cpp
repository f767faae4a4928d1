// Bad input never gets a 5xx, on any route: every operation of the served
// /openapi.json that takes a body is sent malformed JSON, bodies of the wrong
// shape, and each declared field with values of every wrong kind, as a
// tenant admin of a fresh tenant; every answer must be a 4xx (or a 2xx where
// the value happens to be acceptable) and documented (the response check of
// tests/support/openapi_check applies to all of it). Routes added later are
// covered without touching this file. Runs on SQLite and PostgreSQL.
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <string>
#include <vector>

#include "support/api_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

constexpr char kUnknownId[] = "00000000-0000-7000-8000-00000000abcd";

// Routes whose effects reach beyond the test's own tenant (the development
// clock and jobs, sign-in, provisioning) are left out; their bad input is
// tested where they are.
bool Skipped(const std::string& path) {
  for (const char* prefix : {"/dev/", "/auth/", "/connect/", "/api/tenant/create", "/tenant/create"})
    if (path.rfind(prefix, 0) == 0) return true;
  return false;
}

std::string Concrete(const std::string& templ) {
  std::string out;
  for (size_t i = 0; i < templ.size(); ++i) {
    if (templ[i] != '{') {
      out.push_back(templ[i]);
      continue;
    }
    const size_t close = templ.find('}', i);
    out += kUnknownId;
    i = close;
  }
  return out;
}

std::vector<json::value> WrongValues() {
  std::vector<json::value> out;
  out.emplace_back(nullptr);
  out.emplace_back(true);
  out.emplace_back(-1);
  out.emplace_back(int64_t{9'007'199'254'740'993});
  out.emplace_back(1.5);
  out.emplace_back("");
  out.emplace_back(std::string(10'000, 'x'));
  out.emplace_back("\xc3\x28");  // invalid UTF-8
  out.emplace_back(json::array{});
  out.emplace_back(json::parse(R"([1, "two", null])"));
  out.emplace_back(json::object{});
  out.emplace_back(json::parse(R"({"nested": {"deeper": [{}]}})"));
  return out;
}

std::vector<std::string> MalformedBodies() {
  std::string deep;
  for (int i = 0; i < 5000; ++i) deep += '[';
  return {"", "{", "[]", "null", "42", "\"text\"", "{\"a\":", "{\"a\" 1}", "\xff\xfe{}", deep, R"({"a":1,"a":2})"};
}

class Robustness : public ApiTest {};

TEST_F(Robustness, BadQueryValuesAndPathParametersOnEveryReadAreA4xx) {
  auto t = CreateTenant(api(), "robust-q");
  const std::string& admin = t.token("admin");
  auto doc_response = api().Get("/openapi.json");
  ASSERT_EQ(doc_response.status, 200);
  const json::value doc = doc_response.Json();
  const std::vector<std::string> bad = {"",
                                        "abc",
                                        "-1",
                                        "0",
                                        "99999999999999999999",
                                        "1.5",
                                        "%00",
                                        "%FF%FE",
                                        "2030-13-45",
                                        "%7B%22a%22%3A1%7D",
                                        std::string(3000, 'q')};
  int requests = 0;
  for (const auto& [path_key, item] : doc.at("paths").as_object()) {
    const std::string path(path_key);
    if (Skipped(path)) continue;
    const auto* get = item.as_object().if_contains("get");
    if (get == nullptr) continue;
    std::vector<std::string> query_names;
    bool has_path_parameter = false;
    if (const auto* params = get->as_object().if_contains("parameters"))
      for (const auto& p : params->as_array()) {
        if (p.at("in").as_string() == "query") query_names.emplace_back(p.at("name").as_string());
        if (p.at("in").as_string() == "path") has_path_parameter = true;
      }
    auto expect_no_5xx = [&](const std::string& target) {
      ++requests;
      auto r = api().Get(target, admin);
      EXPECT_GT(r.status, 0) << target;
      EXPECT_LT(r.status, 500) << "GET " << target << "\n" << r.body;
    };
    for (const auto& name : query_names)
      for (const auto& value : bad) expect_no_5xx(Concrete(path) + "?" + name + "=" + value);
    if (has_path_parameter) {
      // A parameter that is not what the route declares: a 400 or a 404, never a 5xx.
      for (const char* value : {"not-an-id", "%2F..%2F", "%00", "00000000-0000-0000-0000-000000000000"}) {
        std::string target;
        for (size_t i = 0; i < path.size(); ++i) {
          if (path[i] != '{') {
            target.push_back(path[i]);
            continue;
          }
          target += value;
          i = path.find('}', i);
        }
        expect_no_5xx(target);
      }
    }
  }
  EXPECT_GT(requests, 200);
  std::printf("robustness: %d reads with bad parameters\n", requests);
}

TEST_F(Robustness, BadInputOnEveryRouteWithABodyIsA4xx) {
  auto t = CreateTenant(api(), "robust");
  const std::string& admin = t.token("admin");
  auto doc_response = api().Get("/openapi.json");
  ASSERT_EQ(doc_response.status, 200);
  const json::value doc = doc_response.Json();
  int operations = 0, requests = 0;
  for (const auto& [path_key, item] : doc.at("paths").as_object()) {
    const std::string path(path_key);
    if (Skipped(path)) continue;
    for (const auto& [method_key, op] : item.as_object()) {
      const std::string method = [&] {
        std::string m(method_key);
        for (char& c : m) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        return m;
      }();
      if (method != "POST" && method != "PUT" && method != "PATCH") continue;
      const auto* body = op.as_object().if_contains("requestBody");
      if (body == nullptr) continue;
      ++operations;
      const std::string target = Concrete(path);
      auto expect_no_5xx = [&](const std::string& sent) {
        ++requests;
        auto r = api().Send(method, target, sent, admin);
        EXPECT_GT(r.status, 0) << method << " " << target;
        EXPECT_LT(r.status, 500) << method << " " << target << " with " << sent.substr(0, 200) << "\n" << r.body;
      };
      for (const auto& raw : MalformedBodies()) expect_no_5xx(raw);
      const json::value* schema = nullptr;
      if (const auto* content = body->as_object().if_contains("content"))
        if (const auto* media = content->as_object().if_contains("application/json"))
          schema = media->as_object().if_contains("schema");
      if (schema == nullptr || !schema->is_object()) continue;
      const auto* properties = schema->as_object().if_contains("properties");
      if (properties == nullptr) continue;
      json::object all_wrong;
      for (const auto& [name, property] : properties->as_object()) {
        for (const auto& wrong : WrongValues()) {
          json::object one;
          one[name] = wrong;
          expect_no_5xx(json::serialize(one));
          all_wrong[name] = wrong;
        }
      }
      expect_no_5xx(json::serialize(all_wrong));
    }
  }
  EXPECT_GT(operations, 50) << "the document lists the routes that take a body";
  std::printf("robustness: %d operations with a body, %d requests\n", operations, requests);
}

}  // namespace
}  // namespace credence::test
