#pragma once
// Invitations to join a tenant (docs/sign-in.md, "Invitations"): an admin
// invites an email with a role; the invitation is recorded Pending and its
// email is queued in the persistent outbox in the same transaction; it is
// accepted when that verified email signs in (JoinOnSignIn), and may expire
// or be revoked before that.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/audit.h"
#include "identity/principal.h"

namespace credence::storage {
class Database;
class Session;
class TenantSession;
}  // namespace credence::storage

namespace credence::identity {

// The statuses an invitation can have. Expired is derived from the clock: a
// Pending invitation whose expires_at has come reads as Expired.
const std::vector<std::string>& InvitationStatuses();

inline constexpr int64_t kDefaultInvitationDays = 14;
inline constexpr int64_t kMaxInvitationDays = 365;

struct Invitation {
  std::string id;
  std::string email;  // lowercased
  TenantRole role = TenantRole::kMember;
  std::optional<std::string> display_name;
  std::string status;  // as of the time it was read (Expired derived)
  std::string invited_by;  // user id of the inviting admin
  TimeMs invited_at = 0;
  TimeMs expires_at = 0;
  std::optional<TimeMs> accepted_at;
  std::optional<std::string> accepted_user_id;
  std::optional<TimeMs> revoked_at;
  std::optional<std::string> revoked_by;
};

struct NewInvitation {
  std::string email;
  TenantRole role = TenantRole::kMember;
  std::optional<std::string> display_name;
};

// The outcome of Invite: the invitation, and whether this call created it
// (false when a Pending, unexpired invitation for the email already existed).
struct InviteOutcome {
  Invitation invitation;
  bool created = false;
};

// How invitations are made. The sign-in server configuration (decisions.md
// 10: --public-url, --oidc-config) fills public_url and providers.
struct InvitationSettings {
  // The externally visible base URL, e.g. https://credence.example.com (a
  // trailing slash is ignored). Default: http://<listen address>.
  std::string public_url = "http://127.0.0.1:8080";
  // The configured sign-in providers' names. With exactly one, the email's
  // link is <public_url>/auth/login?provider=<name>; with none or several it
  // is <public_url>/ (the sign-in page, where the person picks a provider).
  std::vector<std::string> providers;
  // How long an invitation stays acceptable (--invitation-days).
  int64_t lifetime_days = kDefaultInvitationDays;
};

// The link an invitation email carries. It holds no secret: an invitation
// is accepted by signing in with the invited, verified email.
std::string InvitationSignInLink(const InvitationSettings& settings);

// An invitation email, ready to queue.
struct InvitationEmail {
  std::string to;
  std::string subject;
  std::string text;
  std::string data_json;  // {invitationId, tenantId, tenantName, email, role, invitedBy, expiresAt, signInUrl}
};

struct InvitationEmailFacts {
  std::string tenant_id;
  std::string tenant_name;
  std::string inviter_name;
  std::string inviter_email;
  Invitation invitation;
  std::string sign_in_link;
};
InvitationEmail ComposeInvitationEmail(const InvitationEmailFacts& facts);

// Queues an invitation email inside the caller's transaction and returns the
// delivery id. The server wires it to notify::QueueEmail (identity does not
// depend on notify); without one, invitations are recorded but no email goes.
using InvitationMailer =
    std::function<std::string(storage::TenantSession& tx, const InvitationEmail& email, TimeMs now)>;

// A tenant JoinOnSignIn made the user a member of, and how.
struct JoinedTenant {
  std::string tenant_id;
  TenantRole role = TenantRole::kMember;
  std::string via;                           // "invitation" or "domain"
  std::optional<std::string> invitation_id;  // for "invitation"
};

class InvitationService {
 public:
  // Invitations sent, revoked and accepted are recorded in `audit`.
  InvitationService(storage::Database& db, const Clock& clock, const AuditRecorder& audit,
                    InvitationSettings settings = {}, InvitationMailer mailer = nullptr);

  // Global admins only. Emails compare case-insensitively. 409
  // already_member when an active member of the tenant has the email; a
  // Pending, unexpired invitation for the email is answered unchanged
  // (created == false, no second email) instead of a second one. An expired
  // one is replaced (stored as Expired) by a new invitation. A new
  // invitation's email is queued in the same transaction.
  Result<InviteOutcome> Invite(const Principal& caller, const NewInvitation& request) const;

  // Global admins only. Newest first; `status`, when given, must be one of
  // InvitationStatuses() (400 otherwise) and matches the derived status.
  Result<std::vector<Invitation>> List(const Principal& caller, const std::optional<std::string>& status) const;

  // Global admins only. 404 for an unknown id or another tenant's; a Pending
  // invitation becomes Revoked; revoking a Revoked one again changes
  // nothing; an Accepted or Expired one is 409 invitation_not_pending.
  Result<Invitation> Revoke(const Principal& caller, const std::string& invitation_id) const;

  // Called by sign-in inside its write transaction, once the user row
  // exists, with the email the provider verified. Accepts every Pending,
  // unexpired invitation for the email in every tenant (the membership is
  // created with the invited role, or a removed member's is reactivated; an
  // active member keeps their role) and joins, as Member, every tenant whose
  // domain is the email's domain and which allows all users, unless the
  // user already has a membership row there (active, or removed by an
  // admin: a removed member comes back only through a new invitation).
  // Returns the tenants joined, invitations first.
  // Each acceptance and domain join is recorded (invitation.accepted,
  // user.joined) in that tenant's chain, in `session`'s transaction.
  Result<std::vector<JoinedTenant>> JoinOnSignIn(storage::Session& session, const std::string& user_id,
                                                 const std::string& verified_email,
                                                 const RequestMeta& request = {}) const;

  const InvitationSettings& settings() const { return settings_; }

 private:
  storage::Database& db_;
  const Clock& clock_;
  InvitationSettings settings_;
  InvitationMailer mailer_;
  const AuditRecorder& audit_;
};

}  // namespace credence::identity
