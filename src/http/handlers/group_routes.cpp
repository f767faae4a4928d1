// Groups (/api/groups and /groups, decisions.md 9) and invitations
// (/api/users/invite and /users/invite).
#include "core/ids.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"
#include "identity/group_service.h"
#include "identity/invitation_service.h"

namespace credence::http {
namespace json = boost::json;

namespace {

Schema TenantRoleSchema() { return Schema::String().Enum({"Owner", "Member", "Guest"}); }


json::object GroupJson(const identity::Group& g) {
  return {{"id", g.id},
          {"name", g.name},
          {"description", OptJson(g.description)},
          {"memberCount", g.member_count},
          {"createdAt", FormatTimestamp(g.created_at)}};
}

Schema GroupSchema() {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required("name", Schema::String()),
      Required("description", Schema::String().Nullable()),
      Required("memberCount", Schema::Integer().Min(0).Describe("active tenant members in the group")),
      Required("createdAt", Schema::Timestamp()),
  });
}

json::object MemberJson(const identity::GroupMember& m) {
  return {{"id", m.id},
          {"email", m.email},
          {"displayName", m.display_name},
          {"tenantRole", identity::TenantRoleName(m.role)},
          {"addedAt", FormatTimestamp(m.added_at)}};
}

Schema MemberSchema() {
  return Schema::Object({
      Required("id", Schema::Uuid().Describe("the user's id")),
      Required("email", Schema::String()),
      Required("displayName", Schema::String()),
      Required("tenantRole", TenantRoleSchema()),
      Required("addedAt", Schema::Timestamp()),
  });
}

json::object MembershipJson(const identity::GroupMembership& m) {
  return {{"groupId", m.group_id},
          {"userId", m.member.id},
          {"email", m.member.email},
          {"displayName", m.member.display_name},
          {"tenantRole", identity::TenantRoleName(m.member.role)},
          {"addedAt", FormatTimestamp(m.member.added_at)}};
}

Schema MembershipSchema() {
  return Schema::Object({
      Required("groupId", Schema::Uuid()),
      Required("userId", Schema::Uuid()),
      Required("email", Schema::String()),
      Required("displayName", Schema::String()),
      Required("tenantRole", TenantRoleSchema()),
      Required("addedAt", Schema::Timestamp()),
  });
}

json::object InvitationJson(const identity::Invitation& i) {
  return {{"id", i.id},
          {"email", i.email},
          {"role", identity::TenantRoleName(i.role)},
          {"displayName", OptJson(i.display_name)},
          {"status", i.status},
          {"invitedBy", i.invited_by},
          {"invitedAt", FormatTimestamp(i.invited_at)},
          {"expiresAt", FormatTimestamp(i.expires_at)},
          {"acceptedAt", i.accepted_at ? json::value(FormatTimestamp(*i.accepted_at)) : json::value(nullptr)},
          {"acceptedUserId", OptJson(i.accepted_user_id)},
          {"revokedAt", i.revoked_at ? json::value(FormatTimestamp(*i.revoked_at)) : json::value(nullptr)},
          {"revokedBy", OptJson(i.revoked_by)}};
}

Schema InvitationStatusSchema() { return Schema::String().Enum(identity::InvitationStatuses()); }

Schema InvitationSchema() {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required("email", Schema::String().Format("email").Describe("lowercased")),
      Required("role", TenantRoleSchema()),
      Required("displayName", Schema::String().Nullable()),
      Required("status", InvitationStatusSchema().Describe("Expired is derived from expiresAt and the clock")),
      Required("invitedBy", Schema::Uuid().Describe("the inviting admin's user id")),
      Required("invitedAt", Schema::Timestamp()),
      Required("expiresAt", Schema::Timestamp().Describe("Pending until then; Expired from then on")),
      Required("acceptedAt", Schema::Timestamp().Nullable()),
      Required("acceptedUserId", Schema::Uuid().Nullable().Describe("the user who accepted by signing in")),
      Required("revokedAt", Schema::Timestamp().Nullable()),
      Required("revokedBy", Schema::Uuid().Nullable().Describe("the revoking admin's user id")),
  });
}

}  // namespace

void AddGroupRoutes(Router& router, const Services& s) {
  const identity::GroupService& groups = s.groups;
  const identity::InvitationService& invitations = s.invitations;

  router.Add(Aliased({"/groups"}, {Method::kGet,
                                   "/api/groups",
                                   Auth::kUser,
                                   "",
                                   [&groups](RequestContext& ctx) {
                                     auto list = groups.List(ctx.Caller());
                                     if (!list) return Problem(ctx, list.error());
                                     json::array out;
                                     for (const auto& g : *list) out.push_back(GroupJson(g));
                                     return JsonResponse(200, out);
                                   },
                                   {.summary = "Every group of the tenant with its member count, by name.",
                                    .tag = "groups",
                                    .response = Schema::Array(GroupSchema())}}));

  static const Schema kCreateGroupRequest = Schema::Object({
      Required("name", Schema::String()
                           .MinLength(1)
                           .MaxLength(static_cast<int64_t>(identity::kMaxGroupNameLength))
                           .Describe("unique in the tenant, ignoring case; surrounding blanks are trimmed")),
      Optional("description", Schema::String().MaxLength(2000).Nullable().Describe("null: none")),
  });
  router.Add(Aliased({"/groups"},
                     {Method::kPost,
                      "/api/groups",
                      Auth::kTenantAdmin,
                      "",
                      [&groups](RequestContext& ctx) {
                        auto body = ParseBody(ctx.request, kCreateGroupRequest);
                        if (!body) return Problem(ctx, body.error());
                        auto group =
                            groups.Create(ctx.Caller(), GetString(*body, "name"), GetOptString(*body, "description"));
                        if (!group) return Problem(ctx, group.error());
                        return JsonResponse(201, GroupJson(*group));
                      },
                      {.summary = "Create a group (global admin). 409 group_name_taken when the tenant has a group of "
                                  "that name, ignoring case.",
                       .tag = "groups",
                       .request = kCreateGroupRequest,
                       .response = GroupSchema(),
                       .success_status = 201,
                       .errors = {409}}}));

  router.Add(Aliased({"/groups/{groupId}/members"},
                     {Method::kGet,
                      "/api/groups/{groupId}/members",
                      Auth::kUser,
                      "",
                      [&groups](RequestContext& ctx) {
                        auto members = groups.Members(ctx.Caller(), CanonicalUuid(ctx.PathParam("groupId")));
                        if (!members) return Problem(ctx, members.error());
                        json::array out;
                        for (const auto& m : *members) out.push_back(MemberJson(m));
                        return JsonResponse(200, out);
                      },
                      {.summary = "The active tenant members in the group, by display name.",
                       .tag = "groups",
                       .response = Schema::Array(MemberSchema()),
                       .path_params = {{"groupId", Schema::Uuid()}}}}));

  static const Schema kAddMemberRequest = Schema::Object({
      Optional("userId", Schema::Uuid().Describe("the user to add; userId or targetUserId is required")),
      Optional("targetUserId", Schema::Uuid().Describe("alias of userId")),
  });
  router.Add(
      Aliased({"/groups/{groupId}/members"},
              {Method::kPost,
               "/api/groups/{groupId}/members",
               Auth::kTenantAdmin,
               "",
               [&groups](RequestContext& ctx) {
                 auto body = ParseBody(ctx.request, kAddMemberRequest);
                 if (!body) return Problem(ctx, body.error());
                 auto user_id = GetOptString(*body, "userId");
                 const auto target = GetOptString(*body, "targetUserId");
                 if (!user_id && !target)
                   return Problem(ctx, Error::Validation({{"userId", "is required (or its alias targetUserId)"}}));
                 if (user_id && target && CanonicalUuid(*user_id) != CanonicalUuid(*target))
                   return Problem(ctx, Error::Validation({{"targetUserId", "must equal userId when both are given"}}));
                 auto added = groups.AddMember(ctx.Caller(), CanonicalUuid(ctx.PathParam("groupId")),
                                               CanonicalUuid(user_id ? *user_id : *target));
                 if (!added) return Problem(ctx, added.error());
                 return JsonResponse(added->created ? 201 : 200, MembershipJson(*added));
               },
               {.summary = "Add an active member of the tenant to the group (global admin). 201 when added; "
                           "adding a member again is idempotent and answers 200 with the existing membership.",
                .tag = "groups",
                .request = kAddMemberRequest,
                .response = MembershipSchema(),
                .success_status = 201,
                .other_success = {200},
                .path_params = {{"groupId", Schema::Uuid()}}}}));

  router.Add(Aliased({"/groups/{groupId}/members/{targetUserId}"},
                     {Method::kDelete,
                      "/api/groups/{groupId}/members/{targetUserId}",
                      Auth::kUser,
                      "",
                      [&groups](RequestContext& ctx) {
                        auto removed = groups.RemoveMember(ctx.Caller(), CanonicalUuid(ctx.PathParam("groupId")),
                                                           CanonicalUuid(ctx.PathParam("targetUserId")));
                        if (!removed) return Problem(ctx, removed.error());
                        return NoContent();
                      },
                      {.summary = "Remove a user from the group (global admin); 404 when they are not in it.",
                       .tag = "groups",
                       .success_status = 204,
                       .path_params = {{"groupId", Schema::Uuid()}, {"targetUserId", Schema::Uuid()}}}}));

  static const Schema kUpdateGroupRequest = Schema::Object({
      Required("name", Schema::String()
                           .MinLength(1)
                           .MaxLength(static_cast<int64_t>(identity::kMaxGroupNameLength))
                           .Describe("unique in the tenant, ignoring case; surrounding blanks are trimmed")),
      Optional("description", Schema::String().MaxLength(2000).Nullable()),
  });
  router.Add(Aliased({"/groups/{groupId}"},
                     {Method::kPut,
                      "/api/groups/{groupId}",
                      Auth::kTenantAdmin,
                      "",
                      [&groups](RequestContext& ctx) {
                        auto body = ParseBody(ctx.request, kUpdateGroupRequest);
                        if (!body) return Problem(ctx, body.error());
                        auto group = groups.Update(ctx.Caller(), CanonicalUuid(ctx.PathParam("groupId")),
                                                   GetString(*body, "name"), GetOptString(*body, "description"));
                        if (!group) return Problem(ctx, group.error());
                        return JsonResponse(200, GroupJson(*group));
                      },
                      {.summary = "Rename a group or change its description (global admin). 409 group_name_taken "
                                  "when another group has the name, ignoring case.",
                       .tag = "groups",
                       .request = kUpdateGroupRequest,
                       .response = GroupSchema(),
                       .errors = {404, 409},
                       .path_params = {{"groupId", Schema::Uuid()}}}}));

  router.Add(Aliased({"/groups/{groupId}"},
                     {Method::kDelete,
                      "/api/groups/{groupId}",
                      Auth::kTenantAdmin,
                      "",
                      [&groups](RequestContext& ctx) {
                        auto deleted = groups.Delete(ctx.Caller(), CanonicalUuid(ctx.PathParam("groupId")));
                        if (!deleted) return Problem(ctx, deleted.error());
                        return NoContent();
                      },
                      {.summary = "Delete a group (global admin): its members leave it, and the hub memberships and "
                                  "entry permissions granted to it end, in one transaction.",
                       .tag = "groups",
                       .success_status = 204,
                       .errors = {404},
                       .path_params = {{"groupId", Schema::Uuid()}}}}));

  static const Schema kInviteRequest = Schema::Object({
      Required("email", Schema::String().Format("email").MaxLength(254).Describe("compared ignoring case")),
      Optional("role", TenantRoleSchema().Describe("TenantRole on joining; default Member")),
      Optional("displayName", Schema::String().MinLength(1).MaxLength(200).Nullable().Describe("null: none")),
  });
  router.Add(Aliased(
      {"/users/invite"},
      {Method::kPost,
       "/api/users/invite",
       Auth::kTenantAdmin,
       "",
       [&invitations](RequestContext& ctx) {
         auto body = ParseBody(ctx.request, kInviteRequest);
         if (!body) return Problem(ctx, body.error());
         identity::NewInvitation request;
         request.email = GetString(*body, "email");
         request.role =
             identity::ParseTenantRole(GetString(*body, "role", "Member")).value_or(identity::TenantRole::kMember);
         request.display_name = GetOptString(*body, "displayName");
         auto invited = invitations.Invite(ctx.Caller(), request);
         if (!invited) return Problem(ctx, invited.error());
         return JsonResponse(invited->created ? 201 : 200, InvitationJson(invited->invitation));
       },
       {.summary = "Invite a person by email (global admin): the invitation is recorded as Pending and "
                   "an email with a sign-in link is queued in the same transaction. 201 when created; "
                   "an email with a Pending invitation answers 200 with that invitation unchanged (no "
                   "second email); an expired or revoked one is replaced by a new invitation; 409 "
                   "already_member when an active member has the email.",
        .tag = "users",
        .request = kInviteRequest,
        .response = InvitationSchema(),
        .success_status = 201,
        .other_success = {200},
        .errors = {409}}}));

  router.Add(Aliased({"/users/invitations"},
                     {Method::kGet,
                      "/api/users/invitations",
                      Auth::kUser,
                      "",
                      [&invitations](RequestContext& ctx) {
                        auto list = invitations.List(ctx.Caller(), ctx.request.QueryParam("status"));
                        if (!list) return Problem(ctx, list.error());
                        json::array out;
                        for (const auto& i : *list) out.push_back(InvitationJson(i));
                        return JsonResponse(200, out);
                      },
                      {.summary = "Invitations of the tenant, newest first (global admin).",
                       .tag = "users",
                       .response = Schema::Array(InvitationSchema()),
                       .query = {{"status", InvitationStatusSchema(), false, "only invitations with this status"}},
                       .errors = {400}}}));

  router.Add(Aliased({"/users/invitations/{invitationId}"},
                     {Method::kDelete,
                      "/api/users/invitations/{invitationId}",
                      Auth::kTenantAdmin,
                      "",
                      [&invitations](RequestContext& ctx) {
                        auto revoked = invitations.Revoke(ctx.Caller(), CanonicalUuid(ctx.PathParam("invitationId")));
                        if (!revoked) return Problem(ctx, revoked.error());
                        return NoContent();
                      },
                      {.summary = "Revoke a Pending invitation (global admin): it can no longer be accepted. Revoking "
                                  "a revoked invitation again changes nothing (204); an Accepted or Expired one is 409 "
                                  "invitation_not_pending.",
                       .tag = "users",
                       .success_status = 204,
                       .errors = {404, 409},
                       .path_params = {{"invitationId", Schema::Uuid()}}}}));
}

}  // namespace credence::http
