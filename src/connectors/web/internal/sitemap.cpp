#include "connectors/web/internal/sitemap.h"

#include "connectors/web/internal/markup.h"

namespace credence::connectors::web::internal {
namespace {

// "sm:loc" -> "loc".
std::string_view LocalName(std::string_view name) {
  const size_t colon = name.rfind(':');
  return colon == std::string_view::npos ? name : name.substr(colon + 1);
}

std::string TrimBlanksAndControls(std::string_view s) {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= 0x20) s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= 0x20) s.remove_suffix(1);
  return std::string(s);
}

}  // namespace

Sitemap ParseSitemap(std::string_view xml, size_t max_locs) {
  Sitemap out;
  MarkupTokenizer tokens(xml, /*xml=*/true);
  bool root_seen = false;
  bool in_loc = false;
  std::string loc;
  for (auto t = tokens.Next(); t != MarkupTokenizer::Token::kDone; t = tokens.Next()) {
    if (t == MarkupTokenizer::Token::kText) {
      if (in_loc) loc += tokens.cdata() ? std::string(tokens.text()) : DecodeEntities(tokens.text());
      continue;
    }
    const Tag& tag = tokens.tag();
    const std::string_view name = LocalName(tag.name);
    if (!root_seen) {
      if (tag.end) continue;
      root_seen = true;
      if (name == "urlset") {
        out.kind = Sitemap::Kind::kUrlSet;
      } else if (name == "sitemapindex") {
        out.kind = Sitemap::Kind::kIndex;
      } else {
        return out;
      }
      continue;
    }
    if (name != "loc") continue;
    if (!tag.end && !tag.self_closing) {
      in_loc = true;
      loc.clear();
    } else if (tag.end && in_loc) {
      in_loc = false;
      std::string value = TrimBlanksAndControls(loc);
      if (value.empty()) continue;
      if (out.locs.size() >= max_locs) {
        out.truncated = true;
        break;
      }
      out.locs.push_back(std::move(value));
    }
  }
  return out;
}

}  // namespace credence::connectors::web::internal
