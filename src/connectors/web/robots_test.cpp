#include "connectors/web/robots.h"

#include <gtest/gtest.h>

#include <random>

namespace credence::connectors::web {
namespace {

constexpr const char* kUa = "CredenceConnector/1.0";

TEST(RobotsRules, OurGroupWinsOverStar) {
  const auto rules = RobotsRules::Parse(R"(
# comment
User-agent: *
Disallow: /

User-agent: credenceconnector   # product token, any case
Disallow: /private
)",
                                        kUa);
  EXPECT_TRUE(rules.Allows("/"));
  EXPECT_TRUE(rules.Allows("/docs/a"));
  EXPECT_FALSE(rules.Allows("/private"));
  EXPECT_FALSE(rules.Allows("/private/x?y=1"));
  EXPECT_FALSE(rules.Allows("/privateer"));  // a prefix match, as the RFC says
}

TEST(RobotsRules, StarGroupWhenNoneNamesUs) {
  const auto rules = RobotsRules::Parse("User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nDisallow: /tmp/\n", kUa);
  EXPECT_TRUE(rules.Allows("/a"));
  EXPECT_FALSE(rules.Allows("/tmp/x"));
  EXPECT_TRUE(RobotsRules::Parse("User-agent: Googlebot\nDisallow: /\n", kUa).Allows("/a"));
}

TEST(RobotsRules, GroupsWithSeveralAgentsAndRepeatedGroupsCombine) {
  const auto rules = RobotsRules::Parse(
      "User-agent: other\nUser-agent: CredenceConnector\nDisallow: /a\n\nUser-agent: CredenceConnector\nDisallow: /b\n",
      kUa);
  EXPECT_FALSE(rules.Allows("/a"));
  EXPECT_FALSE(rules.Allows("/b"));
  EXPECT_TRUE(rules.Allows("/c"));
}

TEST(RobotsRules, LongestMatchWinsAllowWinsTies) {
  const auto rules = RobotsRules::Parse(
      "User-agent: *\nDisallow: /docs/\nAllow: /docs/public/\nDisallow: /docs/public/secret\nAllow: /x\nDisallow: /x\n",
      kUa);
  EXPECT_FALSE(rules.Allows("/docs/a"));
  EXPECT_TRUE(rules.Allows("/docs/public/a"));
  EXPECT_FALSE(rules.Allows("/docs/public/secret.html"));
  EXPECT_TRUE(rules.Allows("/x"));
}

TEST(RobotsRules, WildcardsAndEndAnchor) {
  const auto rules = RobotsRules::Parse(
      "User-agent: *\nDisallow: /*.pdf$\nDisallow: /*?print=\nDisallow: /a*b*c\nAllow: /exact$\nDisallow: /exact\n",
      kUa);
  EXPECT_FALSE(rules.Allows("/files/x.pdf"));
  EXPECT_TRUE(rules.Allows("/files/x.pdf?download=1"));
  EXPECT_FALSE(rules.Allows("/page?print=1"));
  EXPECT_TRUE(rules.Allows("/page?x=1"));
  EXPECT_FALSE(rules.Allows("/a-bb-cc"));
  EXPECT_TRUE(rules.Allows("/a-bb"));
  EXPECT_TRUE(rules.Allows("/exact"));
  EXPECT_FALSE(rules.Allows("/exact/more"));
}

TEST(RobotsRules, EmptyDisallowAllowsAllAndJunkIsIgnored) {
  EXPECT_TRUE(RobotsRules::Parse("User-agent: *\nDisallow:\n", kUa).Allows("/anything"));
  EXPECT_TRUE(RobotsRules::Parse("Disallow: /\n", kUa).Allows("/x"));  // a rule before any group
  EXPECT_TRUE(RobotsRules::Parse("<html>not robots</html>", kUa).Allows("/x"));
  EXPECT_TRUE(RobotsRules::Parse("", kUa).Allows("/x"));
  const auto rules = RobotsRules::Parse("User-agent: *\r\nCrawl-delay: 5\r\nSitemap: /s.xml\r\nDisallow: /no\r\n", kUa);
  EXPECT_FALSE(rules.Allows("/no"));
}

TEST(RobotsRules, NonAsciiPatternsMatchPercentEncodedPaths) {
  const auto rules = RobotsRules::Parse("User-agent: *\nDisallow: /caf\xC3\xA9\n", kUa);
  EXPECT_FALSE(rules.Allows("/caf%C3%A9/menu"));
}

TEST(RobotsRules, DisallowAllStillAllowsRobotsTxt) {
  const auto rules = RobotsRules::DisallowAll();
  EXPECT_FALSE(rules.Allows("/"));
  EXPECT_TRUE(rules.Allows("/robots.txt"));
  EXPECT_TRUE(RobotsRules::AllowAll().Allows("/"));
}

TEST(RobotsRules, ManyWildcardsStayFast) {
  const auto rules = RobotsRules::Parse("User-agent: *\nDisallow: /" + std::string(200, '*') + "x$\n", kUa);
  EXPECT_TRUE(rules.Allows("/" + std::string(5000, 'a')));
}

TEST(RobotsRules, NeverCrashOnRandomInput) {
  std::mt19937 rng(7);
  const std::string alphabet = "User-agent:Disallow:Allow:*$/#\n\r ab?=";
  for (int i = 0; i < 2000; ++i) {
    std::string s(rng() % 200, ' ');
    for (char& c : s) c = (i % 2 == 0) ? static_cast<char>(rng() & 0xFF) : alphabet[rng() % alphabet.size()];
    const auto rules = RobotsRules::Parse(s, kUa);
    rules.Allows("/");
    rules.Allows("/ab?a=b");
    rules.Allows(s);
  }
}

}  // namespace
}  // namespace credence::connectors::web
