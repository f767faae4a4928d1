#include "identity/scim/filter.h"

#include <gtest/gtest.h>

namespace credence::identity::scim {
namespace {

TEST(ScimFilter, ParsesTheLookupsOktaAndEntraSend) {
  auto okta = ParseFilter(R"(userName eq "jane.doe@example.com")");
  ASSERT_TRUE(okta.ok());
  EXPECT_EQ(okta->attribute, "username");
  EXPECT_EQ(okta->op, CompareOp::kEq);
  EXPECT_EQ(okta->value.kind, CompareValue::Kind::kString);
  EXPECT_EQ(okta->value.text, "jane.doe@example.com");

  auto entra = ParseFilter(R"(externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef")");
  ASSERT_TRUE(entra.ok());
  EXPECT_EQ(entra->attribute, "externalid");

  auto group = ParseFilter(R"(displayName EQ "Sales")");
  ASSERT_TRUE(group.ok());
  EXPECT_EQ(group->attribute, "displayname");
  EXPECT_EQ(group->op, CompareOp::kEq);
}

TEST(ScimFilter, StripsTheCoreSchemaUrnAndKeepsSubAttributes) {
  auto f = ParseFilter(R"(urn:ietf:params:scim:schemas:core:2.0:User:userName eq "a")");
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->attribute, "username");
  auto sub = ParseFilter(R"(name.givenName sw "Ja")");
  ASSERT_TRUE(sub.ok());
  EXPECT_EQ(sub->attribute, "name.givenname");
  EXPECT_EQ(sub->op, CompareOp::kSw);
}

TEST(ScimFilter, ReadsJsonValues) {
  auto escaped = ParseFilter(R"(userName eq "a\"b\\c\u00e9")");
  ASSERT_TRUE(escaped.ok());
  EXPECT_EQ(escaped->value.text, "a\"b\\c\xC3\xA9");
  auto boolean = ParseFilter("active eq True");
  ASSERT_TRUE(boolean.ok());
  EXPECT_EQ(boolean->value.kind, CompareValue::Kind::kBoolean);
  EXPECT_TRUE(boolean->value.boolean);
  auto present = ParseFilter("title pr");
  ASSERT_TRUE(present.ok());
  EXPECT_EQ(present->op, CompareOp::kPr);
  auto number = ParseFilter("x gt 12.5");
  ASSERT_TRUE(number.ok());
  EXPECT_EQ(number->value.kind, CompareValue::Kind::kNumber);
  EXPECT_EQ(number->value.text, "12.5");
}

TEST(ScimFilter, RefusesWhatItDoesNotSupportAsInvalidFilter) {
  for (const char* text : {
           "",
           "userName",
           "userName eq",
           R"(userName xx "a")",
           R"(userName eq "a)",
           R"(userName eq "a" and displayName eq "b")",
           R"((userName eq "a"))",
           R"(not (userName eq "a"))",
           R"(userName eq 'a')",
           R"(userName eq "\ud800")",
           R"(userName eq "\q")",
           "userName eq \"a\nb\"",
           R"(.userName eq "a")",
       }) {
    auto f = ParseFilter(text);
    ASSERT_FALSE(f.ok()) << text;
    EXPECT_EQ(f.error().code, "invalidFilter") << text;
    EXPECT_EQ(f.error().kind, ErrorKind::kInvalidArgument) << text;
  }
}

TEST(ScimFilter, MatchesStringsCaseInsensitivelyUnlessCaseExact) {
  auto f = ParseFilter(R"(userName eq "Jane@Example.com")");
  ASSERT_TRUE(f.ok());
  EXPECT_TRUE(MatchesString(f->op, "jane@example.com", f->value, /*case_exact=*/false));
  EXPECT_FALSE(MatchesString(f->op, "jane@example.com", f->value, /*case_exact=*/true));
  EXPECT_TRUE(MatchesString(f->op, "Jane@Example.com", f->value, /*case_exact=*/true));
  CompareValue co{CompareValue::Kind::kString, "EXAMPLE", false};
  EXPECT_TRUE(MatchesString(CompareOp::kCo, "jane@example.com", co, false));
  EXPECT_TRUE(MatchesString(CompareOp::kPr, "x", {}, false));
  EXPECT_FALSE(MatchesString(CompareOp::kPr, "", {}, false));
}

TEST(ScimPatchPath, ParsesEntraPaths) {
  auto plain = ParsePatchPath("active");
  ASSERT_TRUE(plain.ok());
  EXPECT_EQ(plain->attribute, "active");
  EXPECT_FALSE(plain->filter.has_value());
  EXPECT_TRUE(plain->sub_attribute.empty());

  auto sub = ParsePatchPath("name.givenName");
  ASSERT_TRUE(sub.ok());
  EXPECT_EQ(sub->attribute, "name");
  EXPECT_EQ(sub->sub_attribute, "givenname");

  auto filtered = ParsePatchPath(R"(emails[type eq "work"].value)");
  ASSERT_TRUE(filtered.ok());
  EXPECT_EQ(filtered->attribute, "emails");
  ASSERT_TRUE(filtered->filter.has_value());
  EXPECT_EQ(filtered->filter->attribute, "type");
  EXPECT_EQ(filtered->filter->value.text, "work");
  EXPECT_EQ(filtered->sub_attribute, "value");

  auto urn = ParsePatchPath("urn:ietf:params:scim:schemas:core:2.0:User:displayName");
  ASSERT_TRUE(urn.ok());
  EXPECT_EQ(urn->attribute, "displayname");

  auto members = ParsePatchPath(R"(members[value eq "2819c223"])");
  ASSERT_TRUE(members.ok());
  EXPECT_EQ(members->attribute, "members");
  EXPECT_TRUE(members->sub_attribute.empty());
}

TEST(ScimPatchPath, RefusesMalformedPathsAsInvalidPath) {
  for (const char* text : {"", "a.b.c", "emails[type eq \"work\"", "emails]x[", "emails[type eq \"work\"]value",
                           "emails[type]", "name.[x eq 1]"}) {
    auto p = ParsePatchPath(text);
    ASSERT_FALSE(p.ok()) << text;
    EXPECT_EQ(p.error().code, "invalidPath") << text;
  }
}

}  // namespace
}  // namespace credence::identity::scim
