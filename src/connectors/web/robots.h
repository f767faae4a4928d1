#pragma once
// robots.txt (RFC 9309): the rules of one user agent.
#include <string>
#include <string_view>
#include <vector>

namespace credence::connectors::web {

class RobotsRules {
 public:
  // The rules that apply to `user_agent`: the groups whose User-agent line
  // matches its product token (the part before '/', case-insensitive), else
  // the `*` groups, else none (everything allowed). Unknown lines and
  // malformed ones are ignored; never fails.
  static RobotsRules Parse(std::string_view robots_txt, std::string_view user_agent);
  static RobotsRules AllowAll() { return RobotsRules(); }
  static RobotsRules DisallowAll();

  // Whether a URL's path and query ("/a/b?c") may be fetched: the longest
  // matching Allow or Disallow pattern decides (`*` matches any run, a final
  // `$` anchors the end; on a tie Allow wins); no match allows.
  // /robots.txt itself is always allowed.
  bool Allows(std::string_view path_and_query) const;

 private:
  struct Rule {
    bool allow = false;
    std::string pattern;
  };
  std::vector<Rule> rules_;
};

}  // namespace credence::connectors::web
