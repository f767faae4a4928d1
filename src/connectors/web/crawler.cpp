#include "connectors/web/crawler.h"

#include <curl/curl.h>

#include <algorithm>
#include <deque>
#include <map>
#include <unordered_set>

#include "connectors/web/html_text.h"
#include "connectors/web/internal/fetcher.h"
#include "connectors/web/internal/markup.h"
#include "connectors/web/internal/sitemap.h"
#include "connectors/web/internal/url.h"
#include "connectors/web/robots.h"
#include "core/ids.h"
#include "core/text.h"

namespace credence::connectors::web {
namespace {

using internal::FetchOptions;
using internal::FetchResult;

constexpr int kMaxRedirects = 5;
constexpr int64_t kMaxRobotsBytes = int64_t{500} * 1024;         // Google reads the first 500 KiB
constexpr int64_t kMaxSitemapBytes = int64_t{50} * 1024 * 1024;  // the sitemaps.org limit
constexpr size_t kMaxChildSitemaps = 100;                        // of one sitemap index
constexpr size_t kMaxUrlLength = 2048;
constexpr size_t kMaxStartUrls = 100;  // and include prefixes
constexpr const char* kAccept = "Accept: text/html,application/xhtml+xml;q=0.9,text/plain;q=0.8,*/*;q=0.1";

Error Unreachable(std::string detail) {
  return Error{ErrorKind::kUpstreamFailed, "source_unreachable", std::move(detail), {}, {}};
}
Error BadSitemap(std::string detail) {
  return Error{ErrorKind::kUpstreamFailed, "sitemap_invalid", std::move(detail), {}, {}};
}

bool IsHtml(std::string_view media) { return media == "text/html" || media == "application/xhtml+xml"; }
bool IsPlain(std::string_view media) { return media == "text/plain"; }
// An empty type is decided by sniffing once the body is in.
bool Acceptable(std::string_view media) { return media.empty() || IsHtml(media) || IsPlain(media); }
bool IsRedirect(long status) {
  return status == 301 || status == 302 || status == 303 || status == 307 || status == 308;
}

bool IsHttpUrl(const std::string& s) { return s.size() <= kMaxUrlLength && internal::CanonicalUrl(s).has_value(); }

// A validator we send back must not be able to add a header line.
bool SafeHeaderValue(const std::string& v) {
  return !v.empty() && v.size() <= 1024 && v.find_first_of("\r\n") == std::string::npos;
}

std::optional<TimeMs> ParseHttpDate(const std::optional<std::string>& value) {
  if (!value) return std::nullopt;
  const time_t t = curl_getdate(value->c_str(), nullptr);
  if (t < 0) return std::nullopt;
  return static_cast<TimeMs>(t) * 1000;
}

std::string Join(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

// The Content-Type charsets read as windows-1252; anything else is taken as
// UTF-8 (invalid bytes become U+FFFD).
bool IsLatin1(std::string_view charset) {
  return charset == "iso-8859-1" || charset == "latin1" || charset == "latin-1" || charset == "windows-1252" ||
         charset == "cp1252" || charset == "iso-8859-15";
}

class Crawler {
 public:
  using KnownFn = std::function<std::optional<KnownPage>(const std::string&)>;
  using PageFn = std::function<bool(Page&&)>;

  Crawler(const CrawlSettings& settings, const KnownFn& known, const PageFn& on_page)
      : settings_(settings), known_(known), on_page_(on_page) {}

  Result<CrawlSummary> Run();

 private:
  struct Item {
    std::string url;
    int depth = 0;
    bool start = false;
  };
  struct Robots {
    RobotsRules rules;
    // Why robots.txt could not be read ("its robots.txt answered HTTP 503"),
    // or empty. Then nothing of the origin is fetched, but its pages are
    // reported as failed rather than left out, so a caller does not take
    // them for removed.
    std::string unavailable;
    std::string unreachable;  // the transport error, when the origin did not answer at all
  };
  struct Visit {
    std::optional<Page> page;   // nullopt: skipped (not HTML or text, or a redirect to a page already seen)
    std::string start_problem;  // set when the URL could not be reached at all (as a start URL: why)
  };
  enum class Enqueued { kYes, kOutOfScope, kSeen, kDisallowed, kFull };

  bool InScope(const std::string& url) const;
  // Options carrying the credential, for the fetcher to send to its origin only.
  FetchOptions Authorized() const {
    FetchOptions o;
    if (settings_.credential_header) {
      o.credential_header = *settings_.credential_header;
      o.credential_origin = credential_origin_;
    }
    return o;
  }
  const Robots& RobotsFor(const std::string& url);
  // Empty when robots.txt lets us fetch `url`, else why not.
  std::string RobotsVeto(const std::string& url);
  Enqueued Enqueue(const std::string& url, int depth, bool start);
  Status LoadSitemap();
  Result<internal::Sitemap> FetchSitemap(const std::string& url, const std::string& listed_in);
  Visit VisitPage(const Item& item);
  bool Emit(Page&& page);

  const CrawlSettings& settings_;
  const KnownFn& known_;
  const PageFn& on_page_;
  internal::Fetcher fetcher_;
  std::string credential_origin_;         // the first start URL's origin, else the sitemap's
  std::vector<std::string> prefixes_;     // canonical
  std::deque<Item> queue_;                // breadth first
  std::unordered_set<std::string> seen_;  // ever queued, or reached by a redirect
  std::unordered_set<std::string> done_;  // fetched: requested URLs and where they ended
  std::map<std::string, Robots> robots_;  // by origin, fetched once per crawl
  CrawlSummary summary_;
};

bool Crawler::InScope(const std::string& url) const {
  for (const std::string& p : prefixes_)
    if (url.starts_with(p)) return true;
  return false;
}

// robots.txt, once per origin. 2xx: its rules; other 4xx (404, 410, 403):
// everything allowed; 429, 5xx, or no answer at all: nothing is fetched from
// the origin in this crawl (Google's policy: a site that cannot say what is
// off limits may not want to be crawled right now). Redirects are followed (5).
const Crawler::Robots& Crawler::RobotsFor(const std::string& url) {
  const std::string origin = internal::OriginOf(url);
  if (auto it = robots_.find(origin); it != robots_.end()) return it->second;
  FetchOptions options = Authorized();
  options.timeout_ms = settings_.request_timeout_ms;
  options.user_agent = settings_.user_agent;
  options.max_bytes = kMaxRobotsBytes;
  options.truncate_at_max = true;
  options.follow_redirects = kMaxRedirects;
  const FetchResult r = fetcher_.Get(origin + "robots.txt", options);
  Robots robots;
  if (r.outcome == FetchResult::Outcome::kTransportError) {
    robots = {RobotsRules::DisallowAll(), "its robots.txt is unreachable: " + r.error, r.error};
  } else if (r.status >= 200 && r.status < 300) {
    robots.rules = RobotsRules::Parse(r.body, settings_.user_agent);
  } else if (r.status == 429 || r.status >= 500 || r.status < 200) {
    robots = {RobotsRules::DisallowAll(), "its robots.txt answered HTTP " + std::to_string(r.status), ""};
  }
  return robots_.emplace(origin, std::move(robots)).first->second;
}

std::string Crawler::RobotsVeto(const std::string& url) {
  const Robots& robots = RobotsFor(url);
  if (!robots.unavailable.empty()) return robots.unavailable;
  return robots.rules.Allows(internal::PathAndQuery(url)) ? std::string() : "robots.txt disallows it";
}

Crawler::Enqueued Crawler::Enqueue(const std::string& url, int depth, bool start) {
  if (!InScope(url)) return Enqueued::kOutOfScope;
  if (!seen_.insert(url).second) return Enqueued::kSeen;
  // Disallowed URLs are left out; those of an origin whose robots.txt could
  // not be read are queued, to be reported as failed (VisitPage).
  const Robots& robots = RobotsFor(url);
  if (robots.unavailable.empty() && !robots.rules.Allows(internal::PathAndQuery(url))) return Enqueued::kDisallowed;
  // What max_pages would never fetch is not kept: the queue stays bounded.
  if (static_cast<size_t>(summary_.fetched) + queue_.size() >= static_cast<size_t>(settings_.max_pages)) {
    summary_.truncated = true;
    return Enqueued::kFull;
  }
  queue_.push_back({url, depth, start});
  return Enqueued::kYes;
}

Result<internal::Sitemap> Crawler::FetchSitemap(const std::string& url, const std::string& listed_in) {
  const std::string what = "sitemap " + url + (listed_in.empty() ? "" : " (listed in " + listed_in + ")");
  FetchOptions options = Authorized();
  options.timeout_ms = settings_.request_timeout_ms;
  options.user_agent = settings_.user_agent;
  options.max_bytes = kMaxSitemapBytes;
  options.follow_redirects = kMaxRedirects;
  const FetchResult r = fetcher_.Get(url, options);
  if (r.outcome == FetchResult::Outcome::kTransportError) return Unreachable(what + " is unreachable: " + r.error);
  if (r.outcome == FetchResult::Outcome::kTooLarge) return BadSitemap(what + " is " + r.error);
  if (r.status < 200 || r.status >= 300) return Unreachable(what + " answered HTTP " + std::to_string(r.status));
  if (r.body.size() >= 2 && static_cast<unsigned char>(r.body[0]) == 0x1f &&
      static_cast<unsigned char>(r.body[1]) == 0x8b)
    return BadSitemap(what + " is gzip-compressed, which is not supported");
  internal::Sitemap sitemap = internal::ParseSitemap(r.body, static_cast<size_t>(settings_.max_pages));
  if (sitemap.kind == internal::Sitemap::Kind::kNotASitemap)
    return BadSitemap(what + " is not a sitemap (no <urlset> or <sitemapindex>)");
  if (sitemap.truncated) summary_.truncated = true;
  return sitemap;
}

// The sitemap, or the sitemaps of a sitemap index (one level: an index
// inside an index is not followed). Any of them failing fails the crawl:
// a partial list would look like pages removed.
Status Crawler::LoadSitemap() {
  const std::string url = *internal::CanonicalUrl(*settings_.sitemap_url);
  CR_TRY_ASSIGN(internal::Sitemap root, FetchSitemap(url, ""));
  std::vector<std::string> locs;
  if (root.kind == internal::Sitemap::Kind::kIndex) {
    if (root.locs.size() > kMaxChildSitemaps) summary_.truncated = true;
    for (size_t i = 0; i < root.locs.size() && i < kMaxChildSitemaps; ++i) {
      if (locs.size() >= static_cast<size_t>(settings_.max_pages)) {
        summary_.truncated = true;
        break;
      }
      const auto child_url = internal::CanonicalUrl(root.locs[i]);
      if (!child_url) continue;
      CR_TRY_ASSIGN(internal::Sitemap child, FetchSitemap(*child_url, url));
      if (child.kind != internal::Sitemap::Kind::kUrlSet) continue;
      locs.insert(locs.end(), std::make_move_iterator(child.locs.begin()), std::make_move_iterator(child.locs.end()));
    }
  } else {
    locs = std::move(root.locs);
  }
  for (const std::string& loc : locs) {
    // Entries outside the include prefixes (or not URLs) are ignored, as the
    // protocol wants a sitemap to list only its own site.
    if (auto canonical = internal::CanonicalUrl(loc)) Enqueue(*canonical, 0, false);
  }
  return Ok();
}

bool Crawler::Emit(Page&& page) {
  switch (page.state) {
    case Page::State::kChanged:
      ++summary_.changed;
      break;
    case Page::State::kUnchanged:
      ++summary_.unchanged;
      break;
    case Page::State::kFailed:
      ++summary_.failed;
      break;
  }
  if (on_page_(std::move(page))) return true;
  summary_.stopped = true;
  return false;
}

Crawler::Visit Crawler::VisitPage(const Item& item) {
  Visit visit;
  Page page;
  page.requested_url = item.url;
  page.url = item.url;
  auto failed = [&](std::string error) {
    page.state = Page::State::kFailed;
    page.error = std::move(error);
    visit.page = std::move(page);
    return std::move(visit);
  };

  if (const Robots& robots = RobotsFor(item.url); !robots.unavailable.empty()) {
    // Not fetched: robots.txt could not be read.
    visit.start_problem = robots.unreachable.empty() ? "cannot be crawled: " + robots.unavailable
                                                     : "is unreachable: " + robots.unreachable;
    return failed(robots.unreachable.empty() ? "not fetched: " + robots.unavailable : robots.unreachable);
  }
  const std::optional<KnownPage> known = known_ ? known_(item.url) : std::nullopt;
  // A 304 has no body: send validators only when the links are not needed
  // or the caller gave the ones it stored (KnownPage::links).
  const bool conditional = known && (item.depth >= settings_.max_depth || known->links.has_value());
  FetchOptions options = Authorized();
  options.timeout_ms = settings_.request_timeout_ms;
  options.user_agent = settings_.user_agent;
  options.max_bytes = settings_.max_page_bytes;
  options.accept = [](long, std::string_view media) { return Acceptable(media); };
  options.headers.push_back(kAccept);
  if (conditional && known->etag && SafeHeaderValue(*known->etag))
    options.headers.push_back("If-None-Match: " + *known->etag);
  if (conditional && known->last_modified && SafeHeaderValue(*known->last_modified))
    options.headers.push_back("If-Modified-Since: " + *known->last_modified);

  // Redirects are followed here, not by libcurl, so each target passes the
  // same checks as a link: canonical, inside the include prefixes, allowed
  // by robots.txt.
  FetchResult r;
  for (int redirects = 0;; ++redirects) {
    r = fetcher_.Get(page.url, options);
    if (r.outcome == FetchResult::Outcome::kTransportError) {
      visit.start_problem = "is unreachable: " + r.error;
      return failed(r.error);
    }
    page.http_status = static_cast<int>(r.status);
    if (!IsRedirect(r.status) || r.redirect_url.empty()) break;
    if (redirects == kMaxRedirects) return failed("too many redirects");
    const auto target = internal::CanonicalUrl(r.redirect_url);
    if (!target) return failed("redirected to an invalid URL");
    if (!InScope(*target)) return failed("redirected outside the include prefixes, to " + *target);
    if (const std::string veto = RobotsVeto(*target); !veto.empty())
      return failed("redirected to " + *target + ", not fetched: " + veto);
    page.url = *target;
  }
  done_.insert(item.url);
  if (page.url != item.url) {
    seen_.insert(page.url);
    if (!done_.insert(page.url).second) return visit;  // already crawled under its own URL: not a second page
  }
  if (r.outcome == FetchResult::Outcome::kTooLarge) return failed(r.error);

  if (r.status == 304) {
    if (!conditional) return failed("HTTP 304");
    page.state = Page::State::kUnchanged;
    page.etag = r.etag ? r.etag : known->etag;
    page.last_modified = r.last_modified ? r.last_modified : known->last_modified;
    page.modified_at = ParseHttpDate(page.last_modified);
    page.content_hash = known->content_hash;
    for (const std::string& link : known->links.value_or(std::vector<std::string>{}))
      if (InScope(link)) page.links.push_back(link);
    visit.page = std::move(page);
    return visit;
  }
  if (r.status < 200 || r.status >= 300) return failed("HTTP " + std::to_string(r.status));
  if (r.outcome == FetchResult::Outcome::kRefused || !Acceptable(r.media_type)) return visit;

  bool html = IsHtml(r.media_type);
  if (r.media_type.empty()) {  // no Content-Type: HTML if it starts like markup, else skipped
    const size_t first = r.body.find_first_not_of(" \t\r\n");
    if (first == std::string::npos || r.body[first] != '<') return visit;
    html = true;
  }
  const std::string body = IsLatin1(r.charset) ? internal::Latin1ToUtf8(r.body) : std::move(r.body);
  HtmlText reduced = html ? HtmlToText(body, page.url) : PlainToText(body, page.url);

  page.title = std::move(reduced.title);
  page.text = std::move(reduced.text);
  page.content_hash = Sha256Hex(page.text);
  page.etag = r.etag;
  page.last_modified = r.last_modified;
  page.modified_at = ParseHttpDate(page.last_modified);
  for (const char* key : {"owner", "author"}) {
    auto it = reduced.meta.find(key);
    if (it != reduced.meta.end() && IsPlainEmail(it->second)) {
      page.owner_email = it->second;
      break;
    }
  }
  if (auto it = reduced.meta.find("reviewed_at"); it != reduced.meta.end())
    page.reviewed_at = ParseTimestamp(it->second);
  for (std::string& link : reduced.links)
    if (InScope(link)) page.links.push_back(std::move(link));
  page.state = known && known->content_hash == page.content_hash ? Page::State::kUnchanged : Page::State::kChanged;
  visit.page = std::move(page);
  return visit;
}

Result<CrawlSummary> Crawler::Run() {
  CR_TRY(ValidateSettings(settings_));
  const std::string& first = settings_.start_urls.empty() ? *settings_.sitemap_url : settings_.start_urls.front();
  credential_origin_ = internal::OriginOf(*internal::CanonicalUrl(first));
  for (const std::string& p : settings_.include_prefixes) prefixes_.push_back(*internal::CanonicalUrl(p));
  if (prefixes_.empty()) {
    std::vector<std::string> urls = settings_.start_urls;
    if (settings_.sitemap_url) urls.push_back(*settings_.sitemap_url);
    for (const std::string& u : urls) {
      const std::string origin = internal::OriginOf(*internal::CanonicalUrl(u));
      if (std::find(prefixes_.begin(), prefixes_.end(), origin) == prefixes_.end()) prefixes_.push_back(origin);
    }
  }

  std::vector<std::string> start_problems;
  size_t start_queued = 0;
  for (const std::string& u : settings_.start_urls) {
    const std::string url = *internal::CanonicalUrl(u);
    switch (Enqueue(url, 0, true)) {
      case Enqueued::kYes:
        ++start_queued;
        break;
      case Enqueued::kDisallowed:
        start_problems.push_back("start URL " + url + " is disallowed by robots.txt");
        break;
      default:  // listed twice, or beyond max_pages
        break;
    }
  }
  const bool have_sitemap = settings_.sitemap_url.has_value();
  if (have_sitemap) CR_TRY(LoadSitemap());
  if (!have_sitemap && start_queued == 0) return Unreachable(Join(start_problems));

  // Without a sitemap, the crawl stands on its start URLs: while none has
  // answered, failed ones are held back, and if none answers at all the crawl
  // fails as a whole instead of reporting only failures.
  bool reached = have_sitemap;
  std::vector<Page> held;
  while (!queue_.empty()) {
    Item item = std::move(queue_.front());
    queue_.pop_front();
    if (done_.contains(item.url)) continue;  // reached earlier through a redirect
    if (summary_.fetched >= settings_.max_pages) {
      summary_.truncated = true;
      break;
    }
    ++summary_.fetched;
    Visit visit = VisitPage(item);
    if (item.start && !reached) {
      if (!visit.start_problem.empty()) {
        start_problems.push_back("start URL " + item.url + " " + visit.start_problem);
        held.push_back(std::move(*visit.page));
        continue;
      }
      reached = true;
      for (Page& p : held)
        if (!Emit(std::move(p))) return summary_;
      held.clear();
    }
    if (!visit.page) {
      ++summary_.skipped;
      continue;
    }
    std::vector<std::string> links;
    if (item.depth < settings_.max_depth) links = visit.page->links;
    if (!Emit(std::move(*visit.page))) return summary_;
    for (const std::string& link : links) Enqueue(link, item.depth + 1, false);
  }
  if (!reached) return Unreachable(Join(start_problems));
  return summary_;
}

}  // namespace

Status ValidateSettings(const CrawlSettings& s) {
  std::vector<FieldError> errors;
  if (s.start_urls.empty() && !s.sitemap_url)
    errors.push_back({"startUrls", "give at least one start URL, or a sitemapUrl"});
  if (s.start_urls.size() > kMaxStartUrls)
    errors.push_back({"startUrls", "at most " + std::to_string(kMaxStartUrls) + " start URLs"});
  for (size_t i = 0; i < s.start_urls.size() && i < kMaxStartUrls; ++i)
    if (!IsHttpUrl(s.start_urls[i]))
      errors.push_back({"startUrls[" + std::to_string(i) + "]", "must be an absolute http(s) URL"});
  if (s.sitemap_url && !IsHttpUrl(*s.sitemap_url)) errors.push_back({"sitemapUrl", "must be an absolute http(s) URL"});
  if (s.include_prefixes.size() > kMaxStartUrls)
    errors.push_back({"includePrefixes", "at most " + std::to_string(kMaxStartUrls) + " prefixes"});
  std::vector<std::string> prefixes;
  for (size_t i = 0; i < s.include_prefixes.size(); ++i) {
    if (!IsHttpUrl(s.include_prefixes[i])) {
      errors.push_back({"includePrefixes[" + std::to_string(i) + "]", "must be an absolute http(s) URL"});
    } else {
      prefixes.push_back(*internal::CanonicalUrl(s.include_prefixes[i]));
    }
  }
  if (!prefixes.empty() && prefixes.size() == s.include_prefixes.size()) {
    for (size_t i = 0; i < s.start_urls.size() && i < kMaxStartUrls; ++i) {
      const auto url = internal::CanonicalUrl(s.start_urls[i]);
      if (url && std::none_of(prefixes.begin(), prefixes.end(), [&](const auto& p) { return url->starts_with(p); }))
        errors.push_back({"startUrls[" + std::to_string(i) + "]", "is not under any of includePrefixes"});
    }
  }
  if (s.credential_header && (s.credential_header->find_first_of("\r\n") != std::string::npos ||
                              s.credential_header->find(':') == std::string::npos))
    errors.push_back({"credential", "must be one header line"});
  if (s.max_pages < 1 || s.max_pages > 100000) errors.push_back({"maxPages", "must be 1..100000"});
  if (s.max_depth < 0 || s.max_depth > 20) errors.push_back({"maxDepth", "must be 0..20"});
  if (s.request_timeout_ms < 100 || s.request_timeout_ms > 120000)
    errors.push_back({"requestTimeoutMs", "must be 100..120000"});
  if (s.max_page_bytes < 1024 || s.max_page_bytes > 100LL * 1024 * 1024)
    errors.push_back({"maxPageBytes", "must be 1024..104857600"});
  const bool ua_printable = std::all_of(s.user_agent.begin(), s.user_agent.end(), [](char c) {
    return static_cast<unsigned char>(c) >= 0x20 && static_cast<unsigned char>(c) < 0x7F;
  });
  if (s.user_agent.empty() || s.user_agent.size() > 200 || !ua_printable)
    errors.push_back({"userAgent", "must be 1..200 printable ASCII characters"});
  if (!errors.empty()) return Error::Validation(std::move(errors));
  return Ok();
}

Result<CrawlSummary> Crawl(const CrawlSettings& settings,
                           const std::function<std::optional<KnownPage>(const std::string& url)>& known,
                           const std::function<bool(Page&&)>& on_page) {
  Crawler crawler(settings, known, on_page);
  return crawler.Run();
}

}  // namespace credence::connectors::web
