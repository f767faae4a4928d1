#include "connectors/web/html_text.h"

#include <gtest/gtest.h>

#include <random>

#include "connectors/web/internal/markup.h"

namespace credence::connectors::web {
namespace {

bool IsValidUtf8(const std::string& s) { return internal::ValidUtf8(s) == s; }

TEST(HtmlToText, ReducesADocumentToVisibleText) {
  const HtmlText t = HtmlToText(R"html(<!DOCTYPE html>
<html><head><title> Release   notes </title>
<style>body { color: red }</style><script>var x = "<p>not text</p>";</script>
<meta name="Owner" content=" ann@corp.example ">
</head>
<body>
  <!-- a comment <p>hidden</p> -->
  <h1>Version 2</h1>
  <p>Fixed   the <b>login</b>
     bug.</p>
  <noscript>Enable JavaScript</noscript>
  <template><p>template text</p></template>
  <svg><title>icon</title><text>svg text</text></svg>
  <ul><li>One</li><li>Two</li></ul>
  <div>Line<br>break</div>
</body></html>)html",
                                "https://wiki.corp/notes");
  EXPECT_EQ(t.title, "Release notes");
  EXPECT_EQ(t.text, "Version 2\nFixed the login bug.\nOne\nTwo\nLine\nbreak");
  EXPECT_EQ(t.meta.at("owner"), "ann@corp.example");
}

TEST(HtmlToText, DecodesEntities) {
  const HtmlText t = HtmlToText(
      "<p>Tom &amp; Jerry &lt;3 &quot;x&quot; &apos;y&apos; caf&eacute; &copy; 2024 &mdash; &#169; &#xA9; &#X41;"
      "&nbsp;end &unknown; &amp &#; &#x; &#0; &#xD800; &#1114112; &#150;</p>",
      "http://a/");
  EXPECT_EQ(
      t.text,
      "Tom & Jerry <3 \"x\" 'y' caf\xC3\xA9 \xC2\xA9 2024 \xE2\x80\x94 \xC2\xA9 \xC2\xA9 A end &unknown; &amp &#; "
      "&#x; \xEF\xBF\xBD \xEF\xBF\xBD \xEF\xBF\xBD \xE2\x80\x93");
}

TEST(HtmlToText, TitleFallsBackToTheFirstH1ThenTheUrl) {
  EXPECT_EQ(HtmlToText("<h1>First <i>heading</i></h1><h1>Second</h1>", "http://a/x").title, "First heading");
  EXPECT_EQ(HtmlToText("<title>  </title><h1>H</h1>", "http://a/x").title, "H");
  EXPECT_EQ(HtmlToText("<p>no title</p>", "http://a/x").title, "http://a/x");
  EXPECT_EQ(HtmlToText("<title>A &amp; B <b>not a tag</b></title>", "http://a/").title, "A & B <b>not a tag</b>");
  const std::string long_title(2000, 'x');
  EXPECT_EQ(HtmlToText("<title>" + long_title + "</title>", "http://a/").title.size(), 512u);
}

TEST(HtmlToText, CollectsLinksAbsoluteWithoutFragments) {
  const HtmlText t = HtmlToText(R"html(
    <a href="b.html#top">b</a> <a href="/c?x=1&amp;y=2">c</a> <a href="b.html">again</a>
    <a href="//other.example/d">d</a> <a href="mailto:x@y.z">m</a> <a href="javascript:void(0)">j</a>
    <a href="#only-fragment">f</a> <a href="HTTP://Host.Example:80/e">e</a> <a>no href</a>
    <area href="../up">)html",
                                "http://wiki.corp/docs/a.html");
  EXPECT_EQ(t.links, (std::vector<std::string>{"http://wiki.corp/docs/b.html", "http://wiki.corp/c?x=1&y=2",
                                               "http://other.example/d", "http://wiki.corp/docs/a.html",
                                               "http://host.example/e", "http://wiki.corp/up"}));
}

TEST(HtmlToText, BaseHrefChangesWhereLinksResolve) {
  const HtmlText t = HtmlToText(R"html(<base href="/kb/"><a href="page">p</a>)html", "http://wiki.corp/x/y");
  EXPECT_EQ(t.links, std::vector<std::string>{"http://wiki.corp/kb/page"});
}

TEST(HtmlToText, CollectsMetaTagsFirstWins) {
  const HtmlText t = HtmlToText(R"html(<meta name="reviewed_at" content="2024-05-01">
    <meta NAME="Author" CONTENT='Bob &lt;bob@corp&gt;'><meta property="og:title" content="OG">
    <meta name="reviewed_at" content="1999-01-01"><meta charset="utf-8">)html",
                                "http://a/");
  EXPECT_EQ(t.meta.at("reviewed_at"), "2024-05-01");
  EXPECT_EQ(t.meta.at("author"), "Bob <bob@corp>");
  EXPECT_EQ(t.meta.at("og:title"), "OG");
  EXPECT_EQ(t.meta.size(), 3u);
}

TEST(HtmlToText, ToleratesBrokenMarkup) {
  EXPECT_EQ(HtmlToText("<p>a < b and c<d</p><p>unclosed <b>bold", "http://a/").text, "a < b and c\nunclosed bold");
  EXPECT_EQ(HtmlToText("text <!-- never closed <p>x</p>", "http://a/").text, "text");
  EXPECT_EQ(HtmlToText("<p title=\"never closed>text</p>", "http://a/").text, "");
  EXPECT_EQ(HtmlToText("<script>never closed", "http://a/").text, "");
  EXPECT_EQ(HtmlToText("a</>b<!-->c<!--->d</3 x>e<?php echo 1 ?>f", "http://a/").text, "abcdef");
  EXPECT_EQ(HtmlToText("<p>x</P ><SCRIPT>y</ScRiPt >z", "http://a/").text, "x\nz");
  EXPECT_EQ(HtmlToText("<a href=x =y z=>t</a>", "http://a/").text, "t");
  EXPECT_EQ(HtmlToText("end <", "http://a/").text, "end <");
  EXPECT_EQ(HtmlToText("end </", "http://a/").text, "end </");
  EXPECT_EQ(HtmlToText("", "http://a/").text, "");
}

TEST(HtmlToText, InvalidUtf8BecomesReplacementCharacters) {
  using namespace std::string_literals;
  const HtmlText t = HtmlToText("<p>ok \xC3\xA9 bad \xFF\xC3 nul \x00 end</p>\x00"s, "http://a/");
  EXPECT_TRUE(IsValidUtf8(t.text));
  EXPECT_NE(t.text.find("ok \xC3\xA9 bad \xEF\xBF\xBD"), std::string::npos);
}

TEST(PlainToText, KeepsLinesCollapsesBlanks) {
  const HtmlText t = PlainToText("  first   line\r\n\n\tsecond\tline  \n", "http://a/notes.txt");
  EXPECT_EQ(t.text, "first line\nsecond line");
  EXPECT_EQ(t.title, "http://a/notes.txt");
  EXPECT_TRUE(t.links.empty());
}

// The reducer must survive anything: every prefix of a document that breaks
// most rules, and random bytes (biased towards markup characters). Run under
// ASan/UBSan too (docs/connectors-web.md).
TEST(HtmlToText, NeverCrashesOnAnyPrefixOrRandomInput) {
  const std::string tricky =
      "<!DOCTYPE html><html><head><title>T &amp; &#x41;&#65</title><base href='/b/'>"
      "<meta name=owner content=\"a@b.c\"><style>p{}</style></head><body>"
      "<h1 class=x>Head<!-- c --></h1><p a=1 b='2' c=\"3\" d e=>x &lt; y &#99999999; &#x; &# &;</p>"
      "<a href=\"rel?q=1#f\">l</a><a href=//h/p>m</a><area href=' /sp ace '>"
      "<script>if (a < b && c > d) { x = '</scr' + 'ipt>'; }</script>"
      "<svg><p>no</p></svg><![CDATA[c]]><?pi?></ unclosed <div <p>\xC3\xA9\xFF\xFE"
      "<textarea></textarea><select><option>o</select><table><tr><td>1<td>2</table>";
  for (size_t n = 0; n <= tricky.size(); ++n) {
    const HtmlText t = HtmlToText(tricky.substr(0, n), "http://host/dir/page");
    ASSERT_TRUE(IsValidUtf8(t.text)) << n;
    ASSERT_TRUE(IsValidUtf8(t.title)) << n;
  }
  std::mt19937 rng(1234);
  const std::string alphabet = "<>/!-=&#;\"' \nabcdxyz09ptsrcihfl[]?:\xC3\xA9\xFF";
  for (int i = 0; i < 3000; ++i) {
    std::string doc(rng() % 300, ' ');
    for (char& c : doc) c = (i % 3 == 0) ? static_cast<char>(rng() & 0xFF) : alphabet[rng() % alphabet.size()];
    const HtmlText t = HtmlToText(doc, "http://host/");
    ASSERT_TRUE(IsValidUtf8(t.text));
    ASSERT_TRUE(IsValidUtf8(t.title));
    for (const auto& link : t.links) ASSERT_EQ(link.rfind("http", 0), 0u) << link;
  }
}

}  // namespace
}  // namespace credence::connectors::web
