#include "identity/scim/patch.h"

#include <gtest/gtest.h>

#include "core/json_parse.h"

namespace credence::identity::scim {
namespace {

namespace json = boost::json;

json::value Parse(std::string_view text) {
  boost::system::error_code ec;
  json::value v = ParseJson(text, ec);
  EXPECT_FALSE(ec) << text;
  return v;
}

json::object User() {
  return Parse(R"({"schemas":["urn:ietf:params:scim:schemas:core:2.0:User"],
    "userName":"jane@example.com","active":true,
    "name":{"givenName":"Jane","familyName":"Doe"},
    "emails":[{"value":"jane@example.com","type":"work","primary":true}]})")
      .as_object();
}

Status Apply(json::object& user, std::string_view body) { return ApplyPatch(user, Parse(body)); }

TEST(ScimPatch, OktaDeactivatesWithAValueObject) {
  json::object user = User();
  // Okta's "Update a specific User (PATCH)" deactivation request.
  ASSERT_TRUE(Apply(user, R"({"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
    "Operations":[{"op":"replace","value":{"active":false}}]})")
                  .ok());
  EXPECT_EQ(user.at("active"), json::value(false));
}

TEST(ScimPatch, EntraCapitalisedOpsAndStringBooleans) {
  json::object user = User();
  ASSERT_TRUE(Apply(user, R"({"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
    "Operations":[{"op":"Replace","path":"active","value":"False"}]})")
                  .ok());
  EXPECT_EQ(user.at("active"), json::value(false));
  ASSERT_TRUE(Apply(user, R"({"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
    "Operations":[{"op":"Add","path":"name.givenName","value":"Janet"},
                  {"op":"Replace","path":"displayName","value":"Janet Doe"},
                  {"op":"Add","value":{"name.familyName":"Roe","Active":"True"}}]})")
                  .ok());
  EXPECT_EQ(user.at("name").at("givenName"), json::value("Janet"));
  EXPECT_EQ(user.at("name").at("familyName"), json::value("Roe"));
  EXPECT_EQ(user.at("displayName"), json::value("Janet Doe"));
  EXPECT_EQ(user.at("active"), json::value(true));
  EXPECT_EQ(user.size(), 6u) << json::serialize(user);  // one key per attribute
}

TEST(ScimPatch, EntraWorkEmailPathReplacesOrCreatesTheElement) {
  json::object user = User();
  ASSERT_TRUE(Apply(user, R"({"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
    "Operations":[{"op":"Replace","path":"emails[type eq \"work\"].value","value":"jd@example.com"}]})")
                  .ok());
  ASSERT_EQ(user.at("emails").as_array().size(), 1u);
  EXPECT_EQ(user.at("emails").at(0).at("value"), json::value("jd@example.com"));
  EXPECT_EQ(user.at("emails").at(0).at("primary"), json::value(true));

  user.erase("emails");
  ASSERT_TRUE(Apply(user, R"({"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
    "Operations":[{"op":"Add","path":"emails[type eq \"work\"].value","value":"new@example.com"}]})")
                  .ok());
  ASSERT_EQ(user.at("emails").as_array().size(), 1u);
  EXPECT_EQ(user.at("emails").at(0).at("type"), json::value("work"));
  EXPECT_EQ(user.at("emails").at(0).at("value"), json::value("new@example.com"));
}

TEST(ScimPatch, RemoveWithAndWithoutFilter) {
  json::object user = User();
  ASSERT_TRUE(Apply(user, R"({"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
    "Operations":[{"op":"remove","path":"name.familyName"},
                  {"op":"remove","path":"emails[type eq \"work\"]"}]})")
                  .ok());
  EXPECT_FALSE(user.at("name").as_object().contains("familyName"));
  EXPECT_TRUE(user.at("emails").as_array().empty());
  auto none = Apply(user, R"({"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
    "Operations":[{"op":"remove","path":"emails[type eq \"home\"]"}]})");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().code, "noTarget");
}

TEST(ScimPatch, BadBodiesCarryTheirScimType) {
  const std::pair<const char*, const char*> cases[] = {
      {R"([])", "invalidSyntax"},
      {R"({"Operations":[{"op":"replace","value":{"active":false}}]})", "invalidSyntax"},
      {R"({"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"]})", "invalidSyntax"},
      {R"({"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[]})", "invalidSyntax"},
      {R"({"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"move"}]})",
       "invalidSyntax"},
      {R"({"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],"Operations":[{"op":"remove"}]})", "noTarget"},
      {R"({"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
          "Operations":[{"op":"replace","path":"active","value":"maybe"}]})",
       "invalidValue"},
      {R"({"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
          "Operations":[{"op":"replace","path":"active"}]})",
       "invalidValue"},
      {R"({"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
          "Operations":[{"op":"replace","path":"emails[type eq","value":"x"}]})",
       "invalidPath"},
      {R"({"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
          "Operations":[{"op":"replace","path":"userName.x","value":"x"}]})",
       "invalidPath"},
      {R"({"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
          "Operations":[{"op":"replace","path":"name[type eq \"x\"].a","value":"x"}]})",
       "invalidPath"},
  };
  for (const auto& [body, scim_type] : cases) {
    json::object user = User();
    auto status = Apply(user, body);
    ASSERT_FALSE(status.ok()) << body;
    EXPECT_EQ(status.error().code, scim_type) << body;
    EXPECT_EQ(status.error().kind, ErrorKind::kInvalidArgument) << body;
  }
}

}  // namespace
}  // namespace credence::identity::scim
