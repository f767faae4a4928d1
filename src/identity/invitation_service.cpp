#include "identity/invitation_service.h"

#include <algorithm>

#include "core/ids.h"
#include "identity/authorization.h"
#include "identity/internal/queries.h"
#include "storage/session.h"

namespace credence::identity {
namespace {

// Emails are compared and stored in lowercase (ASCII): "Ada@Example.com" and
// "ada@example.com" are one person.
std::string NormalizeEmail(std::string_view email) {
  std::string out(email);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

Invitation InvitationFromRow(const storage::Row& r) {
  return {r.Text(0), r.Text(1), ParseTenantRole(r.Text(2)).value_or(TenantRole::kMember),
          r.OptText(3), r.Text(4), r.Text(5), r.Int(6)};
}

}  // namespace

const std::vector<std::string>& InvitationStatuses() {
  static const std::vector<std::string> kStatuses = {"Pending", "Accepted", "Revoked", "Expired"};
  return kStatuses;
}

Result<InviteOutcome> InvitationService::Invite(const Principal& caller, const NewInvitation& request) const {
  CR_TRY(RequireGlobalAdmin(caller));
  Invitation inv;
  inv.email = NormalizeEmail(request.email);
  if (inv.email.empty() || inv.email.find('@') == std::string::npos)
    return Error::Validation({{"email", "must be an email address"}});
  inv.id = NewId();
  inv.role = request.role;
  inv.display_name = request.display_name;
  inv.status = "Pending";
  inv.invited_by = caller.user_id;
  inv.invited_at = clock_.Now();

  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (!tenant.Run(internal::kFindActiveMemberByEmail, {inv.email}).empty())
    return Error::Conflict("already_member", "A member of this tenant already has the email " + inv.email + ".");
  if (auto pending = tenant.Run(internal::kFindPendingInvitation, {inv.email}); !pending.empty())
    return InviteOutcome{InvitationFromRow(pending.front()), false};
  const bool inserted =
      tenant
          .Run(internal::kInsertInvitation, {inv.id, inv.email, TenantRoleName(inv.role), inv.display_name,
                                             inv.invited_by, inv.invited_at})
          .affected() > 0;
  if (!inserted) {
    // A concurrent invite for the same email committed first: answer it.
    auto pending = tenant.Run(internal::kFindPendingInvitation, {inv.email});
    if (pending.empty()) return Error::Conflict("conflict", "The invitation changed concurrently; try again.");
    return InviteOutcome{InvitationFromRow(pending.front()), false};
  }
  audit_.Record(tenant, AuditOf(caller, "invitation.sent", {"invitation", inv.id},
                                {{"email", inv.email}, {"role", TenantRoleName(inv.role)}}));
  session.Commit();
  return InviteOutcome{std::move(inv), true};
}

Result<std::vector<Invitation>> InvitationService::List(const Principal& caller,
                                                        const std::optional<std::string>& status) const {
  CR_TRY(RequireGlobalAdmin(caller));
  const auto& statuses = InvitationStatuses();
  if (status && std::find(statuses.begin(), statuses.end(), *status) == statuses.end())
    return Error::InvalidArgument("validation_failed", "The query parameter status is invalid.",
                                  {{"status", "must be one of: Pending, Accepted, Revoked, Expired"}});
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  std::vector<Invitation> out;
  for (const auto& row : tenant.Run(internal::kListInvitations, {status})) out.push_back(InvitationFromRow(row));
  return out;
}

}  // namespace credence::identity
