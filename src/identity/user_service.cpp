#include "identity/user_service.h"

#include "identity/session_service.h"

#include "identity/authorization.h"
#include "identity/internal/queries.h"
#include "storage/session.h"

namespace credence::identity {

std::vector<TenantUser> UserService::List(const Principal& caller) const {
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  std::vector<TenantUser> out;
  for (const auto& row : tenant.Run(internal::kListMembers)) {
    out.push_back({row.Text(0), row.Text(1), row.Text(2), ParseTenantRole(row.Text(3)).value_or(TenantRole::kGuest),
                   row.OptText(4), row.Int(5)});
  }
  return out;
}

Status UserService::SetPreferredLanguage(const Principal& caller, const std::string& code) const {
  CR_TRY(RequireUser(caller));
  if (!IsKnownLanguage(code))
    return Error::Validation({{"languageCode", "unknown language '" + code + "' (see /api/tenant/known-languages)"}});
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  tenant.Run(internal::kSetPreferredLanguage, {caller.user_id, code});
  return Ok();
}

Status UserService::ClearPreferredLanguage(const Principal& caller) const {
  CR_TRY(RequireUser(caller));
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  tenant.Run(internal::kSetPreferredLanguage, {caller.user_id, nullptr});
  return Ok();
}

Status UserService::RemoveFromTenant(const Principal& caller, const std::string& user_id) const {
  CR_TRY(RequireGlobalAdmin(caller));
  if (user_id == caller.user_id)
    return Error::InvalidArgument("cannot_remove_self", "You cannot remove yourself from the tenant.");
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto role = tenant.Run(internal::kFindMemberRole, {user_id});
  if (role.empty()) return Error::NotFound("User not found in this tenant.");
  if (role.front().Text(0) == "Owner" && tenant.Run(internal::kCountActiveOwners).front().Int(0) <= 1)
    return Error::InvalidArgument("last_owner", "The last Owner of a tenant cannot be removed.");
  tenant.Run(internal::kDeactivateMember, {user_id, clock_.Now(), caller.user_id});
  SessionService::EndForUserInTenant(session, caller.tenant_id, user_id, clock_.Now());
  audit_.Record(tenant, AuditOf(caller, "user.removed", {"user", user_id}, {{"role", role.front().Text(0)}}));
  session.Commit();
  return Ok();
}

Status UserService::ChangeRole(const Principal& caller, const std::string& user_id, TenantRole role) const {
  CR_TRY(RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto current = tenant.Run(internal::kFindMemberRole, {user_id});
  if (current.empty()) return Error::NotFound("User not found in this tenant.");
  const std::string from = current.front().Text(0);
  const std::string to(TenantRoleName(role));
  if (from == to) return Ok();
  if (from == "Owner" && tenant.Run(internal::kCountActiveOwners).front().Int(0) <= 1)
    return Error::InvalidArgument("last_owner", "The last Owner of a tenant cannot stop being one.");
  tenant.Run(internal::kSetMemberRole, {user_id, to});
  audit_.Record(tenant, AuditOf(caller, "user.role_changed", {"user", user_id}, {{"from", from}, {"to", to}}));
  session.Commit();
  return Ok();
}

}  // namespace credence::identity
