#pragma once
// Hub memberships and entry permissions: who is given which role on a hub
// (Viewer, Editor, Admin) or on one entry (Viewer, Editor), as a user or as
// a group (every active member of the group gets the role). The levels they
// produce are computed in kb/access.h; this manages the grants.
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/audit.h"
#include "identity/principal.h"
#include "kb/access.h"

namespace credence::storage {
class Database;
}

namespace credence::kb {

// A hub membership or an entry permission.
struct Grant {
  std::string id;
  std::string resource_id;  // the hub's id, or the entry's
  std::optional<std::string> user_id;   // set for a user grant
  std::optional<std::string> group_id;  // set for a group grant
  std::string display_name;             // the user's display name or the group's name
  AccessLevel role = AccessLevel::kViewer;
  TimeMs created_at = 0;

  bool is_group() const { return group_id.has_value(); }
};

// The outcome of an add or a grant: the row, and whether this call created
// it (false when the user or group already had one: its role was updated).
struct GrantChange {
  Grant grant;
  bool created = false;
};

class MembershipService {
 public:
  // A deleted group's hub memberships and entry permissions go with it, in
  // the deletion's transaction (identity::GroupService's hook).
  static void ForgetGroup(storage::TenantSession& tenant, const std::string& group_id);

  // Every change of a membership or permission is recorded in `audit`.
  MembershipService(storage::Database& db, const Clock& clock, const identity::AuditRecorder& audit)
      : db_(db), clock_(clock), audit_(audit) {}

  // Who may act, checked by handlers before they read a body: 404 when the
  // hub (entry) is not in the tenant or the caller cannot view it, 403 when
  // the caller is not a Hub Admin (Entry Editor+).
  Status CheckHubAdmin(const identity::Principal& caller, const std::string& hub_id) const;
  Status CheckEntryEditor(const identity::Principal& caller, const std::string& entry_id) const;

  // Hub memberships. `hub_id` is the hub's id. Listing needs Hub Viewer+,
  // everything else Hub Admin.
  Result<std::vector<Grant>> ListHub(const identity::Principal& caller, const std::string& hub_id) const;
  // The user must be an active member of the tenant (400 on targetUserId).
  // A user who already has a membership in the hub gets the new role
  // (created == false).
  Result<GrantChange> AddUser(const identity::Principal& caller, const std::string& hub_id,
                              const std::string& target_user_id, AccessLevel role) const;
  // The group must be in the tenant (400 on groupId); upsert as AddUser.
  Result<GrantChange> AddGroup(const identity::Principal& caller, const std::string& hub_id,
                               const std::string& group_id, AccessLevel role) const;
  // 404 when the membership is not in that hub.
  Result<Grant> ChangeRole(const identity::Principal& caller, const std::string& hub_id,
                           const std::string& membership_id, AccessLevel role) const;
  Status Remove(const identity::Principal& caller, const std::string& hub_id, const std::string& membership_id) const;

  // Entry permissions. Listing needs Entry Viewer+, granting and revoking
  // Entry Editor+. Roles are Viewer or Editor.
  Result<std::vector<Grant>> ListEntry(const identity::Principal& caller, const std::string& entry_id) const;
  Result<GrantChange> GrantUser(const identity::Principal& caller, const std::string& entry_id,
                                const std::string& target_user_id, AccessLevel role) const;
  Result<GrantChange> GrantGroup(const identity::Principal& caller, const std::string& entry_id,
                                 const std::string& group_id, AccessLevel role) const;
  // 404 when the permission is not on that entry.
  Status Revoke(const identity::Principal& caller, const std::string& entry_id,
                const std::string& permission_id) const;

 private:
  storage::Database& db_;
  const Clock& clock_;
  const identity::AuditRecorder& audit_;
};

}  // namespace credence::kb
