// Groups, group members and invitations over real HTTP, on both path forms
// (/api/groups and /groups, decisions.md 9): creation and name uniqueness,
// who may do what, member counts, isolation between tenants, bad input.
// Runs on SQLite and on PostgreSQL (CREDENCE_TEST_BACKEND).
#include <boost/json/serialize.hpp>

#include <cctype>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "support/api_fixture.h"
#include "support/kb_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

std::string PersonaEmail(const TestTenant& t, const std::string& persona) {
  return persona + "@" + t.slug + ".example";
}

class Groups : public ApiTest {
 protected:
  // Creates a group as the tenant's admin and returns its id.
  std::string MakeGroup(const TestTenant& t, const std::string& name) {
    auto r = api().Post("/api/groups", {{"name", name}}, t.token("admin"));
    EXPECT_EQ(r.status, 201) << r.body;
    return Str(r.Json(), "id");
  }

  void AddMember(const TestTenant& t, const std::string& group, const std::string& persona) {
    auto r = api().Post("/api/groups/" + group + "/members", {{"userId", t.user_ids.at(persona)}}, t.token("admin"));
    EXPECT_EQ(r.status, 201) << r.body;
    EXPECT_EQ(Str(r.Json(), "userId"), t.user_ids.at(persona));
  }

  // The ids of the members of `group`, in the order served.
  std::vector<std::string> MemberIds(const TestTenant& t, const std::string& group) {
    auto r = api().Get("/api/groups/" + group + "/members", t.token("viewer"));
    EXPECT_EQ(r.status, 200) << r.body;
    std::vector<std::string> ids;
    const auto body = r.Json();
    for (const auto& m : body.as_array()) ids.push_back(Str(m, "id"));
    return ids;
  }

  // name -> memberCount, as listed to `persona`.
  std::map<std::string, int64_t> Counts(const TestTenant& t, const std::string& persona = "viewer") {
    auto r = api().Get("/groups", t.token(persona));
    EXPECT_EQ(r.status, 200) << r.body;
    std::map<std::string, int64_t> out;
    const auto body = r.Json();
    for (const auto& g : body.as_array()) out[Str(g, "name")] = g.at("memberCount").as_int64();
    return out;
  }
};

TEST_F(Groups, CreateAnswers201WithNoMembersOnBothPaths) {
  auto t = CreateTenant(api(), "grp");
  auto api_form =
      api().Post("/api/groups", {{"name", "Engineering"}, {"description", "People who build"}}, t.token("admin"));
  ASSERT_EQ(api_form.status, 201) << api_form.body;
  auto g = api_form.Json();
  EXPECT_EQ(Str(g, "id").size(), 36u);
  EXPECT_EQ(Str(g, "name"), "Engineering");
  EXPECT_EQ(Str(g, "description"), "People who build");
  EXPECT_EQ(g.at("memberCount").as_int64(), 0);
  EXPECT_EQ(Str(g, "createdAt").back(), 'Z');

  auto platform_form = api().Post("/groups", {{"name", "  Support  "}, {"description", nullptr}}, t.token("admin"));
  ASSERT_EQ(platform_form.status, 201) << platform_form.body;
  auto s = platform_form.Json();
  EXPECT_EQ(Str(s, "name"), "Support");  // surrounding blanks are trimmed
  EXPECT_TRUE(s.at("description").is_null());
  EXPECT_EQ(s.at("memberCount").as_int64(), 0);
  EXPECT_NE(Str(s, "id"), Str(g, "id"));

  // Both forms list the same groups, ordered by name ignoring case.
  MakeGroup(t, "analytics");
  for (const char* path : {"/api/groups", "/groups"}) {
    auto list = api().Get(path, t.token("guest"));
    ASSERT_EQ(list.status, 200) << list.body;
    const auto groups = list.Json();
    ASSERT_EQ(groups.as_array().size(), 3u) << path;
    EXPECT_EQ(Str(groups.as_array()[0], "name"), "analytics");
    EXPECT_EQ(Str(groups.as_array()[1], "name"), "Engineering");
    EXPECT_EQ(Str(groups.as_array()[1], "id"), Str(g, "id"));
    EXPECT_EQ(Str(groups.as_array()[1], "description"), "People who build");
    EXPECT_EQ(Str(groups.as_array()[1], "createdAt"), Str(g, "createdAt"));
    EXPECT_EQ(Str(groups.as_array()[2], "name"), "Support");
    for (const auto& item : groups.as_array()) EXPECT_EQ(item.at("memberCount").as_int64(), 0);
  }
}

TEST_F(Groups, NamesAreUniquePerTenantIgnoringCase) {
  auto a = CreateTenant(api(), "grp-uniq-a");
  auto b = CreateTenant(api(), "grp-uniq-b");
  MakeGroup(a, "Design");
  ExpectProblem(api().Post("/api/groups", {{"name", "Design"}}, a.token("admin")), 409, "group_name_taken");
  ExpectProblem(api().Post("/groups", {{"name", "design"}}, a.token("admin")), 409, "group_name_taken");
  ExpectProblem(api().Post("/api/groups", {{"name", " DESIGN "}}, a.token("admin")), 409, "group_name_taken");
  EXPECT_EQ(Counts(a).size(), 1u);
  // Another tenant may use the name.
  auto other = api().Post("/api/groups", {{"name", "Design"}}, b.token("admin"));
  ASSERT_EQ(other.status, 201) << other.body;
  EXPECT_EQ(Str(other.Json(), "name"), "Design");
}

TEST_F(Groups, OnlyGlobalAdminsMayChangeGroupsOrInvite) {
  auto t = CreateTenant(api(), "grp-403");
  const std::string group = MakeGroup(t, "Admins only");
  AddMember(t, group, "viewer");
  for (const char* persona : {"editor", "viewer", "guest"}) {
    SCOPED_TRACE(persona);
    const std::string& token = t.token(persona);
    for (const std::string prefix : {"/api/groups", "/groups"}) {
      ExpectProblem(api().Post(prefix, {{"name", std::string("By ") + persona}}, token), 403, "forbidden");
      ExpectProblem(api().Post(prefix + "/" + group + "/members", {{"userId", t.user_ids.at("editor")}}, token), 403,
                    "forbidden");
      ExpectProblem(api().Delete(prefix + "/" + group + "/members/" + t.user_ids.at("viewer"), token), 403,
                    "forbidden");
    }
    for (const char* path : {"/api/users/invite", "/users/invite"})
      ExpectProblem(api().Post(path, {{"email", "someone@example.com"}}, token), 403, "forbidden");
    for (const char* path : {"/api/users/invitations", "/users/invitations"})
      ExpectProblem(api().Get(path, token), 403, "forbidden");
  }
  // The 403 comes before the body is looked at.
  ExpectProblem(api().Send("POST", "/api/groups", "{not json", t.token("editor")), 403, "forbidden");
  // Nothing changed.
  EXPECT_EQ(Counts(t), (std::map<std::string, int64_t>{{"Admins only", 1}}));
  EXPECT_EQ(MemberIds(t, group), std::vector<std::string>{t.user_ids.at("viewer")});
  auto invitations = api().Get("/api/users/invitations", t.token("admin"));
  ASSERT_EQ(invitations.status, 200);
  EXPECT_TRUE(invitations.Json().as_array().empty());
}

TEST_F(Groups, AnySignedInUserMayReadGroupsAndMembers) {
  auto t = CreateTenant(api(), "grp-read");
  const std::string group = MakeGroup(t, "Readers");
  AddMember(t, group, "editor");
  for (const char* persona : {"admin", "editor", "viewer", "guest"}) {
    SCOPED_TRACE(persona);
    EXPECT_EQ(Counts(t, persona), (std::map<std::string, int64_t>{{"Readers", 1}}));
    auto members = api().Get("/groups/" + group + "/members", t.token(persona));
    ASSERT_EQ(members.status, 200) << members.body;
    ASSERT_EQ(members.Json().as_array().size(), 1u);
    EXPECT_EQ(Str(members.Json().as_array()[0], "id"), t.user_ids.at("editor"));
  }
  ExpectProblem(api().Get("/api/groups"), 401, "missing_credentials");
  ExpectProblem(api().Get("/groups/" + group + "/members"), 401, "missing_credentials");
}

TEST_F(Groups, ListCountsMembersAfterAdds) {
  auto t = CreateTenant(api(), "grp-count");
  const std::string everyone = MakeGroup(t, "Everyone");
  const std::string pair = MakeGroup(t, "Pair");
  MakeGroup(t, "Empty");
  for (const char* persona : {"admin", "editor", "viewer", "guest"}) AddMember(t, everyone, persona);
  AddMember(t, pair, "editor");
  AddMember(t, pair, "viewer");
  EXPECT_EQ(Counts(t), (std::map<std::string, int64_t>{{"Everyone", 4}, {"Pair", 2}, {"Empty", 0}}));
  auto list = api().Get("/api/groups", t.token("viewer"));
  ASSERT_EQ(list.status, 200);
  std::vector<std::string> names;
  const auto groups = list.Json();
  for (const auto& g : groups.as_array()) names.push_back(Str(g, "name"));
  EXPECT_EQ(names, (std::vector<std::string>{"Empty", "Everyone", "Pair"}));
}

TEST_F(Groups, AddAndRemoveMembers) {
  auto t = CreateTenant(api(), "grp-members");
  const std::string group = MakeGroup(t, "Editors");

  auto added = api().Post("/api/groups/" + group + "/members", {{"userId", t.user_ids.at("editor")}}, t.token("admin"));
  ASSERT_EQ(added.status, 201) << added.body;
  auto m = added.Json();
  EXPECT_EQ(Str(m, "groupId"), group);
  EXPECT_EQ(Str(m, "userId"), t.user_ids.at("editor"));
  EXPECT_EQ(Str(m, "email"), PersonaEmail(t, "editor"));
  EXPECT_EQ(Str(m, "displayName"), "Eddie Editor");
  EXPECT_EQ(Str(m, "tenantRole"), "Member");
  EXPECT_EQ(Str(m, "addedAt").back(), 'Z');

  // Adding again is idempotent: 200 with the existing membership.
  auto again =
      api().Post("/groups/" + group + "/members", {{"targetUserId", t.user_ids.at("editor")}}, t.token("admin"));
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(Str(again.Json(), "userId"), t.user_ids.at("editor"));
  EXPECT_EQ(Str(again.Json(), "addedAt"), Str(m, "addedAt"));

  // targetUserId is an alias of userId; ids are accepted in any case.
  std::string upper = t.user_ids.at("guest");
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  auto guest = api().Post("/groups/" + group + "/members", {{"targetUserId", upper}}, t.token("admin"));
  ASSERT_EQ(guest.status, 201) << guest.body;
  EXPECT_EQ(Str(guest.Json(), "userId"), t.user_ids.at("guest"));
  EXPECT_EQ(Str(guest.Json(), "tenantRole"), "Guest");
  auto both =
      api().Post("/api/groups/" + group + "/members",
                 {{"userId", t.user_ids.at("viewer")}, {"targetUserId", t.user_ids.at("viewer")}}, t.token("admin"));
  ASSERT_EQ(both.status, 201) << both.body;
  EXPECT_EQ(Str(both.Json(), "userId"), t.user_ids.at("viewer"));

  // Members, by display name, on both paths.
  for (const std::string prefix : {"/api/groups/", "/groups/"}) {
    auto members = api().Get(prefix + group + "/members", t.token("guest"));
    ASSERT_EQ(members.status, 200) << members.body;
    const auto list = members.Json();
    ASSERT_EQ(list.as_array().size(), 3u);
    EXPECT_EQ(Str(list.as_array()[0], "displayName"), "Eddie Editor");
    EXPECT_EQ(Str(list.as_array()[1], "displayName"), "Gus Guest");
    EXPECT_EQ(Str(list.as_array()[2], "displayName"), "Vera Viewer");
    const auto& first = list.as_array()[0];
    EXPECT_EQ(Str(first, "id"), t.user_ids.at("editor"));
    EXPECT_EQ(Str(first, "email"), PersonaEmail(t, "editor"));
    EXPECT_EQ(Str(first, "tenantRole"), "Member");
    EXPECT_EQ(Str(first, "addedAt"), Str(m, "addedAt"));
  }
  EXPECT_EQ(Counts(t).at("Editors"), 3);

  auto removed = api().Delete("/api/groups/" + group + "/members/" + t.user_ids.at("editor"), t.token("admin"));
  EXPECT_EQ(removed.status, 204);
  EXPECT_TRUE(removed.body.empty());
  EXPECT_EQ(api().Delete("/groups/" + group + "/members/" + t.user_ids.at("guest"), t.token("admin")).status, 204);
  EXPECT_EQ(MemberIds(t, group), std::vector<std::string>{t.user_ids.at("viewer")});
  EXPECT_EQ(Counts(t).at("Editors"), 1);
  // Not (or no longer) a member: 404.
  ExpectProblem(api().Delete("/groups/" + group + "/members/" + t.user_ids.at("editor"), t.token("admin")), 404,
                "not_found");
  ExpectProblem(api().Delete("/api/groups/" + group + "/members/" + t.user_ids.at("admin"), t.token("admin")), 404,
                "not_found");
  // Removed members can be added back.
  AddMember(t, group, "editor");
  EXPECT_EQ(Counts(t).at("Editors"), 2);
}

TEST_F(Groups, RenameAndDeleteAGroupWithWhatItWasGranted) {
  auto t = CreateTenant(api(), "grp-edit");
  const std::string admin = t.token("admin");
  const std::string group = MakeGroup(t, "Support");
  MakeGroup(t, "Sales");
  AddMember(t, group, "guest");

  auto renamed =
      api().Put("/api/groups/" + group, {{"name", "  Customer care "}, {"description", "Front line"}}, admin);
  ASSERT_EQ(renamed.status, 200) << renamed.body;
  EXPECT_EQ(Str(renamed.Json(), "name"), "Customer care");
  EXPECT_EQ(renamed.Json().at("memberCount").as_int64(), 1);
  ExpectProblem(api().Put("/groups/" + group, {{"name", "SALES"}}, admin), 409, "group_name_taken");
  EXPECT_EQ(api().Put("/groups/" + group, {{"name", "customer CARE"}}, admin).status, 200);  // its own name
  ExpectValidation(api().Put("/api/groups/" + group, {{"name", "   "}}, admin), "name");
  ExpectProblem(api().Put("/api/groups/" + group, {{"name", "X"}}, t.token("editor")), 403, "forbidden");
  ExpectProblem(api().Put(std::string("/api/groups/") + kUnknownId, {{"name", "X"}}, admin), 404, "not_found");

  // The group is a hub's member: its people see the hub until it is deleted.
  const auto hub = MakeHub(api(), admin, "support-hub", "");
  auto granted = api().Post("/api/hubs/" + Str(hub, "id") + "/memberships/groups",
                            {{"groupId", group}, {"role", "Viewer"}}, admin);
  ASSERT_EQ(granted.status, 201) << granted.body;
  EXPECT_EQ(api().Get("/api/hubs/support-hub", t.token("guest")).status, 200);

  ExpectProblem(api().Delete("/api/groups/" + group, t.token("editor")), 403, "forbidden");
  auto other = CreateTenant(api(), "grp-edit-other");
  ExpectProblem(api().Delete("/api/groups/" + group, other.token("admin")), 404, "not_found");
  ASSERT_EQ(api().Delete("/groups/" + group, admin).status, 204);
  EXPECT_EQ(api().Get("/api/hubs/support-hub", t.token("guest")).status, 404);
  auto memberships = api().Get("/api/hubs/" + Str(hub, "id") + "/memberships", admin);
  ASSERT_EQ(memberships.status, 200) << memberships.body;
  EXPECT_EQ(memberships.body.find(group), std::string::npos) << memberships.body;
  EXPECT_EQ(Counts(t).count("Customer care"), 0u);
  ExpectProblem(api().Delete("/api/groups/" + group, admin), 404, "not_found");
}

TEST_F(Groups, OnlyActiveMembersOfTheTenantCanBeAdded) {
  auto a = CreateTenant(api(), "grp-users-a");
  auto b = CreateTenant(api(), "grp-users-b");
  const std::string group = MakeGroup(a, "Mixed");
  AddMember(a, group, "viewer");
  // Another tenant's user, and an id nobody has: 404.
  ExpectProblem(
      api().Post("/api/groups/" + group + "/members", {{"userId", b.user_ids.at("viewer")}}, a.token("admin")), 404,
      "not_found");
  ExpectProblem(api().Post("/groups/" + group + "/members", {{"targetUserId", kUnknownId}}, a.token("admin")), 404,
                "not_found");
  // A user removed from the tenant leaves the member list and the count, and
  // cannot be added again.
  ASSERT_EQ(api().Delete("/api/users/" + a.user_ids.at("viewer"), a.token("admin")).status, 204);
  auto members = api().Get("/api/groups/" + group + "/members", a.token("editor"));
  ASSERT_EQ(members.status, 200) << members.body;
  EXPECT_TRUE(members.Json().as_array().empty()) << members.body;
  EXPECT_EQ(Counts(a, "editor").at("Mixed"), 0);
  ExpectProblem(
      api().Post("/api/groups/" + group + "/members", {{"userId", a.user_ids.at("viewer")}}, a.token("admin")), 404,
      "not_found");
  EXPECT_EQ(Counts(a, "editor").at("Mixed"), 0);
}

TEST_F(Groups, AnotherTenantsGroupIsNotFoundEverywhere) {
  auto a = CreateTenant(api(), "grp-iso-a");
  auto b = CreateTenant(api(), "grp-iso-b");
  const std::string theirs = MakeGroup(b, "Secret");
  AddMember(b, theirs, "editor");
  for (const std::string prefix : {"/api/groups/", "/groups/"}) {
    SCOPED_TRACE(prefix);
    ExpectProblem(api().Get(prefix + theirs + "/members", a.token("admin")), 404, "not_found");
    ExpectProblem(api().Get(prefix + theirs + "/members", a.token("guest")), 404, "not_found");
    ExpectProblem(api().Post(prefix + theirs + "/members", {{"userId", a.user_ids.at("viewer")}}, a.token("admin")),
                  404, "not_found");
    ExpectProblem(api().Post(prefix + theirs + "/members", {{"userId", b.user_ids.at("viewer")}}, a.token("admin")),
                  404, "not_found");
    ExpectProblem(api().Delete(prefix + theirs + "/members/" + b.user_ids.at("editor"), a.token("admin")), 404,
                  "not_found");
    // An id nobody has is answered the same way.
    ExpectProblem(api().Get(prefix + kUnknownId + "/members", a.token("admin")), 404, "not_found");
    ExpectProblem(api().Post(prefix + kUnknownId + "/members", {{"userId", a.user_ids.at("viewer")}}, a.token("admin")),
                  404, "not_found");
    ExpectProblem(api().Delete(prefix + kUnknownId + "/members/" + a.user_ids.at("viewer"), a.token("admin")), 404,
                  "not_found");
  }
  // Tenant A sees none of B's groups; B's group is untouched.
  auto list = api().Get("/api/groups", a.token("admin"));
  ASSERT_EQ(list.status, 200);
  EXPECT_TRUE(list.Json().as_array().empty()) << list.body;
  EXPECT_EQ(MemberIds(b, theirs), std::vector<std::string>{b.user_ids.at("editor")});
  EXPECT_EQ(Counts(b).at("Secret"), 1);
}

TEST_F(Groups, BadInputIsRejected) {
  auto t = CreateTenant(api(), "grp-bad");
  const std::string& admin = t.token("admin");
  const std::string group = MakeGroup(t, "Valid");

  // Creating.
  for (const char* path : {"/api/groups", "/groups"}) {
    SCOPED_TRACE(path);
    ExpectValidation(api().Post(path, json::object{}, admin), "name");
    ExpectValidation(api().Post(path, {{"description", "no name"}}, admin), "name");
    ExpectValidation(api().Post(path, {{"name", 42}}, admin), "name");
    ExpectValidation(api().Post(path, {{"name", nullptr}}, admin), "name");
    ExpectValidation(api().Post(path, {{"name", ""}}, admin), "name");
    ExpectValidation(api().Post(path, {{"name", "   "}}, admin), "name");
    ExpectValidation(api().Post(path, {{"name", std::string(201, 'n')}}, admin), "name");
    ExpectValidation(api().Post(path, {{"name", "Described"}, {"description", 7}}, admin), "description");
    ExpectValidation(api().Post(path, {{"name", "Described"}, {"description", std::string(2001, 'd')}}, admin),
                     "description");
    ExpectProblem(api().Send("POST", path, "{\"name\": \"Broken\"", admin), 400, "malformed_json");
    ExpectProblem(api().Send("POST", path, "", admin), 400, "malformed_json");
    ExpectProblem(api().Send("POST", path, "[\"Valid\"]", admin), 400, "validation_failed");
  }
  // 200 characters is the limit, counted in characters, not bytes.
  auto longest = api().Post("/api/groups", {{"name", std::string(200, 'x')}}, admin);
  ASSERT_EQ(longest.status, 201) << longest.body;
  EXPECT_EQ(Str(longest.Json(), "name").size(), 200u);
  std::string accented;
  for (int i = 0; i < 200; ++i) accented += "\xC3\xA9";  // é
  auto unicode = api().Post("/groups", {{"name", accented}}, admin);
  ASSERT_EQ(unicode.status, 201) << unicode.body;
  EXPECT_EQ(Str(unicode.Json(), "name"), accented);
  EXPECT_EQ(Counts(t).size(), 3u);  // none of the rejected bodies created a group

  // Adding members.
  for (const std::string prefix : {"/api/groups/", "/groups/"}) {
    SCOPED_TRACE(prefix);
    const std::string path = prefix + group + "/members";
    ExpectValidation(api().Post(path, json::object{}, admin), "userId");
    ExpectValidation(api().Post(path, {{"userId", nullptr}}, admin), "userId");
    ExpectValidation(api().Post(path, {{"userId", "not-a-uuid"}}, admin), "userId");
    ExpectValidation(api().Post(path, {{"userId", 12}}, admin), "userId");
    ExpectValidation(api().Post(path, {{"targetUserId", true}}, admin), "targetUserId");
    ExpectValidation(
        api().Post(path, {{"userId", t.user_ids.at("editor")}, {"targetUserId", t.user_ids.at("viewer")}}, admin),
        "targetUserId");
    ExpectProblem(api().Send("POST", path, "{\"userId\":", admin), 400, "malformed_json");
    ExpectProblem(api().Send("POST", path, "\"" + t.user_ids.at("editor") + "\"", admin), 400, "validation_failed");
  }
  EXPECT_TRUE(MemberIds(t, group).empty());

  // Malformed ids in the path: 400 naming the parameter, on every route.
  for (const std::string prefix : {"/api/groups/", "/groups/"}) {
    SCOPED_TRACE(prefix);
    auto get = api().Get(prefix + "not-a-uuid/members", admin);
    ExpectProblem(get, 400, "invalid_path_parameter");
    EXPECT_EQ(ErrorFields(get), std::set<std::string>{"groupId"});
    auto post = api().Post(prefix + "12345/members", {{"userId", t.user_ids.at("editor")}}, admin);
    ExpectProblem(post, 400, "invalid_path_parameter");
    EXPECT_EQ(ErrorFields(post), std::set<std::string>{"groupId"});
    auto bad_group = api().Delete(prefix + "nope/members/" + t.user_ids.at("editor"), admin);
    ExpectProblem(bad_group, 400, "invalid_path_parameter");
    EXPECT_EQ(ErrorFields(bad_group), std::set<std::string>{"groupId"});
    auto bad_user = api().Delete(prefix + group + "/members/nope", admin);
    ExpectProblem(bad_user, 400, "invalid_path_parameter");
    EXPECT_EQ(ErrorFields(bad_user), std::set<std::string>{"targetUserId"});
  }
  // Unknown routes and methods under the prefix.
  ExpectProblem(api().Send("PATCH", "/api/groups", "{}", admin), 405, "method_not_allowed");
  ExpectProblem(api().Send("PUT", "/groups/" + group + "/members", "{}", admin), 405, "method_not_allowed");
}

// Racing writers rely on the constraints, never on read-then-write: one
// group per name, one membership per user, one Pending invitation per email.
TEST_F(Groups, ConcurrentWritesKeepTheRules) {
  auto t = CreateTenant(api(), "grp-race");
  const auto creates = Concurrently(6, [&t](HttpClient& c) {
    return c.Post("/api/groups", {{"name", "Racers"}}, t.token("admin"));
  });
  std::string group;
  int created = 0;
  for (const auto& r : creates) {
    if (r.status == 201) {
      ++created;
      group = Str(r.Json(), "id");
    } else {
      ExpectProblem(r, 409, "group_name_taken");
    }
  }
  ASSERT_EQ(created, 1);

  const auto adds = Concurrently(6, [&t, &group](HttpClient& c) {
    return c.Post("/groups/" + group + "/members", {{"userId", t.user_ids.at("editor")}}, t.token("admin"));
  });
  int added = 0;
  for (const auto& r : adds) {
    ASSERT_TRUE(r.status == 201 || r.status == 200) << r.status << " " << r.body;
    added += r.status == 201;
    EXPECT_EQ(Str(r.Json(), "userId"), t.user_ids.at("editor"));
    EXPECT_EQ(Str(r.Json(), "addedAt"), Str(adds.front().Json(), "addedAt"));
  }
  EXPECT_EQ(added, 1);
  EXPECT_EQ(Counts(t).at("Racers"), 1);

  const auto invites = Concurrently(6, [&t](HttpClient& c) {
    return c.Post("/users/invite", {{"email", "racer@example.com"}}, t.token("admin"));
  });
  int invited = 0;
  for (const auto& r : invites) {
    ASSERT_TRUE(r.status == 201 || r.status == 200) << r.status << " " << r.body;
    invited += r.status == 201;
    EXPECT_EQ(Str(r.Json(), "id"), Str(invites.front().Json(), "id"));
  }
  EXPECT_EQ(invited, 1);
  auto list = api().Get("/api/users/invitations", t.token("admin"));
  ASSERT_EQ(list.status, 200);
  EXPECT_EQ(list.Json().as_array().size(), 1u) << list.body;
}

using Invitations = ApiTest;

TEST_F(Invitations, InviteRecordsAPendingInvitation) {
  auto t = CreateTenant(api(), "inv");
  auto r = api().Post("/api/users/invite", {{"email", "New.Person@Example.COM"}}, t.token("admin"));
  ASSERT_EQ(r.status, 201) << r.body;
  auto inv = r.Json();
  EXPECT_EQ(Str(inv, "id").size(), 36u);
  EXPECT_EQ(Str(inv, "email"), "new.person@example.com");
  EXPECT_EQ(Str(inv, "role"), "Member");
  EXPECT_TRUE(inv.at("displayName").is_null());
  EXPECT_EQ(Str(inv, "status"), "Pending");
  EXPECT_EQ(Str(inv, "invitedBy"), t.user_ids.at("admin"));
  EXPECT_EQ(Str(inv, "invitedAt").back(), 'Z');

  // Re-inviting the email (in any case, any path) answers the existing
  // invitation unchanged: 200, same id, first role kept.
  auto again = api().Post("/users/invite", {{"email", "new.person@example.com"}, {"role", "Guest"}}, t.token("admin"));
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(Str(again.Json(), "id"), Str(inv, "id"));
  EXPECT_EQ(Str(again.Json(), "role"), "Member");
  EXPECT_EQ(Str(again.Json(), "invitedAt"), Str(inv, "invitedAt"));

  auto full = api().Post(
      "/users/invite",
      {{"email", "owner@example.org"}, {"role", "Owner"}, {"displayName", "Olive Owner"}, {"unknownField", 1}},
      t.token("admin"));
  ASSERT_EQ(full.status, 201) << full.body;
  EXPECT_EQ(Str(full.Json(), "role"), "Owner");
  EXPECT_EQ(Str(full.Json(), "displayName"), "Olive Owner");
  EXPECT_EQ(Str(full.Json(), "email"), "owner@example.org");

  auto guest =
      api().Post("/api/users/invite", {{"email", "guest@partner.example"}, {"role", "Guest"}, {"displayName", nullptr}},
                 t.token("admin"));
  ASSERT_EQ(guest.status, 201) << guest.body;
  EXPECT_EQ(Str(guest.Json(), "role"), "Guest");
  EXPECT_TRUE(guest.Json().at("displayName").is_null());

  // Listed newest first (invitedAt has millisecond resolution, so only the
  // order of the times is checked), on both paths.
  for (const char* path : {"/api/users/invitations", "/users/invitations"}) {
    auto list = api().Get(path, t.token("admin"));
    ASSERT_EQ(list.status, 200) << list.body;
    const auto items = list.Json();
    ASSERT_EQ(items.as_array().size(), 3u) << path;
    std::map<std::string, json::value> by_email;
    for (size_t i = 0; i < items.as_array().size(); ++i) {
      const auto& item = items.as_array()[i];
      by_email[Str(item, "email")] = item;
      if (i > 0) {
        EXPECT_GE(Str(items.as_array()[i - 1], "invitedAt"), Str(item, "invitedAt"));
      }
    }
    ASSERT_EQ(by_email.size(), 3u);
    const auto& first = by_email.at("new.person@example.com");
    EXPECT_EQ(Str(first, "id"), Str(inv, "id"));
    EXPECT_EQ(Str(first, "status"), "Pending");
    EXPECT_EQ(Str(first, "role"), "Member");
    EXPECT_EQ(Str(first, "invitedBy"), t.user_ids.at("admin"));
    EXPECT_EQ(Str(by_email.at("owner@example.org"), "displayName"), "Olive Owner");
    EXPECT_EQ(Str(by_email.at("guest@partner.example"), "role"), "Guest");
  }
  auto pending = api().Get("/api/users/invitations?status=Pending", t.token("admin"));
  ASSERT_EQ(pending.status, 200) << pending.body;
  EXPECT_EQ(pending.Json().as_array().size(), 3u);
  auto accepted = api().Get("/users/invitations?status=Accepted", t.token("admin"));
  ASSERT_EQ(accepted.status, 200) << accepted.body;
  EXPECT_TRUE(accepted.Json().as_array().empty());
  ExpectValidation(api().Get("/api/users/invitations?status=Bogus", t.token("admin")), "status");
  ExpectValidation(api().Get("/users/invitations?status=pending", t.token("admin")), "status");
}

TEST_F(Invitations, ActiveMembersCannotBeInvited) {
  auto t = CreateTenant(api(), "inv-member");
  auto member = api().Post("/api/users/invite", {{"email", PersonaEmail(t, "editor")}}, t.token("admin"));
  ExpectProblem(member, 409, "already_member");
  std::string upper = PersonaEmail(t, "guest");
  for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  ExpectProblem(api().Post("/users/invite", {{"email", upper}}, t.token("admin")), 409, "already_member");

  // A member removed from the tenant may be invited back.
  ASSERT_EQ(api().Delete("/users/" + t.user_ids.at("viewer"), t.token("admin")).status, 204);
  auto back = api().Post("/users/invite", {{"email", PersonaEmail(t, "viewer")}}, t.token("admin"));
  ASSERT_EQ(back.status, 201) << back.body;
  EXPECT_EQ(Str(back.Json(), "email"), PersonaEmail(t, "viewer"));

  auto list = api().Get("/api/users/invitations", t.token("admin"));
  ASSERT_EQ(list.status, 200);
  ASSERT_EQ(list.Json().as_array().size(), 1u) << list.body;
  EXPECT_EQ(Str(list.Json().as_array()[0], "email"), PersonaEmail(t, "viewer"));
}

TEST_F(Invitations, InvitationsBelongToTheirTenant) {
  auto a = CreateTenant(api(), "inv-iso-a");
  auto b = CreateTenant(api(), "inv-iso-b");
  auto in_a = api().Post("/api/users/invite", {{"email", "shared@example.com"}}, a.token("admin"));
  ASSERT_EQ(in_a.status, 201) << in_a.body;
  // The same email is a new invitation in another tenant.
  auto in_b = api().Post("/api/users/invite", {{"email", "shared@example.com"}, {"role", "Guest"}}, b.token("admin"));
  ASSERT_EQ(in_b.status, 201) << in_b.body;
  EXPECT_NE(Str(in_b.Json(), "id"), Str(in_a.Json(), "id"));
  EXPECT_EQ(Str(in_b.Json(), "invitedBy"), b.user_ids.at("admin"));
  // A member of another tenant may be invited.
  auto member_of_b = api().Post("/users/invite", {{"email", PersonaEmail(b, "editor")}}, a.token("admin"));
  ASSERT_EQ(member_of_b.status, 201) << member_of_b.body;

  auto list_a = api().Get("/api/users/invitations", a.token("admin"));
  ASSERT_EQ(list_a.status, 200);
  std::set<std::string> ids;
  const auto items = list_a.Json();
  for (const auto& i : items.as_array()) ids.insert(Str(i, "id"));
  EXPECT_EQ(ids, (std::set<std::string>{Str(in_a.Json(), "id"), Str(member_of_b.Json(), "id")}));
  auto list_b = api().Get("/users/invitations", b.token("admin"));
  ASSERT_EQ(list_b.status, 200);
  ASSERT_EQ(list_b.Json().as_array().size(), 1u);
  EXPECT_EQ(Str(list_b.Json().as_array()[0], "role"), "Guest");
}

TEST_F(Invitations, BadInputIsRejected) {
  auto t = CreateTenant(api(), "inv-bad");
  const std::string& admin = t.token("admin");
  for (const char* path : {"/api/users/invite", "/users/invite"}) {
    SCOPED_TRACE(path);
    ExpectValidation(api().Post(path, json::object{}, admin), "email");
    ExpectValidation(api().Post(path, {{"role", "Member"}}, admin), "email");
    ExpectValidation(api().Post(path, {{"email", nullptr}}, admin), "email");
    ExpectValidation(api().Post(path, {{"email", 5}}, admin), "email");
    ExpectValidation(api().Post(path, {{"email", "not-an-email"}}, admin), "email");
    ExpectValidation(api().Post(path, {{"email", "@example.com"}}, admin), "email");
    ExpectValidation(api().Post(path, {{"email", "two words@example.com"}}, admin), "email");
    ExpectValidation(api().Post(path, {{"email", std::string(250, 'a') + "@example.com"}}, admin), "email");
    ExpectValidation(api().Post(path, {{"email", "ok@example.com"}, {"role", "King"}}, admin), "role");
    ExpectValidation(api().Post(path, {{"email", "ok@example.com"}, {"role", "member"}}, admin), "role");
    ExpectValidation(api().Post(path, {{"email", "ok@example.com"}, {"role", 1}}, admin), "role");
    ExpectValidation(api().Post(path, {{"email", "ok@example.com"}, {"displayName", ""}}, admin), "displayName");
    ExpectValidation(api().Post(path, {{"email", "ok@example.com"}, {"displayName", false}}, admin), "displayName");
    ExpectValidation(api().Post(path, {{"email", "ok@example.com"}, {"displayName", std::string(201, 'n')}}, admin),
                     "displayName");
    ExpectProblem(api().Send("POST", path, "{\"email\": \"ok@example.com\"", admin), 400, "malformed_json");
    ExpectProblem(api().Send("POST", path, "42", admin), 400, "validation_failed");
  }
  auto list = api().Get("/api/users/invitations", admin);
  ASSERT_EQ(list.status, 200);
  EXPECT_TRUE(list.Json().as_array().empty()) << list.body;
}

TEST_F(Invitations, RoutesAreDocumented) {
  auto doc = api().Get("/openapi.json");
  ASSERT_EQ(doc.status, 200);
  const auto spec = doc.Json();
  const auto& paths = spec.at("paths").as_object();
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"/api/groups", "get"},
      {"/api/groups", "post"},
      {"/groups", "get"},
      {"/groups", "post"},
      {"/api/groups/{groupId}/members", "get"},
      {"/api/groups/{groupId}/members", "post"},
      {"/groups/{groupId}/members", "get"},
      {"/groups/{groupId}/members", "post"},
      {"/api/groups/{groupId}/members/{targetUserId}", "delete"},
      {"/groups/{groupId}/members/{targetUserId}", "delete"},
      {"/api/users/invite", "post"},
      {"/users/invite", "post"},
      {"/api/users/invitations", "get"},
      {"/users/invitations", "get"},
  };
  for (const auto& [path, method] : expected) {
    const auto* item = paths.if_contains(path);
    ASSERT_NE(item, nullptr) << path;
    ASSERT_TRUE(item->as_object().contains(method)) << method << " " << path;
  }
  const auto& create = paths.at("/api/groups").at("post").as_object();
  EXPECT_TRUE(create.at("responses").as_object().contains("201"));
  EXPECT_TRUE(create.at("responses").as_object().contains("409"));
  EXPECT_EQ(json::serialize(create.at("requestBody").at("content").at("application/json").at("schema").at("required")),
            "[\"name\"]");
}

}  // namespace
}  // namespace credence::test
