#pragma once
// Matches a method and an encoded path against route templates. Paths are
// split on '/' before percent-decoding, so an encoded slash (%2F) stays
// inside its segment: a source id like "https%3A%2F%2Fexample.com%2Fa" or
// "confluence:SPACE:123" is one parameter. Literal segments win over
// parameters at the same depth.
#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "http/route.h"

namespace credence::http {

class Router {
 public:
  Router();
  ~Router();
  Router(const Router&) = delete;
  Router& operator=(const Router&) = delete;

  // Serves `route` at its path and every alias. Throws std::logic_error on a
  // duplicate method+template, a malformed template, or an alias whose
  // parameters differ from the path's.
  void Add(Route route);

  struct Match {
    enum class Outcome { kFound, kNotFound, kMethodNotAllowed, kBadPath };
    Outcome outcome = Outcome::kNotFound;
    const Route* route = nullptr;
    // The template that matched: route->path or one of its aliases.
    std::string_view path_template;
    std::vector<std::pair<std::string_view, std::string>> params;
    std::string allow;  // for kMethodNotAllowed: "GET, POST"
  };
  Match Find(Method method, std::string_view encoded_path) const;

  const std::vector<std::unique_ptr<Route>>& routes() const { return routes_; }

 private:
  static constexpr size_t kMethods = 8;
  struct SegmentHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  struct Node {
    std::unordered_map<std::string, std::unique_ptr<Node>, SegmentHash, std::equal_to<>> literals;
    std::unique_ptr<Node> param;
    std::array<const Route*, kMethods> handlers{};
    std::array<const std::string*, kMethods> templates{};  // the path or alias inserted here
    bool HasAny() const;
  };
  // Depth-first, literals before parameters. Returns the first node that
  // serves `method`; remembers in `fallback` the first node that matched the
  // path at all (for 405).
  const Node* Walk(const Node* node, const std::vector<std::string_view>& segments, size_t index, Method method,
                   std::vector<std::string_view>& captured, const Node*& fallback) const;
  static const Route* RouteFor(const Node& node, Method method);
  void Insert(const std::string& path, const Route* route);
  void RemoveHandlers(const Route* route);

  std::unique_ptr<Node> root_;
  std::vector<std::unique_ptr<Route>> routes_;
};

}  // namespace credence::http
