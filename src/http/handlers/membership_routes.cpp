// Hub memberships (/api/hubs/{hubId}/memberships...) and entry permissions
// (/api/entries/{entryId}/permissions...). Who may act (404 when the caller
// cannot view the hub or entry, 403 when their role is short) is answered
// before the body is looked at.
#include "core/ids.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"
#include "identity/authorization.h"
#include "kb/membership_service.h"

namespace credence::http {
namespace json = boost::json;

namespace {


Schema HubRoleSchema() { return Schema::String().Enum({"Viewer", "Editor", "Admin"}); }
Schema EntryRoleSchema() { return Schema::String().Enum({"Viewer", "Editor"}); }

// `resource_key` is "hubId" or "entryId".
json::object GrantJson(const kb::Grant& g, const char* resource_key) {
  return {{"id", g.id},
          {resource_key, g.resource_id},
          {"principalType", g.is_group() ? "Group" : "User"},
          {"userId", OptJson(g.user_id)},
          {"groupId", OptJson(g.group_id)},
          {"displayName", g.display_name},
          {"role", identity::AccessLevelName(g.role)},
          {"createdAt", FormatTimestamp(g.created_at)}};
}

Schema GrantSchema(const char* resource_key, Schema role) {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required(resource_key, Schema::Uuid()),
      Required("principalType", Schema::String().Enum({"User", "Group"})),
      Required("userId", Schema::Uuid().Nullable().Describe("set when principalType is User")),
      Required("groupId", Schema::Uuid().Nullable().Describe("set when principalType is Group")),
      Required("displayName", Schema::String().Describe("the user's display name or the group's name")),
      Required("role", std::move(role)),
      Required("createdAt", Schema::Timestamp()),
  });
}

Schema HubMembershipSchema() { return GrantSchema("hubId", HubRoleSchema()); }
Schema EntryPermissionSchema() { return GrantSchema("entryId", EntryRoleSchema()); }

json::array GrantsJson(const std::vector<kb::Grant>& grants, const char* resource_key) {
  json::array out;
  for (const auto& g : grants) out.push_back(GrantJson(g, resource_key));
  return out;
}

identity::AccessLevel RoleOf(const json::object& body) {
  return identity::ParseAccessLevel(GetString(body, "role")).value_or(identity::AccessLevel::kNone);
}

}  // namespace

void AddMembershipRoutes(Router& router, const Services& s) {
  const kb::MembershipService& memberships = s.memberships;
  using PathParams = std::vector<std::pair<std::string, Schema>>;
  const PathParams hub_param = {{"hubId", Schema::Uuid()}};
  const PathParams membership_params = {{"hubId", Schema::Uuid()}, {"membershipId", Schema::Uuid()}};
  const PathParams entry_param = {{"entryId", Schema::Uuid()}};
  const PathParams permission_params = {{"entryId", Schema::Uuid()}, {"permissionId", Schema::Uuid()}};

  // Hub memberships.
  router.Add({Method::kGet, "/api/hubs/{hubId}/memberships", Auth::kUser, "",
              [&memberships](RequestContext& ctx) {
                auto list = memberships.ListHub(ctx.Caller(), CanonicalUuid(ctx.PathParam("hubId")));
                if (!list) return Problem(ctx, list.error());
                return JsonResponse(200, GrantsJson(*list, "hubId"));
              },
              {.summary = "The hub's memberships, users and groups, in the order they were granted (Hub Viewer+).",
               .tag = "memberships",
               .response = Schema::Array(HubMembershipSchema()),
               .errors = {400},
               .path_params = hub_param}});

  static const Schema kAddHubUserRequest = Schema::Object({
      Required("targetUserId", Schema::Uuid().Describe("an active user of the tenant")),
      Required("role", HubRoleSchema()),
  });
  router.Add({Method::kPost, "/api/hubs/{hubId}/memberships/users", Auth::kUser, "",
              [&memberships](RequestContext& ctx) {
                const std::string hub_id = CanonicalUuid(ctx.PathParam("hubId"));
                if (auto ok = memberships.CheckHubAdmin(ctx.Caller(), hub_id); !ok) return Problem(ctx, ok.error());
                auto body = ParseBody(ctx.request, kAddHubUserRequest);
                if (!body) return Problem(ctx, body.error());
                auto added = memberships.AddUser(ctx.Caller(), hub_id, CanonicalUuid(GetString(*body, "targetUserId")),
                                                 RoleOf(*body));
                if (!added) return Problem(ctx, added.error());
                return JsonResponse(added->created ? 201 : 200, GrantJson(added->grant, "hubId"));
              },
              {.summary = "Give a user a role in the hub (Hub Admin). 201 when added; a user who already has a "
                          "membership gets the new role and the answer is 200 with that membership.",
               .tag = "memberships",
               .request = kAddHubUserRequest,
               .response = HubMembershipSchema(),
               .success_status = 201,
               .other_success = {200},
               .path_params = hub_param}});

  static const Schema kAddHubGroupRequest = Schema::Object({
      Required("groupId", Schema::Uuid().Describe("a group of the tenant")),
      Required("role", HubRoleSchema().Describe("applies to every member of the group")),
  });
  router.Add({Method::kPost, "/api/hubs/{hubId}/memberships/groups", Auth::kUser, "",
              [&memberships](RequestContext& ctx) {
                const std::string hub_id = CanonicalUuid(ctx.PathParam("hubId"));
                if (auto ok = memberships.CheckHubAdmin(ctx.Caller(), hub_id); !ok) return Problem(ctx, ok.error());
                auto body = ParseBody(ctx.request, kAddHubGroupRequest);
                if (!body) return Problem(ctx, body.error());
                auto added = memberships.AddGroup(ctx.Caller(), hub_id, CanonicalUuid(GetString(*body, "groupId")),
                                                  RoleOf(*body));
                if (!added) return Problem(ctx, added.error());
                return JsonResponse(added->created ? 201 : 200, GrantJson(added->grant, "hubId"));
              },
              {.summary = "Give a group a role in the hub (Hub Admin); every member of the group gets it. 201 when "
                          "added; a group that already has a membership gets the new role (200).",
               .tag = "memberships",
               .request = kAddHubGroupRequest,
               .response = HubMembershipSchema(),
               .success_status = 201,
               .other_success = {200},
               .path_params = hub_param}});

  static const Schema kChangeRoleRequest = Schema::Object({Required("role", HubRoleSchema())});
  router.Add({Method::kPut, "/api/hubs/{hubId}/memberships/{membershipId}/role", Auth::kUser, "",
              [&memberships](RequestContext& ctx) {
                const std::string hub_id = CanonicalUuid(ctx.PathParam("hubId"));
                if (auto ok = memberships.CheckHubAdmin(ctx.Caller(), hub_id); !ok) return Problem(ctx, ok.error());
                auto body = ParseBody(ctx.request, kChangeRoleRequest);
                if (!body) return Problem(ctx, body.error());
                auto changed = memberships.ChangeRole(ctx.Caller(), hub_id,
                                                      CanonicalUuid(ctx.PathParam("membershipId")), RoleOf(*body));
                if (!changed) return Problem(ctx, changed.error());
                return JsonResponse(200, GrantJson(*changed, "hubId"));
              },
              {.summary = "Change a membership's role (Hub Admin); 404 when the membership is not in this hub.",
               .tag = "memberships",
               .request = kChangeRoleRequest,
               .response = HubMembershipSchema(),
               .path_params = membership_params}});

  router.Add({Method::kDelete, "/api/hubs/{hubId}/memberships/{membershipId}", Auth::kUser, "",
              [&memberships](RequestContext& ctx) {
                auto removed = memberships.Remove(ctx.Caller(), CanonicalUuid(ctx.PathParam("hubId")),
                                                  CanonicalUuid(ctx.PathParam("membershipId")));
                if (!removed) return Problem(ctx, removed.error());
                return NoContent();
              },
              {.summary = "Remove a membership (Hub Admin); 404 when it is not in this hub.",
               .tag = "memberships",
               .success_status = 204,
               .errors = {400},
               .path_params = membership_params}});

  // Entry permissions.
  router.Add({Method::kGet, "/api/entries/{entryId}/permissions", Auth::kUser, "",
              [&memberships](RequestContext& ctx) {
                auto list = memberships.ListEntry(ctx.Caller(), CanonicalUuid(ctx.PathParam("entryId")));
                if (!list) return Problem(ctx, list.error());
                return JsonResponse(200, GrantsJson(*list, "entryId"));
              },
              {.summary = "The entry's own permissions, users and groups, in the order they were granted "
                          "(Entry Viewer+). Access through the hub is not listed here.",
               .tag = "memberships",
               .response = Schema::Array(EntryPermissionSchema()),
               .errors = {400},
               .path_params = entry_param}});

  static const Schema kGrantUserRequest = Schema::Object({
      Required("targetUserId", Schema::Uuid().Describe("an active user of the tenant")),
      Required("role", EntryRoleSchema()),
  });
  router.Add({Method::kPost, "/api/entries/{entryId}/permissions/users", Auth::kUser, "",
              [&memberships](RequestContext& ctx) {
                const std::string entry_id = CanonicalUuid(ctx.PathParam("entryId"));
                if (auto ok = memberships.CheckEntryEditor(ctx.Caller(), entry_id); !ok)
                  return Problem(ctx, ok.error());
                auto body = ParseBody(ctx.request, kGrantUserRequest);
                if (!body) return Problem(ctx, body.error());
                auto granted = memberships.GrantUser(ctx.Caller(), entry_id,
                                                     CanonicalUuid(GetString(*body, "targetUserId")), RoleOf(*body));
                if (!granted) return Problem(ctx, granted.error());
                return JsonResponse(granted->created ? 201 : 200, GrantJson(granted->grant, "entryId"));
              },
              {.summary = "Give a user a role on the entry (Entry Editor+). 201 when granted; a user who already "
                          "has a permission on the entry gets the new role (200).",
               .tag = "memberships",
               .request = kGrantUserRequest,
               .response = EntryPermissionSchema(),
               .success_status = 201,
               .other_success = {200},
               .path_params = entry_param}});

  static const Schema kGrantGroupRequest = Schema::Object({
      Required("groupId", Schema::Uuid().Describe("a group of the tenant")),
      Required("role", EntryRoleSchema().Describe("applies to every member of the group")),
  });
  router.Add({Method::kPost, "/api/entries/{entryId}/permissions/groups", Auth::kUser, "",
              [&memberships](RequestContext& ctx) {
                const std::string entry_id = CanonicalUuid(ctx.PathParam("entryId"));
                if (auto ok = memberships.CheckEntryEditor(ctx.Caller(), entry_id); !ok)
                  return Problem(ctx, ok.error());
                auto body = ParseBody(ctx.request, kGrantGroupRequest);
                if (!body) return Problem(ctx, body.error());
                auto granted = memberships.GrantGroup(ctx.Caller(), entry_id,
                                                      CanonicalUuid(GetString(*body, "groupId")), RoleOf(*body));
                if (!granted) return Problem(ctx, granted.error());
                return JsonResponse(granted->created ? 201 : 200, GrantJson(granted->grant, "entryId"));
              },
              {.summary = "Give a group a role on the entry (Entry Editor+). 201 when granted; a group that already "
                          "has a permission on the entry gets the new role (200).",
               .tag = "memberships",
               .request = kGrantGroupRequest,
               .response = EntryPermissionSchema(),
               .success_status = 201,
               .other_success = {200},
               .path_params = entry_param}});

  router.Add({Method::kDelete, "/api/entries/{entryId}/permissions/{permissionId}", Auth::kUser, "",
              [&memberships](RequestContext& ctx) {
                auto revoked = memberships.Revoke(ctx.Caller(), CanonicalUuid(ctx.PathParam("entryId")),
                                                  CanonicalUuid(ctx.PathParam("permissionId")));
                if (!revoked) return Problem(ctx, revoked.error());
                return NoContent();
              },
              {.summary = "Revoke a permission (Entry Editor+); 404 when it is not on this entry.",
               .tag = "memberships",
               .success_status = 204,
               .errors = {400},
               .path_params = permission_params}});
}

}  // namespace credence::http
