#pragma once
// Invitations to join a tenant. An invitation is recorded as Pending; the
// email that delivers it arrives with the notifications module.
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/audit.h"
#include "identity/principal.h"

namespace credence::storage {
class Database;
}

namespace credence::identity {

// The statuses an invitation can have. Only Pending is written today;
// Accepted, Revoked and Expired arrive with acceptance and revocation.
const std::vector<std::string>& InvitationStatuses();

struct Invitation {
  std::string id;
  std::string email;  // lowercased
  TenantRole role = TenantRole::kMember;
  std::optional<std::string> display_name;
  std::string status;
  std::string invited_by;  // user id of the inviting admin
  TimeMs invited_at = 0;
};

struct NewInvitation {
  std::string email;
  TenantRole role = TenantRole::kMember;
  std::optional<std::string> display_name;
};

// The outcome of Invite: the invitation, and whether this call created it
// (false when a Pending invitation for the email already existed).
struct InviteOutcome {
  Invitation invitation;
  bool created = false;
};

class InvitationService {
 public:
  // Invitations sent are recorded in `audit`.
  InvitationService(storage::Database& db, const Clock& clock, const AuditRecorder& audit)
      : db_(db), clock_(clock), audit_(audit) {}

  // Global admins only. Emails compare case-insensitively. 409
  // already_member when an active member of the tenant has the email; a
  // Pending invitation for the email is answered unchanged (created ==
  // false) instead of a second one.
  Result<InviteOutcome> Invite(const Principal& caller, const NewInvitation& request) const;

  // Global admins only. Newest first; `status`, when given, must be one of
  // InvitationStatuses() (400 otherwise).
  Result<std::vector<Invitation>> List(const Principal& caller, const std::optional<std::string>& status) const;

 private:
  storage::Database& db_;
  const Clock& clock_;
  const AuditRecorder& audit_;
};

}  // namespace credence::identity
