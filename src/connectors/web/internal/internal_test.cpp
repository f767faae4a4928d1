#include <gtest/gtest.h>

#include <random>

#include "connectors/web/internal/markup.h"
#include "connectors/web/internal/sitemap.h"
#include "connectors/web/internal/url.h"

namespace credence::connectors::web::internal {
namespace {

TEST(CanonicalUrl, NormalizesForDeduplication) {
  EXPECT_EQ(CanonicalUrl("HTTP://Wiki.Corp.EXAMPLE:80/a/./b/../c?X=1#frag"), "http://wiki.corp.example/a/c?X=1");
  EXPECT_EQ(CanonicalUrl("https://h:443"), "https://h/");
  EXPECT_EQ(CanonicalUrl("https://h:8443/x"), "https://h:8443/x");
  EXPECT_EQ(CanonicalUrl("http://h:80/x"), "http://h/x");
  EXPECT_EQ(CanonicalUrl("http://user:pw@h/x"), "http://h/x");
  EXPECT_EQ(CanonicalUrl("  http://h/a b\n"), "http://h/a%20b");
  EXPECT_EQ(CanonicalUrl("http://h/caf\xC3\xA9"), "http://h/caf%C3%A9");
  EXPECT_EQ(CanonicalUrl("http://h/%7euser/%2f"), "http://h/~user/%2F");
  EXPECT_EQ(CanonicalUrl("http://h/x?"), "http://h/x");
  EXPECT_EQ(CanonicalUrl("http://h/100%"), "http://h/100%25");
  EXPECT_EQ(CanonicalUrl("http://h/x?b=2&a=1"), "http://h/x?b=2&a=1");  // query order kept
  EXPECT_EQ(CanonicalUrl("http://[::1]:8080/"), "http://[::1]:8080/");
  EXPECT_FALSE(CanonicalUrl("ftp://h/x"));
  EXPECT_FALSE(CanonicalUrl("mailto:a@b.c"));
  EXPECT_FALSE(CanonicalUrl("/relative"));
  EXPECT_FALSE(CanonicalUrl("http:///nohost"));
  EXPECT_FALSE(CanonicalUrl(""));
}

TEST(ResolveUrl, ResolvesReferences) {
  const std::string base = "http://h/docs/a/page.html?x=1";
  EXPECT_EQ(ResolveUrl(base, "b.html"), "http://h/docs/a/b.html");
  EXPECT_EQ(ResolveUrl(base, "../up"), "http://h/docs/up");
  EXPECT_EQ(ResolveUrl(base, "/root"), "http://h/root");
  EXPECT_EQ(ResolveUrl(base, "?y=2"), "http://h/docs/a/page.html?y=2");
  EXPECT_EQ(ResolveUrl(base, "#frag"), "http://h/docs/a/page.html?x=1");
  EXPECT_EQ(ResolveUrl(base, "//Other:80/p"), "http://other/p");
  EXPECT_EQ(ResolveUrl(base, "HTTPS://o/x"), "https://o/x");
  EXPECT_EQ(ResolveUrl(base, " sp ace.html "), "http://h/docs/a/sp%20ace.html");
  EXPECT_EQ(ResolveUrl(base, "../../../../too/far"), "http://h/too/far");
  EXPECT_FALSE(ResolveUrl(base, "javascript:alert(1)"));
  EXPECT_FALSE(ResolveUrl(base, "mailto:x@y"));
  EXPECT_FALSE(ResolveUrl(base, "data:text/html,hi"));
  EXPECT_FALSE(ResolveUrl("not a base", "x"));
}

TEST(Url, OriginAndPathAndQuery) {
  EXPECT_EQ(OriginOf("https://h:8443/a/b?c"), "https://h:8443/");
  EXPECT_EQ(OriginOf("http://h/"), "http://h/");
  EXPECT_EQ(PathAndQuery("https://h:8443/a/b?c=1"), "/a/b?c=1");
  EXPECT_EQ(PathAndQuery("http://h/"), "/");
}

TEST(ParseSitemap, UrlSetAndIndex) {
  const Sitemap set = ParseSitemap(R"(<?xml version="1.0" encoding="UTF-8"?>
<!-- generated -->
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc> https://h/a?x=1&amp;y=2 </loc><lastmod>2024-01-01</lastmod></url>
  <url><loc><![CDATA[https://h/b&c]]></loc></url>
  <url><loc></loc></url>
</urlset>)",
                                   100);
  EXPECT_EQ(set.kind, Sitemap::Kind::kUrlSet);
  EXPECT_EQ(set.locs, (std::vector<std::string>{"https://h/a?x=1&y=2", "https://h/b&c"}));
  EXPECT_FALSE(set.truncated);

  const Sitemap index = ParseSitemap(
      "<sm:sitemapindex xmlns:sm=\"x\"><sm:sitemap><sm:loc>https://h/s1.xml</sm:loc></sm:sitemap>"
      "<sm:sitemap><sm:loc>https://h/s2.xml</sm:loc></sm:sitemap></sm:sitemapindex>",
      100);
  EXPECT_EQ(index.kind, Sitemap::Kind::kIndex);
  EXPECT_EQ(index.locs, (std::vector<std::string>{"https://h/s1.xml", "https://h/s2.xml"}));
}

TEST(ParseSitemap, BoundedAndRejectsOtherDocuments) {
  std::string big = "<urlset>";
  for (int i = 0; i < 10; ++i) big += "<url><loc>http://h/" + std::to_string(i) + "</loc></url>";
  big += "</urlset>";
  const Sitemap capped = ParseSitemap(big, 3);
  EXPECT_EQ(capped.locs.size(), 3u);
  EXPECT_TRUE(capped.truncated);
  EXPECT_EQ(ParseSitemap("<html><body><loc>x</loc></body></html>", 10).kind, Sitemap::Kind::kNotASitemap);
  EXPECT_EQ(ParseSitemap("{\"urls\": []}", 10).kind, Sitemap::Kind::kNotASitemap);
  EXPECT_EQ(ParseSitemap("", 10).kind, Sitemap::Kind::kNotASitemap);
  EXPECT_EQ(ParseSitemap("\x1f\x8b\x08garbage", 10).kind, Sitemap::Kind::kNotASitemap);
}

TEST(Markup, Utf8Helpers) {
  EXPECT_EQ(ValidUtf8("ok \xC3\xA9"), "ok \xC3\xA9");
  EXPECT_EQ(ValidUtf8("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");                  // overlong
  EXPECT_EQ(ValidUtf8("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // surrogate
  EXPECT_EQ(ValidUtf8(std::string("a\0b", 3)),
            "a\xEF\xBF\xBD"
            "b");
  EXPECT_EQ(ValidUtf8("\xF0\x9F\x98\x80"), "\xF0\x9F\x98\x80");
  EXPECT_EQ(Latin1ToUtf8("caf\xE9 \x80"), "caf\xC3\xA9 \xE2\x82\xAC");
}

// Sitemaps and hrefs come from the sites crawled: any bytes must do.
TEST(Internal, NeverCrashOnRandomInput) {
  std::mt19937 rng(99);
  const std::string alphabet = "<>/!-=&#;\"' \n:?@[]%.abclostuxrm09\xC3\xA9\xFF";
  const std::string sitemap =
      "<?xml?><sitemapindex><sitemap><loc>http://h/a&amp;b</loc></sitemap><loc><![CDATA[x]]></loc></sitemapindex>";
  for (size_t n = 0; n <= sitemap.size(); ++n) ParseSitemap(sitemap.substr(0, n), 5);
  for (int i = 0; i < 3000; ++i) {
    std::string s(rng() % 120, ' ');
    for (char& c : s) c = (i % 2 == 0) ? static_cast<char>(rng() & 0xFF) : alphabet[rng() % alphabet.size()];
    ParseSitemap(s, 5);
    const auto resolved = ResolveUrl("http://h/a/b?c", s);
    if (resolved) {
      ASSERT_EQ(CanonicalUrl(*resolved), resolved) << s;  // canonical forms are fixed points
      ASSERT_EQ(ValidUtf8(*resolved), *resolved);
    }
    const auto canonical = CanonicalUrl("http://h/" + s);
    if (canonical) {
      ASSERT_EQ(CanonicalUrl(*canonical), canonical) << s;
    }
  }
}

// Found by fuzz/url_address.
TEST(CanonicalUrl, IsAFixedPointAndRefusesMisreadHosts) {
  const auto once = CanonicalUrl("http://EX%41MPLE.com/a");
  ASSERT_TRUE(once);
  EXPECT_EQ(*once, "http://example.com/a");
  EXPECT_EQ(CanonicalUrl(*once), once);
  // Boost.URL 1.81 reads this as host 1.2.3.4 and path ".example/x".
  EXPECT_FALSE(CanonicalUrl("http://1.2.3.4.example/x"));
  EXPECT_FALSE(ResolveUrl("https://a.example/", "//1.2.3.4.example/x"));
  // Decoding an escaped dot would make the same misreading.
  EXPECT_FALSE(CanonicalUrl("http://25%2e4.0.0.10/x"));
}

}  // namespace
}  // namespace credence::connectors::web::internal
