#include "identity/scim/user.h"

#include <gtest/gtest.h>

#include "core/json_parse.h"
#include "identity/scim/patch.h"

namespace credence::identity::scim {
namespace {

namespace json = boost::json;

json::value UserParse(std::string_view text) {
  boost::system::error_code ec;
  json::value v = ParseJson(text, ec);
  EXPECT_FALSE(ec) << text;
  return v;
}

// Okta's "Create the User" request body (Okta SCIM 2.0 guide).
constexpr char kOktaCreate[] = R"({
  "schemas": ["urn:ietf:params:scim:schemas:core:2.0:User"],
  "userName": "test.user@okta.local",
  "name": {"givenName": "Test", "familyName": "User"},
  "emails": [{"primary": true, "value": "test.user@okta.local", "type": "work"}],
  "displayName": "Test User",
  "locale": "en-US",
  "externalId": "00ujl29u0le5T6Aj10h7",
  "groups": [],
  "password": "1mz050nq",
  "active": true
})";

// Entra ID's "Create User" request body (Microsoft's SCIM endpoint guide).
constexpr char kEntraCreate[] = R"({
  "schemas": ["urn:ietf:params:scim:schemas:core:2.0:User",
              "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"],
  "externalId": "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef",
  "userName": "Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1",
  "active": true,
  "emails": [{"primary": true, "type": "work", "value": "Test_User_fd0ea19b-0777-472c-9f96-4f70d2226f2e@testuser.com"}],
  "meta": {"resourceType": "User"},
  "name": {"formatted": "givenName familyName", "familyName": "familyName", "givenName": "givenName"},
  "roles": []
})";

TEST(ScimUser, ReadsOktaAndEntraCreateBodies) {
  auto okta = ParseUser(UserParse(kOktaCreate));
  ASSERT_TRUE(okta.ok()) << okta.error().detail;
  EXPECT_EQ(okta->user_name, "test.user@okta.local");
  EXPECT_EQ(okta->external_id, "00ujl29u0le5T6Aj10h7");
  EXPECT_EQ(okta->given_name, "Test");
  EXPECT_EQ(okta->DisplayNameOrDefault(), "Test User");
  EXPECT_EQ(okta->SignInEmail(), "test.user@okta.local");
  EXPECT_TRUE(okta->active);

  auto entra = ParseUser(UserParse(kEntraCreate));
  ASSERT_TRUE(entra.ok()) << entra.error().detail;
  EXPECT_EQ(entra->user_name, "Test_User_ab6490ee-1e48-479e-a20b-2d77186b5dd1");
  EXPECT_EQ(entra->SignInEmail(), "Test_User_fd0ea19b-0777-472c-9f96-4f70d2226f2e@testuser.com");
  EXPECT_EQ(entra->DisplayNameOrDefault(), "givenName familyName");
}

TEST(ScimUser, DefaultsAndFallbacks) {
  auto minimal = ParseUser(UserParse(R"({"userName":"bob"})"));
  ASSERT_TRUE(minimal.ok());
  EXPECT_TRUE(minimal->active);
  EXPECT_EQ(minimal->SignInEmail(), std::nullopt);
  EXPECT_EQ(minimal->DisplayNameOrDefault(), "bob");
  auto by_user_name = ParseUser(UserParse(R"({"userName":"bob@example.com","active":"False"})"));
  ASSERT_TRUE(by_user_name.ok());
  EXPECT_EQ(by_user_name->SignInEmail(), "bob@example.com");
  EXPECT_FALSE(by_user_name->active);
}

TEST(ScimUser, BadBodiesAreInvalidValueNamingTheField) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({})", "userName"},
      {R"({"userName":"  "})", "userName"},
      {R"({"userName":7})", "userName"},
      {R"({"userName":"a","active":"yes"})", "active"},
      {R"({"userName":"a","name":"x"})", "name"},
      {R"({"userName":"a","emails":{}})", "emails"},
      {R"({"userName":"a","emails":[{"value":"not-an-address"}]})", "emails[0].value"},
      {R"({"userName":"a","emails":[{"value":"a@x","primary":true},{"value":"b@x","primary":true}]})", "emails"},
  };
  for (const auto& [body, field] : cases) {
    auto u = ParseUser(UserParse(body));
    ASSERT_FALSE(u.ok()) << body;
    EXPECT_EQ(u.error().code, "invalidValue") << body;
    ASSERT_FALSE(u.error().fields.empty()) << body;
    EXPECT_EQ(u.error().fields.front().field, field) << body;
  }
  auto not_object = ParseUser(UserParse("[]"));
  ASSERT_FALSE(not_object.ok());
  EXPECT_EQ(not_object.error().code, "invalidSyntax");
}

TEST(ScimUser, WrittenRepresentationReadsBackAndTakesEntraPatches) {
  auto user = ParseUser(UserParse(kOktaCreate));
  ASSERT_TRUE(user.ok());
  json::object written = UserToJson(*user, {.id = "0190f2f0-0000-7000-8000-000000000001",
                                            .created = "2026-11-28T20:00:00Z",
                                            .last_modified = "2026-11-28T20:00:00Z",
                                            .location = "https://x/scim/v2/Users/0190f2f0-0000-7000-8000-000000000001",
                                            .version = "W/\"1\""});
  EXPECT_EQ(written.at("id"), json::value("0190f2f0-0000-7000-8000-000000000001"));
  EXPECT_EQ(written.at("meta").at("resourceType"), json::value("User"));
  EXPECT_EQ(written.at("meta").at("version"), json::value("W/\"1\""));
  // PATCH = read the representation, apply, read it back as a PUT body.
  ASSERT_TRUE(ApplyPatch(written, UserParse(R"({"schemas":["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
    "Operations":[{"op":"Replace","path":"emails[type eq \"work\"].value","value":"new@okta.local"},
                  {"op":"Replace","path":"active","value":"False"}]})"))
                  .ok());
  auto patched = ParseUser(written);
  ASSERT_TRUE(patched.ok()) << patched.error().detail;
  EXPECT_EQ(patched->SignInEmail(), "new@okta.local");
  EXPECT_FALSE(patched->active);
  EXPECT_EQ(patched->user_name, user->user_name);
  EXPECT_EQ(patched->external_id, user->external_id);
}

}  // namespace
}  // namespace credence::identity::scim
