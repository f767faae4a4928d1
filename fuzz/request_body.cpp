// Request bodies through the route schemas (src/http/schema.*, json_io.*):
// the route table the server serves, built by BuildRouter over the real
// services, and ParseBody, which every handler with a JSON body calls
// before anything else.
//
// Input: "METHOD /path/template\n" then the body. The first line names a
// route with a request schema; a line that names none picks one by its
// hash, so mutated first lines still exercise some schema.
//
// Invariants: nothing throws; a refusal is a 400 with malformed_json,
// validation_failed (with at least one field error) or the route's own
// item-count code; an accepted body is an object that, serialized and parsed
// again, is accepted again with the same members (numbers to within a few
// ULP, see SameJson).
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "app/service_set.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/route.h"
#include "http/router.h"
#include "support/fuzz_support.h"

namespace {

using credence::http::Route;

struct Table {
  std::unique_ptr<credence::http::Router> router;
  std::map<std::string, const Route*> by_name;  // "POST /api/trust/evaluate"
  std::vector<const Route*> ordered;
};

const Table& Routes() {
  static const Table* table = [] {
    auto* t = new Table;
    t->router = credence::http::BuildRouter(credence::fuzz::FuzzServices().services());
    for (const auto& route : t->router->routes()) {
      if (!route->doc.request || route->doc.request_content_type != "application/json") continue;
      const std::string name = std::string(credence::http::MethodName(route->method)) + " " + route->path;
      t->by_name[name] = route.get();
    }
    for (const auto& [name, route] : t->by_name) t->ordered.push_back(route);
    if (t->ordered.empty()) credence::fuzz::Fail("no route has a JSON request schema");
    return t;
  }();
  return *table;
}

// Equal, but for doubles within a few units in the last place: Boost.JSON
// 1.81 does not parse every number correctly rounded ("31e038" and its own
// serialization "3.0999999999999996E39" read one ULP apart), a known
// limitation of that version, not of the server.
bool SameJson(const boost::json::value& a, const boost::json::value& b) {
  if (a.is_double() && b.is_double()) {
    double x = a.get_double();
    for (int i = 0; i < 4 && x != b.get_double(); ++i) x = std::nextafter(x, b.get_double());
    return x == b.get_double();
  }
  if (a.kind() != b.kind()) return false;
  if (a.is_array()) {
    const auto &x = a.get_array(), &y = b.get_array();
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i)
      if (!SameJson(x[i], y[i])) return false;
    return true;
  }
  if (a.is_object()) {
    const auto &x = a.get_object(), &y = b.get_object();
    if (x.size() != y.size()) return false;
    for (const auto& member : x) {
      const auto* other = y.if_contains(member.key());
      if (other == nullptr || !SameJson(member.value(), *other)) return false;
    }
    return true;
  }
  return a == b;
}

// malformed_json, validation_failed, or a schema's own item-count code
// (ItemCountCodes, not visible from outside the schema): snake_case.
bool IsSnakeCase(const std::string& code) {
  return !code.empty() &&
         std::all_of(code.begin(), code.end(), [](char c) { return (c >= 'a' && c <= 'z') || c == '_'; });
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // CREDENCE_FUZZ_LIST_ROUTES=1: print the route names seeds may use.
  if (std::getenv("CREDENCE_FUZZ_LIST_ROUTES") != nullptr) {
    for (const auto& [name, route] : Routes().by_name) std::printf("%s\n", name.c_str());
    std::exit(0);
  }
  (void)Routes();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const size_t newline = input.find('\n');
  const std::string_view first = input.substr(0, newline);
  const std::string_view body = newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);
  const Table& table = Routes();
  const auto found = table.by_name.find(std::string(first));
  const Route& route = found != table.by_name.end()
                           ? *found->second
                           : *table.ordered[std::hash<std::string_view>()(first) % table.ordered.size()];

  credence::http::HttpRequest request;
  request.body = std::string(body);
  auto parsed = credence::http::ParseBody(request, *route.doc.request);
  if (!parsed) {
    const credence::Error& e = parsed.error();
    FUZZ_CHECK(e.kind == credence::ErrorKind::kInvalidArgument, e.code + ": " + e.detail);
    FUZZ_CHECK(IsSnakeCase(e.code), e.code);
    if (e.code != "malformed_json") FUZZ_CHECK(!e.fields.empty(), e.code + " without field errors");
    return 0;
  }
  // Accepted: the members the handler reads survive a round trip.
  request.body = boost::json::serialize(*parsed);
  auto again = credence::http::ParseBody(request, *route.doc.request);
  FUZZ_CHECK(static_cast<bool>(again), request.body);
  FUZZ_CHECK(SameJson(*again, *parsed), request.body);
  return 0;
}
