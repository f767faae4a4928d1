#include "connectors/web/robots.h"
#include "core/text.h"

#include <algorithm>
#include <cstdio>

namespace credence::connectors::web {
namespace {

std::string_view TrimView(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// A user agent's product token ("CredenceConnector/1.0" -> "credenceconnector").
std::string ProductToken(std::string_view ua) {
  ua = TrimView(ua);
  const size_t end = ua.find_first_of("/ \t");
  return AsciiLower(ua.substr(0, end));
}

// Longer patterns are ignored: no URL the crawler follows is longer.
constexpr size_t kMaxPatternLength = 2048;

// Patterns are compared with canonical URLs, which percent-encode bytes
// outside ASCII in uppercase hex; a robots.txt may spell those paths raw.
// A run of '*' is one '*'.
std::string EncodePattern(std::string_view raw) {
  std::string out;
  for (unsigned char c : raw) {
    if (c == '*' && !out.empty() && out.back() == '*') continue;
    if (c >= 0x80 || c == ' ') {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

// Whether `pattern` matches a prefix of `path` (the whole path with a final
// '$'). Keeps the set of positions the match can be at, so `*` never
// backtracks: O(|pattern| x |path|) at worst.
bool Matches(std::string_view pattern, std::string_view path) {
  // Most patterns start with a literal ("/private/"): a cheap first test.
  const size_t literal = std::min(pattern.find_first_of("*$"), pattern.size());
  if (path.substr(0, literal) != pattern.substr(0, literal)) return false;
  if (literal == pattern.size()) return true;
  std::vector<size_t> positions{0};
  std::vector<size_t> next;
  for (size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '$' && i + 1 == pattern.size()) return positions.back() == path.size();
    next.clear();
    if (c == '*') {
      for (size_t p = positions.front(); p <= path.size(); ++p) next.push_back(p);
    } else {
      for (size_t p : positions)
        if (p < path.size() && path[p] == c) next.push_back(p + 1);
    }
    if (next.empty()) return false;
    positions.swap(next);
  }
  return true;
}

}  // namespace

RobotsRules RobotsRules::Parse(std::string_view robots_txt, std::string_view user_agent) {
  struct Group {
    std::vector<std::string> agents;
    std::vector<Rule> rules;
  };
  std::vector<Group> groups;
  bool last_was_agent = false;
  size_t start = 0;
  while (start < robots_txt.size()) {
    size_t end = robots_txt.find_first_of("\r\n", start);
    if (end == std::string_view::npos) end = robots_txt.size();
    std::string_view line = robots_txt.substr(start, end - start);
    start = end + 1;
    if (const size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string key = AsciiLower(TrimView(line.substr(0, colon)));
    const std::string_view value = TrimView(line.substr(colon + 1));
    if (key == "user-agent") {
      if (!last_was_agent || groups.empty()) groups.emplace_back();
      groups.back().agents.push_back(value == "*" ? "*" : ProductToken(value));
      last_was_agent = true;
    } else if (key == "allow" || key == "disallow") {
      last_was_agent = false;
      // Rules before any group are ignored; an empty rule allows all.
      if (groups.empty() || value.empty() || value.size() > kMaxPatternLength) continue;
      groups.back().rules.push_back({key == "allow", EncodePattern(value)});
    } else {
      // Sitemap, Crawl-delay and other lines neither belong to a group nor end one.
    }
  }
  const std::string token = ProductToken(user_agent);
  RobotsRules mine, star;
  bool have_mine = false;
  for (const Group& g : groups) {
    const bool is_mine = !token.empty() && std::find(g.agents.begin(), g.agents.end(), token) != g.agents.end();
    const bool is_star = std::find(g.agents.begin(), g.agents.end(), "*") != g.agents.end();
    if (is_mine) {
      have_mine = true;
      mine.rules_.insert(mine.rules_.end(), g.rules.begin(), g.rules.end());
    }
    if (is_star) star.rules_.insert(star.rules_.end(), g.rules.begin(), g.rules.end());
  }
  return have_mine ? mine : star;
}

RobotsRules RobotsRules::DisallowAll() {
  RobotsRules r;
  r.rules_.push_back({false, "/"});
  return r;
}

bool RobotsRules::Allows(std::string_view path_and_query) const {
  if (path_and_query == "/robots.txt") return true;
  size_t best_length = 0;
  bool allowed = true;
  bool matched = false;
  for (const Rule& rule : rules_) {
    if (!Matches(rule.pattern, path_and_query)) continue;
    const size_t length = rule.pattern.size();
    if (!matched || length > best_length) {
      allowed = rule.allow;
      best_length = length;
      matched = true;
    } else if (length == best_length && rule.allow) {
      allowed = true;
    }
  }
  return allowed;
}

}  // namespace credence::connectors::web
