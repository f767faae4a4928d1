#include "connectors/internal/web_kind.h"

#include <stdexcept>
#include <string>

#include "connectors/settings.h"

#include "connectors/web/crawler.h"
#include "outbound/outbound.h"

namespace credence::connectors {

namespace {

web::CrawlSettings ToCrawlSettings(const WebSettings& s) {
  web::CrawlSettings c;
  c.start_urls = s.start_urls;
  c.sitemap_url = s.sitemap_url;
  c.max_pages = static_cast<int>(s.max_pages);
  c.max_depth = static_cast<int>(s.max_depth);
  c.include_prefixes = s.include_prefixes;
  c.request_timeout_ms = static_cast<int>(s.request_timeout_ms);
  c.user_agent = s.user_agent;
  c.max_page_bytes = s.max_page_bytes;
  return c;
}

}  // namespace

std::vector<FieldError> CheckCrawlSettings(const WebSettings& settings) {
  std::vector<FieldError> out;
  if (auto st = web::ValidateSettings(ToCrawlSettings(settings)); !st) {
    if (st.error().fields.empty()) out.push_back({"settings", st.error().detail});
    for (const auto& f : st.error().fields) out.push_back({"settings." + f.field, f.message});
    return out;
  }
  // Where the crawl starts, under the connectors' outbound rule at creation
  // as a git remote is (docs/outbound.md): a literal address, in any of its
  // numeric forms (http://2852039166/ is 169.254.169.254), is classified now;
  // names are checked at the socket on every request.
  auto check = [&out](const std::string& url, const std::string& field) {
    if (auto st = outbound::CheckUrl(url, outbound::ConnectorPolicy(), field); !st)
      out.push_back(st.error().fields.empty() ? FieldError{field, st.error().detail} : st.error().fields[0]);
  };
  for (size_t i = 0; i < settings.start_urls.size(); ++i)
    check(settings.start_urls[i], "settings.startUrls[" + std::to_string(i) + "]");
  if (settings.sitemap_url) check(*settings.sitemap_url, "settings.sitemapUrl");
  return out;
}

namespace internal {

void SyncWeb(RunWriter& w, const Run& run, const std::optional<Credential>& credential) {
  const WebSettings settings = WebSettingsFromJson(w.scope().connector.settings);
  web::CrawlSettings crawl = ToCrawlSettings(settings);
  if (credential) crawl.credential_header = HeaderLineOf(*credential);
  bool lost = false;
  auto known = [&w](const std::string& url) -> std::optional<web::KnownPage> {
    auto k = w.Known(url);
    if (!k || k->removed) return std::nullopt;
    // Links are not kept: a page whose links the crawl still needs is then
    // fetched without validators (crawler.h, KnownPage::links).
    return web::KnownPage{k->etag, k->last_modified, k->content_hash.value_or(""), std::nullopt};
  };
  auto on_page = [&](web::Page&& page) -> bool {
    try {
      const std::string id = page.requested_url;
      switch (page.state) {
        case web::Page::State::kChanged: {
          SourceDocument doc;
          doc.external_id = id;
          doc.url = page.url;
          doc.title = page.title.empty() ? page.url : page.title;
          doc.text = std::move(page.text);
          doc.owner_email = page.owner_email;
          doc.reviewed_at = page.reviewed_at;
          doc.modified_at = page.modified_at;
          doc.etag = page.etag;
          doc.last_modified = page.last_modified;
          w.Upsert(std::move(doc));
          break;
        }
        case web::Page::State::kUnchanged:
          w.Unchanged(id, {}, /*mark_seen=*/true, page.etag, page.last_modified);
          break;
        default:
          if (page.http_status == 404 || page.http_status == 410)
            w.Remove(id);
          else
            w.Fail(id, page.error.empty() ? "HTTP " + std::to_string(page.http_status) : page.error);
          break;
      }
      return true;
    } catch (const LeaseLost&) {
      lost = true;
      return false;
    }
  };
  auto summary = web::Crawl(crawl, known, on_page);
  if (lost) throw LeaseLost();
  if (!summary) throw std::runtime_error(summary.error().detail);
  w.Flush();
  // Only a crawl that saw everything it could (not cut by maxPages, not
  // stopped) says what is gone.
  if (!summary->truncated && !summary->stopped) {
    for (const auto& k : w.AllKnown())
      if (!k.removed && k.last_seen_run != run.id) w.Remove(k.external_id);
    w.Flush();
  }
}

}  // namespace internal

}  // namespace credence::connectors
