// robots.txt and sitemaps of crawled sites (src/connectors/web/robots.*,
// internal/sitemap.*): RobotsRules::Parse and Allows on every URL the
// crawler considers, ParseSitemap on every sitemap it fetches.
//
// Input: read as a robots.txt and as a sitemap. The paths asked of the
// rules are fixed ones plus each line's text after its colon.
//
// Invariants: nothing throws; /robots.txt is always allowed; a rule set
// from nothing allows everything; a sitemap keeps at most max_locs entries
// (truncated only when full), and what is not a sitemap has none.
#include <string>
#include <string_view>
#include <vector>

#include "connectors/web/internal/sitemap.h"
#include "connectors/web/robots.h"
#include "support/fuzz_support.h"

namespace web = credence::connectors::web;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);

  const auto rules = web::RobotsRules::Parse(input, "CredenceBot/1.0 (+https://credence.example)");
  FUZZ_CHECK(rules.Allows("/robots.txt"), input);
  for (const std::string_view path : {"/", "/a/b?c=d", "/private/x.html", "/%7Euser/", "/*$"}) (void)rules.Allows(path);
  size_t at = 0, asked = 0;
  while (at < input.size() && asked < 32) {
    size_t end = input.find('\n', at);
    if (end == std::string_view::npos) end = input.size();
    const std::string_view line = input.substr(at, end - at);
    if (const size_t colon = line.find(':'); colon != std::string_view::npos) {
      (void)rules.Allows(line.substr(colon + 1));
      ++asked;
    }
    at = end + 1;
  }
  (void)web::RobotsRules::Parse(input, "*");
  FUZZ_CHECK(web::RobotsRules::Parse("", "CredenceBot").Allows(input), input);

  constexpr size_t kMaxLocs = 50;
  const auto sitemap = web::internal::ParseSitemap(input, kMaxLocs);
  FUZZ_CHECK(sitemap.locs.size() <= kMaxLocs, "too many locs");
  if (sitemap.truncated) FUZZ_CHECK(sitemap.locs.size() == kMaxLocs, "truncated before full");
  if (sitemap.kind == web::internal::Sitemap::Kind::kNotASitemap)
    FUZZ_CHECK(sitemap.locs.empty() && !sitemap.truncated, "locs outside a sitemap");
  return 0;
}
