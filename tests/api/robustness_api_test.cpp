// Bad input never gets a 5xx, on any route: every operation of the served
// /openapi.json that takes a body is sent malformed JSON, bodies of the wrong
// shape, and each declared field with values of every wrong kind, as a
// tenant admin of a fresh tenant; every answer must be a 4xx (or a 2xx where
// the value happens to be acceptable) and documented (the response check of
// tests/support/openapi_check applies to all of it). Routes added later are
// covered without touching this file. Runs on SQLite and PostgreSQL.
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "support/api_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

constexpr char kAbsentId[] = "00000000-0000-7000-8000-00000000abcd";

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
    out += kAbsentId;
    i = close;
  }
  return out;
}

// The target of an operation with every path parameter filled in: an
// unknown id where the document declares a UUID, else "en" (a language code,
// a key and a plugin id in form), so that the body is what decides the
// answer wherever the handler reads it before looking anything up.
std::string ConcreteFor(const std::string& templ, const json::value& op) {
  std::set<std::string> uuids;
  if (const auto* params = op.as_object().if_contains("parameters"))
    for (const auto& p : params->as_array())
      if (p.at("in").as_string() == "path")
        if (const auto* format = p.at("schema").as_object().if_contains("format"); format && *format == "uuid")
          uuids.insert(std::string(p.at("name").as_string()));
  std::string out;
  for (size_t i = 0; i < templ.size(); ++i) {
    if (templ[i] != '{') {
      out.push_back(templ[i]);
      continue;
    }
    const size_t close = templ.find('}', i);
    out += uuids.count(templ.substr(i + 1, close - i - 1)) ? kAbsentId : "en";
    i = close;
  }
  return out;
}

// The schema `s` with a $ref to components/schemas followed.
const json::object& Resolved(const json::value& doc, const json::value& s) {
  if (const auto* ref = s.as_object().if_contains("$ref")) {
    const std::string name(ref->as_string().subview().substr(std::string_view("#/components/schemas/").size()));
    return doc.at("components").at("schemas").at(name).as_object();
  }
  return s.as_object();
}

bool HasType(const json::object& s, std::string_view type) {
  const auto* t = s.if_contains("type");
  if (t == nullptr) return false;
  if (t->is_string()) return t->as_string() == type;
  for (const auto& one : t->as_array())
    if (one.as_string() == type) return true;
  return false;
}

// A value that `s` accepts as far as its document says (required members
// only; a custom rule the document only describes may still refuse it).
json::value Example(const json::value& doc, const json::value& schema) {
  const json::object& s = Resolved(doc, schema);
  auto num = [&](const char* key, int64_t fallback) {
    const auto* v = s.if_contains(key);
    return v ? v->to_number<int64_t>() : fallback;
  };
  if (const auto* values = s.if_contains("enum")) return values->as_array().front();
  if (HasType(s, "object")) {
    json::object out;
    if (const auto* props = s.if_contains("properties"))
      if (const auto* required = s.if_contains("required"))
        for (const auto& name : required->as_array())
          out[name.as_string()] = Example(doc, props->as_object().at(name.as_string()));
    return out;
  }
  if (HasType(s, "array")) {
    json::array out;
    for (int64_t i = 0; i < num("minItems", 0); ++i) out.push_back(Example(doc, s.at("items")));
    return out;
  }
  if (HasType(s, "integer")) return std::min(std::max(num("minimum", 1), int64_t{1}), num("maximum", INT64_MAX));
  if (HasType(s, "number")) return 1;
  if (HasType(s, "boolean")) return false;
  if (HasType(s, "string")) {
    const auto* format = s.if_contains("format");
    if (format && *format == "uuid") return kAbsentId;
    if (format && *format == "date-time") return "2031-01-01T00:00:00Z";
    if (format && *format == "email") return "someone@example.com";
    if (format && *format == "uri") return "https://example.com/";
    const int64_t min = num("minLength", 0), max = num("maxLength", 1000);
    if (min <= 2 && max >= 2) return "en";
    return json::string(std::string(static_cast<size_t>(std::max<int64_t>(min, 1)), 'a'));
  }
  return nullptr;
}

struct NullCase {
  std::string field;  // as a validation problem names it: "config.url", "items[0].id"
  json::value body;
};

// Every optional field of `schema` (at any depth) whose schema does not
// include null, each in a body that is otherwise `Example`'s, holding null
// there. `wrap` puts a value for this schema's place into a whole body.
void NullCases(const json::value& doc, const json::value& schema, const std::string& path,
               const std::function<json::value(json::value)>& wrap, std::vector<NullCase>& out) {
  const json::object& s = Resolved(doc, schema);
  if (HasType(s, "array")) {
    if (const auto* items = s.if_contains("items"))
      NullCases(
          doc, *items, path + "[0]", [&wrap](json::value v) { return wrap(json::array{std::move(v)}); }, out);
    return;
  }
  const auto* props = s.if_contains("properties");
  if (!HasType(s, "object") || props == nullptr) return;
  std::set<std::string> required;
  if (const auto* r = s.if_contains("required"))
    for (const auto& name : r->as_array()) required.insert(std::string(name.as_string()));
  const json::object base = Example(doc, schema).as_object();
  for (const auto& [key, property] : props->as_object()) {
    const std::string name(key);
    const std::string field = path.empty() ? name : path + "." + name;
    const json::object& p = Resolved(doc, property);
    const bool takes_null = !p.contains("type") || HasType(p, "null");  // no type: any value
    if (!required.count(name) && !takes_null) {
      json::object body = base;
      body[name] = nullptr;
      out.push_back({field, wrap(std::move(body))});
    }
    NullCases(
        doc, property, field,
        [&wrap, &base, name](json::value v) {
          json::object body = base;
          body[name] = std::move(v);
          return wrap(std::move(body));
        },
        out);
  }
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

// An optional field sent as null is refused unless its schema includes null
// (decisions.md, "Optional fields sent as null"): for every such field of
// every request body in the document, at any depth, a body that is
// otherwise acceptable holds null there. The answer is a 4xx problem, never
// a 5xx (a handler reading the null as the declared type) nor a success;
// when it is the body's validation that answers, it names the field.
TEST_F(Robustness, ExplicitNullForEveryOptionalNonNullableFieldIsA4xxNamingIt) {
  auto t = CreateTenant(api(), "robust-null");
  const std::string& admin = t.token("admin");
  auto doc_response = api().Get("/openapi.json");
  ASSERT_EQ(doc_response.status, 200);
  const json::value doc = doc_response.Json();
  int cases = 0, named = 0;
  for (const auto& [path_key, item] : doc.at("paths").as_object()) {
    const std::string path(path_key);
    if (Skipped(path)) continue;
    for (const auto& [method_key, op] : item.as_object()) {
      std::string method(method_key);
      for (char& c : method) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (method != "POST" && method != "PUT" && method != "PATCH") continue;
      const json::value* schema = nullptr;
      if (const auto* body = op.as_object().if_contains("requestBody"))
        if (const auto* content = body->as_object().if_contains("content"))
          if (const auto* media = content->as_object().if_contains("application/json"))
            schema = media->as_object().if_contains("schema");
      if (schema == nullptr) continue;
      std::vector<NullCase> nulls;
      NullCases(
          doc, *schema, "", [](json::value v) { return v; }, nulls);
      const std::string target = ConcreteFor(path, op);
      for (const auto& c : nulls) {
        ++cases;
        const std::string sent = json::serialize(c.body);
        auto r = api().Send(method, target, sent, admin);
        const std::string what = method + " " + target + " with " + sent.substr(0, 300) + "\n" + r.body;
        EXPECT_GE(r.status, 400) << what;
        EXPECT_LT(r.status, 500) << what;
        EXPECT_EQ(r.Header("content-type").rfind("application/problem+json", 0), 0u) << what;
        if (r.status == 400 && r.Json().as_object().contains("errors") &&
            Str(r.Json(), "code") == "validation_failed") {
          EXPECT_EQ(ErrorFields(r).count(c.field), 1u) << c.field << ": " << what;
          ++named;
        }
      }
    }
  }
  // Most bodies are validated before anything is looked up, so most cases
  // reach the schema (the rest meet a 404 or 409 first).
  EXPECT_GT(cases, 150);
  EXPECT_GT(named, cases / 2);
  std::printf("robustness: %d optional fields sent null, %d refused naming the field\n", cases, named);
}

}  // namespace
}  // namespace credence::test
