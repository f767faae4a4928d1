#include "identity/group_service.h"

#include "core/ids.h"
#include "core/text.h"
#include "identity/authorization.h"
#include "identity/internal/queries.h"
#include "storage/session.h"

namespace credence::identity {
namespace {

Group GroupFromRow(const storage::Row& r) {
  return {r.Text(0), r.Text(1), r.OptText(2), r.Int(4), r.Int(3)};
}

Error GroupNotFound() { return Error::NotFound("Group not found."); }

Error NameTaken(const std::string& name) {
  return Error::Conflict("group_name_taken", "A group named '" + name + "' already exists in this tenant.");
}

}  // namespace

Result<Group> GroupService::Create(const Principal& caller, const std::string& name,
                                   const std::optional<std::string>& description) const {
  CR_TRY(RequireGlobalAdmin(caller));
  Group g;
  g.name = Trim(name);
  if (g.name.empty()) return Error::Validation({{"name", "must not be blank"}});
  if (Utf8Length(g.name) > kMaxGroupNameLength)
    return Error::Validation({{"name", "must be at most " + std::to_string(kMaxGroupNameLength) + " characters"}});
  g.id = NewId();
  g.description = description;
  g.created_at = clock_.Now();
  const std::string key = NameKey(g.name);

  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  // Checked first: on PostgreSQL a failed insert would abort the transaction.
  if (!tenant.Run(internal::kFindGroupByNameKey, {key}).empty()) return NameTaken(g.name);
  try {
    tenant.Run(internal::kInsertGroup, {g.id, g.name, key, g.description, g.created_at});
  } catch (const storage::StorageError& e) {
    // A concurrent create of the same name won the race.
    if (e.kind() == storage::StorageError::Kind::kUniqueViolation) return NameTaken(g.name);
    throw;
  }
  audit_.Record(tenant, AuditOf(caller, "group.created", {"group", g.id}, {{"name", g.name}}));
  session.Commit();
  return g;
}

Result<std::vector<Group>> GroupService::List(const Principal& caller) const {
  CR_TRY(RequireUser(caller));
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  std::vector<Group> out;
  for (const auto& row : tenant.Run(internal::kListGroups)) out.push_back(GroupFromRow(row));
  return out;
}

Result<std::vector<GroupMember>> GroupService::Members(const Principal& caller, const std::string& group_id) const {
  CR_TRY(RequireUser(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (tenant.Run(internal::kGroupExists, {group_id}).empty()) return GroupNotFound();
  std::vector<GroupMember> out;
  for (const auto& row : tenant.Run(internal::kListGroupMembers, {group_id}))
    out.push_back({row.Text(0), row.Text(1), row.Text(2), ParseTenantRole(row.Text(3)).value_or(TenantRole::kGuest),
                   row.Int(4)});
  return out;
}

Result<GroupMembership> GroupService::AddMember(const Principal& caller, const std::string& group_id,
                                                const std::string& user_id) const {
  CR_TRY(RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (tenant.Run(internal::kGroupExists, {group_id}).empty()) return GroupNotFound();
  // Only active members of this tenant: another tenant's user is not found.
  auto member = tenant.Run(internal::kFindActiveMember, {user_id});
  if (member.empty()) return Error::NotFound("User not found in this tenant.");

  GroupMembership out;
  out.group_id = group_id;
  out.member.id = user_id;
  out.member.role = ParseTenantRole(member.front().Text(0)).value_or(TenantRole::kGuest);
  out.member.email = member.front().Text(1);
  out.member.display_name = member.front().Text(2);
  const TimeMs now = clock_.Now();
  // ON CONFLICT DO NOTHING: a second add (even a concurrent one) changes no
  // row, and the existing membership is read back.
  out.created = tenant.Run(internal::kInsertGroupMember, {group_id, user_id, now}).affected() > 0;
  if (out.created) {
    out.member.added_at = now;
  } else {
    auto existing = tenant.Run(internal::kFindGroupMembership, {group_id, user_id});
    out.member.added_at = existing.empty() ? now : existing.front().Int(0);
  }
  if (out.created)
    audit_.Record(tenant, AuditOf(caller, "group.member_added", {"group", group_id},
                                  {{"userId", user_id}, {"email", out.member.email}}));
  session.Commit();
  return out;
}

Status GroupService::RemoveMember(const Principal& caller, const std::string& group_id,
                                  const std::string& user_id) const {
  CR_TRY(RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (tenant.Run(internal::kGroupExists, {group_id}).empty()) return GroupNotFound();
  if (tenant.Run(internal::kDeleteGroupMember, {group_id, user_id}).affected() == 0)
    return Error::NotFound("The user is not a member of this group.");
  audit_.Record(tenant, AuditOf(caller, "group.member_removed", {"group", group_id}, {{"userId", user_id}}));
  session.Commit();
  return Ok();
}

std::vector<std::string> GroupIdsOf(storage::TenantSession& tenant, const std::string& user_id) {
  std::vector<std::string> out;
  for (const auto& row : tenant.Run(internal::kGroupIdsOfUser, {user_id})) out.push_back(row.Text(0));
  return out;
}

Result<Group> GroupService::Update(const Principal& caller, const std::string& group_id, const std::string& name,
                                   const std::optional<std::string>& description) const {
  CR_TRY(RequireGlobalAdmin(caller));
  const std::string trimmed = Trim(name);
  if (trimmed.empty()) return Error::Validation({{"name", "must not be blank"}});
  if (Utf8Length(trimmed) > kMaxGroupNameLength)
    return Error::Validation({{"name", "must be at most " + std::to_string(kMaxGroupNameLength) + " characters"}});
  const std::string key = NameKey(trimmed);
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto found = tenant.Run(internal::kFindGroup, {group_id});
  if (found.empty()) return Error::NotFound("Group not found.");
  Group before = GroupFromRow(found.front());
  for (const auto& row : tenant.Run(internal::kFindGroupByNameKey, {key}))
    if (row.Text(0) != group_id) return NameTaken(trimmed);
  try {
    tenant.Run(internal::kUpdateGroup, {group_id, trimmed, key, description});
  } catch (const storage::StorageError& e) {
    if (e.kind() == storage::StorageError::Kind::kUniqueViolation) return NameTaken(trimmed);
    throw;
  }
  audit_.Record(tenant, AuditOf(caller, "group.updated", {"group", group_id}, {{"name", trimmed}, {"previousName", before.name}}));
  Group after = GroupFromRow(tenant.Run(internal::kFindGroup, {group_id}).front());
  session.Commit();
  return after;
}

Status GroupService::Delete(const Principal& caller, const std::string& group_id) const {
  CR_TRY(RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto found = tenant.Run(internal::kFindGroup, {group_id});
  if (found.empty()) return Error::NotFound("Group not found.");
  const Group group = GroupFromRow(found.front());
  if (group_deleted_) group_deleted_(tenant, group_id);
  tenant.Run(internal::kDeleteGroup, {group_id});
  audit_.Record(tenant, AuditOf(caller, "group.deleted", {"group", group_id},
                                {{"name", group.name}, {"memberCount", group.member_count}}));
  session.Commit();
  return Ok();
}

}  // namespace credence::identity
