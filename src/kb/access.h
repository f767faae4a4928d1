#pragma once
// The caller's level on a hub or an entry, from the data: global admin
// (Admin everywhere), hub ownership (Admin), hub memberships of the user and
// of their groups, the hub's default org role (for Members and Owners, not
// Guests), entry permissions (user and group) and entry ownership (Editor).
// What a level allows is decided by identity::RequireLevel.
#include "core/result.h"
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

// For modules that attach data to entries (platform's categories and tags):
// Ok when the caller's level on the entry reaches `needed`; 404 when the
// entry is not in the session's tenant or the caller cannot view it, 403
// when the caller can view it but needs more.
Status RequireEntryAccess(storage::TenantSession& session, const identity::Principal& caller,
                          const std::string& entry_id, AccessLevel needed);
// The same, answering the entry (without content) and the caller's level
// on it: for plugins that act on entries (approval-workflow).
Result<std::pair<Entry, AccessLevel>> EntryWithAccess(storage::TenantSession& session,
                                                      const identity::Principal& caller, const std::string& entry_id,
                                                      AccessLevel needed);

// Hubs name their category and tags in their own row (category_id,
// tag_ids). For platform's usage counts and detaching deletes: the number
// of hubs of the session's tenant using the category or tag `id` (`kind`
// "category" or "tag"), and removing it from them.
int64_t CountHubsUsing(storage::TenantSession& session, std::string_view kind, const std::string& id);
void DetachFromHubs(storage::TenantSession& session, std::string_view kind, const std::string& id, TimeMs now);
// The hub `key` of the session's tenant when the caller's level on it
// reaches `needed`; 404 when it is not there or the caller cannot view it,
// 403 when the caller can view it but needs more.
Result<Hub> RequireHubAccess(storage::TenantSession& session, const identity::Principal& caller,
                             const std::string& key, AccessLevel needed);
// Replaces a hub's category and tags (the caller checked access and ids).
void SetHubClassification(storage::TenantSession& session, const std::string& hub_id,
                          const std::optional<std::string>& category_id, const std::vector<std::string>& tag_ids,
                          TimeMs now);

}  // namespace credence::kb
