#include "support/openapi_check.h"

#include <curl/curl.h>
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>
#include <vector>

#include "support/http_client.h"

namespace credence::test {
namespace json = boost::json;

namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string PointerToken(std::string_view name) {
  std::string out;
  for (char c : name) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<std::string_view> Segments(std::string_view path) {
  std::vector<std::string_view> out;
  size_t start = 1;  // paths begin with '/'
  while (start <= path.size()) {
    const size_t end = std::min(path.find('/', start), path.size());
    out.push_back(path.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::string Short(std::string_view body) {
  constexpr size_t kMax = 400;
  if (body.size() <= kMax) return std::string(body);
  return std::string(body.substr(0, kMax)) + "...";
}

std::string Brief(const json::value& v) {
  std::string s = json::serialize(v);
  if (s.size() > 80) s = s.substr(0, 80) + "...";
  return s;
}

size_t Utf8Length(std::string_view s) {
  size_t n = 0;
  for (const unsigned char c : s)
    if ((c & 0xC0) != 0x80) ++n;
  return n;
}

bool IsInteger(const json::value& v) {
  if (v.is_int64() || v.is_uint64()) return true;
  return v.is_double() && std::isfinite(v.get_double()) && v.get_double() == std::floor(v.get_double());
}

double Number(const json::value& v) {
  if (v.is_int64()) return static_cast<double>(v.get_int64());
  if (v.is_uint64()) return static_cast<double>(v.get_uint64());
  return v.get_double();
}

bool HasType(const json::value& v, std::string_view type) {
  if (type == "null") return v.is_null();
  if (type == "boolean") return v.is_bool();
  if (type == "string") return v.is_string();
  if (type == "integer") return IsInteger(v);
  if (type == "number") return v.is_number();
  if (type == "array") return v.is_array();
  if (type == "object") return v.is_object();
  return false;
}

}  // namespace

struct OpenApiDocument::Impl {
  json::value doc;

  struct Node {
    std::unordered_map<std::string, std::unique_ptr<Node>> literals;
    std::unique_ptr<Node> param;
    const json::object* item = nullptr;  // the path item, when a template ends here
    std::string path;
  };
  Node root;
  const json::value* problem = nullptr;
  mutable std::mutex refs_mu;
  mutable std::unordered_map<std::string, const json::value*> refs;

  const json::value* Ref(const std::string& ref) const {
    std::lock_guard lock(refs_mu);
    auto [it, inserted] = refs.try_emplace(ref, nullptr);
    if (inserted && ref.rfind("#/", 0) == 0) {
      boost::system::error_code ec;
      it->second = doc.find_pointer(ref.substr(1), ec);
    }
    return it->second;
  }

  // Follows a `$ref` (response objects, schemas) to its target.
  const json::value* Deref(const json::value* v) const {
    for (int hops = 0; v != nullptr && v->is_object() && hops < 8; ++hops) {
      const auto* ref = v->as_object().if_contains("$ref");
      if (ref == nullptr || !ref->is_string()) return v;
      v = Ref(std::string(ref->as_string()));
    }
    return v;
  }

  // Depth first, literal segments before parameters, like the server's
  // router: the first template that serves `method`, else (for 405) the
  // first that matched the path at all.
  const Node* Walk(const Node* node, const std::vector<std::string_view>& segments, size_t index,
                   const std::string& method, const Node*& fallback) const {
    if (index == segments.size()) {
      if (node->item == nullptr) return nullptr;
      if (fallback == nullptr) fallback = node;
      if (node->item->contains(method) || (method == "head" && node->item->contains("get"))) return node;
      return nullptr;
    }
    if (auto it = node->literals.find(std::string(segments[index])); it != node->literals.end())
      if (const Node* found = Walk(it->second.get(), segments, index + 1, method, fallback)) return found;
    if (node->param && !segments[index].empty())
      if (const Node* found = Walk(node->param.get(), segments, index + 1, method, fallback)) return found;
    return nullptr;
  }

  // The first violation of `schema` by `v`, in words, with `pointer` set to
  // where it is; empty when `v` conforms.
  std::string Validate(const json::value& schema_in, const json::value& v, std::string& pointer) const {
    const json::value* schema_ptr = Deref(&schema_in);
    if (schema_ptr == nullptr) return "a $ref of the document does not resolve";
    if (schema_ptr->is_bool()) return schema_ptr->get_bool() ? "" : "no value is allowed here";
    if (!schema_ptr->is_object()) return "";
    const json::object& s = schema_ptr->get_object();

    if (const auto* type = s.if_contains("type")) {
      bool ok = false;
      std::string names;
      if (type->is_string()) {
        ok = HasType(v, type->get_string());
        names = std::string(type->get_string());
      } else if (type->is_array()) {
        for (const auto& t : type->get_array()) {
          if (t.is_string() && HasType(v, t.get_string())) ok = true;
          if (!names.empty()) names += " or ";
          names += t.is_string() ? std::string(t.get_string()) : "?";
        }
      }
      if (!ok) return "is " + Brief(v) + ", the schema wants type " + names;
    }
    if (const auto* values = s.if_contains("enum"); values != nullptr && values->is_array()) {
      const auto& a = values->get_array();
      if (std::find(a.begin(), a.end(), v) == a.end())
        return "is " + Brief(v) + ", not one of the documented values " + Brief(*values);
    }
    if (const auto* c = s.if_contains("const"); c != nullptr && *c != v)
      return "is " + Brief(v) + ", the schema wants " + Brief(*c);

    if (v.is_string()) {
      const size_t length = Utf8Length(v.get_string());
      if (const auto* m = s.if_contains("minLength"); m && m->is_number() && length < Number(*m))
        return "is shorter than minLength " + Brief(*m);
      if (const auto* m = s.if_contains("maxLength"); m && m->is_number() && length > Number(*m))
        return "is longer than maxLength " + Brief(*m);
    } else if (v.is_number()) {
      if (const auto* m = s.if_contains("minimum"); m && m->is_number() && Number(v) < Number(*m))
        return "is " + Brief(v) + ", below minimum " + Brief(*m);
      if (const auto* m = s.if_contains("maximum"); m && m->is_number() && Number(v) > Number(*m))
        return "is " + Brief(v) + ", above maximum " + Brief(*m);
    } else if (v.is_array()) {
      const auto& a = v.get_array();
      if (const auto* m = s.if_contains("minItems"); m && m->is_number() && a.size() < Number(*m))
        return "has fewer than minItems " + Brief(*m);
      if (const auto* m = s.if_contains("maxItems"); m && m->is_number() && a.size() > Number(*m))
        return "has more than maxItems " + Brief(*m);
      if (const auto* items = s.if_contains("items")) {
        const size_t base = pointer.size();
        for (size_t i = 0; i < a.size(); ++i) {
          pointer += "/" + std::to_string(i);
          std::string e = Validate(*items, a[i], pointer);
          if (!e.empty()) return e;
          pointer.resize(base);
        }
      }
    } else if (v.is_object()) {
      const auto& o = v.get_object();
      const json::object* properties = nullptr;
      if (const auto* p = s.if_contains("properties"); p && p->is_object()) properties = &p->get_object();
      if (const auto* required = s.if_contains("required"); required && required->is_array())
        for (const auto& name : required->get_array())
          if (name.is_string() && !o.contains(name.get_string()))
            return "lacks the required member \"" + std::string(name.get_string()) + "\"";
      const json::value* additional = s.if_contains("additionalProperties");
      const size_t base = pointer.size();
      for (const auto& [key, member] : o) {
        const json::value* member_schema = properties ? properties->if_contains(key) : nullptr;
        if (member_schema == nullptr) {
          if (additional == nullptr) continue;
          if (additional->is_bool() && !additional->get_bool()) {
            pointer += "/" + PointerToken(key);
            return "is a member the schema does not declare (additionalProperties: false)";
          }
          member_schema = additional;
        }
        pointer += "/" + PointerToken(key);
        std::string e = Validate(*member_schema, member, pointer);
        if (!e.empty()) return e;
        pointer.resize(base);
      }
    }

    if (const auto* all = s.if_contains("allOf"); all && all->is_array())
      for (const auto& sub : all->get_array()) {
        std::string e = Validate(sub, v, pointer);
        if (!e.empty()) return e;
      }
    for (const char* keyword : {"anyOf", "oneOf"}) {
      const auto* subs = s.if_contains(keyword);
      if (subs == nullptr || !subs->is_array()) continue;
      int matched = 0;
      std::string first;
      for (const auto& sub : subs->get_array()) {
        std::string at = pointer;
        std::string e = Validate(sub, v, at);
        if (e.empty()) {
          ++matched;
        } else if (first.empty()) {
          first = at + ": " + e;
        }
      }
      if (matched == 0)
        return std::string("matches none of its ") + keyword + " alternatives (the first: " + first + ")";
      if (std::string_view(keyword) == "oneOf" && matched > 1) return "matches more than one oneOf alternative";
    }
    return "";
  }
};

OpenApiDocument::OpenApiDocument(json::value document) : impl_(std::make_unique<Impl>()) {
  impl_->doc = std::move(document);
  const auto& paths = impl_->doc.at("paths").as_object();
  for (const auto& [path, item] : paths) {
    Impl::Node* node = &impl_->root;
    for (std::string_view segment : Segments(path)) {
      if (segment.size() >= 2 && segment.front() == '{' && segment.back() == '}') {
        if (!node->param) node->param = std::make_unique<Impl::Node>();
        node = node->param.get();
      } else {
        auto& next = node->literals[std::string(segment)];
        if (!next) next = std::make_unique<Impl::Node>();
        node = next.get();
      }
    }
    node->item = &item.as_object();
    node->path = std::string(path);
  }
  boost::system::error_code ec;
  impl_->problem = impl_->doc.find_pointer("/components/schemas/Problem", ec);
}

OpenApiDocument::~OpenApiDocument() = default;

std::string OpenApiDocument::Check(std::string_view method_in, std::string_view target, int status,
                                   std::string_view content_type_in, std::string_view body) const {
  const std::string method = Lower(method_in);
  const std::string_view path = target.substr(0, target.find('?'));
  std::string content_type = Lower(content_type_in.substr(0, content_type_in.find(';')));
  while (!content_type.empty() && content_type.back() == ' ') content_type.pop_back();
  const std::string status_text = std::to_string(status);
  std::string what = std::string(method_in) + " " + std::string(target) + " answered " + status_text +
                     (content_type.empty() ? std::string() : " " + content_type);

  const Impl::Node* fallback = nullptr;
  const Impl::Node* node = impl_->Walk(&impl_->root, Segments(path), 0, method, fallback);

  const json::value* schema = nullptr;
  std::string operation;
  bool json_body = false;
  const bool json_type = content_type == "application/json" ||
                         (content_type.size() > 5 && content_type.compare(content_type.size() - 5, 5, "+json") == 0);
  if (node == nullptr && !json_type) {
    // The web client's files and pages (--web-dir, docs/web-client.md:
    // HTML, scripts, styles, images; never JSON) are served only outside the
    // API: a path whose first segment no documented path has. Inside the
    // API, and for any JSON answer, everything is checked.
    const std::vector<std::string_view> segments = Segments(path);
    const bool api_path = !segments.empty() && impl_->root.literals.count(std::string(segments.front())) > 0;
    if (!api_path && (method == "get" || method == "head")) return "";
  }
  if (node == nullptr) {
    // No operation: the router's own answers, 404 route_not_found or 405.
    const int expected = fallback == nullptr ? 404 : 405;
    if (status != expected)
      return what + ", but no documented operation matches " + std::string(method_in) + " " + std::string(path) +
             " (the server should answer " + std::to_string(expected) +
             "); is the route missing from the route table, or its path template from the document?";
    if (content_type != "application/problem+json") return what + ", not application/problem+json";
    schema = impl_->problem;
    operation = "(no operation: the router's " + std::to_string(expected) + ")";
    json_body = true;
  } else {
    const std::string op_method = node->item->contains(method) ? method : std::string("get");
    const auto& op = node->item->at(op_method).as_object();
    operation = Lower(op_method) + " " + node->path;
    for (char& c : operation) {
      if (c == ' ') break;
      c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    const auto& responses = op.at("responses").as_object();
    const json::value* response = responses.if_contains(status_text);
    if (response == nullptr) response = responses.if_contains(status_text.substr(0, 1) + "XX");
    if (response == nullptr) response = responses.if_contains("default");
    if (response == nullptr) {
      std::string listed;
      for (const auto& [code, unused] : responses) listed += (listed.empty() ? "" : ", ") + std::string(code);
      const std::string where = status < 400 ? "`other_success` (the same body under another success status)"
                                : content_type == "application/problem+json"
                                    ? "`errors`"
                                    : "`foreign_errors` with its `foreign_error_schema`";
      return what + ": operation " + operation + " does not document status " + status_text + " (it lists " + listed +
             "). Add it to the route's RouteDoc " + where +
             " (src/http/handlers/, src/http/route.h), or fix the server. Body: " + Short(body);
    }
    response = impl_->Deref(response);
    if (response == nullptr || !response->is_object())
      return what + ": the response object of the document does not resolve";
    const auto* content = response->as_object().if_contains("content");
    if (content == nullptr || content->as_object().empty()) {
      if (!body.empty() && method != "head")
        return what + ": operation " + operation + " documents no body for " + status_text +
               ", but one came: " + Short(body);
      return "";
    }
    const auto* media = content->as_object().if_contains(content_type);
    if (media == nullptr) {
      std::string listed;
      for (const auto& [type, unused] : content->as_object())
        listed += (listed.empty() ? "" : ", ") + std::string(type);
      return what + ": operation " + operation + " documents " + status_text + " as " + listed + ", not as \"" +
             content_type + "\". Body: " + Short(body);
    }
    if (const auto* s = media->as_object().if_contains("schema")) schema = s;
    json_body = content_type == "application/json" ||
                (content_type.size() > 5 && content_type.compare(content_type.size() - 5, 5, "+json") == 0);
  }
  if (method == "head" || !json_body || schema == nullptr) return "";

  boost::system::error_code ec;
  const json::value value = json::parse(body, ec);
  if (ec) return what + " (operation " + operation + "): the body is not JSON: " + Short(body);
  std::string pointer;
  std::string problem = impl_->Validate(*schema, value, pointer);
  if (problem.empty()) return "";
  return what + " (operation " + operation + "): the body does not match the documented schema at \"" +
         (pointer.empty() ? std::string("") : pointer) + "\" (JSON pointer): the value " + problem +
         ". Fix the route's response Schema (src/http/handlers/) or the server. Body: " + Short(body);
}

// --- the hook HttpClient calls ---------------------------------------------

namespace {

thread_local int check_off = 0;

// How many responses were checked, printed when the test binary exits (a
// check that silently stopped running would show as 0).
std::atomic<long> checked_responses{0};
struct CheckedReport {
  ~CheckedReport() {
    if (checked_responses > 0)
      std::fprintf(stderr, "OpenAPI response check: %ld responses checked against the served document\n",
                   checked_responses.load());
  }
} checked_report;

struct Registry {
  std::mutex mu;
  std::set<std::string> servers;
  std::once_flag loaded;
  std::unique_ptr<OpenApiDocument> document;
  std::string load_error;
};

Registry& Servers() {
  static Registry* registry = new Registry();  // outlives static destructors
  return *registry;
}

// /openapi.json of `base_url`, on its own connection (not through
// HttpClient, whose every answer is checked).
std::string Fetch(const std::string& url, long& status) {
  std::string body;
  CURL* curl = curl_easy_init();
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, WriteBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 30000L);
  status = 0;
  if (curl_easy_perform(curl) == CURLE_OK) curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  curl_easy_cleanup(curl);
  return body;
}

const OpenApiDocument* Document(const std::string& base_url, std::string& error) {
  Registry& r = Servers();
  // Once per test binary: every server a test binary starts is the same
  // binary, so it serves the same document.
  std::call_once(r.loaded, [&] {
    long status = 0;
    const std::string body = Fetch(base_url + "/openapi.json", status);
    boost::system::error_code ec;
    json::value doc = json::parse(body, ec);
    if (status != 200 || ec || !doc.is_object() || !doc.as_object().contains("paths")) {
      r.load_error = "could not load " + base_url + "/openapi.json (status " + std::to_string(status) + ")";
      return;
    }
    r.document = std::make_unique<OpenApiDocument>(std::move(doc));
  });
  error = r.load_error;
  return r.document.get();
}

}  // namespace

void RegisterCredenceServer(const std::string& base_url) {
  std::lock_guard lock(Servers().mu);
  Servers().servers.insert(base_url);
}

void UnregisterCredenceServer(const std::string& base_url) {
  std::lock_guard lock(Servers().mu);
  Servers().servers.erase(base_url);
}

OpenApiCheckOff::OpenApiCheckOff() { ++check_off; }
OpenApiCheckOff::~OpenApiCheckOff() { --check_off; }

void CheckAgainstOpenApi(const std::string& base_url, const std::string& method, const std::string& target,
                         const Response& response) {
  if (check_off > 0 || response.status == 0) return;
  {
    std::lock_guard lock(Servers().mu);
    if (!Servers().servers.count(base_url)) return;
  }
  std::string error;
  const OpenApiDocument* document = Document(base_url, error);
  if (document == nullptr) {
    ADD_FAILURE() << "OpenAPI response check: " << error;
    return;
  }
  ++checked_responses;
  std::string problem =
      document->Check(method, target, response.status, response.Header("content-type"), response.body);
  if (!problem.empty())
    ADD_FAILURE() << "Response does not conform to the served OpenAPI document (docs/openapi.md): " << problem;
}

}  // namespace credence::test
