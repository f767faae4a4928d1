#pragma once
// The caller's level on a hub or an entry, from the data: global admin
// (Admin everywhere), hub ownership (Admin), hub memberships of the user and
// of their groups, the hub's default org role (for Members and Owners, not
// Guests), entry permissions (user and group) and entry ownership (Editor).
// What a level allows is decided by identity::RequireLevel.
#include "identity/authorization.h"
#include "identity/principal.h"
#include "kb/model.h"

namespace credence::storage {
class TenantSession;
}

namespace credence::kb {

using identity::AccessLevel;

// Members and Owners get a hub's default org role; Guests see only what they
// are given explicitly.
inline bool DefaultOrgRoleApplies(const identity::Principal& p) {
  return p.is_user() && p.role != identity::TenantRole::kGuest;
}

AccessLevel HubLevel(storage::TenantSession& session, const identity::Principal& caller, const Hub& hub);
AccessLevel EntryLevel(storage::TenantSession& session, const identity::Principal& caller, const Hub& hub,
                       const Entry& entry);

}  // namespace credence::kb
