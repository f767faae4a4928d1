#include "http/language.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string>

namespace credence::http {
namespace {

// The supported language a tag's primary subtag names, else English.
std::string_view Supported(std::string_view tag) {
  const std::string_view primary = tag.substr(0, tag.find('-'));
  for (std::string_view language : kTextLanguages)
    if (std::equal(primary.begin(), primary.end(), language.begin(), language.end(),
                   [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; }))
      return language;
  return kTextLanguages[0];
}

}  // namespace

std::string_view TextLanguage(const HttpRequest& request, const identity::Principal* principal) {
  if (principal != nullptr && principal->preferred_language) return Supported(*principal->preferred_language);
  // RFC 9110 12.5.4: "tag;q=0.8, tag, ...". The first of the highest q wins,
  // as the web client takes the browser's first language; q=0 is refused.
  std::string_view best = kTextLanguages[0];
  double best_q = 0;
  std::string_view rest = request.Header("accept-language");
  while (!rest.empty()) {
    const size_t comma = std::min(rest.find(','), rest.size());
    std::string_view item = rest.substr(0, comma);
    rest.remove_prefix(std::min(comma + 1, rest.size()));
    const size_t semi = std::min(item.find(';'), item.size());
    std::string_view tag = item.substr(0, semi);
    while (!tag.empty() && tag.front() == ' ') tag.remove_prefix(1);
    while (!tag.empty() && tag.back() == ' ') tag.remove_suffix(1);
    double q = 1;
    if (const auto at = item.find("q=", semi); at != std::string_view::npos)
      q = std::strtod(std::string(item.substr(at + 2)).c_str(), nullptr);
    if (!tag.empty() && tag != "*" && q > best_q) {
      best = Supported(tag);
      best_q = q;
    }
  }
  return best;
}

void AddContentLanguage(HttpResponse& response, std::string_view language) {
  response.WithHeader("Content-Language", std::string(language));
}

}  // namespace credence::http
