#include "kb/access.h"

#include <algorithm>

#include "core/json_text.h"
#include "kb/internal/entry_access.h"
#include "kb/internal/queries.h"
#include "kb/internal/rows.h"
#include "storage/session.h"

namespace credence::kb {

AccessLevel HubLevel(storage::TenantSession& session, const identity::Principal& caller, const Hub& hub) {
  if (!caller.is_user()) return AccessLevel::kNone;
  if (caller.is_global_admin() || hub.owner_id == caller.user_id) return AccessLevel::kAdmin;
  auto level =
      static_cast<AccessLevel>(session.Run(internal::kHubMembershipLevel, {hub.id, caller.user_id}).front().Int(0));
  if (hub.default_org_role && DefaultOrgRoleApplies(caller))
    level = std::max(level, identity::ParseAccessLevel(*hub.default_org_role).value_or(AccessLevel::kNone));
  return level;
}

AccessLevel EntryLevel(storage::TenantSession& session, const identity::Principal& caller, const Hub& hub,
                       const Entry& entry) {
  AccessLevel level = HubLevel(session, caller, hub);
  if (level == AccessLevel::kAdmin || !caller.is_user()) return level;
  if (entry.owner_id == caller.user_id) level = std::max(level, AccessLevel::kEditor);
  if (level >= AccessLevel::kEditor) return level;
  const auto granted =
      static_cast<AccessLevel>(session.Run(internal::kEntryPermissionLevel, {entry.id, caller.user_id}).front().Int(0));
  return std::max(level, granted);
}

int64_t CountHubsUsing(storage::TenantSession& session, std::string_view kind, const std::string& id) {
  if (kind == "category") return session.Run(internal::kCountHubsWithCategory, {id}).front().Int(0);
  int64_t count = 0;
  for (const auto& row : session.Run(internal::kHubsWithTag, {"%\"" + id + "\"%"})) {
    const auto tags = StringListFromJson(row.TextView(1));
    count += std::find(tags.begin(), tags.end(), id) != tags.end() ? 1 : 0;
  }
  return count;
}

void DetachFromHubs(storage::TenantSession& session, std::string_view kind, const std::string& id, TimeMs now) {
  if (kind == "category") {
    session.Run(internal::kClearHubCategory, {id, now});
    return;
  }
  for (const auto& row : session.Run(internal::kHubsWithTag, {"%\"" + id + "\"%"})) {
    auto tags = StringListFromJson(row.TextView(1));
    const auto before = tags.size();
    tags.erase(std::remove(tags.begin(), tags.end(), id), tags.end());
    if (tags.size() != before) session.Run(internal::kSetHubTags, {row.Text(0), StringListToJson(tags), now});
  }
}

Result<Hub> RequireHubAccess(storage::TenantSession& session, const identity::Principal& caller, const std::string& key,
                             AccessLevel needed) {
  auto hub = internal::FindHubByKey(session, key);
  if (!hub) return internal::HubNotFound();
  CR_TRY(identity::RequireLevel(HubLevel(session, caller, *hub), needed, "hub"));
  return std::move(*hub);
}

void SetHubClassification(storage::TenantSession& session, const std::string& hub_id,
                          const std::optional<std::string>& category_id, const std::vector<std::string>& tag_ids,
                          TimeMs now) {
  session.Run(internal::kSetHubClassification, {hub_id, category_id, StringListToJson(tag_ids), now});
}

}  // namespace credence::kb
