#pragma once
// The `web` connector's crawler (docs/connectors-web.md): fetches the pages of
// internal web sites, from start URLs (following same-site links) and/or a
// sitemap, and hands each page to the caller reduced to text, with what a
// re-crawl needs to tell changed pages from unchanged ones.
//
// Self-contained: no storage, no scheduling, no HTTP API. The connector
// framework calls Crawl() and stores what it wants of each Page. Everything
// is bounded (pages, depth, bytes per page, time per request, redirects,
// sitemap entries). robots.txt is honoured. Each Crawl() call uses its own
// libcurl handle: calls on different threads are independent.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"

namespace credence::connectors::web {

struct CrawlSettings {
  std::vector<std::string> start_urls;                // crawl from these (follow same-site links)
  std::optional<std::string> sitemap_url;             // or/also: every <loc> of a sitemap (a sitemap index too)
  int max_pages = 1000;                               // hard bound on pages attempted (1..100000)
  int max_depth = 3;                                  // link depth from a start URL; sitemap URLs are depth 0 (0..20)
  std::vector<std::string> include_prefixes;          // URLs must start with one; default: the origins of
                                                      // the start URLs and the sitemap ("https://host/")
  int request_timeout_ms = 10000;                     // per request (100..120000)
  std::string user_agent = "CredenceConnector/1.0";   // also picks the robots.txt group (up to the '/')
  int64_t max_page_bytes = int64_t{5} * 1024 * 1024;  // bigger pages are a per-page error (1 KiB..100 MiB)
  // A header line ("Authorization: Bearer ...") sent with every request to
  // the credential's origin (the first start URL's, else the sitemap's) and
  // to no other, redirects included. Never logged.
  std::optional<std::string> credential_header;
};

// Checks settings without touching the network. Error::Validation (400) with
// one FieldError per problem, named as the API's camelCase fields
// (startUrls[0], sitemapUrl, maxPages, ...): neither a start URL nor a
// sitemap, a URL that is not http(s), a start URL outside the given include
// prefixes, a bound out of range. Crawl() runs it first.
Status ValidateSettings(const CrawlSettings& settings);

// What the caller knows of a page from the last sync, for conditional requests.
struct KnownPage {
  std::optional<std::string> etag;
  std::optional<std::string> last_modified;
  std::string content_hash;
  // Page::links as the caller stored them last time. A 304 has no body, so
  // links of an unchanged page can only come from here: without them (nullopt)
  // a page whose links the crawl still needs (above max_depth) is fetched
  // without validators, so no page below it goes missing from the crawl.
  std::optional<std::vector<std::string>> links;
};

struct Page {
  enum class State { kChanged, kUnchanged, kFailed };  // kUnchanged: 304, or the same content hash
  State state = State::kFailed;
  std::string url;            // final URL after redirects
  std::string requested_url;  // the (canonical) URL the crawl reached it by: the external id
  std::string title;          // <title>, else the first <h1>, else the URL (at most 512 characters)
  std::string text;           // the HTML reduced to text (for scanning and hashing; not to be stored)
  std::string content_hash;   // hex SHA-256 of `text` (markup-only changes are not changes)
  std::optional<std::string> etag, last_modified;  // response validators to remember
  std::optional<TimeMs> modified_at;               // from Last-Modified when present
  std::optional<std::string> owner_email;          // <meta name="owner">, else <meta name="author">, if an email
  std::optional<TimeMs> reviewed_at;               // <meta name="reviewed_at" content="ISO-8601 date or timestamp">
  std::vector<std::string> links;                  // in-scope links of the page (canonical): keep for KnownPage::links
  int http_status = 0;                             // 0: no HTTP answer
  std::string error;                               // kFailed: a short message ("HTTP 500", "timed out", ...)
};

struct CrawlSummary {
  int fetched = 0;  // pages attempted, each counting against max_pages: a request (a redirect chain is one),
                    // or a page not requested because its site's robots.txt could not be read
  int changed = 0, unchanged = 0, failed = 0;  // pages reported, by state
  int skipped = 0;         // fetched but not pages: not HTML or text, or a redirect to a page already seen
  bool truncated = false;  // max_pages hit with URLs left to crawl
  bool stopped = false;    // on_page returned false
};

// Crawls and calls on_page for each page, in crawl order (breadth first:
// start URLs, then sitemap URLs, then links by depth). on_page returns false
// to stop at once (the caller lost its lease); the summary then counts what
// was reported so far. `known` answers what the caller knew of a URL
// (nullopt: new); it is called once for each page about to be fetched.
//
// Fails as a whole only when nothing can be crawled, with ErrorKind::
// kUpstreamFailed and a message naming the URL and the reason: every start URL
// unreachable or disallowed by robots.txt (and no sitemap), or the sitemap
// (or a sitemap its index lists) unreachable, answering an error status or
// not a sitemap. A single page failing is a per-page kFailed.
Result<CrawlSummary> Crawl(const CrawlSettings& settings,
                           const std::function<std::optional<KnownPage>(const std::string& url)>& known,
                           const std::function<bool(Page&&)>& on_page);

}  // namespace credence::connectors::web
