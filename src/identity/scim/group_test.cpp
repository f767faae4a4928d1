#include "identity/scim/group.h"

#include <gtest/gtest.h>

#include "core/json_parse.h"
#include "identity/scim/filter.h"

namespace credence::identity::scim {
namespace {

namespace json = boost::json;

json::value JsonOf(std::string_view text) {
  boost::system::error_code ec;
  json::value v = ParseJson(text, ec);
  EXPECT_FALSE(ec) << text;
  return v;
}

std::vector<std::string> MemberIdsOf(const ScimGroup& g) {
  std::vector<std::string> out;
  for (const auto& m : g.members) out.push_back(m.value);
  return out;
}

ScimGroup EngineeringGroup() {
  auto g = ParseGroup(JsonOf(R"({"schemas":["urn:ietf:params:scim:schemas:core:2.0:Group"],
    "displayName":" EngineeringGroup ","members":[{"value":"u1","display":"Jo"},{"value":"u2"},{"value":"u1"}]})"));
  EXPECT_TRUE(g.ok());
  return g.ok() ? *g : ScimGroup{};
}

std::string ScimCodeOf(const Status& s) { return s.ok() ? "" : s.error().code; }

Status ApplyOperations(ScimGroup& g, std::string_view operations) {
  return ApplyGroupPatch(g, JsonOf(R"({"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":)" +
                                   std::string(operations) + "}"));
}

TEST(ScimGroup, ParsesTrimsAndDropsRepeatedMembers) {
  const ScimGroup g = EngineeringGroup();
  EXPECT_EQ(g.display_name, "EngineeringGroup");
  EXPECT_EQ(MemberIdsOf(g), (std::vector<std::string>{"u1", "u2"}));
  EXPECT_EQ(ParseGroup(JsonOf(R"({"displayName":"  "})")).error().code, "invalidValue");
  EXPECT_EQ(ParseGroup(JsonOf(R"({"displayName":"G","members":[{"display":"no value"}]})")).error().code,
            "invalidValue");
  EXPECT_EQ(ParseGroup(JsonOf(R"({"displayName":"G","externalId":7})")).error().code, "invalidValue");
  EXPECT_EQ(ParseGroup(JsonOf(R"([1])")).error().code, "invalidSyntax");
}

TEST(ScimGroup, OktaGroupPushAddsRemovesByFilterAndRenames) {
  ScimGroup g = EngineeringGroup();
  ASSERT_TRUE(ApplyOperations(g, R"([{"op":"add","path":"members","value":[{"value":"u3","display":"Sam"}]}])").ok());
  EXPECT_EQ(MemberIdsOf(g), (std::vector<std::string>{"u1", "u2", "u3"}));
  ASSERT_TRUE(ApplyOperations(g, R"([{"op":"remove","path":"members[value eq \"u1\"]"}])").ok());
  EXPECT_EQ(MemberIdsOf(g), (std::vector<std::string>{"u2", "u3"}));
  // Removing someone who is not there is not an error.
  ASSERT_TRUE(ApplyOperations(g, R"([{"op":"remove","path":"members[value eq \"u1\"]"}])").ok());
  ASSERT_TRUE(ApplyOperations(g, R"([{"op":"replace","value":{"id":"g1","displayName":"Eng"}}])").ok());
  EXPECT_EQ(g.display_name, "Eng");
  EXPECT_EQ(MemberIdsOf(g), (std::vector<std::string>{"u2", "u3"}));
}

TEST(ScimGroup, EntraAddsAndRemovesValueArraysWithCapitalisedOps) {
  ScimGroup g = EngineeringGroup();
  ASSERT_TRUE(ApplyOperations(g, R"([{"op":"Add","path":"members","value":[{"value":"u3"},{"value":"u4"}]},
                           {"op":"Remove","path":"members","value":[{"value":"u1"},{"value":"u4"}]},
                           {"op":"Replace","path":"externalId","value":"e-9"},
                           {"op":"Replace","path":"displayName","value":"Builders"}])")
                  .ok());
  EXPECT_EQ(MemberIdsOf(g), (std::vector<std::string>{"u2", "u3"}));
  EXPECT_EQ(g.external_id, "e-9");
  EXPECT_EQ(g.display_name, "Builders");
}

TEST(ScimGroup, ReplaceSetsTheMembersAndRemoveWithoutValueClearsThem) {
  ScimGroup g = EngineeringGroup();
  ASSERT_TRUE(ApplyOperations(g, R"([{"op":"replace","path":"members","value":[{"value":"u9"}]}])").ok());
  EXPECT_EQ(MemberIdsOf(g), std::vector<std::string>{"u9"});
  ASSERT_TRUE(ApplyOperations(g, R"([{"op":"add","value":{"members":[{"value":"u8"}]}}])").ok());
  EXPECT_EQ(MemberIdsOf(g), (std::vector<std::string>{"u9", "u8"}));
  ASSERT_TRUE(ApplyOperations(g, R"([{"op":"remove","path":"members"}])").ok());
  EXPECT_TRUE(g.members.empty());
}

TEST(ScimGroup, RefusesWhatItCannotApply) {
  ScimGroup g = EngineeringGroup();
  EXPECT_EQ(ScimCodeOf(ApplyOperations(g, R"([{"op":"remove","path":"members[display eq \"Jo\"]"}])")), "invalidPath");
  EXPECT_EQ(ScimCodeOf(ApplyOperations(g, R"([{"op":"add","path":"members[value eq \"u1\"]","value":{}}])")),
            "invalidPath");
  EXPECT_EQ(ScimCodeOf(ApplyOperations(g, R"([{"op":"move","path":"members","value":[]}])")), "invalidSyntax");
  EXPECT_EQ(ScimCodeOf(ApplyOperations(g, R"([{"op":"add","path":"members","value":[{"value":3}]}])")), "invalidValue");
  EXPECT_EQ(ScimCodeOf(ApplyOperations(g, R"([{"op":"replace","path":"displayName","value":" "}])")), "invalidValue");
  EXPECT_EQ(ScimCodeOf(ApplyOperations(g, R"([])")), "invalidSyntax");
  EXPECT_EQ(ScimCodeOf(ApplyGroupPatch(g, JsonOf(R"({"Operations":[{"op":"add","path":"members","value":[]}]})"))),
            "invalidSyntax");
  EXPECT_EQ(MemberIdsOf(g), (std::vector<std::string>{"u1", "u2"}));
}

TEST(ScimFilter, MatchesJsonFollowsPathsThroughArraysAndCaseRules) {
  const json::value user = JsonOf(R"({"userName":"Jo@Example.com","externalId":"AbC","active":false,
    "name":{"givenName":"Jo"},"emails":[{"value":"a@x.com","type":"home"},{"value":"jo@work.com","type":"work"}]})");
  auto matches = [&](std::string_view filter) {
    auto f = ParseFilter(filter);
    EXPECT_TRUE(f.ok()) << filter;
    return f.ok() && MatchesJson(user, *f);
  };
  EXPECT_TRUE(matches(R"(userName eq "jo@example.com")"));
  EXPECT_TRUE(matches(R"(emails.value eq "jo@work.com")"));
  EXPECT_TRUE(matches(R"(name.givenName sw "j")"));
  EXPECT_TRUE(matches(R"(active eq false)"));
  EXPECT_TRUE(matches(R"(externalId eq "AbC")"));
  EXPECT_FALSE(matches(R"(externalId eq "abc")"));  // caseExact
  EXPECT_FALSE(matches(R"(active eq true)"));
  EXPECT_TRUE(matches("emails pr"));
  EXPECT_FALSE(matches("displayName pr"));
}

}  // namespace
}  // namespace credence::identity::scim
