#pragma once
// Sitemaps (sitemaps.org protocol 0.9): a <urlset> of pages or a
// <sitemapindex> of sitemaps, each entry's URL in <loc>.
#include <string>
#include <string_view>
#include <vector>

namespace credence::connectors::web::internal {

struct Sitemap {
  enum class Kind { kNotASitemap, kUrlSet, kIndex };
  Kind kind = Kind::kNotASitemap;
  std::vector<std::string> locs;  // as written (entities decoded, trimmed), at most max_locs
  bool truncated = false;         // more than max_locs entries
};

// The root element decides the kind (a namespace prefix is ignored); <loc>
// elements inside it are collected in order. Never fails: anything else
// (HTML, JSON, garbage, gzip bytes) is kNotASitemap.
Sitemap ParseSitemap(std::string_view xml, size_t max_locs);

}  // namespace credence::connectors::web::internal
