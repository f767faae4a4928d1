// Hub memberships (/api/hubs/{hubId}/memberships...) and entry permissions
// (/api/entries/{entryId}/permissions...) over real HTTP: what a membership
// or a permission lets a user do, upserts, who may manage them, isolation
// between tenants, bad input. Runs on SQLite and on PostgreSQL
// (CREDENCE_TEST_BACKEND).
#include <boost/json/serialize.hpp>

#include <cctype>
#include <chrono>
#include <functional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "support/api_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

void ExpectPathProblem(const Response& r, const std::string& param) {
  ExpectProblem(r, 400, "invalid_path_parameter");
  if (r.status == 400) {
    EXPECT_EQ(ErrorFields(r), std::set<std::string>{param}) << r.body;
  }
}

std::string Upper(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

// A one-paragraph editor document, serialized.
std::string Content(const std::string& text) {
  return json::serialize(json::object{
      {"type", "doc"},
      {"content",
       json::array{json::object{{"type", "paragraph"},
                                {"content", json::array{json::object{{"type", "text"}, {"text", text}}}}}}}});
}

// Lists are ordered by createdAt (milliseconds), ties by id: tests that
// check the order let a millisecond pass between grants.
void NextMillisecond() { std::this_thread::sleep_for(std::chrono::milliseconds(3)); }

// The item of `list` whose `key` is `value`.
json::value FindBy(const json::array& list, const char* key, const std::string& value) {
  for (const auto& item : list)
    if (item.at(key).is_string() && item.at(key).as_string() == value) return item;
  ADD_FAILURE() << "no item with " << key << " = " << value;
  return json::object{};
}

struct TestHub {
  std::string id;
  std::string key;
};

class Memberships : public ApiTest {
 protected:
  // A hub owned by the tenant's admin (no default org role: members see it
  // only through memberships).
  TestHub MakeHub(const TestTenant& t, const std::string& key) {
    auto r =
        api().Post("/api/hubs", {{"key", key}, {"name", "Hub " + key}, {"defaultExpiryDays", 90}}, t.token("admin"));
    EXPECT_EQ(r.status, 201) << r.body;
    return {Str(r.Json(), "id"), key};
  }

  Response PostEntry(const std::string& token, const std::string& hub_key, const std::string& key) {
    return api().Post("/api/entries",
                      {{"hubKey", hub_key},
                       {"key", key},
                       {"originalLanguage", "en"},
                       {"title", "Entry " + key},
                       {"content", Content("Hi")}},
                      token);
  }

  // An entry created by the tenant's admin; returns its id.
  std::string MakeEntry(const TestTenant& t, const TestHub& hub, const std::string& key) {
    auto r = PostEntry(t.token("admin"), hub.key, key);
    EXPECT_EQ(r.status, 201) << r.body;
    return Str(r.Json(), "id");
  }

  std::string MakeGroup(const TestTenant& t, const std::string& name) {
    auto r = api().Post("/api/groups", {{"name", name}}, t.token("admin"));
    EXPECT_EQ(r.status, 201) << r.body;
    return Str(r.Json(), "id");
  }

  void AddToGroup(const TestTenant& t, const std::string& group, const std::string& persona) {
    auto r = api().Post("/api/groups/" + group + "/members", {{"userId", t.user_ids.at(persona)}}, t.token("admin"));
    EXPECT_EQ(r.status, 201) << r.body;
  }

  static std::string HubPath(const TestHub& hub) { return "/api/hubs/" + hub.id + "/memberships"; }
  static std::string EntryPath(const std::string& entry) { return "/api/entries/" + entry + "/permissions"; }

  Response AddUser(const TestTenant& t, const TestHub& hub, const std::string& persona, const std::string& role,
                   const std::string& as = "admin") {
    return api().Post(HubPath(hub) + "/users", {{"targetUserId", t.user_ids.at(persona)}, {"role", role}}, t.token(as));
  }

  // Adds `persona` with `role` as the admin; returns the membership id.
  std::string Member(const TestTenant& t, const TestHub& hub, const std::string& persona, const std::string& role) {
    auto r = AddUser(t, hub, persona, role);
    EXPECT_EQ(r.status, 201) << r.body;
    return Str(r.Json(), "id");
  }

  Response GrantUser(const TestTenant& t, const std::string& entry, const std::string& persona, const std::string& role,
                     const std::string& as = "admin") {
    return api().Post(EntryPath(entry) + "/users", {{"targetUserId", t.user_ids.at(persona)}, {"role", role}},
                      t.token(as));
  }

  json::array List(const std::string& path, const std::string& token) {
    auto r = api().Get(path, token);
    EXPECT_EQ(r.status, 200) << r.body;
    if (r.status != 200) return {};
    return r.Json().as_array();
  }
};

TEST_F(Memberships, UserMembershipGrantsTheHubRole) {
  auto t = CreateTenant(api(), "mem-user");
  const TestHub hub = MakeHub(t, "handbook");
  const std::string& viewer = t.token("viewer");

  // No membership: the hub does not exist for a Member.
  ExpectProblem(api().Get("/api/hubs/handbook", viewer), 404, "not_found");
  ExpectProblem(api().Get(HubPath(hub), viewer), 404, "not_found");
  ExpectValidation(PostEntry(viewer, hub.key, "nope"), "hubKey");  // no hub with this key, as far as they know

  // Viewer: can see the hub and its memberships, cannot write.
  auto added = AddUser(t, hub, "viewer", "Viewer");
  ASSERT_EQ(added.status, 201) << added.body;
  const auto m = added.Json();
  EXPECT_EQ(Str(m, "id").size(), 36u);
  EXPECT_EQ(Str(m, "hubId"), hub.id);
  EXPECT_EQ(Str(m, "principalType"), "User");
  EXPECT_EQ(Str(m, "userId"), t.user_ids.at("viewer"));
  EXPECT_TRUE(m.at("groupId").is_null());
  EXPECT_EQ(Str(m, "displayName"), "Vera Viewer");
  EXPECT_EQ(Str(m, "role"), "Viewer");
  EXPECT_EQ(Str(m, "createdAt").back(), 'Z');

  auto seen = api().Get("/api/hubs/handbook", viewer);
  ASSERT_EQ(seen.status, 200) << seen.body;
  EXPECT_EQ(Str(seen.Json(), "id"), hub.id);
  ExpectProblem(PostEntry(viewer, hub.key, "draft"), 403, "forbidden");
  auto list = List(HubPath(hub), viewer);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0], m);

  // Editor: can create entries.
  auto changed = api().Put(HubPath(hub) + "/" + Str(m, "id") + "/role", {{"role", "Editor"}}, t.token("admin"));
  ASSERT_EQ(changed.status, 200) << changed.body;
  EXPECT_EQ(Str(changed.Json(), "id"), Str(m, "id"));
  EXPECT_EQ(Str(changed.Json(), "role"), "Editor");
  EXPECT_EQ(Str(changed.Json(), "createdAt"), Str(m, "createdAt"));
  auto created = PostEntry(viewer, hub.key, "draft");
  ASSERT_EQ(created.status, 201) << created.body;
  // An Editor still cannot manage memberships.
  ExpectProblem(AddUser(t, hub, "editor", "Viewer", "viewer"), 403, "forbidden");

  // Admin: can manage memberships.
  ASSERT_EQ(api().Put(HubPath(hub) + "/" + Str(m, "id") + "/role", {{"role", "Admin"}}, t.token("admin")).status, 200);
  auto by_viewer = AddUser(t, hub, "editor", "Viewer", "viewer");
  ASSERT_EQ(by_viewer.status, 201) << by_viewer.body;
  EXPECT_EQ(Str(by_viewer.Json(), "displayName"), "Eddie Editor");

  // Removing the membership takes the access away.
  auto removed = api().Delete(HubPath(hub) + "/" + Str(m, "id"), t.token("admin"));
  EXPECT_EQ(removed.status, 204);
  EXPECT_TRUE(removed.body.empty());
  ExpectProblem(api().Get("/api/hubs/handbook", viewer), 404, "not_found");
  ExpectProblem(api().Delete(HubPath(hub) + "/" + Str(m, "id"), t.token("admin")), 404, "not_found");
  ExpectProblem(api().Put(HubPath(hub) + "/" + Str(m, "id") + "/role", {{"role", "Viewer"}}, t.token("admin")), 404,
                "not_found");
  auto remaining = List(HubPath(hub), t.token("editor"));
  ASSERT_EQ(remaining.size(), 1u);
  EXPECT_EQ(Str(remaining[0], "userId"), t.user_ids.at("editor"));
}

TEST_F(Memberships, AddingAgainUpdatesTheRole) {
  auto t = CreateTenant(api(), "mem-upsert");
  const TestHub hub = MakeHub(t, "upsert");
  auto first = AddUser(t, hub, "editor", "Viewer");
  ASSERT_EQ(first.status, 201) << first.body;
  // Ids are accepted in any case.
  auto again = api().Post(HubPath(hub) + "/users",
                          {{"targetUserId", Upper(t.user_ids.at("editor"))}, {"role", "Editor"}}, t.token("admin"));
  ASSERT_EQ(again.status, 200) << again.body;
  EXPECT_EQ(Str(again.Json(), "id"), Str(first.Json(), "id"));
  EXPECT_EQ(Str(again.Json(), "userId"), t.user_ids.at("editor"));
  EXPECT_EQ(Str(again.Json(), "role"), "Editor");
  EXPECT_EQ(Str(again.Json(), "createdAt"), Str(first.Json(), "createdAt"));
  auto same = AddUser(t, hub, "editor", "Editor");
  ASSERT_EQ(same.status, 200) << same.body;
  EXPECT_EQ(same.Json(), again.Json());

  const std::string group = MakeGroup(t, "Writers");
  NextMillisecond();
  auto g1 = api().Post(HubPath(hub) + "/groups", {{"groupId", group}, {"role", "Admin"}}, t.token("admin"));
  ASSERT_EQ(g1.status, 201) << g1.body;
  auto g2 = api().Post(HubPath(hub) + "/groups", {{"groupId", Upper(group)}, {"role", "Viewer"}}, t.token("admin"));
  ASSERT_EQ(g2.status, 200) << g2.body;
  EXPECT_EQ(Str(g2.Json(), "id"), Str(g1.Json(), "id"));
  EXPECT_EQ(Str(g2.Json(), "role"), "Viewer");

  auto list = List(HubPath(hub), t.token("admin"));
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0], again.Json());
  EXPECT_EQ(list[1], g2.Json());
}

TEST_F(Memberships, GroupMembershipGrantsTheRoleToItsMembers) {
  auto t = CreateTenant(api(), "mem-group");
  const TestHub hub = MakeHub(t, "team");
  const std::string group = MakeGroup(t, "Team Blue");
  AddToGroup(t, group, "viewer");

  auto added = api().Post(HubPath(hub) + "/groups", {{"groupId", group}, {"role", "Editor"}}, t.token("admin"));
  ASSERT_EQ(added.status, 201) << added.body;
  const auto m = added.Json();
  EXPECT_EQ(Str(m, "hubId"), hub.id);
  EXPECT_EQ(Str(m, "principalType"), "Group");
  EXPECT_TRUE(m.at("userId").is_null());
  EXPECT_EQ(Str(m, "groupId"), group);
  EXPECT_EQ(Str(m, "displayName"), "Team Blue");
  EXPECT_EQ(Str(m, "role"), "Editor");

  // Members of the group get the role; others get nothing.
  ASSERT_EQ(api().Get("/api/hubs/team", t.token("viewer")).status, 200);
  auto created = PostEntry(t.token("viewer"), hub.key, "by-group");
  EXPECT_EQ(created.status, 201) << created.body;
  ExpectProblem(api().Get("/api/hubs/team", t.token("editor")), 404, "not_found");
  ExpectProblem(api().Get("/api/hubs/team", t.token("guest")), 404, "not_found");
  // Guests too, once in the group.
  AddToGroup(t, group, "guest");
  ASSERT_EQ(api().Get("/api/hubs/team", t.token("guest")).status, 200);
  ASSERT_EQ(api().Get(HubPath(hub), t.token("guest")).status, 200);

  // A user's own membership and their group's combine: the higher role wins.
  ASSERT_EQ(AddUser(t, hub, "guest", "Admin").status, 201);
  EXPECT_EQ(AddUser(t, hub, "editor", "Viewer", "guest").status, 201);

  // Removing the group's membership takes its access away.
  ASSERT_EQ(api().Delete(HubPath(hub) + "/" + Str(m, "id"), t.token("admin")).status, 204);
  ExpectProblem(api().Get("/api/hubs/team", t.token("viewer")), 404, "not_found");
  ASSERT_EQ(api().Get("/api/hubs/team", t.token("guest")).status, 200);  // their own membership stays
}

TEST_F(Memberships, ListsShowUsersAndGroupsInGrantOrder) {
  auto t = CreateTenant(api(), "mem-list");
  const TestHub hub = MakeHub(t, "listing");
  EXPECT_TRUE(List(HubPath(hub), t.token("admin")).empty());
  const std::string group = MakeGroup(t, "Readers");
  Member(t, hub, "viewer", "Viewer");
  NextMillisecond();
  ASSERT_EQ(api().Post(HubPath(hub) + "/groups", {{"groupId", group}, {"role", "Viewer"}}, t.token("admin")).status,
            201);
  NextMillisecond();
  Member(t, hub, "guest", "Editor");
  auto list = List(HubPath(hub), t.token("viewer"));
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(Str(list[0], "displayName"), "Vera Viewer");
  EXPECT_EQ(Str(list[1], "displayName"), "Readers");
  EXPECT_EQ(Str(list[1], "principalType"), "Group");
  EXPECT_EQ(Str(list[2], "displayName"), "Gus Guest");
  EXPECT_EQ(Str(list[2], "role"), "Editor");
  for (const auto& item : list) {
    EXPECT_EQ(item.as_object().size(), 8u) << json::serialize(item);
    for (const char* key : {"id", "hubId", "principalType", "userId", "groupId", "displayName", "role", "createdAt"})
      EXPECT_TRUE(item.as_object().contains(key)) << key;
  }

  // A user removed from the tenant leaves the list and cannot be added.
  ASSERT_EQ(api().Delete("/api/users/" + t.user_ids.at("guest"), t.token("admin")).status, 204);
  EXPECT_EQ(List(HubPath(hub), t.token("viewer")).size(), 2u);
  ExpectValidation(AddUser(t, hub, "guest", "Viewer"), "targetUserId");
}

TEST_F(Memberships, EntryPermissionOpensOneEntry) {
  auto t = CreateTenant(api(), "mem-entry");
  const TestHub hub = MakeHub(t, "private");
  const std::string entry = MakeEntry(t, hub, "secret");
  const std::string other = MakeEntry(t, hub, "other");
  const std::string& viewer = t.token("viewer");
  ExpectProblem(api().Get("/api/entries/" + entry, viewer), 404, "not_found");
  ExpectProblem(api().Get(EntryPath(entry), viewer), 404, "not_found");

  auto granted = GrantUser(t, entry, "viewer", "Viewer");
  ASSERT_EQ(granted.status, 201) << granted.body;
  const auto p = granted.Json();
  EXPECT_EQ(Str(p, "entryId"), entry);
  EXPECT_FALSE(p.as_object().contains("hubId"));
  EXPECT_EQ(Str(p, "principalType"), "User");
  EXPECT_EQ(Str(p, "userId"), t.user_ids.at("viewer"));
  EXPECT_TRUE(p.at("groupId").is_null());
  EXPECT_EQ(Str(p, "displayName"), "Vera Viewer");
  EXPECT_EQ(Str(p, "role"), "Viewer");
  EXPECT_EQ(Str(p, "createdAt").back(), 'Z');

  // The entry opens; the hub and the hub's other entries stay hidden.
  auto read = api().Get("/api/entries/" + entry, viewer);
  ASSERT_EQ(read.status, 200) << read.body;
  EXPECT_EQ(Str(read.Json(), "id"), entry);
  ExpectProblem(api().Get("/api/hubs/private", viewer), 404, "not_found");
  ExpectProblem(api().Get("/api/entries/" + other, viewer), 404, "not_found");
  ExpectProblem(api().Get(HubPath(hub), viewer), 404, "not_found");
  const json::object edit{{"title", "Edited"}, {"content", Content("Changed")}};
  ExpectProblem(api().Put("/api/entries/" + entry, edit, viewer), 403, "forbidden");
  auto list = List(EntryPath(entry), viewer);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0], p);
  // A Viewer may not grant.
  ExpectProblem(GrantUser(t, entry, "guest", "Viewer", "viewer"), 403, "forbidden");

  // Editor (an upsert: same permission, new role) may edit and grant.
  auto upgraded = GrantUser(t, entry, "viewer", "Editor");
  ASSERT_EQ(upgraded.status, 200) << upgraded.body;
  EXPECT_EQ(Str(upgraded.Json(), "id"), Str(p, "id"));
  EXPECT_EQ(Str(upgraded.Json(), "role"), "Editor");
  auto edited = api().Put("/api/entries/" + entry, edit, viewer);
  ASSERT_EQ(edited.status, 200) << edited.body;
  EXPECT_EQ(Str(edited.Json(), "title"), "Edited");
  auto by_viewer = GrantUser(t, entry, "guest", "Viewer", "viewer");
  ASSERT_EQ(by_viewer.status, 201) << by_viewer.body;
  ASSERT_EQ(api().Get("/api/entries/" + entry, t.token("guest")).status, 200);

  // Group permissions.
  const std::string group = MakeGroup(t, "Reviewers");
  AddToGroup(t, group, "editor");
  ExpectProblem(api().Get("/api/entries/" + entry, t.token("editor")), 404, "not_found");
  auto group_grant = api().Post(EntryPath(entry) + "/groups", {{"groupId", group}, {"role", "Viewer"}}, viewer);
  ASSERT_EQ(group_grant.status, 201) << group_grant.body;
  EXPECT_EQ(Str(group_grant.Json(), "principalType"), "Group");
  EXPECT_EQ(Str(group_grant.Json(), "groupId"), group);
  EXPECT_EQ(Str(group_grant.Json(), "displayName"), "Reviewers");
  EXPECT_TRUE(group_grant.Json().at("userId").is_null());
  ASSERT_EQ(api().Get("/api/entries/" + entry, t.token("editor")).status, 200);
  auto group_again =
      api().Post(EntryPath(entry) + "/groups", {{"groupId", group}, {"role", "Editor"}}, t.token("admin"));
  ASSERT_EQ(group_again.status, 200) << group_again.body;
  EXPECT_EQ(Str(group_again.Json(), "id"), Str(group_grant.Json(), "id"));
  EXPECT_EQ(List(EntryPath(entry), t.token("editor")).size(), 3u);

  // Revoking takes the access away.
  auto revoked = api().Delete(EntryPath(entry) + "/" + Str(p, "id"), t.token("admin"));
  EXPECT_EQ(revoked.status, 204);
  EXPECT_TRUE(revoked.body.empty());
  ExpectProblem(api().Get("/api/entries/" + entry, viewer), 404, "not_found");
  ExpectProblem(api().Delete(EntryPath(entry) + "/" + Str(p, "id"), t.token("admin")), 404, "not_found");
  ASSERT_EQ(api().Delete(EntryPath(entry) + "/" + Str(group_grant.Json(), "id"), t.token("editor")).status, 204);
  ExpectProblem(api().Get("/api/entries/" + entry, t.token("editor")), 404, "not_found");
  auto left = List(EntryPath(entry), t.token("admin"));
  ASSERT_EQ(left.size(), 1u);
  EXPECT_EQ(Str(left[0], "userId"), t.user_ids.at("guest"));
}

TEST_F(Memberships, HubAccessReachesTheEntries) {
  auto t = CreateTenant(api(), "mem-hub-entry");
  const TestHub hub = MakeHub(t, "shared");
  const std::string entry = MakeEntry(t, hub, "doc");
  Member(t, hub, "viewer", "Viewer");
  Member(t, hub, "editor", "Editor");
  // Hub Viewer: Entry Viewer (may list, may not grant).
  ASSERT_EQ(api().Get("/api/entries/" + entry, t.token("viewer")).status, 200);
  EXPECT_TRUE(List(EntryPath(entry), t.token("viewer")).empty());
  ExpectProblem(GrantUser(t, entry, "guest", "Viewer", "viewer"), 403, "forbidden");
  // Hub Editor: Entry Editor.
  auto granted = GrantUser(t, entry, "guest", "Viewer", "editor");
  ASSERT_EQ(granted.status, 201) << granted.body;
  // The owner of an entry is its Editor, whatever the hub says.
  auto own = PostEntry(t.token("editor"), hub.key, "mine");
  ASSERT_EQ(own.status, 201) << own.body;
  const std::string mine = Str(own.Json(), "id");
  const auto editor_row = FindBy(List(HubPath(hub), t.token("admin")), "userId", t.user_ids.at("editor"));
  ASSERT_EQ(
      api().Put(HubPath(hub) + "/" + Str(editor_row, "id") + "/role", {{"role", "Viewer"}}, t.token("admin")).status,
      200);
  EXPECT_EQ(GrantUser(t, mine, "viewer", "Editor", "editor").status, 201);
  EXPECT_EQ(GrantUser(t, entry, "viewer", "Editor", "editor").status, 403);
}

TEST_F(Memberships, OnlyHubAdminsManageMemberships) {
  auto t = CreateTenant(api(), "mem-403");
  const TestHub hub = MakeHub(t, "guarded");
  const std::string viewer_membership = Member(t, hub, "viewer", "Viewer");
  Member(t, hub, "editor", "Editor");
  const std::string group = MakeGroup(t, "Anyone");
  const json::object add_user{{"targetUserId", t.user_ids.at("guest")}, {"role", "Viewer"}};
  const json::object add_group{{"groupId", group}, {"role", "Viewer"}};
  const std::string membership_path = HubPath(hub) + "/" + viewer_membership;

  for (const char* persona : {"viewer", "editor"}) {
    SCOPED_TRACE(persona);
    const std::string& token = t.token(persona);
    EXPECT_EQ(List(HubPath(hub), token).size(), 2u);
    ExpectProblem(api().Post(HubPath(hub) + "/users", add_user, token), 403, "forbidden");
    ExpectProblem(api().Post(HubPath(hub) + "/groups", add_group, token), 403, "forbidden");
    ExpectProblem(api().Put(membership_path + "/role", {{"role", "Admin"}}, token), 403, "forbidden");
    ExpectProblem(api().Delete(membership_path, token), 403, "forbidden");
    // Who may act is answered before the body is looked at.
    ExpectProblem(api().Send("POST", HubPath(hub) + "/users", "{not json", token), 403, "forbidden");
    ExpectProblem(api().Send("PUT", membership_path + "/role", "[]", token), 403, "forbidden");
  }
  // No access at all: 404 everywhere, also with a bad body.
  const std::string& guest = t.token("guest");
  ExpectProblem(api().Get(HubPath(hub), guest), 404, "not_found");
  ExpectProblem(api().Post(HubPath(hub) + "/users", add_user, guest), 404, "not_found");
  ExpectProblem(api().Post(HubPath(hub) + "/groups", add_group, guest), 404, "not_found");
  ExpectProblem(api().Put(membership_path + "/role", {{"role", "Admin"}}, guest), 404, "not_found");
  ExpectProblem(api().Delete(membership_path, guest), 404, "not_found");
  ExpectProblem(api().Send("POST", HubPath(hub) + "/users", "{not json", guest), 404, "not_found");
  // Unauthenticated: 401.
  ExpectProblem(api().Get(HubPath(hub)), 401, "missing_credentials");
  ExpectProblem(api().Post(HubPath(hub) + "/users", add_user), 401, "missing_credentials");

  // Entry permissions: Entry Editor+ manages them.
  const std::string entry = MakeEntry(t, hub, "guarded-entry");
  auto guest_grant = GrantUser(t, entry, "guest", "Viewer");
  ASSERT_EQ(guest_grant.status, 201);
  const std::string permission_path = EntryPath(entry) + "/" + Str(guest_grant.Json(), "id");
  for (const char* persona : {"viewer", "guest"}) {
    SCOPED_TRACE(persona);
    const std::string& token = t.token(persona);
    EXPECT_EQ(List(EntryPath(entry), token).size(), 1u);
    ExpectProblem(api().Post(EntryPath(entry) + "/users", add_user, token), 403, "forbidden");
    ExpectProblem(api().Post(EntryPath(entry) + "/groups", add_group, token), 403, "forbidden");
    ExpectProblem(api().Delete(permission_path, token), 403, "forbidden");
    ExpectProblem(api().Send("POST", EntryPath(entry) + "/users", "{not json", token), 403, "forbidden");
  }
  // Nothing changed.
  EXPECT_EQ(List(HubPath(hub), t.token("admin")).size(), 2u);
  EXPECT_EQ(List(EntryPath(entry), t.token("admin")).size(), 1u);
  auto viewer_row = FindBy(List(HubPath(hub), t.token("admin")), "userId", t.user_ids.at("viewer"));
  EXPECT_EQ(Str(viewer_row, "role"), "Viewer");

  // With no access to the entry: 404.
  ASSERT_EQ(api().Delete(permission_path, t.token("admin")).status, 204);
  ExpectProblem(api().Get(EntryPath(entry), guest), 404, "not_found");
  ExpectProblem(api().Post(EntryPath(entry) + "/users", add_user, guest), 404, "not_found");
  ExpectProblem(api().Post(EntryPath(entry) + "/groups", add_group, guest), 404, "not_found");
  ExpectProblem(api().Delete(permission_path, guest), 404, "not_found");
}

TEST_F(Memberships, AnotherTenantsHubsEntriesAndGrantsAreNotFound) {
  auto a = CreateTenant(api(), "mem-iso-a");
  auto b = CreateTenant(api(), "mem-iso-b");
  const TestHub ours = MakeHub(a, "ours");
  const TestHub theirs = MakeHub(b, "theirs");
  const std::string their_membership = Member(b, theirs, "viewer", "Viewer");
  const std::string our_membership = Member(a, ours, "viewer", "Viewer");
  const std::string our_entry = MakeEntry(a, ours, "ours");
  const std::string their_entry = MakeEntry(b, theirs, "theirs");
  auto their_grant = GrantUser(b, their_entry, "viewer", "Viewer");
  ASSERT_EQ(their_grant.status, 201);
  const std::string their_permission = Str(their_grant.Json(), "id");
  const std::string& admin = a.token("admin");
  const json::object add_user{{"targetUserId", a.user_ids.at("editor")}, {"role", "Viewer"}};

  // Their hub, even for our global admin.
  for (const std::string& hub_id : {theirs.id, std::string(kUnknownId)}) {
    SCOPED_TRACE(hub_id);
    const std::string path = "/api/hubs/" + hub_id + "/memberships";
    ExpectProblem(api().Get(path, admin), 404, "not_found");
    ExpectProblem(api().Post(path + "/users", add_user, admin), 404, "not_found");
    ExpectProblem(api().Post(path + "/groups", {{"groupId", kUnknownId}, {"role", "Viewer"}}, admin), 404, "not_found");
    ExpectProblem(api().Put(path + "/" + their_membership + "/role", {{"role", "Admin"}}, admin), 404, "not_found");
    ExpectProblem(api().Delete(path + "/" + their_membership, admin), 404, "not_found");
  }
  // Their membership id under our hub.
  ExpectProblem(api().Put(HubPath(ours) + "/" + their_membership + "/role", {{"role", "Admin"}}, admin), 404,
                "not_found");
  ExpectProblem(api().Delete(HubPath(ours) + "/" + their_membership, admin), 404, "not_found");
  // Our membership under another of our hubs is not found either.
  const TestHub second = MakeHub(a, "second");
  ExpectProblem(api().Delete(HubPath(second) + "/" + our_membership, admin), 404, "not_found");
  ExpectProblem(api().Put(HubPath(second) + "/" + our_membership + "/role", {{"role", "Admin"}}, admin), 404,
                "not_found");

  // Their entry and their permission.
  for (const std::string& entry_id : {their_entry, std::string(kUnknownId)}) {
    SCOPED_TRACE(entry_id);
    const std::string path = "/api/entries/" + entry_id + "/permissions";
    ExpectProblem(api().Get(path, admin), 404, "not_found");
    ExpectProblem(api().Post(path + "/users", add_user, admin), 404, "not_found");
    ExpectProblem(api().Post(path + "/groups", {{"groupId", kUnknownId}, {"role", "Viewer"}}, admin), 404, "not_found");
    ExpectProblem(api().Delete(path + "/" + their_permission, admin), 404, "not_found");
  }
  ExpectProblem(api().Delete(EntryPath(our_entry) + "/" + their_permission, admin), 404, "not_found");

  // Their users and groups cannot be given our hubs or entries.
  const std::string their_group = MakeGroup(b, "Theirs");
  ExpectValidation(
      api().Post(HubPath(ours) + "/users", {{"targetUserId", b.user_ids.at("viewer")}, {"role", "Viewer"}}, admin),
      "targetUserId");
  ExpectValidation(api().Post(HubPath(ours) + "/groups", {{"groupId", their_group}, {"role", "Viewer"}}, admin),
                   "groupId");
  ExpectValidation(api().Post(EntryPath(our_entry) + "/users",
                              {{"targetUserId", b.user_ids.at("viewer")}, {"role", "Viewer"}}, admin),
                   "targetUserId");
  ExpectValidation(api().Post(EntryPath(our_entry) + "/groups", {{"groupId", their_group}, {"role", "Viewer"}}, admin),
                   "groupId");

  // Their rows are untouched; ours list only ours.
  auto their_list = List(HubPath(theirs), b.token("admin"));
  ASSERT_EQ(their_list.size(), 1u);
  EXPECT_EQ(Str(their_list[0], "id"), their_membership);
  EXPECT_EQ(Str(their_list[0], "role"), "Viewer");
  EXPECT_EQ(List(EntryPath(their_entry), b.token("admin")).size(), 1u);
  auto our_list = List(HubPath(ours), admin);
  ASSERT_EQ(our_list.size(), 1u);
  EXPECT_EQ(Str(our_list[0], "id"), our_membership);
  EXPECT_TRUE(List(EntryPath(our_entry), admin).empty());
  ExpectProblem(api().Get("/api/hubs/theirs", b.token("editor")), 404, "not_found");
}

TEST_F(Memberships, BadInputIsRejected) {
  auto t = CreateTenant(api(), "mem-bad");
  auto other = CreateTenant(api(), "mem-bad-other");
  const TestHub hub = MakeHub(t, "strict");
  const std::string entry = MakeEntry(t, hub, "strict-entry");
  const std::string membership = Member(t, hub, "viewer", "Viewer");
  auto grant = GrantUser(t, entry, "viewer", "Viewer");
  ASSERT_EQ(grant.status, 201);
  const std::string permission = Str(grant.Json(), "id");
  const std::string group = MakeGroup(t, "Valid");
  const std::string& admin = t.token("admin");
  const std::string editor_id = t.user_ids.at("editor");

  // Bodies naming a user.
  for (const std::string& path : {HubPath(hub) + "/users", EntryPath(entry) + "/users"}) {
    SCOPED_TRACE(path);
    ExpectValidation(api().Post(path, json::object{}, admin), "targetUserId");
    ExpectValidation(api().Post(path, json::object{}, admin), "role");
    ExpectValidation(api().Post(path, {{"role", "Viewer"}}, admin), "targetUserId");
    ExpectValidation(api().Post(path, {{"targetUserId", editor_id}}, admin), "role");
    ExpectValidation(api().Post(path, {{"targetUserId", nullptr}, {"role", "Viewer"}}, admin), "targetUserId");
    ExpectValidation(api().Post(path, {{"targetUserId", "not-a-uuid"}, {"role", "Viewer"}}, admin), "targetUserId");
    ExpectValidation(api().Post(path, {{"targetUserId", 12}, {"role", "Viewer"}}, admin), "targetUserId");
    ExpectValidation(api().Post(path, {{"targetUserId", editor_id}, {"role", "Owner"}}, admin), "role");
    ExpectValidation(api().Post(path, {{"targetUserId", editor_id}, {"role", "viewer"}}, admin), "role");
    ExpectValidation(api().Post(path, {{"targetUserId", editor_id}, {"role", 1}}, admin), "role");
    ExpectValidation(api().Post(path, {{"targetUserId", editor_id}, {"role", nullptr}}, admin), "role");
    ExpectValidation(api().Post(path, {{"targetUserId", kUnknownId}, {"role", "Viewer"}}, admin), "targetUserId");
    ExpectValidation(api().Post(path, {{"targetUserId", other.user_ids.at("editor")}, {"role", "Viewer"}}, admin),
                     "targetUserId");
    ExpectValidation(api().Post(path, {{"userId", editor_id}, {"role", "Viewer"}}, admin), "targetUserId");
    ExpectProblem(api().Send("POST", path, "{\"targetUserId\":", admin), 400, "malformed_json");
    ExpectProblem(api().Send("POST", path, "", admin), 400, "malformed_json");
    ExpectProblem(api().Send("POST", path, "[\"" + editor_id + "\"]", admin), 400, "validation_failed");
  }
  // Bodies naming a group.
  for (const std::string& path : {HubPath(hub) + "/groups", EntryPath(entry) + "/groups"}) {
    SCOPED_TRACE(path);
    ExpectValidation(api().Post(path, json::object{}, admin), "groupId");
    ExpectValidation(api().Post(path, {{"groupId", group}}, admin), "role");
    ExpectValidation(api().Post(path, {{"role", "Viewer"}}, admin), "groupId");
    ExpectValidation(api().Post(path, {{"groupId", "Valid"}, {"role", "Viewer"}}, admin), "groupId");
    ExpectValidation(api().Post(path, {{"groupId", true}, {"role", "Viewer"}}, admin), "groupId");
    ExpectValidation(api().Post(path, {{"groupId", kUnknownId}, {"role", "Viewer"}}, admin), "groupId");
    ExpectValidation(api().Post(path, {{"groupId", group}, {"role", "Member"}}, admin), "role");
    ExpectValidation(api().Post(path, {{"groupId", group}, {"role", json::array{"Viewer"}}}, admin), "role");
    ExpectProblem(api().Send("POST", path, "{\"groupId\" \"x\"}", admin), 400, "malformed_json");
    ExpectProblem(api().Send("POST", path, "\"" + group + "\"", admin), 400, "validation_failed");
  }
  // Entry roles stop at Editor.
  ExpectValidation(api().Post(EntryPath(entry) + "/users", {{"targetUserId", editor_id}, {"role", "Admin"}}, admin),
                   "role");
  ExpectValidation(api().Post(EntryPath(entry) + "/groups", {{"groupId", group}, {"role", "Admin"}}, admin), "role");
  // Changing a role.
  const std::string role_path = HubPath(hub) + "/" + membership + "/role";
  ExpectValidation(api().Put(role_path, json::object{}, admin), "role");
  ExpectValidation(api().Put(role_path, {{"role", "Guest"}}, admin), "role");
  ExpectValidation(api().Put(role_path, {{"role", 3}}, admin), "role");
  ExpectValidation(api().Put(role_path, {{"role", ""}}, admin), "role");
  ExpectProblem(api().Send("PUT", role_path, "{role: Admin}", admin), 400, "malformed_json");
  ExpectProblem(api().Send("PUT", role_path, "null", admin), 400, "validation_failed");

  // None of it changed anything.
  auto hub_list = List(HubPath(hub), admin);
  ASSERT_EQ(hub_list.size(), 1u);
  EXPECT_EQ(Str(hub_list[0], "role"), "Viewer");
  EXPECT_EQ(List(EntryPath(entry), admin).size(), 1u);

  // Malformed ids in the path: 400 naming the parameter.
  ExpectPathProblem(api().Get("/api/hubs/not-a-uuid/memberships", admin), "hubId");
  ExpectPathProblem(
      api().Post("/api/hubs/12345/memberships/users", {{"targetUserId", editor_id}, {"role", "Viewer"}}, admin),
      "hubId");
  ExpectPathProblem(api().Post("/api/hubs/nope/memberships/groups", {{"groupId", group}, {"role", "Viewer"}}, admin),
                    "hubId");
  ExpectPathProblem(api().Put("/api/hubs/nope/memberships/" + membership + "/role", {{"role", "Viewer"}}, admin),
                    "hubId");
  ExpectPathProblem(api().Put(HubPath(hub) + "/nope/role", {{"role", "Viewer"}}, admin), "membershipId");
  ExpectPathProblem(api().Delete("/api/hubs/nope/memberships/" + membership, admin), "hubId");
  ExpectPathProblem(api().Delete(HubPath(hub) + "/" + membership + "x", admin), "membershipId");
  ExpectPathProblem(api().Get("/api/entries/not-a-uuid/permissions", admin), "entryId");
  ExpectPathProblem(
      api().Post("/api/entries/nope/permissions/users", {{"targetUserId", editor_id}, {"role", "Viewer"}}, admin),
      "entryId");
  ExpectPathProblem(api().Post("/api/entries/nope/permissions/groups", {{"groupId", group}, {"role", "Viewer"}}, admin),
                    "entryId");
  ExpectPathProblem(api().Delete("/api/entries/nope/permissions/" + permission, admin), "entryId");
  ExpectPathProblem(api().Delete(EntryPath(entry) + "/not-a-uuid", admin), "permissionId");
  // Ids in the path are accepted in any case.
  EXPECT_EQ(api().Get("/api/hubs/" + Upper(hub.id) + "/memberships", admin).status, 200);
  EXPECT_EQ(api().Get("/api/entries/" + Upper(entry) + "/permissions", admin).status, 200);
  EXPECT_EQ(api()
                .Put("/api/hubs/" + Upper(hub.id) + "/memberships/" + Upper(membership) + "/role", {{"role", "Editor"}},
                     admin)
                .status,
            200);
  EXPECT_EQ(api().Delete("/api/entries/" + Upper(entry) + "/permissions/" + Upper(permission), admin).status, 204);
  // Methods the routes do not serve.
  ExpectProblem(api().Send("PATCH", HubPath(hub), "{}", admin), 405, "method_not_allowed");
  ExpectProblem(api().Send("GET", HubPath(hub) + "/users", "", admin), 405, "method_not_allowed");
}

// Racing admins leave one membership per user (the partial unique index and
// ON CONFLICT), never a 500.
TEST_F(Memberships, ConcurrentAddsKeepOneMembership) {
  auto t = CreateTenant(api(), "mem-race");
  const TestHub hub = MakeHub(t, "race");
  const auto adds = Concurrently(6, [&](HttpClient& c) {
    return c.Post(HubPath(hub) + "/users", {{"targetUserId", t.user_ids.at("editor")}, {"role", "Editor"}},
                  t.token("admin"));
  });
  int created = 0;
  for (const auto& r : adds) {
    ASSERT_TRUE(r.status == 201 || r.status == 200) << r.status << " " << r.body;
    created += r.status == 201;
    EXPECT_EQ(Str(r.Json(), "id"), Str(adds.front().Json(), "id"));
  }
  EXPECT_EQ(created, 1);
  EXPECT_EQ(List(HubPath(hub), t.token("admin")).size(), 1u);

  const std::string entry = MakeEntry(t, hub, "race-entry");
  const auto grants = Concurrently(6, [&](HttpClient& c) {
    return c.Post(EntryPath(entry) + "/users", {{"targetUserId", t.user_ids.at("guest")}, {"role", "Viewer"}},
                  t.token("editor"));
  });
  created = 0;
  for (const auto& r : grants) {
    ASSERT_TRUE(r.status == 201 || r.status == 200) << r.status << " " << r.body;
    created += r.status == 201;
  }
  EXPECT_EQ(created, 1);
  EXPECT_EQ(List(EntryPath(entry), t.token("admin")).size(), 1u);
}

TEST_F(Memberships, RoutesAreDocumented) {
  auto doc = api().Get("/openapi.json");
  ASSERT_EQ(doc.status, 200);
  const auto spec = doc.Json();
  const auto& paths = spec.at("paths").as_object();
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"/api/hubs/{hubId}/memberships", "get"},
      {"/api/hubs/{hubId}/memberships/users", "post"},
      {"/api/hubs/{hubId}/memberships/groups", "post"},
      {"/api/hubs/{hubId}/memberships/{membershipId}/role", "put"},
      {"/api/hubs/{hubId}/memberships/{membershipId}", "delete"},
      {"/api/entries/{entryId}/permissions", "get"},
      {"/api/entries/{entryId}/permissions/users", "post"},
      {"/api/entries/{entryId}/permissions/groups", "post"},
      {"/api/entries/{entryId}/permissions/{permissionId}", "delete"},
  };
  for (const auto& [path, method] : expected) {
    const auto* item = paths.if_contains(path);
    ASSERT_NE(item, nullptr) << path;
    ASSERT_TRUE(item->as_object().contains(method)) << method << " " << path;
  }
  const auto& add = paths.at("/api/hubs/{hubId}/memberships/users").at("post").as_object();
  EXPECT_TRUE(add.at("responses").as_object().contains("201"));
  EXPECT_EQ(json::serialize(add.at("requestBody").at("content").at("application/json").at("schema").at("required")),
            "[\"targetUserId\",\"role\"]");
  EXPECT_EQ(json::serialize(add.at("requestBody")
                                .at("content")
                                .at("application/json")
                                .at("schema")
                                .at("properties")
                                .at("role")
                                .at("enum")),
            "[\"Viewer\",\"Editor\",\"Admin\"]");
  const auto& grant = paths.at("/api/entries/{entryId}/permissions/users").at("post").as_object();
  EXPECT_EQ(json::serialize(grant.at("requestBody")
                                .at("content")
                                .at("application/json")
                                .at("schema")
                                .at("properties")
                                .at("role")
                                .at("enum")),
            "[\"Viewer\",\"Editor\"]");
}

}  // namespace
}  // namespace credence::test
