#include "http/router.h"

#include <stdexcept>

namespace credence::http {

namespace {

std::vector<std::string_view> Split(std::string_view path) {
  std::vector<std::string_view> out;
  if (path.empty() || path.front() != '/') return out;
  path.remove_prefix(1);
  while (true) {
    const auto slash = path.find('/');
    out.push_back(path.substr(0, slash));
    if (slash == std::string_view::npos) break;
    path.remove_prefix(slash + 1);
  }
  return out;
}

bool IsParam(std::string_view segment) {
  return segment.size() > 2 && segment.front() == '{' && segment.back() == '}';
}

}  // namespace

const std::string& RequestContext::PathParam(std::string_view name) const {
  for (const auto& [n, v] : path_params)
    if (n == name) return v;
  static const std::string kEmpty;
  return kEmpty;
}

Router::Router() : root_(std::make_unique<Node>()) {}
Router::~Router() = default;

bool Router::Node::HasAny() const {
  for (const Route* r : handlers)
    if (r != nullptr) return true;
  return false;
}

namespace {

std::vector<std::string_view> ParamNames(std::string_view path) {
  std::vector<std::string_view> names;
  for (std::string_view segment : Split(path))
    if (IsParam(segment)) names.push_back(segment);
  return names;
}

}  // namespace

void Router::Add(Route route) {
  routes_.push_back(std::make_unique<Route>(std::move(route)));
  const Route* added = routes_.back().get();
  try {
    Insert(added->path, added);
    for (const auto& alias : added->aliases) {
      if (ParamNames(alias) != ParamNames(added->path))
        throw std::logic_error("alias " + alias + " must name the parameters of " + added->path);
      Insert(alias, added);
    }
  } catch (...) {
    // Leave no dangling handler behind: remove what was inserted.
    RemoveHandlers(added);
    routes_.pop_back();
    throw;
  }
}

void Router::RemoveHandlers(const Route* route) {
  std::vector<Node*> stack{root_.get()};
  while (!stack.empty()) {
    Node* node = stack.back();
    stack.pop_back();
    for (size_t m = 0; m < kMethods; ++m)
      if (node->handlers[m] == route) {
        node->handlers[m] = nullptr;
        node->templates[m] = nullptr;
      }
    for (auto& [_, child] : node->literals) stack.push_back(child.get());
    if (node->param) stack.push_back(node->param.get());
  }
}

void Router::Insert(const std::string& path, const Route* route) {
  if (path.empty() || path.front() != '/') throw std::logic_error("route must start with /: " + path);
  Node* node = root_.get();
  for (std::string_view segment : Split(path)) {
    if (IsParam(segment)) {
      // Templates may name the same position differently (/api/hubs/{key},
      // /api/hubs/{hubId}/memberships): names come from the matched route.
      if (!node->param) node->param = std::make_unique<Node>();
      node = node->param.get();
    } else {
      auto& child = node->literals[std::string(segment)];
      if (!child) child = std::make_unique<Node>();
      node = child.get();
    }
  }
  const auto index = static_cast<size_t>(route->method);
  if (node->handlers[index] != nullptr)
    throw std::logic_error("duplicate route " + std::string(MethodName(route->method)) + " " + path);
  node->handlers[index] = route;
  node->templates[index] = &path;
}

const Route* Router::RouteFor(const Node& node, Method method) {
  const Route* route = node.handlers[static_cast<size_t>(method)];
  if (route == nullptr && method == Method::kHead) route = node.handlers[static_cast<size_t>(Method::kGet)];
  return route;
}

const Router::Node* Router::Walk(const Node* node, const std::vector<std::string_view>& segments, size_t index,
                                 Method method, std::vector<std::string_view>& captured, const Node*& fallback) const {
  if (index == segments.size()) {
    if (RouteFor(*node, method) != nullptr) return node;
    if (fallback == nullptr && node->HasAny()) fallback = node;
    return nullptr;
  }
  const std::string_view segment = segments[index];
  if (auto it = node->literals.find(segment); it != node->literals.end()) {
    if (const Node* found = Walk(it->second.get(), segments, index + 1, method, captured, fallback)) return found;
  }
  if (node->param && !segment.empty()) {
    captured.push_back(segment);
    if (const Node* found = Walk(node->param.get(), segments, index + 1, method, captured, fallback)) return found;
    captured.pop_back();
  }
  return nullptr;
}

Router::Match Router::Find(Method method, std::string_view encoded_path) const {
  Match match;
  const auto segments = Split(encoded_path);
  if (segments.empty()) return match;
  std::vector<std::string_view> captured;
  const Node* fallback = nullptr;
  const Node* node = Walk(root_.get(), segments, 0, method, captured, fallback);
  if (node == nullptr) {
    if (fallback == nullptr) return match;
    match.outcome = Match::Outcome::kMethodNotAllowed;
    for (size_t m = 0; m < kMethods; ++m) {
      if (fallback->handlers[m] == nullptr) continue;
      if (!match.allow.empty()) match.allow += ", ";
      match.allow += MethodName(static_cast<Method>(m));
      if (static_cast<Method>(m) == Method::kGet && fallback->handlers[static_cast<size_t>(Method::kHead)] == nullptr)
        match.allow += ", HEAD";
    }
    return match;
  }
  const Route* route = RouteFor(*node, method);
  const std::string* matched = node->templates[static_cast<size_t>(method)];
  if (node->handlers[static_cast<size_t>(method)] == nullptr)
    matched = node->templates[static_cast<size_t>(Method::kGet)];
  match.path_template = matched != nullptr ? std::string_view(*matched) : std::string_view(route->path);
  // Recover parameter names from the template of the matched route.
  size_t next = 0;
  for (std::string_view segment : Split(route->path)) {
    if (!IsParam(segment)) continue;
    auto decoded = PercentDecode(captured[next++]);
    if (!decoded) {
      match.outcome = Match::Outcome::kBadPath;
      return match;
    }
    match.params.emplace_back(segment.substr(1, segment.size() - 2), std::move(*decoded));
  }
  match.outcome = Match::Outcome::kFound;
  match.route = route;
  return match;
}

}  // namespace credence::http
