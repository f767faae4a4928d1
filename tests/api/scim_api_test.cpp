// SCIM 2.0 provisioning (/scim/v2/, docs/scim.md) over real HTTP, with the
// request sequences Okta's and Microsoft Entra ID's SCIM documentation
// publish: find by userName, create, read, deactivate, group push; Entra's
// capitalised ops, "False" strings and filtered email paths. Also what a
// SCIM key may reach (only /scim/v2/) and what reaches /scim/v2/ (only a
// SCIM key), bad input (always a 4xx SCIM error) and tenant isolation.
// Runs on SQLite and on PostgreSQL (CREDENCE_TEST_BACKEND).
#include <gtest/gtest.h>
#include <boost/json.hpp>

#include <string>

#include "support/api_fixture.h"
#include "support/kb_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

constexpr char kUserSchema[] = "urn:ietf:params:scim:schemas:core:2.0:User";
constexpr char kGroupSchema[] = "urn:ietf:params:scim:schemas:core:2.0:Group";
constexpr char kPatchOp[] = "urn:ietf:params:scim:api:messages:2.0:PatchOp";
constexpr char kErrorSchema[] = "urn:ietf:params:scim:api:messages:2.0:Error";

class ScimApi : public ApiTest {
 protected:
  // A tenant key with the scope scim; answers its secret.
  std::string ScimKey(const TestTenant& t) {
    auto r = api().Post("/apikeys", {{"name", "Okta"}, {"scopes", {"scim"}}}, t.token("admin"));
    EXPECT_EQ(r.status, 201) << r.body;
    return r.status == 201 ? Str(r.Json(), "clientSecret") : "";
  }

  // A SCIM request as the IdPs send it (application/scim+json).
  Response Scim(const std::string& method, const std::string& path, const std::string& key,
                const json::value& body = nullptr, const Headers& extra = {}) {
    Headers headers{{"Content-Type", "application/scim+json"}};
    headers.insert(headers.end(), extra.begin(), extra.end());
    return api().Send(method, "/scim/v2" + path, body.is_null() ? "" : json::serialize(body), key, headers);
  }

  static json::value Patch(json::array operations) {
    return json::object{{"schemas", json::array{kPatchOp}}, {"Operations", std::move(operations)}};
  }

  // Okta's "Create the User" body (its SCIM 2.0 reference).
  static json::value OktaUser(const std::string& email, const std::string& given, const std::string& family) {
    return json::object{
        {"schemas", json::array{kUserSchema}},
        {"userName", email},
        {"name", {{"givenName", given}, {"familyName", family}}},
        {"emails", json::array{{{"primary", true}, {"value", email}, {"type", "work"}}}},
        {"displayName", given + " " + family},
        {"locale", "en-US"},
        {"externalId", "00u" + given},
        {"groups", json::array{}},
        {"password", "1mz050nq"},
        {"active", true},
    };
  }

  std::string CreateUser(const std::string& key, const json::value& body) {
    auto r = Scim("POST", "/Users", key, body);
    EXPECT_EQ(r.status, 201) << r.body;
    return r.status == 201 ? Str(r.Json(), "id") : "";
  }

  // The development token of a user of the tenant (dev mode): refused once
  // the membership is no longer active.
  static std::string DevToken(const TestTenant& t, const std::string& user_id) {
    return "dev-token-" + t.id + ":" + user_id;
  }

  std::string Session(const TestTenant& t, const std::string& persona) {
    auto r = api().Post("/auth/dev-login", json::object{{"persona", persona}, {"tenantId", t.id}, {"session", true}});
    EXPECT_EQ(r.status, 200) << r.body;
    return Str(r.Json(), "token");
  }

  static void ExpectScimError(const Response& r, int status, const std::string& scim_type = "") {
    EXPECT_EQ(r.status, status) << r.body;
    EXPECT_EQ(r.Header("content-type"), "application/scim+json") << r.body;
    const auto body = r.Json();
    EXPECT_EQ(body.at("schemas").at(0), json::value(kErrorSchema)) << r.body;
    EXPECT_EQ(Str(body, "status"), std::to_string(status)) << r.body;
    if (!scim_type.empty()) EXPECT_EQ(Str(body, "scimType"), scim_type) << r.body;
  }

  static int64_t Total(const Response& r) {
    EXPECT_EQ(r.status, 200) << r.body;
    return r.status == 200 ? r.Json().at("totalResults").as_int64() : -1;
  }

  static std::vector<std::string> MemberIds(const Response& r) {
    std::vector<std::string> out;
    const auto body = r.Json();
    for (const auto& m : body.at("members").as_array()) out.push_back(Str(m, "value"));
    return out;
  }

  int HubStatus(const TestTenant& t, const std::string& user_id, const std::string& hub) {
    return api().Get("/api/hubs/" + hub, DevToken(t, user_id)).status;
  }
};

TEST_F(ScimApi, TheScimScopeStandsAloneAndReachesOnlyScim) {
  auto t = CreateTenant(api(), "scim-scope");
  ExpectValidation(api().Post("/apikeys", {{"name", "x"}, {"scopes", {"scim", "trust:read"}}}, t.token("admin")),
                   "scopes");
  auto created = api().Post("/apikeys", {{"name", "Entra"}, {"scopes", {"scim"}}}, t.token("admin"));
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string key = Str(created.Json(), "clientSecret");
  EXPECT_EQ(Strings(created.Json().at("scopes")), std::vector<std::string>{"scim"});

  // The key reaches /scim/v2/ ...
  EXPECT_EQ(Scim("GET", "/Users", key).status, 200);
  // ... and nothing else, not even what any key may call.
  ExpectProblem(api().Get("/api/hubs", key), 401, "invalid_token");
  ExpectProblem(api().Get("/api/trust/whoami", key), 401, "invalid_token");
  ExpectProblem(api().Post("/api/trust/evaluate", {{"sources", json::array{}}}, key), 401, "invalid_token");
  // It obtains no access token either.
  auto token =
      api().Send("POST", "/connect/token",
                 "grant_type=client_credentials&client_id=" + Str(created.Json(), "clientId") + "&client_secret=" + key,
                 "", {{"Content-Type", "application/x-www-form-urlencoded"}});
  EXPECT_EQ(token.status, 401) << token.body;

  // Nothing but a SCIM key reaches /scim/v2/: an admin's session, a
  // development token, another key.
  ExpectScimError(Scim("GET", "/Users", Session(t, "admin")), 401);
  ExpectScimError(Scim("GET", "/Users", t.token("admin")), 401);
  auto trust_key = api().Post("/apikeys", {{"name", "bot"}, {"scopes", {"trust:read"}}}, t.token("admin"));
  ASSERT_EQ(trust_key.status, 201);
  ExpectScimError(Scim("GET", "/Users", Str(trust_key.Json(), "clientSecret")), 401);
  ExpectScimError(Scim("GET", "/Users", ""), 401);

  // A revoked SCIM key stops at once.
  ASSERT_EQ(api().Delete("/apikeys/" + Str(created.Json(), "id"), t.token("admin")).status, 204);
  ExpectScimError(Scim("GET", "/Users", key), 401);
}

TEST_F(ScimApi, DiscoveryDescribesWhatIsSupported) {
  auto t = CreateTenant(api(), "scim-disc");
  const std::string key = ScimKey(t);
  auto config = Scim("GET", "/ServiceProviderConfig", key);
  ASSERT_EQ(config.status, 200) << config.body;
  EXPECT_EQ(config.Header("content-type"), "application/scim+json");
  const auto c = config.Json();
  EXPECT_EQ(c.at("patch").at("supported"), json::value(true));
  EXPECT_EQ(c.at("filter").at("supported"), json::value(true));
  EXPECT_EQ(c.at("filter").at("maxResults"), json::value(200));
  EXPECT_EQ(c.at("etag").at("supported"), json::value(true));
  EXPECT_EQ(c.at("bulk").at("supported"), json::value(false));
  EXPECT_EQ(c.at("sort").at("supported"), json::value(false));
  EXPECT_EQ(c.at("changePassword").at("supported"), json::value(false));
  auto types = Scim("GET", "/ResourceTypes", key);
  ASSERT_EQ(types.status, 200) << types.body;
  EXPECT_EQ(types.Json().at("totalResults"), json::value(2));
  EXPECT_EQ(Str(types.Json().at("Resources").at(0), "endpoint"), "/Users");
  auto schemas = Scim("GET", "/Schemas", key);
  ASSERT_EQ(schemas.status, 200) << schemas.body;
  EXPECT_EQ(Str(schemas.Json().at("Resources").at(1), "id"), kGroupSchema);
}

// Okta: "SCIM 2.0 protocol reference" and its provisioning integration
// guide: GET by userName (none), POST, GET by id, PATCH active false, then
// group push (POST group with members, PATCH members add/remove, rename,
// DELETE).
TEST_F(ScimApi, OktaProvisioningSequence) {
  auto t = CreateTenant(api(), "scim-okta");
  const std::string key = ScimKey(t);
  const std::string email = "jo.smith@" + t.slug + ".example";
  const std::string lookup =
      "/Users?filter=" + PercentEncode("userName eq \"" + email + "\"") + "&startIndex=1&count=100";

  auto none = Scim("GET", lookup, key);
  ASSERT_EQ(none.status, 200) << none.body;
  EXPECT_EQ(none.Json().at("totalResults"), json::value(0));
  EXPECT_TRUE(none.Json().at("Resources").as_array().empty());
  EXPECT_EQ(none.Json().at("schemas").at(0), json::value("urn:ietf:params:scim:api:messages:2.0:ListResponse"));

  auto created = Scim("POST", "/Users", key, OktaUser(email, "Jo", "Smith"));
  ASSERT_EQ(created.status, 201) << created.body;
  const auto user = created.Json();
  const std::string id = Str(user, "id");
  EXPECT_EQ(Str(user, "userName"), email);
  EXPECT_EQ(Str(user, "externalId"), "00uJo");
  EXPECT_EQ(user.at("active"), json::value(true));
  EXPECT_EQ(Str(user.at("meta"), "resourceType"), "User");
  EXPECT_EQ(created.Header("etag"), "W/\"1\"");
  EXPECT_EQ(Str(user.at("meta"), "version"), "W/\"1\"");
  EXPECT_NE(created.Header("location").find("/scim/v2/Users/" + id), std::string::npos);
  EXPECT_EQ(user.as_object().count("password"), 0u);

  // Found by userName now, in any case (userName is not case-exact).
  EXPECT_EQ(
      Total(Scim("GET", "/Users?filter=" + PercentEncode("userName eq \"JO.SMITH@" + t.slug + ".example\""), key)), 1);
  auto got = Scim("GET", "/Users/" + id, key);
  ASSERT_EQ(got.status, 200) << got.body;
  EXPECT_EQ(Str(got.Json(), "displayName"), "Jo Smith");

  // The provisioned user is a member of the tenant.
  auto me = api().Get("/api/users/me", DevToken(t, id));
  ASSERT_EQ(me.status, 200) << me.body;
  EXPECT_EQ(Str(me.Json(), "email"), email);

  // Okta's deactivation: replace with a value object.
  auto deactivated = Scim("PATCH", "/Users/" + id, key, Patch({{{"op", "replace"}, {"value", {{"active", false}}}}}));
  ASSERT_EQ(deactivated.status, 200) << deactivated.body;
  EXPECT_EQ(deactivated.Json().at("active"), json::value(false));
  EXPECT_EQ(deactivated.Header("etag"), "W/\"2\"");
  ExpectProblem(api().Get("/api/users/me", DevToken(t, id)), 401, "invalid_token");
  // Reactivation brings them back.
  auto reactivated = Scim("PATCH", "/Users/" + id, key, Patch({{{"op", "replace"}, {"value", {{"active", true}}}}}));
  ASSERT_EQ(reactivated.status, 200) << reactivated.body;
  EXPECT_EQ(api().Get("/api/users/me", DevToken(t, id)).status, 200);

  // Group push: the group's hub membership follows its members.
  MakeHub(api(), t.token("admin"), "eng");
  const std::string sam = CreateUser(key, OktaUser("sam@" + t.slug + ".example", "Sam", "Lee"));
  auto pushed = Scim("POST", "/Groups", key,
                     json::object{{"schemas", json::array{kGroupSchema}},
                                  {"displayName", "Engineering"},
                                  {"members", json::array{{{"value", id}, {"display", email}}}}});
  ASSERT_EQ(pushed.status, 201) << pushed.body;
  const std::string group = Str(pushed.Json(), "id");
  EXPECT_EQ(MemberIds(pushed), std::vector<std::string>{id});
  EXPECT_EQ(Str(pushed.Json().at("members").at(0), "display"), "Jo Smith");
  // An admin grants the group the hub, as the platform does.
  auto hub = api().Get("/api/hubs/eng", t.token("admin"));
  ASSERT_EQ(hub.status, 200);
  ASSERT_EQ(api()
                .Post("/api/hubs/" + Str(hub.Json(), "id") + "/memberships/groups",
                      {{"groupId", group}, {"role", "Viewer"}}, t.token("admin"))
                .status,
            201);
  EXPECT_EQ(HubStatus(t, id, "eng"), 200);
  EXPECT_EQ(HubStatus(t, sam, "eng"), 404);

  auto added = Scim("PATCH", "/Groups/" + group, key,
                    Patch({{{"op", "add"}, {"path", "members"}, {"value", json::array{{{"value", sam}}}}}}));
  ASSERT_EQ(added.status, 200) << added.body;
  EXPECT_EQ(MemberIds(added), (std::vector<std::string>{id, sam}));
  EXPECT_EQ(HubStatus(t, sam, "eng"), 200);
  auto removed =
      Scim("PATCH", "/Groups/" + group, key, Patch({{{"op", "remove"}, {"path", "members[value eq \"" + id + "\"]"}}}));
  ASSERT_EQ(removed.status, 200) << removed.body;
  EXPECT_EQ(MemberIds(removed), std::vector<std::string>{sam});
  EXPECT_EQ(HubStatus(t, id, "eng"), 404);
  // Removing again is not an error (Okta retries).
  EXPECT_EQ(
      Scim("PATCH", "/Groups/" + group, key, Patch({{{"op", "remove"}, {"path", "members[value eq \"" + id + "\"]"}}}))
          .status,
      200);
  // Okta's rename sends the id beside the new name.
  auto renamed = Scim("PATCH", "/Groups/" + group, key,
                      Patch({{{"op", "replace"}, {"value", {{"id", group}, {"displayName", "Eng"}}}}}));
  ASSERT_EQ(renamed.status, 200) << renamed.body;
  EXPECT_EQ(Str(renamed.Json(), "displayName"), "Eng");
  EXPECT_EQ(Total(Scim("GET", "/Groups?filter=" + PercentEncode("displayName eq \"eng\""), key)), 1);

  // Deleting the group takes its hub membership with it.
  EXPECT_EQ(Scim("DELETE", "/Groups/" + group, key).status, 204);
  ExpectScimError(Scim("GET", "/Groups/" + group, key), 404);
  EXPECT_EQ(HubStatus(t, sam, "eng"), 404);

  // Deprovisioning.
  EXPECT_EQ(Scim("DELETE", "/Users/" + id, key).status, 204);
  ExpectScimError(Scim("GET", "/Users/" + id, key), 404);
  ExpectProblem(api().Get("/api/users/me", DevToken(t, id)), 401, "invalid_token");
  EXPECT_EQ(Total(Scim("GET", lookup, key)), 0);
}

TEST_F(ScimApi, DeactivatingALinkedMemberEndsTheirSessionAtOnce) {
  auto t = CreateTenant(api(), "scim-sess");
  const std::string key = ScimKey(t);
  const std::string session = Session(t, "editor");
  ASSERT_EQ(api().Get("/api/users/me", session).status, 200);
  // The IdP provisions someone who is a member already: they are linked,
  // not duplicated.
  const std::string email = "editor@" + t.slug + ".example";
  const std::string id = CreateUser(key, OktaUser(email, "Eddie", "Editor"));
  EXPECT_EQ(id, t.user_ids.at("editor"));
  ASSERT_EQ(api().Get("/api/users/me", session).status, 200);
  // The second time the person is provisioned is a conflict.
  auto again = OktaUser(email, "Eddie", "Editor");
  again.as_object()["userName"] = "eddie";
  ExpectScimError(Scim("POST", "/Users", key, again), 409, "uniqueness");

  auto off = Scim("PATCH", "/Users/" + id, key, Patch({{{"op", "Replace"}, {"path", "active"}, {"value", "False"}}}));
  ASSERT_EQ(off.status, 200) << off.body;
  ExpectProblem(api().Get("/api/users/me", session), 401, "invalid_token");
}

// Microsoft Entra ID: "Tutorial: Develop and plan provisioning for a SCIM
// endpoint" request examples: create, get by externalId / userName,
// PATCH with capitalised ops, "False" strings and emails[type eq "work"];
// groups with Add/Remove of value arrays.
TEST_F(ScimApi, EntraProvisioningSequence) {
  auto t = CreateTenant(api(), "scim-entra");
  const std::string key = ScimKey(t);
  const std::string upn = "ana@" + t.slug + ".example";
  auto created =
      Scim("POST", "/Users", key,
           json::object{
               {"schemas", json::array{kUserSchema, "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"}},
               {"externalId", "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"},
               {"userName", upn},
               {"active", true},
               {"displayName", "Ana Ruiz"},
               {"emails", json::array{{{"primary", true}, {"type", "work"}, {"value", upn}}}},
               {"meta", {{"resourceType", "User"}}},
               {"name", {{"formatted", "Ana Ruiz"}, {"familyName", "Ruiz"}, {"givenName", "Ana"}}},
               {"roles", json::array{}},
           });
  ASSERT_EQ(created.status, 201) << created.body;
  const std::string id = Str(created.Json(), "id");
  EXPECT_EQ(
      Total(
          Scim("GET", "/Users?filter=" + PercentEncode("externalId eq \"0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef\""), key)),
      1);
  // externalId is case-exact.
  EXPECT_EQ(
      Total(
          Scim("GET", "/Users?filter=" + PercentEncode("externalId eq \"0A21F0F2-8D2A-4F8E-BF98-7363C4AED4EF\""), key)),
      0);
  EXPECT_EQ(Total(Scim("GET", "/Users?filter=" + PercentEncode("displayName eq \"Ana Ruiz\""), key)), 1);

  auto changed = Scim("PATCH", "/Users/" + id, key,
                      Patch({{{"op", "Replace"}, {"path", "displayName"}, {"value", "Ana Ruiz Soto"}},
                             {{"op", "Replace"},
                              {"path", "emails[type eq \"work\"].value"},
                              {"value", "ana.ruiz@" + t.slug + ".example"}},
                             {{"op", "Add"}, {"path", "emails[type eq \"home\"].value"}, {"value", "ana@home.example"}},
                             {{"op", "Add"}, {"value", {{"name.givenName", "Anita"}}}}}));
  ASSERT_EQ(changed.status, 200) << changed.body;
  const auto u = changed.Json();
  EXPECT_EQ(Str(u, "displayName"), "Ana Ruiz Soto");
  EXPECT_EQ(Str(u.at("emails").at(0), "value"), "ana.ruiz@" + t.slug + ".example");
  EXPECT_EQ(Str(u.at("emails").at(1), "type"), "home");
  EXPECT_EQ(Str(u.at("name"), "givenName"), "Anita");
  EXPECT_EQ(Str(u.at("name"), "familyName"), "Ruiz");

  // Groups: Entra adds and removes members with value arrays.
  const std::string bo = CreateUser(
      key,
      json::object{{"schemas", json::array{kUserSchema}}, {"userName", "bo@" + t.slug + ".example"}, {"active", true}});
  auto group = Scim("POST", "/Groups", key,
                    json::object{{"schemas", json::array{kGroupSchema}},
                                 {"externalId", "8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159"},
                                 {"displayName", "Sales"},
                                 {"meta", {{"resourceType", "Group"}}}});
  ASSERT_EQ(group.status, 201) << group.body;
  const std::string gid = Str(group.Json(), "id");
  EXPECT_EQ(Str(group.Json(), "externalId"), "8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159");
  EXPECT_EQ(Total(Scim("GET", "/Groups?filter=" + PercentEncode("displayName eq \"Sales\""), key)), 1);
  EXPECT_EQ(
      Total(Scim("GET", "/Groups?filter=" + PercentEncode("externalId eq \"8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159\""),
                 key)),
      1);
  auto both =
      Scim("PATCH", "/Groups/" + gid, key,
           Patch({{{"op", "Add"}, {"path", "members"}, {"value", json::array{{{"value", id}}, {{"value", bo}}}}}}));
  ASSERT_EQ(both.status, 200) << both.body;
  EXPECT_EQ(MemberIds(both), (std::vector<std::string>{id, bo}));
  auto one = Scim("PATCH", "/Groups/" + gid, key,
                  Patch({{{"op", "Remove"}, {"path", "members"}, {"value", json::array{{{"value", id}}}}}}));
  ASSERT_EQ(one.status, 200) << one.body;
  EXPECT_EQ(MemberIds(one), std::vector<std::string>{bo});
  auto listed = Scim("GET", "/Groups?excludedAttributes=members", key);
  ASSERT_EQ(listed.status, 200) << listed.body;
  EXPECT_FALSE(listed.Json().at("Resources").at(0).as_object().contains("members"));

  // Entra's deactivation: a capitalised op and a string boolean.
  auto off = Scim("PATCH", "/Users/" + id, key, Patch({{{"op", "Replace"}, {"path", "active"}, {"value", "False"}}}));
  ASSERT_EQ(off.status, 200) << off.body;
  EXPECT_EQ(off.Json().at("active"), json::value(false));
  ExpectProblem(api().Get("/api/users/me", DevToken(t, id)), 401, "invalid_token");
  EXPECT_EQ(Total(Scim("GET", "/Users?filter=" + PercentEncode("active eq false"), key)), 1);

  // PUT replaces the whole user; an If-Match that no longer holds is 412.
  auto put = Scim("PUT", "/Users/" + bo, key,
                  json::object{{"schemas", json::array{kUserSchema}},
                               {"userName", "bo@" + t.slug + ".example"},
                               {"displayName", "Bo"},
                               {"active", true}},
                  {{"If-Match", "W/\"1\""}});
  ASSERT_EQ(put.status, 200) << put.body;
  EXPECT_EQ(Str(put.Json(), "displayName"), "Bo");
  ExpectScimError(Scim("PUT", "/Users/" + bo, key, put.Json(), {{"If-Match", "W/\"1\""}}), 412);
}

TEST_F(ScimApi, BadInputIsAScimErrorNeverAServerError) {
  auto t = CreateTenant(api(), "scim-bad");
  const std::string key = ScimKey(t);
  const std::string id = CreateUser(key, OktaUser("kim@" + t.slug + ".example", "Kim", "Park"));

  auto malformed =
      api().Send("POST", "/scim/v2/Users", "{\"userName\":", key, {{"Content-Type", "application/scim+json"}});
  ExpectScimError(malformed, 400, "invalidSyntax");
  ExpectScimError(Scim("POST", "/Users", key, json::array{1, 2}), 400, "invalidSyntax");
  ExpectScimError(Scim("POST", "/Users", key, json::object{{"schemas", json::array{kUserSchema}}}), 400,
                  "invalidValue");
  ExpectScimError(Scim("POST", "/Users", key, json::object{{"userName", "no-email"}}), 400, "invalidValue");
  ExpectScimError(Scim("POST", "/Users", key, OktaUser("kim@" + t.slug + ".example", "Kim", "Park")), 409,
                  "uniqueness");
  for (const char* filter : {"userName eq \"a\" and active eq true", "userName", "(userName eq \"a\")",
                             "userName zz \"a\"", "userName eq \"unterminated", "not (active eq true)"}) {
    ExpectScimError(Scim("GET", "/Users?filter=" + PercentEncode(filter), key), 400, "invalidFilter");
    ExpectScimError(Scim("GET", "/Groups?filter=" + PercentEncode(filter), key), 400, "invalidFilter");
  }
  ExpectScimError(Scim("GET", "/Users?startIndex=abc", key), 400);
  ExpectScimError(Scim("GET", "/Users?count=1e3", key), 400);
  // Out-of-range paging is clamped, as RFC 7644 says.
  auto clamped = Scim("GET", "/Users?startIndex=-5&count=-1", key);
  ASSERT_EQ(clamped.status, 200) << clamped.body;
  EXPECT_EQ(clamped.Json().at("startIndex"), json::value(1));
  EXPECT_EQ(clamped.Json().at("itemsPerPage"), json::value(0));
  EXPECT_EQ(clamped.Json().at("totalResults"), json::value(1));

  ExpectScimError(Scim("PATCH", "/Users/" + id, key, json::object{{"Operations", json::array{}}}), 400,
                  "invalidSyntax");
  ExpectScimError(Scim("PATCH", "/Users/" + id, key, Patch({{{"op", "frobnicate"}, {"path", "active"}}})), 400,
                  "invalidSyntax");
  ExpectScimError(
      Scim("PATCH", "/Users/" + id, key, Patch({{{"op", "replace"}, {"path", "active"}, {"value", "maybe"}}})), 400,
      "invalidValue");
  ExpectScimError(Scim("PATCH", "/Users/" + id, key, Patch({{{"op", "replace"}, {"path", "emails[[x"}, {"value", 1}}})),
                  400, "invalidPath");
  ExpectScimError(Scim("PATCH", "/Users/" + id, key, Patch({{{"op", "remove"}, {"path", "emails[type eq \"home\"]"}}})),
                  400, "noTarget");
  ExpectScimError(
      Scim("PATCH", std::string("/Users/") + kUnknownId, key, Patch({{{"op", "replace"}, {"value", {{"active", false}}}}})), 404);
  ExpectScimError(Scim("GET", "/Users/not-an-id", key), 404);
  ExpectScimError(Scim("POST", "/Groups", key, json::object{{"displayName", "  "}}), 400, "invalidValue");
  ExpectScimError(Scim("POST", "/Groups", key,
                       json::object{{"displayName", "G"}, {"members", json::array{{{"value", kUnknownId}}}}}),
                  400, "invalidValue");
  ExpectScimError(Scim("POST", "/Groups", key, json::object{{"displayName", "G"}, {"members", "nobody"}}), 400,
                  "invalidValue");
  ASSERT_EQ(Scim("POST", "/Groups", key, json::object{{"displayName", "Ops"}}).status, 201);
  ExpectScimError(Scim("POST", "/Groups", key, json::object{{"displayName", "OPS"}}), 409, "uniqueness");
}

TEST_F(ScimApi, ATenantsKeySeesAndChangesOnlyItsOwnUsersAndGroups) {
  auto a = CreateTenant(api(), "scim-a");
  auto b = CreateTenant(api(), "scim-b");
  const std::string key_a = ScimKey(a), key_b = ScimKey(b);
  const std::string user = CreateUser(key_a, OktaUser("lee@" + a.slug + ".example", "Lee", "Ng"));
  auto group = Scim("POST", "/Groups", key_a,
                    json::object{{"displayName", "Finance"}, {"members", json::array{{{"value", user}}}}});
  ASSERT_EQ(group.status, 201) << group.body;
  const std::string gid = Str(group.Json(), "id");

  EXPECT_EQ(Total(Scim("GET", "/Users", key_b)), 0);
  EXPECT_EQ(Total(Scim("GET", "/Users?filter=" + PercentEncode("userName eq \"lee@" + a.slug + ".example\""), key_b)),
            0);
  EXPECT_EQ(Total(Scim("GET", "/Groups?filter=" + PercentEncode("displayName eq \"Finance\""), key_b)), 0);
  ExpectScimError(Scim("GET", "/Users/" + user, key_b), 404);
  ExpectScimError(Scim("PATCH", "/Users/" + user, key_b, Patch({{{"op", "replace"}, {"value", {{"active", false}}}}})),
                  404);
  ExpectScimError(Scim("PUT", "/Users/" + user, key_b, json::object{{"userName", "lee@" + a.slug + ".example"}}), 404);
  ExpectScimError(Scim("DELETE", "/Users/" + user, key_b), 404);
  ExpectScimError(Scim("GET", "/Groups/" + gid, key_b), 404);
  ExpectScimError(
      Scim("PATCH", "/Groups/" + gid, key_b, Patch({{{"op", "add"}, {"path", "members"}, {"value", json::array{}}}})),
      404);
  ExpectScimError(Scim("DELETE", "/Groups/" + gid, key_b), 404);
  // Tenant A's user cannot be put in a group of tenant B.
  ExpectScimError(Scim("POST", "/Groups", key_b,
                       json::object{{"displayName", "Finance"}, {"members", json::array{{{"value", user}}}}}),
                  400, "invalidValue");
  // The same person provisioned by B is B's member, and A's state is untouched.
  const std::string in_b = CreateUser(key_b, OktaUser("lee@" + a.slug + ".example", "Lee", "Ng"));
  EXPECT_EQ(in_b, user);
  ASSERT_EQ(Scim("DELETE", "/Users/" + in_b, key_b).status, 204);
  auto still = Scim("GET", "/Users/" + user, key_a);
  ASSERT_EQ(still.status, 200) << still.body;
  EXPECT_EQ(still.Json().at("active"), json::value(true));
  EXPECT_EQ(api().Get("/api/users/me", DevToken(a, user)).status, 200);
  EXPECT_EQ(MemberIds(Scim("GET", "/Groups/" + gid, key_a)), std::vector<std::string>{user});
}

}  // namespace
}  // namespace credence::test
