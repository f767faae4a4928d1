#include "kb/membership_service.h"

#include "core/ids.h"
#include "kb/internal/entry_access.h"
#include "kb/internal/membership_queries.h"
#include "kb/internal/queries.h"
#include "kb/internal/rows.h"
#include "storage/session.h"

namespace credence::kb {
namespace {

using identity::RequireLevel;

// The statements of one kind of grant (hub memberships or entry permissions).
struct GrantStatements {
  const storage::TenantQuery& insert;       // $2 id, $3 resource, $4 user, $5 group, $6 role, $7 now
  const storage::TenantQuery& set_role_of;  // $2 resource, $3 user, $4 group, $5 role
  const storage::TenantQuery& find_of;      // $2 resource, $3 user, $4 group
};

const GrantStatements kHubMemberships{internal::kInsertHubMembership, internal::kSetHubMembershipRoleOf,
                                      internal::kHubMembershipOf};
const GrantStatements kEntryPermissions{internal::kInsertEntryPermission, internal::kSetEntryPermissionRoleOf,
                                        internal::kEntryPermissionOf};

Grant GrantFromRow(const storage::Row& r) {
  Grant g;
  g.id = r.Text(0);
  g.resource_id = r.Text(1);
  g.user_id = r.OptText(2);
  g.group_id = r.OptText(3);
  g.display_name = r.Text(4);
  g.role = identity::ParseAccessLevel(r.Text(5)).value_or(AccessLevel::kViewer);
  g.created_at = r.Int(6);
  return g;
}

// The hub with id `hub_id`, when the caller has at least `needed` on it:
// 404 when it is not in the tenant or the caller cannot view it, 403 when
// the caller's level is short.
Result<Hub> LoadHub(storage::TenantSession& s, const identity::Principal& caller, const std::string& hub_id,
                    AccessLevel needed) {
  auto rows = s.Run(internal::kHubById, {hub_id});
  if (rows.empty()) return internal::HubNotFound();
  Hub hub = internal::HubFromRow(rows.front());
  CR_TRY(RequireLevel(HubLevel(s, caller, hub), needed, "hub"));
  return hub;
}

Status CheckUser(storage::TenantSession& s, const std::string& user_id) {
  if (s.Run(internal::kIsActiveMember, {user_id}).empty())
    return Error::Validation({{"targetUserId", "is not an active user of this tenant"}});
  return Ok();
}

Status CheckGroup(storage::TenantSession& s, const std::string& group_id) {
  if (s.Run(internal::kGroupExists, {group_id}).empty())
    return Error::Validation({{"groupId", "is not a group of this tenant"}});
  return Ok();
}

// Gives the user or the group `role` on the resource: a new row when they
// have none, else the existing row with its role changed. Atomic statements
// only (PostgreSQL writes run in READ COMMITTED): the insert changes no row
// when one exists, even one a concurrent request has just inserted; a row
// removed between the two statements is inserted again.
Result<GrantChange> Upsert(storage::TenantSession& s, const GrantStatements& q, const std::string& resource_id,
                           const std::optional<std::string>& user_id, const std::optional<std::string>& group_id,
                           AccessLevel role, TimeMs now) {
  const std::string_view role_name = identity::AccessLevelName(role);
  bool created = false;
  for (int attempt = 0; attempt < 3; ++attempt) {
    try {
      created = s.Run(q.insert, {NewId(), resource_id, user_id, group_id, role_name, now}).affected() > 0;
    } catch (const storage::StorageError& e) {
      // The hub or entry was deleted meanwhile.
      if (e.kind() == storage::StorageError::Kind::kForeignKeyViolation) return Error::NotFound("Not found.");
      throw;
    }
    if (created || s.Run(q.set_role_of, {resource_id, user_id, group_id, role_name}).affected() > 0) break;
  }
  auto rows = s.Run(q.find_of, {resource_id, user_id, group_id});
  if (rows.empty()) return Error::Internal("The grant could not be stored; try again.");
  return GrantChange{GrantFromRow(rows.front()), created};
}

// Hub roles are Viewer, Editor or Admin; entry roles Viewer or Editor.
// What the audit log keeps of a grant.
boost::json::object GrantDetails(const Grant& g, std::string_view id_name) {
  boost::json::object d{{id_name, g.id}, {"role", identity::AccessLevelName(g.role)}};
  if (g.user_id) d["userId"] = *g.user_id;
  if (g.group_id) d["groupId"] = *g.group_id;
  return d;
}

void RecordGrant(const identity::AuditRecorder& audit, storage::TenantSession& s, const identity::Principal& caller,
                 const char* action, const char* target_type, const std::string& resource_id, const Grant& g,
                 std::string_view id_name) {
  audit.Record(s, identity::AuditOf(caller, action, {target_type, resource_id}, GrantDetails(g, id_name)));
}

Status RequireRole(AccessLevel role, AccessLevel highest) {
  if (role != AccessLevel::kNone && role <= highest) return Ok();
  return Error::Validation(
      {{"role", highest == AccessLevel::kAdmin ? "must be Viewer, Editor or Admin" : "must be Viewer or Editor"}});
}

}  // namespace

Status MembershipService::CheckHubAdmin(const identity::Principal& caller, const std::string& hub_id) const {
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY(LoadHub(s, caller, hub_id, AccessLevel::kAdmin));
  return Ok();
}

Status MembershipService::CheckEntryEditor(const identity::Principal& caller, const std::string& entry_id) const {
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY(internal::LoadEntry(s, caller, entry_id, AccessLevel::kEditor));
  return Ok();
}

// Hub memberships.

Result<std::vector<Grant>> MembershipService::ListHub(const identity::Principal& caller,
                                                      const std::string& hub_id) const {
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY(LoadHub(s, caller, hub_id, AccessLevel::kViewer));
  std::vector<Grant> out;
  for (const auto& row : s.Run(internal::kListHubMemberships, {hub_id})) out.push_back(GrantFromRow(row));
  return out;
}

Result<GrantChange> MembershipService::AddUser(const identity::Principal& caller, const std::string& hub_id,
                                               const std::string& target_user_id, AccessLevel role) const {
  CR_TRY(RequireRole(role, AccessLevel::kAdmin));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY(LoadHub(s, caller, hub_id, AccessLevel::kAdmin));
  CR_TRY(CheckUser(s, target_user_id));
  CR_TRY_ASSIGN(GrantChange out, Upsert(s, kHubMemberships, hub_id, target_user_id, std::nullopt, role, clock_.Now()));
  RecordGrant(audit_, s, caller, out.created ? "hub.member_added" : "hub.member_changed", "hub", hub_id, out.grant,
              "membershipId");
  session.Commit();
  return out;
}

Result<GrantChange> MembershipService::AddGroup(const identity::Principal& caller, const std::string& hub_id,
                                                const std::string& group_id, AccessLevel role) const {
  CR_TRY(RequireRole(role, AccessLevel::kAdmin));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY(LoadHub(s, caller, hub_id, AccessLevel::kAdmin));
  CR_TRY(CheckGroup(s, group_id));
  CR_TRY_ASSIGN(GrantChange out, Upsert(s, kHubMemberships, hub_id, std::nullopt, group_id, role, clock_.Now()));
  RecordGrant(audit_, s, caller, out.created ? "hub.member_added" : "hub.member_changed", "hub", hub_id, out.grant,
              "membershipId");
  session.Commit();
  return out;
}

Result<Grant> MembershipService::ChangeRole(const identity::Principal& caller, const std::string& hub_id,
                                            const std::string& membership_id, AccessLevel role) const {
  CR_TRY(RequireRole(role, AccessLevel::kAdmin));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY(LoadHub(s, caller, hub_id, AccessLevel::kAdmin));
  if (s.Run(internal::kSetHubMembershipRole, {hub_id, membership_id, identity::AccessLevelName(role)}).affected() == 0)
    return Error::NotFound("Membership not found.");
  auto rows = s.Run(internal::kHubMembershipById, {hub_id, membership_id});
  if (rows.empty()) return Error::NotFound("Membership not found.");
  Grant out = GrantFromRow(rows.front());
  RecordGrant(audit_, s, caller, "hub.member_changed", "hub", hub_id, out, "membershipId");
  session.Commit();
  return out;
}

Status MembershipService::Remove(const identity::Principal& caller, const std::string& hub_id,
                                 const std::string& membership_id) const {
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY(LoadHub(s, caller, hub_id, AccessLevel::kAdmin));
  if (s.Run(internal::kDeleteHubMembership, {hub_id, membership_id}).affected() == 0)
    return Error::NotFound("Membership not found.");
  audit_.Record(s, identity::AuditOf(caller, "hub.member_removed", {"hub", hub_id}, {{"membershipId", membership_id}}));
  session.Commit();
  return Ok();
}

// Entry permissions.

Result<std::vector<Grant>> MembershipService::ListEntry(const identity::Principal& caller,
                                                        const std::string& entry_id) const {
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY(internal::LoadEntry(s, caller, entry_id, AccessLevel::kViewer));
  std::vector<Grant> out;
  for (const auto& row : s.Run(internal::kListEntryPermissions, {entry_id})) out.push_back(GrantFromRow(row));
  return out;
}

Result<GrantChange> MembershipService::GrantUser(const identity::Principal& caller, const std::string& entry_id,
                                                 const std::string& target_user_id, AccessLevel role) const {
  CR_TRY(RequireRole(role, AccessLevel::kEditor));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY(internal::LoadEntry(s, caller, entry_id, AccessLevel::kEditor));
  CR_TRY(CheckUser(s, target_user_id));
  CR_TRY_ASSIGN(GrantChange out,
                Upsert(s, kEntryPermissions, entry_id, target_user_id, std::nullopt, role, clock_.Now()));
  RecordGrant(audit_, s, caller, out.created ? "entry.permission_granted" : "entry.permission_changed", "entry",
              entry_id, out.grant, "permissionId");
  session.Commit();
  return out;
}

Result<GrantChange> MembershipService::GrantGroup(const identity::Principal& caller, const std::string& entry_id,
                                                  const std::string& group_id, AccessLevel role) const {
  CR_TRY(RequireRole(role, AccessLevel::kEditor));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY(internal::LoadEntry(s, caller, entry_id, AccessLevel::kEditor));
  CR_TRY(CheckGroup(s, group_id));
  CR_TRY_ASSIGN(GrantChange out, Upsert(s, kEntryPermissions, entry_id, std::nullopt, group_id, role, clock_.Now()));
  RecordGrant(audit_, s, caller, out.created ? "entry.permission_granted" : "entry.permission_changed", "entry",
              entry_id, out.grant, "permissionId");
  session.Commit();
  return out;
}

Status MembershipService::Revoke(const identity::Principal& caller, const std::string& entry_id,
                                 const std::string& permission_id) const {
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY(internal::LoadEntry(s, caller, entry_id, AccessLevel::kEditor));
  if (s.Run(internal::kDeleteEntryPermission, {entry_id, permission_id}).affected() == 0)
    return Error::NotFound("Permission not found.");
  audit_.Record(
      s, identity::AuditOf(caller, "entry.permission_revoked", {"entry", entry_id}, {{"permissionId", permission_id}}));
  session.Commit();
  return Ok();
}

void MembershipService::ForgetGroup(storage::TenantSession& tenant, const std::string& group_id) {
  tenant.Run(internal::kDeleteGroupHubMemberships, {group_id});
  tenant.Run(internal::kDeleteGroupEntryPermissions, {group_id});
}

}  // namespace credence::kb
