// The crawler against a real HTTP server on loopback (testing/
// loopback_http_server.h): real sockets, keep-alive, conditional requests.
#include "connectors/web/crawler.h"

#include <gtest/gtest.h>

#include <map>

#include "connectors/web/testing/loopback_http_server.h"
#include "core/ids.h"

namespace credence::connectors::web {
namespace {

using test::LoopbackHttpServer;

std::string Html(const std::string& title, const std::string& body) {
  return "<!DOCTYPE html><html><head><title>" + title + "</title></head><body>" + body + "</body></html>";
}

std::string Link(const std::string& href) { return "<a href=\"" + href + "\">" + href + "</a> "; }

struct Crawled {
  Result<CrawlSummary> result = CrawlSummary{};
  std::vector<Page> pages;
  std::vector<std::string> known_asked;

  const Page* Find(const std::string& requested_url) const {
    for (const Page& p : pages)
      if (p.requested_url == requested_url) return &p;
    return nullptr;
  }
  std::vector<std::string> Urls() const {
    std::vector<std::string> out;
    for (const Page& p : pages) out.push_back(p.requested_url);
    return out;
  }
};

// Runs a crawl; `known` answers by requested URL; on_page returns false after
// `stop_after` pages when it is set.
Crawled RunCrawl(const CrawlSettings& settings, const std::map<std::string, KnownPage>& known = {},
                 int stop_after = -1) {
  Crawled out;
  out.result = Crawl(
      settings,
      [&](const std::string& url) -> std::optional<KnownPage> {
        out.known_asked.push_back(url);
        auto it = known.find(url);
        if (it == known.end()) return std::nullopt;
        return it->second;
      },
      [&](Page&& page) {
        out.pages.push_back(std::move(page));
        return stop_after < 0 || static_cast<int>(out.pages.size()) < stop_after;
      });
  return out;
}

// What a caller would remember of a crawl's pages.
std::map<std::string, KnownPage> Remember(const std::vector<Page>& pages, bool with_links = true) {
  std::map<std::string, KnownPage> known;
  for (const Page& p : pages) {
    KnownPage k{p.etag, p.last_modified, p.content_hash, std::nullopt};
    if (with_links) k.links = p.links;
    known[p.requested_url] = k;
  }
  return known;
}

CrawlSettings StartAt(const std::string& url, int max_depth = 3) {
  CrawlSettings s;
  s.start_urls = {url};
  s.max_depth = max_depth;
  s.request_timeout_ms = 5000;
  return s;
}

TEST(Crawl, FollowsSameSiteLinksBreadthFirstWithinDepth) {
  LoopbackHttpServer site, other;
  other.SetHtml("/", Html("Other", "elsewhere"));
  site.SetHtml("/", Html("Home", "Welcome " + Link("/a.html") + Link("b.html") + Link(other.Url("/")) +
                                     Link("/a.html#section") + Link("/a.html?v=2") + Link("mailto:x@corp.example")));
  site.SetHtml("/a.html", Html("A", "Page A " + Link("c.html") + Link("/")));
  site.SetHtml("/a.html?v=2", Html("A2", "Page A v2"));
  site.SetHtml("/b.html", Html("B", "Page B"));
  site.SetHtml("/c.html", Html("C", "Page C " + Link("d.html")));
  site.SetHtml("/d.html", Html("D", "Page D, too deep"));

  const Crawled c = RunCrawl(StartAt(site.Url("/"), /*max_depth=*/2));
  ASSERT_TRUE(c.result.ok()) << c.result.error().detail;
  EXPECT_EQ(c.Urls(), (std::vector<std::string>{site.Url("/"), site.Url("/a.html"), site.Url("/b.html"),
                                                site.Url("/a.html?v=2"), site.Url("/c.html")}));
  EXPECT_EQ(site.Count("/d.html"), 0);
  EXPECT_EQ(other.Requests().size(), 0u);  // another origin is out of scope by default
  EXPECT_EQ(site.Count("/robots.txt"), 1);
  EXPECT_EQ(site.Count("/"), 1);

  const Page* home = c.Find(site.Url("/"));
  ASSERT_NE(home, nullptr);
  EXPECT_EQ(home->state, Page::State::kChanged);
  EXPECT_EQ(home->title, "Home");
  EXPECT_EQ(home->url, site.Url("/"));
  EXPECT_EQ(home->http_status, 200);
  EXPECT_EQ(home->text.rfind("Welcome", 0), 0u);
  EXPECT_EQ(home->content_hash, Sha256Hex(home->text));
  EXPECT_EQ(home->links, (std::vector<std::string>{site.Url("/a.html"), site.Url("/b.html"), site.Url("/a.html?v=2")}));
  EXPECT_EQ(c.Find(site.Url("/c.html"))->text, "Page C d.html");
  EXPECT_EQ(c.result->fetched, 5);
  EXPECT_EQ(c.result->changed, 5);
  EXPECT_FALSE(c.result->truncated);
  EXPECT_EQ(c.known_asked, c.Urls());
  // The user agent and Accept went out with every request.
  for (const auto& r : site.Requests()) EXPECT_EQ(r.headers.at("user-agent"), "CredenceConnector/1.0");
}

TEST(Crawl, IncludePrefixesNarrowAndWidenTheScope) {
  LoopbackHttpServer site, other;
  site.SetHtml("/docs/", Html("Docs", Link("/docs/a") + Link("/blog/x") + Link(other.Url("/kb/p"))));
  site.SetHtml("/docs/a", Html("A", "a"));
  site.SetHtml("/blog/x", Html("X", "x"));
  other.SetHtml("/kb/p", Html("P", "p"));
  CrawlSettings s = StartAt(site.Url("/docs/"));
  s.include_prefixes = {site.Url("/docs/"), other.Url("/kb/")};
  const Crawled c = RunCrawl(s);
  ASSERT_TRUE(c.result.ok()) << c.result.error().detail;
  EXPECT_EQ(c.Urls(), (std::vector<std::string>{site.Url("/docs/"), site.Url("/docs/a"), other.Url("/kb/p")}));
  EXPECT_EQ(site.Count("/blog/x"), 0);
  EXPECT_EQ(other.Count("/robots.txt"), 1);
}

TEST(Crawl, SitemapUrlSet) {
  LoopbackHttpServer site;
  site.Set("/sitemap.xml",
           {.content_type = "application/xml",
            .body = "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">"
                    "<url><loc>" +
                    site.Url("/one") +
                    "</loc></url>"
                    "<url><loc>" +
                    site.Url("/two?a=1&amp;b=2") +
                    "</loc></url>"
                    "<url><loc>http://elsewhere.invalid/x</loc></url>"
                    "<url><loc>" +
                    site.Url("/one#dup") + "</loc></url></urlset>"});
  site.SetHtml("/one", Html("One", "1 " + Link("/linked")));
  site.SetHtml("/two?a=1&b=2", Html("Two", "2"));
  site.SetHtml("/linked", Html("Linked", "l"));
  CrawlSettings s;
  s.sitemap_url = site.Url("/sitemap.xml");
  s.max_depth = 0;  // sitemap URLs are depth 0: their links are not followed
  const Crawled c = RunCrawl(s);
  ASSERT_TRUE(c.result.ok()) << c.result.error().detail;
  EXPECT_EQ(c.Urls(), (std::vector<std::string>{site.Url("/one"), site.Url("/two?a=1&b=2")}));
  EXPECT_EQ(site.Count("/linked"), 0);

  s.max_depth = 1;
  const Crawled deeper = RunCrawl(s);
  EXPECT_EQ(deeper.Urls().size(), 3u);
}

TEST(Crawl, SitemapIndex) {
  LoopbackHttpServer site;
  site.Set("/index.xml", {.content_type = "application/xml",
                          .body = "<sitemapindex><sitemap><loc>" + site.Url("/s1.xml") +
                                  "</loc></sitemap>"
                                  "<sitemap><loc>" +
                                  site.Url("/s2.xml") + "</loc></sitemap></sitemapindex>"});
  site.Set("/s1.xml",
           {.content_type = "text/xml", .body = "<urlset><url><loc>" + site.Url("/a") + "</loc></url></urlset>"});
  site.Set("/s2.xml", {.content_type = "text/xml",
                       .body = "<urlset><url><loc>" + site.Url("/b") + "</loc></url><url><loc>" + site.Url("/c") +
                               "</loc></url></urlset>"});
  for (const char* p : {"/a", "/b", "/c"}) site.SetHtml(p, Html(p, p));
  CrawlSettings s;
  s.sitemap_url = site.Url("/index.xml");
  const Crawled c = RunCrawl(s);
  ASSERT_TRUE(c.result.ok()) << c.result.error().detail;
  EXPECT_EQ(c.Urls(), (std::vector<std::string>{site.Url("/a"), site.Url("/b"), site.Url("/c")}));
}

TEST(Crawl, SitemapThatCannotBeReadFailsTheCrawl) {
  LoopbackHttpServer site;
  site.SetHtml("/page.html", Html("Not a sitemap", "hello"));
  site.Set("/index.xml",
           {.content_type = "application/xml",
            .body = "<sitemapindex><sitemap><loc>" + site.Url("/gone.xml") + "</loc></sitemap></sitemapindex>"});
  CrawlSettings s;
  s.sitemap_url = site.Url("/page.html");
  Crawled c = RunCrawl(s);
  ASSERT_FALSE(c.result.ok());
  EXPECT_EQ(c.result.error().code, "sitemap_invalid");
  EXPECT_EQ(c.result.error().detail,
            "sitemap " + site.Url("/page.html") + " is not a sitemap (no <urlset> or <sitemapindex>)");
  EXPECT_TRUE(c.pages.empty());

  s.sitemap_url = site.Url("/missing.xml");
  c = RunCrawl(s);
  ASSERT_FALSE(c.result.ok());
  EXPECT_EQ(c.result.error().detail, "sitemap " + site.Url("/missing.xml") + " answered HTTP 404");

  s.sitemap_url = site.Url("/index.xml");
  c = RunCrawl(s);
  ASSERT_FALSE(c.result.ok());
  EXPECT_EQ(c.result.error().detail,
            "sitemap " + site.Url("/gone.xml") + " (listed in " + site.Url("/index.xml") + ") answered HTTP 404");

  s.sitemap_url = "http://127.0.0.1:1/sitemap.xml";
  c = RunCrawl(s);
  ASSERT_FALSE(c.result.ok());
  EXPECT_EQ(c.result.error().code, "source_unreachable");
  EXPECT_EQ(c.result.error().detail,
            "sitemap http://127.0.0.1:1/sitemap.xml is unreachable: Couldn't connect to server");
}

TEST(Crawl, RobotsTxtDisallowedUrlsAreNeitherFetchedNorReported) {
  LoopbackHttpServer site;
  site.Set("/robots.txt", {.content_type = "text/plain",
                           .body = "User-agent: *\nDisallow: /private/\nDisallow: /*.secret$\n\n"
                                   "User-agent: SomeoneElse\nDisallow: /\n"});
  site.SetHtml(
      "/", Html("Home", Link("/private/x") + Link("/public") + Link("/notes.secret") + Link("/notes.secret?view=1")));
  site.SetHtml("/private/x", Html("Private", "p"));
  site.SetHtml("/public", Html("Public", Link("/private/y")));
  site.SetHtml("/notes.secret", Html("S", "s"));
  site.SetHtml("/notes.secret?view=1", Html("S", "s"));
  const Crawled c = RunCrawl(StartAt(site.Url("/")));
  ASSERT_TRUE(c.result.ok()) << c.result.error().detail;
  EXPECT_EQ(c.Urls(), (std::vector<std::string>{site.Url("/"), site.Url("/public"), site.Url("/notes.secret?view=1")}));
  EXPECT_EQ(site.Count("/private/x"), 0);
  EXPECT_EQ(site.Count("/private/y"), 0);
  EXPECT_EQ(site.Count("/notes.secret"), 0);
  EXPECT_EQ(site.Count("/robots.txt"), 1);  // once per crawl and origin
}

TEST(Crawl, RobotsTxtServerErrorDisallowsTheWholeOrigin) {
  LoopbackHttpServer site;
  site.Set("/robots.txt", {.status = 503, .body = "busy"});
  site.SetHtml("/", Html("Home", "h"));
  const Crawled c = RunCrawl(StartAt(site.Url("/")));
  ASSERT_FALSE(c.result.ok());
  EXPECT_EQ(c.result.error().detail,
            "start URL " + site.Url("/") + " cannot be crawled: its robots.txt answered HTTP 503");
  EXPECT_EQ(site.Count("/"), 0);
  EXPECT_TRUE(c.pages.empty());

  // Listed in a sitemap, its pages are not fetched either, but reported as
  // failed: they are not gone, only unreadable for now.
  site.Set("/sitemap.xml",
           {.content_type = "application/xml", .body = "<urlset><url><loc>" + site.Url("/") + "</loc></url></urlset>"});
  CrawlSettings s;
  s.sitemap_url = site.Url("/sitemap.xml");
  const Crawled with_sitemap = RunCrawl(s);
  ASSERT_TRUE(with_sitemap.result.ok()) << with_sitemap.result.error().detail;
  ASSERT_EQ(with_sitemap.pages.size(), 1u);
  EXPECT_EQ(with_sitemap.pages[0].state, Page::State::kFailed);
  EXPECT_EQ(with_sitemap.pages[0].error, "not fetched: its robots.txt answered HTTP 503");
  EXPECT_EQ(site.Count("/"), 0);
}

TEST(Crawl, EtagRecrawlSendsIfNoneMatchAndReportsUnchanged) {
  LoopbackHttpServer site;
  site.Set("/", {.body = Html("Home", "home " + Link("/a")), .etag = "\"home-v1\""});
  site.Set("/a", {.body = Html("A", "page a"), .etag = "W/\"a-v1\""});
  const CrawlSettings s = StartAt(site.Url("/"));
  const Crawled first = RunCrawl(s);
  ASSERT_TRUE(first.result.ok());
  ASSERT_EQ(first.pages.size(), 2u);
  EXPECT_EQ(first.pages[0].etag, "\"home-v1\"");
  EXPECT_EQ(first.pages[1].etag, "W/\"a-v1\"");
  EXPECT_EQ(site.RequestsFor("/")[0].headers.count("if-none-match"), 0u);

  const Crawled second = RunCrawl(s, Remember(first.pages));
  ASSERT_TRUE(second.result.ok());
  ASSERT_EQ(second.pages.size(), 2u);  // /a found through the links remembered for /
  EXPECT_EQ(site.RequestsFor("/")[1].headers.at("if-none-match"), "\"home-v1\"");
  EXPECT_EQ(site.RequestsFor("/a")[1].headers.at("if-none-match"), "W/\"a-v1\"");
  for (const Page& p : second.pages) {
    EXPECT_EQ(p.state, Page::State::kUnchanged) << p.url;
    EXPECT_EQ(p.http_status, 304);
    EXPECT_TRUE(p.text.empty());
    EXPECT_TRUE(p.title.empty());
  }
  EXPECT_EQ(second.pages[0].etag, "\"home-v1\"");
  EXPECT_EQ(second.pages[0].content_hash, first.pages[0].content_hash);
  EXPECT_EQ(second.pages[0].links, first.pages[0].links);
  EXPECT_EQ(second.result->unchanged, 2);
  EXPECT_EQ(second.result->changed, 0);
}

TEST(Crawl, LastModifiedRecrawlSendsIfModifiedSince) {
  LoopbackHttpServer site;
  const std::string date = "Wed, 21 Oct 2015 07:28:00 GMT";
  site.Set("/", {.body = Html("Home", "home"), .last_modified = date});
  const CrawlSettings s = StartAt(site.Url("/"));
  const Crawled first = RunCrawl(s);
  ASSERT_TRUE(first.result.ok());
  ASSERT_EQ(first.pages.size(), 1u);
  EXPECT_EQ(first.pages[0].last_modified, date);
  EXPECT_EQ(first.pages[0].modified_at, 1445412480000);
  EXPECT_FALSE(first.pages[0].etag.has_value());

  const Crawled second = RunCrawl(s, Remember(first.pages));
  ASSERT_TRUE(second.result.ok());
  ASSERT_EQ(second.pages.size(), 1u);
  EXPECT_EQ(site.RequestsFor("/")[1].headers.at("if-modified-since"), date);
  EXPECT_EQ(second.pages[0].state, Page::State::kUnchanged);
  EXPECT_EQ(second.pages[0].http_status, 304);
  EXPECT_EQ(second.pages[0].last_modified, date);
  EXPECT_EQ(second.pages[0].modified_at, 1445412480000);
}

TEST(Crawl, WithoutStoredLinksPagesThatLinkOnAreFetchedInFull) {
  LoopbackHttpServer site;
  site.Set("/", {.body = Html("Home", Link("/a")), .etag = "\"h\""});
  site.Set("/a", {.body = Html("A", "leaf"), .etag = "\"a\""});
  const CrawlSettings s = StartAt(site.Url("/"), /*max_depth=*/1);
  const Crawled first = RunCrawl(s);
  ASSERT_TRUE(first.result.ok());
  const Crawled second = RunCrawl(s, Remember(first.pages, /*with_links=*/false));
  ASSERT_TRUE(second.result.ok());
  ASSERT_EQ(second.pages.size(), 2u);
  // "/" is above max_depth: its links are needed, so no validators were sent;
  // same text, so unchanged all the same (with its text).
  EXPECT_EQ(site.RequestsFor("/")[1].headers.count("if-none-match"), 0u);
  EXPECT_EQ(second.pages[0].state, Page::State::kUnchanged);
  EXPECT_EQ(second.pages[0].http_status, 200);
  EXPECT_FALSE(second.pages[0].text.empty());
  // "/a" is at max_depth: a 304 is all it takes.
  EXPECT_EQ(site.RequestsFor("/a")[1].headers.at("if-none-match"), "\"a\"");
  EXPECT_EQ(second.pages[1].http_status, 304);
}

TEST(Crawl, ContentChangesAreChangesMarkupChangesAreNot) {
  LoopbackHttpServer site;
  site.SetHtml("/", Html("Home", Link("/a") + Link("/b")));
  site.SetHtml("/a", Html("A", "<p>The VPN password rotates monthly.</p>"));
  site.SetHtml("/b", Html("B", "<p>Holiday calendar</p>"));
  const CrawlSettings s = StartAt(site.Url("/"));
  const Crawled first = RunCrawl(s);
  ASSERT_TRUE(first.result.ok());

  site.SetHtml("/a", Html("A", "<p>The VPN password rotates weekly.</p>"));
  site.SetHtml("/b", Html("B",
                          "<div class=\"card\">\n  <p style=\"color:red\"><span>Holiday</span>   calendar</p>"
                          "<!-- edited --></div>"));
  const Crawled second = RunCrawl(s, Remember(first.pages));
  ASSERT_TRUE(second.result.ok());
  const Page* a = second.Find(site.Url("/a"));
  const Page* b = second.Find(site.Url("/b"));
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(a->state, Page::State::kChanged);
  EXPECT_NE(a->content_hash, first.Find(site.Url("/a"))->content_hash);
  EXPECT_EQ(a->text, "The VPN password rotates weekly.");
  EXPECT_EQ(b->state, Page::State::kUnchanged);
  EXPECT_EQ(b->content_hash, first.Find(site.Url("/b"))->content_hash);
  EXPECT_EQ(b->text, "Holiday calendar");  // a 200 that did not change still carries its text
  EXPECT_EQ(b->title, "B");
  EXPECT_EQ(second.Find(site.Url("/"))->state, Page::State::kUnchanged);
  EXPECT_EQ(second.result->changed, 1);
  EXPECT_EQ(second.result->unchanged, 2);
}

TEST(Crawl, AFailingPageIsReportedAndTheOthersAreFine) {
  LoopbackHttpServer site;
  site.SetHtml("/", Html("Home", Link("/broken") + Link("/fine") + Link("/missing")));
  site.Set("/broken", {.status = 500, .body = "stack trace"});
  site.SetHtml("/fine", Html("Fine", "ok"));
  const Crawled c = RunCrawl(StartAt(site.Url("/")));
  ASSERT_TRUE(c.result.ok());
  ASSERT_EQ(c.pages.size(), 4u);
  const Page* broken = c.Find(site.Url("/broken"));
  EXPECT_EQ(broken->state, Page::State::kFailed);
  EXPECT_EQ(broken->error, "HTTP 500");
  EXPECT_EQ(broken->http_status, 500);
  EXPECT_TRUE(broken->text.empty());
  EXPECT_EQ(c.Find(site.Url("/missing"))->error, "HTTP 404");
  EXPECT_EQ(c.Find(site.Url("/fine"))->state, Page::State::kChanged);
  EXPECT_EQ(c.result->failed, 2);
  EXPECT_EQ(c.result->changed, 2);
}

TEST(Crawl, UnreachableStartUrlFailsTheCrawl) {
  const Crawled c = RunCrawl(StartAt("http://127.0.0.1:1/"));
  ASSERT_FALSE(c.result.ok());
  EXPECT_EQ(c.result.error().kind, ErrorKind::kUpstreamFailed);
  EXPECT_EQ(c.result.error().code, "source_unreachable");
  EXPECT_EQ(c.result.error().detail, "start URL http://127.0.0.1:1/ is unreachable: Couldn't connect to server");
  EXPECT_TRUE(c.pages.empty());
}

TEST(Crawl, LinkLocalAndMetadataAddressesAreNeverConnectedTo) {
  // The connectors' outbound rule (docs/outbound.md): refused at the socket,
  // before any byte is sent.
  for (const char* url : {"http://169.254.169.254/latest/meta-data/", "http://[fe80::1]/", "http://0.0.0.0:9/"}) {
    const Crawled c = RunCrawl(StartAt(url));
    ASSERT_FALSE(c.result.ok()) << url;
    EXPECT_EQ(c.result.error().code, "source_unreachable") << url;
    EXPECT_NE(c.result.error().detail.find("not allowed to connect to"), std::string::npos) << c.result.error().detail;
  }
}

TEST(Crawl, OneUnreachableStartUrlAmongOthersIsAFailedPage) {
  LoopbackHttpServer site;
  site.SetHtml("/", Html("Home", "h"));
  CrawlSettings s = StartAt("http://127.0.0.1:1/");
  s.start_urls.push_back(site.Url("/"));
  const Crawled c = RunCrawl(s);
  ASSERT_TRUE(c.result.ok()) << c.result.error().detail;
  ASSERT_EQ(c.pages.size(), 2u);
  EXPECT_EQ(c.pages[0].requested_url, "http://127.0.0.1:1/");
  EXPECT_EQ(c.pages[0].state, Page::State::kFailed);
  EXPECT_EQ(c.pages[0].error, "Couldn't connect to server");
  EXPECT_EQ(c.pages[0].http_status, 0);
  EXPECT_EQ(c.pages[1].state, Page::State::kChanged);
}

TEST(Crawl, MaxPagesTruncates) {
  LoopbackHttpServer site;
  for (int i = 0; i < 10; ++i)
    site.SetHtml("/p" + std::to_string(i),
                 Html("P", "page " + std::to_string(i) + " " + Link("/p" + std::to_string(i + 1))));
  CrawlSettings s = StartAt(site.Url("/p0"), /*max_depth=*/20);
  s.max_pages = 3;
  const Crawled c = RunCrawl(s);
  ASSERT_TRUE(c.result.ok());
  EXPECT_EQ(c.pages.size(), 3u);
  EXPECT_EQ(c.result->fetched, 3);
  EXPECT_TRUE(c.result->truncated);
  EXPECT_EQ(site.Requests().size(), 4u);  // robots.txt and three pages

  s.max_pages = 100;
  const Crawled all = RunCrawl(s);
  EXPECT_EQ(all.result->fetched, 11);  // p0..p9 and the missing p10
  EXPECT_FALSE(all.result->truncated);
}

TEST(Crawl, RedirectsAreFollowedWithTheSameChecksAsLinks) {
  LoopbackHttpServer site, other;
  site.SetHtml("/", Html("Home", Link("/old") + Link("/new") + Link("/loop1") + Link("/away") + Link("/to-private")));
  site.Set("/old", {.status = 301, .headers = {{"Location", "/new"}}});
  site.SetHtml("/new", Html("New", "moved here"));
  site.Set("/loop1", {.status = 302, .headers = {{"Location", "/loop2"}}});
  site.Set("/loop2", {.status = 302, .headers = {{"Location", site.Url("/loop1")}}});
  site.Set("/away", {.status = 307, .headers = {{"Location", other.Url("/x")}}});
  site.Set("/to-private", {.status = 302, .headers = {{"Location", "/private"}}});
  site.Set("/robots.txt", {.content_type = "text/plain", .body = "User-agent: *\nDisallow: /private\n"});
  const Crawled c = RunCrawl(StartAt(site.Url("/")));
  ASSERT_TRUE(c.result.ok());
  EXPECT_EQ(c.Urls(), (std::vector<std::string>{site.Url("/"), site.Url("/old"), site.Url("/loop1"), site.Url("/away"),
                                                site.Url("/to-private")}));
  const Page* old = c.Find(site.Url("/old"));
  EXPECT_EQ(old->state, Page::State::kChanged);
  EXPECT_EQ(old->url, site.Url("/new"));
  EXPECT_EQ(old->title, "New");
  EXPECT_EQ(old->http_status, 200);
  EXPECT_EQ(site.Count("/new"), 1);  // reached through /old, not fetched again for its own link
  EXPECT_EQ(c.Find(site.Url("/loop1"))->error, "too many redirects");
  EXPECT_EQ(c.Find(site.Url("/away"))->error, "redirected outside the include prefixes, to " + other.Url("/x"));
  EXPECT_EQ(other.Requests().size(), 0u);
  EXPECT_EQ(c.Find(site.Url("/to-private"))->error,
            "redirected to " + site.Url("/private") + ", not fetched: robots.txt disallows it");
  EXPECT_EQ(site.Count("/private"), 0);
}

TEST(Crawl, OnlyHtmlAndTextArePages) {
  LoopbackHttpServer site;
  site.SetHtml("/", Html("Home", Link("/file.pdf") + Link("/notes.txt") + Link("/x.xhtml") + Link("/img.png") +
                                     Link("/latin1")));
  site.Set("/file.pdf", {.content_type = "application/pdf", .body = std::string(1 << 20, 'P')});
  site.Set("/notes.txt", {.content_type = "text/plain; charset=utf-8", .body = "plain   notes\nline two\n"});
  site.Set("/x.xhtml", {.content_type = "application/xhtml+xml", .body = Html("X", "xhtml body")});
  site.Set("/img.png", {.content_type = "image/png", .body = "\x89PNG"});
  site.Set("/latin1", {.content_type = "text/html; charset=ISO-8859-1", .body = Html("Caf\xE9", "cr\xE8me")});
  const Crawled c = RunCrawl(StartAt(site.Url("/")));
  ASSERT_TRUE(c.result.ok());
  EXPECT_EQ(c.Urls(), (std::vector<std::string>{site.Url("/"), site.Url("/notes.txt"), site.Url("/x.xhtml"),
                                                site.Url("/latin1")}));
  EXPECT_EQ(c.Find(site.Url("/notes.txt"))->text, "plain notes\nline two");
  EXPECT_EQ(c.Find(site.Url("/notes.txt"))->title, site.Url("/notes.txt"));
  EXPECT_EQ(c.Find(site.Url("/x.xhtml"))->text, "xhtml body");
  EXPECT_EQ(c.Find(site.Url("/latin1"))->title, "Caf\xC3\xA9");
  EXPECT_EQ(c.Find(site.Url("/latin1"))->text, "cr\xC3\xA8me");
  EXPECT_EQ(c.result->skipped, 2);
  EXPECT_EQ(c.result->fetched, 6);
}

TEST(Crawl, MetaOwnerAndReviewedAt) {
  LoopbackHttpServer site;
  site.SetHtml(
      "/", Html("Home", Link("/author") + Link("/not-email") + Link("/stamp")) +
               "<meta name=\"owner\" content=\"ann@corp.example\"><meta name=\"reviewed_at\" content=\"2024-05-01\">");
  site.SetHtml("/author", "<head><meta name=\"author\" content=\"bob@corp.example\"></head>x");
  site.SetHtml("/not-email",
               "<meta name=\"owner\" content=\"Team Wiki\"><meta name=\"author\" content=\"Bob\">"
               "<meta name=\"reviewed_at\" content=\"last spring\">x");
  site.SetHtml("/stamp", "<meta name=\"reviewed_at\" content=\"2024-05-01T10:30:00+02:00\">x");
  const Crawled c = RunCrawl(StartAt(site.Url("/")));
  ASSERT_TRUE(c.result.ok());
  const Page* home = c.Find(site.Url("/"));
  EXPECT_EQ(home->owner_email, "ann@corp.example");
  EXPECT_EQ(home->reviewed_at, ParseTimestamp("2024-05-01"));
  EXPECT_EQ(c.Find(site.Url("/author"))->owner_email, "bob@corp.example");
  EXPECT_FALSE(c.Find(site.Url("/not-email"))->owner_email.has_value());
  EXPECT_FALSE(c.Find(site.Url("/not-email"))->reviewed_at.has_value());
  EXPECT_EQ(c.Find(site.Url("/stamp"))->reviewed_at, ParseTimestamp("2024-05-01T08:30:00Z"));
  EXPECT_FALSE(c.Find(site.Url("/stamp"))->owner_email.has_value());
}

TEST(Crawl, StopsWhenOnPageReturnsFalse) {
  LoopbackHttpServer site;
  site.SetHtml("/", Html("Home", Link("/a") + Link("/b")));
  site.SetHtml("/a", Html("A", "a"));
  site.SetHtml("/b", Html("B", "b"));
  const Crawled c = RunCrawl(StartAt(site.Url("/")), {}, /*stop_after=*/1);
  ASSERT_TRUE(c.result.ok());
  EXPECT_EQ(c.pages.size(), 1u);
  EXPECT_TRUE(c.result->stopped);
  EXPECT_EQ(c.result->changed, 1);
  EXPECT_EQ(site.Count("/a"), 0);
}

TEST(Crawl, SlowAndOversizedPagesFailAlone) {
  LoopbackHttpServer site;
  site.SetHtml("/", Html("Home", Link("/slow") + Link("/big") + Link("/big-stream") + Link("/ok")));
  site.Set("/slow", {.body = Html("Slow", "s"), .delay_ms = 2000});
  site.Set("/big", {.body = std::string(4096, 'x')});
  site.Set("/big-stream", {.body = std::string(size_t{64} * 1024, 'y'), .close_without_length = true});
  site.SetHtml("/ok", Html("Ok", "fine"));
  CrawlSettings s = StartAt(site.Url("/"));
  s.request_timeout_ms = 300;
  s.max_page_bytes = 1024;
  const Crawled c = RunCrawl(s);
  ASSERT_TRUE(c.result.ok());
  EXPECT_EQ(c.Find(site.Url("/slow"))->error, "timed out");
  EXPECT_EQ(c.Find(site.Url("/big"))->error, "larger than 1024 bytes");
  EXPECT_EQ(c.Find(site.Url("/big-stream"))->error, "larger than 1024 bytes");
  EXPECT_EQ(c.Find(site.Url("/ok"))->state, Page::State::kChanged);
}

TEST(Crawl, ReusesOneConnection) {
  LoopbackHttpServer site;
  std::string links;
  for (int i = 0; i < 5; ++i) {
    site.SetHtml("/p" + std::to_string(i), Html("P", "p"));
    links += Link("/p" + std::to_string(i));
  }
  site.SetHtml("/", Html("Home", links));
  const Crawled c = RunCrawl(StartAt(site.Url("/")));
  ASSERT_TRUE(c.result.ok());
  EXPECT_EQ(c.pages.size(), 6u);
  EXPECT_EQ(site.Requests().size(), 7u);
  EXPECT_EQ(site.connections(), 1);
}

TEST(ValidateSettings, NamesEachBadField) {
  CrawlSettings s;
  Status st = ValidateSettings(s);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(st.error().code, "validation_failed");
  ASSERT_EQ(st.error().fields.size(), 1u);
  EXPECT_EQ(st.error().fields[0].field, "startUrls");

  s.start_urls = {"https://wiki.corp/", "ftp://wiki.corp/", "wiki.corp/x"};
  s.sitemap_url = "file:///etc/passwd";
  s.include_prefixes = {"https://wiki.corp/docs/"};
  s.max_pages = 0;
  s.max_depth = 21;
  s.request_timeout_ms = 0;
  s.max_page_bytes = 0;
  s.user_agent = "bad\r\nagent";
  st = ValidateSettings(s);
  ASSERT_FALSE(st.ok());
  std::vector<std::string> fields;
  for (const auto& f : st.error().fields) fields.push_back(f.field);
  EXPECT_EQ(fields, (std::vector<std::string>{"startUrls[1]", "startUrls[2]", "sitemapUrl", "startUrls[0]", "maxPages",
                                              "maxDepth", "requestTimeoutMs", "maxPageBytes", "userAgent"}));

  CrawlSettings ok;
  ok.sitemap_url = "https://wiki.corp/sitemap.xml";
  EXPECT_TRUE(ValidateSettings(ok).ok());
  ok.start_urls = {"HTTPS://Wiki.Corp/docs/start"};
  ok.include_prefixes = {"https://wiki.corp/docs/"};
  ok.max_pages = 100000;
  ok.max_depth = 0;
  EXPECT_TRUE(ValidateSettings(ok).ok());

  // Crawl validates first and touches no network.
  const Crawled c = RunCrawl(CrawlSettings{});
  ASSERT_FALSE(c.result.ok());
  EXPECT_EQ(c.result.error().code, "validation_failed");
}

}  // namespace
}  // namespace credence::connectors::web
