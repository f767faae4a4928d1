#include "connectors/document_text.h"

#include <gtest/gtest.h>

#include "connectors/settings.h"

namespace credence::connectors {
namespace {

TEST(ConnectorDocumentText, DocumentPathsByExtension) {
  for (const char* p : {"a.md", "d/b.MARKDOWN", "c.adoc", "x/y.asciidoc", "notes.txt"})
    EXPECT_TRUE(IsDocumentPath(p)) << p;
  for (const char* p : {"a.png", "md", "dir.md/file", "README", ".md.bak"}) EXPECT_FALSE(IsDocumentPath(p)) << p;
}

TEST(ConnectorDocumentText, FrontMatterGivesTitleOwnerAndReview) {
  auto f = ReadFileFacts("guide/a.md",
                         "---\ntitle: \"Refunds\"\nowner: Ann@Example.com\nreviewed_at: 2029-06-01\n"
                         "review_type: Attestation\n---\n# Heading\nBody.\n");
  ASSERT_TRUE(f) << f.error().detail;
  EXPECT_EQ(f->title, "Refunds");
  EXPECT_EQ(f->owner_email, "ann@example.com");
  EXPECT_EQ(f->reviewed_at, ParseTimestamp("2029-06-01T00:00:00Z"));
  EXPECT_EQ(f->review_type, "Attestation");
  EXPECT_EQ(f->body, "# Heading\nBody.\n");  // what the content hash covers
}

TEST(ConnectorDocumentText, TitleFallsBackToTheFirstHeadingThenTheFileName) {
  EXPECT_EQ(ReadFileFacts("a.md", "Intro\n\n## Second level ##\n")->title, "Second level");
  EXPECT_EQ(ReadFileFacts("a.md", "Setext title\n============\n")->title, "Setext title");
  EXPECT_EQ(ReadFileFacts("a.adoc", "= AsciiDoc title\n")->title, "AsciiDoc title");
  EXPECT_EQ(ReadFileFacts("dir/plain-notes.txt", "no heading\n")->title, "plain-notes");
  auto reviewed = ReadFileFacts("a.md", "---\nreviewed_at: 2029-06-01T10:00:00Z\n---\ntext\n");
  EXPECT_EQ(reviewed->review_type, "FullReview");  // the default with a date
  // Not closed: not front matter.
  auto open = ReadFileFacts("a.md", "---\nowner: a@b.example\n");
  EXPECT_FALSE(open->owner_email);
}

TEST(ConnectorDocumentText, BadFilesAreErrorsThatSayWhy) {
  EXPECT_NE(ReadFileFacts("a.md", std::string("\x00\x01", 2)).error().detail.find("UTF-8"), std::string::npos);
  EXPECT_NE(ReadFileFacts("a.md", "\xff\xfe").error().detail.find("UTF-8"), std::string::npos);
  EXPECT_NE(ReadFileFacts("a.md", "---\nreviewed_at: soon\n---\n").error().detail.find("reviewed_at"),
            std::string::npos);
  EXPECT_NE(ReadFileFacts("a.md", "---\nowner: nobody\n---\n").error().detail.find("owner"), std::string::npos);
  EXPECT_NE(ReadFileFacts("a.md", "---\nreviewed_at: 2029-01-01\nreview_type: Glance\n---\n")
                .error()
                .detail.find("review_type"),
            std::string::npos);
  EXPECT_TRUE(ReadFileFacts("a.md", "Ünïcödé ✓\n"));
}

TEST(ConnectorDocumentText, CodeOwnersLastMatchWinsAndTheFirstEmailOwns) {
  CodeOwners owners(
      "# comment\n"
      "*       @org/all fallback@example.com\n"
      "*.adoc  @docs adoc@example.com\n"
      "/docs/  @team Docs@Example.com other@example.com\n"
      "guide/*.md guide@example.com\n"
      "/teams-only/ @org/team\n");
  EXPECT_EQ(owners.OwnerOf("README.md"), "fallback@example.com");
  EXPECT_EQ(owners.OwnerOf("x/y/z.adoc"), "adoc@example.com");
  EXPECT_EQ(owners.OwnerOf("docs/deep/a.md"), "docs@example.com");
  EXPECT_EQ(owners.OwnerOf("guide/a.md"), "guide@example.com");
  EXPECT_EQ(owners.OwnerOf("guide/sub/a.md"), "fallback@example.com");  // * does not cross a slash
  EXPECT_EQ(owners.OwnerOf("teams-only/a.md"), std::nullopt);           // the match has no email: no owner
  EXPECT_EQ(CodeOwners("").OwnerOf("a.md"), std::nullopt);
}

TEST(ConnectorSettings, LocalRepositoriesOnlyWhenAllowedAndNeverTheDataDirectory) {
  const RepositoryPolicy strict{false, "/srv/credence"};
  const RepositoryPolicy local{true, "/srv/credence"};
  EXPECT_NE(RepositoryRefusal("/repos/docs", strict)->find("--allow-local-repositories"), std::string::npos);
  EXPECT_NE(RepositoryRefusal("file:///repos/docs", strict)->find("--allow-local-repositories"), std::string::npos);
  EXPECT_FALSE(RepositoryRefusal("/repos/docs", local));
  EXPECT_FALSE(RepositoryRefusal("file:///repos/docs", local));
  // Another tenant's mirror, the data directory itself, a parent of it, a
  // way round through "..".
  for (const char* url : {"/srv/credence/connectors/t/c", "/srv/credence", "/srv", "/repos/../srv/credence/x",
                          "file:///srv/credence/connectors/t/c"})
    EXPECT_TRUE(RepositoryRefusal(url, local)) << url;
  EXPECT_FALSE(RepositoryRefusal("/srv/credence-docs", local));
  // Remote URLs: the connectors' outbound rule.
  EXPECT_FALSE(RepositoryRefusal("https://git.example.com/docs.git", strict));
  EXPECT_FALSE(RepositoryRefusal("http://10.0.0.5/docs.git", strict));  // private: theirs to reach
  EXPECT_TRUE(RepositoryRefusal("http://169.254.169.254/latest", strict));
  auto refused = ValidateSettings("git", R"({"url":"/srv/credence/connectors/t/c"})", local);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().fields.at(0).field, "settings.url");
}

// Found by fuzz/front_matter: titles are stored, so they must be UTF-8.
TEST(ConnectorDocumentText, TitlesAreAlwaysUtf8) {
  std::string heading = "# ";
  for (int i = 0; i < 300; ++i) heading += "\xC3\xA9";  // 600 bytes of e-acute
  auto facts = ReadFileFacts("a.md", heading + "\n");
  ASSERT_TRUE(facts);
  EXPECT_EQ(facts->title.size(), 500u);
  EXPECT_EQ(facts->title.substr(498), "\xC3\xA9");
  // A git path is any bytes: a file whose name is not UTF-8 is not read.
  auto named = ReadFileFacts("docs/\xB8\xB8.md", "no heading");
  ASSERT_FALSE(named);
  EXPECT_EQ(named.error().code, "not_text");
  // Surrogates and overlong forms are not UTF-8 text either.
  EXPECT_FALSE(ReadFileFacts("a.md", "\xED\xA0\x80"));
  EXPECT_FALSE(ReadFileFacts("a.md", "\xC0\xAF"));
}

}  // namespace
}  // namespace credence::connectors
