#include "identity/invitation_service.h"

#include "core/text.h"

#include <boost/json.hpp>

#include <algorithm>

#include "core/ids.h"
#include "identity/authorization.h"
#include "identity/internal/queries.h"
#include "storage/session.h"

namespace credence::identity {
namespace {

constexpr int64_t kDayMs = 86'400'000;

// Emails are compared and stored in lowercase (ASCII): "Ada@Example.com" and
// "ada@example.com" are one person.
std::string NormalizeEmail(std::string_view email) {
  std::string out(email);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

Invitation InvitationFromRow(const storage::Row& r) {
  Invitation i;
  i.id = r.Text(0);
  i.email = r.Text(1);
  i.role = ParseTenantRole(r.Text(2)).value_or(TenantRole::kMember);
  i.display_name = r.OptText(3);
  i.status = r.Text(4);
  i.invited_by = r.Text(5);
  i.invited_at = r.Int(6);
  i.expires_at = r.Int(7);
  i.accepted_at = r.OptInt(8);
  i.accepted_user_id = r.OptText(9);
  i.revoked_at = r.OptInt(10);
  i.revoked_by = r.OptText(11);
  return i;
}


// "2030-01-15 00:00 UTC"
std::string HumanTime(TimeMs t) {
  const std::string iso = FormatTimestamp(t);  // 2030-01-15T00:00:00.000Z
  return iso.substr(0, 10) + " " + iso.substr(11, 5) + " UTC";
}

std::string_view RoleSentence(TenantRole role) {
  switch (role) {
    case TenantRole::kOwner: return "an Owner (a global admin of the workspace)";
    case TenantRole::kMember: return "a Member";
    case TenantRole::kGuest: return "a Guest";
  }
  return "a Member";
}

}  // namespace

const std::vector<std::string>& InvitationStatuses() {
  static const std::vector<std::string> kStatuses = {"Pending", "Accepted", "Revoked", "Expired"};
  return kStatuses;
}

std::string InvitationSignInLink(const InvitationSettings& settings) {
  std::string base = settings.public_url;
  while (!base.empty() && base.back() == '/') base.pop_back();
  if (settings.providers.size() == 1) return base + "/auth/login?provider=" + PercentEncode(settings.providers.front());
  return base + "/";
}

InvitationEmail ComposeInvitationEmail(const InvitationEmailFacts& f) {
  const Invitation& inv = f.invitation;
  const std::string inviter =
      f.inviter_email.empty() || f.inviter_email == f.inviter_name
          ? f.inviter_name
          : (f.inviter_name.empty() ? f.inviter_email : f.inviter_name + " (" + f.inviter_email + ")");
  InvitationEmail mail;
  mail.to = inv.email;
  mail.subject = "You are invited to join " + f.tenant_name + " on Credence";
  std::string text;
  text += "Hello" + (inv.display_name ? " " + *inv.display_name : std::string()) + ",\n\n";
  text += (inviter.empty() ? std::string("An administrator") : inviter) + " invited you to join the workspace " +
          f.tenant_name + " on Credence as " + std::string(RoleSentence(inv.role)) + ".\n\n";
  text += "To accept, sign in with this email address (" + inv.email + "):\n\n";
  text += f.sign_in_link + "\n\n";
  text += "The invitation expires on " + HumanTime(inv.expires_at) +
          ". It can only be accepted by signing in with a verified account for " + inv.email +
          "; this email contains no password or code.\n\n";
  text += "If you did not expect this invitation, you can ignore this email.\n";
  mail.text = std::move(text);
  mail.data_json = boost::json::serialize(boost::json::object{{"invitationId", inv.id},
                                                              {"tenantId", f.tenant_id},
                                                              {"tenantName", f.tenant_name},
                                                              {"email", inv.email},
                                                              {"role", TenantRoleName(inv.role)},
                                                              {"invitedBy", inv.invited_by},
                                                              {"expiresAt", FormatTimestamp(inv.expires_at)},
                                                              {"signInUrl", f.sign_in_link}});
  return mail;
}

InvitationService::InvitationService(storage::Database& db, const Clock& clock, const AuditRecorder& audit,
                                     InvitationSettings settings, InvitationMailer mailer)
    : db_(db), clock_(clock), settings_(std::move(settings)), mailer_(std::move(mailer)), audit_(audit) {
  settings_.lifetime_days = std::clamp<int64_t>(settings_.lifetime_days, 1, kMaxInvitationDays);
}

Result<InviteOutcome> InvitationService::Invite(const Principal& caller, const NewInvitation& request) const {
  CR_TRY(RequireGlobalAdmin(caller));
  Invitation inv;
  inv.email = NormalizeEmail(request.email);
  if (!IsPlainEmail(inv.email)) return Error::Validation({{"email", "must be an email address"}});
  inv.id = NewId();
  inv.role = request.role;
  inv.display_name = request.display_name;
  inv.status = "Pending";
  inv.invited_by = caller.user_id;
  inv.invited_at = clock_.Now();
  inv.expires_at = inv.invited_at + settings_.lifetime_days * kDayMs;
  const TimeMs now = inv.invited_at;

  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (!tenant.Run(internal::kFindActiveMemberByEmail, {inv.email}).empty())
    return Error::Conflict("already_member", "A member of this tenant already has the email " + inv.email + ".");
  if (auto pending = tenant.Run(internal::kFindPendingInvitation, {inv.email, now}); !pending.empty()) {
    auto existing = InvitationFromRow(pending.front());
    if (existing.status == "Pending") return InviteOutcome{std::move(existing), false};
    // Expired: it is stored as such, and a new invitation replaces it.
    tenant.Run(internal::kSupersedeExpiredInvitation, {inv.email, now});
  }
  const bool inserted =
      tenant
          .Run(internal::kInsertInvitation, {inv.id, inv.email, TenantRoleName(inv.role), inv.display_name,
                                             inv.invited_by, inv.invited_at, inv.expires_at})
          .affected() > 0;
  if (!inserted) {
    // A concurrent invite for the same email committed first: answer it.
    auto pending = tenant.Run(internal::kFindPendingInvitation, {inv.email, now});
    if (pending.empty()) return Error::Conflict("conflict", "The invitation changed concurrently; try again.");
    return InviteOutcome{InvitationFromRow(pending.front()), false};
  }
  if (mailer_) {
    const auto tenant_row = session.Run(internal::kFindTenantById, {caller.tenant_id});
    InvitationEmailFacts facts;
    facts.tenant_id = caller.tenant_id;
    facts.tenant_name = tenant_row.empty() ? std::string("your organization") : tenant_row.front().Text(1);
    facts.inviter_name = caller.display_name;
    facts.inviter_email = caller.email;
    facts.invitation = inv;
    facts.sign_in_link = InvitationSignInLink(settings_);
    // The email is queued in this transaction: it exists if and only if the
    // invitation was committed, and the outbox retries it until delivered.
    mailer_(tenant, ComposeInvitationEmail(facts), now);
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
  for (const auto& row : tenant.Run(internal::kListInvitations, {clock_.Now(), status}))
    out.push_back(InvitationFromRow(row));
  return out;
}

Result<Invitation> InvitationService::Revoke(const Principal& caller, const std::string& invitation_id) const {
  CR_TRY(RequireGlobalAdmin(caller));
  const TimeMs now = clock_.Now();
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  const auto rows = tenant.Run(internal::kFindInvitation, {invitation_id, now});
  if (rows.empty()) return Error::NotFound("Invitation not found.");
  Invitation inv = InvitationFromRow(rows.front());
  if (inv.status == "Revoked") return inv;  // already: nothing changes
  if (inv.status == "Pending" && tenant.Run(internal::kRevokeInvitation, {invitation_id, now, caller.user_id})
                                         .affected() == 1) {
    audit_.Record(tenant, AuditOf(caller, "invitation.revoked", {"invitation", invitation_id}, {{"email", inv.email}}));
    session.Commit();
    inv.status = "Revoked";
    inv.revoked_at = now;
    inv.revoked_by = caller.user_id;
    return inv;
  }
  // Accepted or expired (perhaps just now, by a sign-in that committed first).
  if (inv.status == "Pending") {
    const auto again = tenant.Run(internal::kFindInvitation, {invitation_id, now});
    if (!again.empty()) inv = InvitationFromRow(again.front());
  }
  return Error::Conflict("invitation_not_pending",
                         "The invitation is " + inv.status + "; only a Pending invitation can be revoked.");
}

Result<std::vector<JoinedTenant>> InvitationService::JoinOnSignIn(storage::Session& session,
                                                                  const std::string& user_id,
                                                                  const std::string& verified_email,
                                                                  const RequestMeta& request) const {
  const std::string email = NormalizeEmail(verified_email);
  auto joined_event = [&](const char* action, AuditTarget target, boost::json::object details) {
    AuditEvent event;
    event.actor = {"user", user_id, email};
    event.action = action;
    event.target = std::move(target);
    event.request = request;
    event.details = std::move(details);
    return event;
  };
  const auto at = email.rfind('@');
  if (user_id.empty() || at == std::string::npos || at == 0 || at + 1 == email.size())
    return Error::Validation({{"email", "must be an email address"}});
  const std::string domain = email.substr(at + 1);
  const TimeMs now = clock_.Now();
  std::vector<JoinedTenant> joined;

  for (const auto& row : session.Run(internal::kPendingInvitationsForEmail, {email, now})) {
    const std::string tenant_id = row.Text(0);
    const std::string invitation_id = row.Text(1);
    const std::string role = row.Text(2);
    storage::TenantSession tenant(session, tenant_id);
    // Marked first: an invitation revoked meanwhile is not accepted, and no
    // membership comes of it.
    if (tenant.Run(internal::kAcceptInvitation, {invitation_id, now, user_id}).affected() != 1) continue;
    tenant.Run(internal::kJoinByInvitation, {user_id, role, now});
    audit_.Record(tenant, joined_event("invitation.accepted", {"invitation", invitation_id}, {{"role", role}}));
    // An active member keeps the role they had; report the one in effect.
    const auto member = tenant.Run(internal::kFindMemberRole, {user_id});
    const std::string effective = member.empty() ? role : member.front().Text(0);
    joined.push_back({tenant_id, ParseTenantRole(effective).value_or(TenantRole::kMember), "invitation", invitation_id});
  }

  for (const auto& row : session.Run(internal::kTenantsOpenToDomain, {domain})) {
    const std::string tenant_id = row.Text(0);
    storage::TenantSession tenant(session, tenant_id);
    if (tenant.Run(internal::kJoinByDomain, {user_id, now}).affected() != 1) continue;
    audit_.Record(tenant, joined_event("user.joined", {"user", user_id}, {{"via", "domain"}, {"domain", domain}}));
    joined.push_back({tenant_id, TenantRole::kMember, "domain", std::nullopt});
  }
  return joined;
}

}  // namespace credence::identity
