#include "kb/hub_service.h"

#include "core/ids.h"
#include "core/json_text.h"
#include "kb/internal/entry_access.h"
#include "kb/internal/queries.h"
#include "kb/internal/rows.h"
#include "storage/session.h"

namespace credence::kb {
namespace {

using identity::RequireLevel;

Status CheckExpiryTemplate(storage::TenantSession& s, const std::optional<std::string>& id) {
  if (id && s.Run(internal::kExpiryTemplateExists, {*id}).empty())
    return Error::Validation({{"defaultExpiryTemplateId", "is not an expiry template of this tenant"}});
  return Ok();
}

}  // namespace

std::vector<Hub> HubService::List(const identity::Principal& caller) const {
  storage::Session session(db_);
  storage::TenantSession s(session, caller.tenant_id);
  std::vector<Hub> out;
  for (const auto& row :
       s.Run(internal::kListViewableHubs, {caller.user_id, caller.is_global_admin(), DefaultOrgRoleApplies(caller)}))
    out.push_back(internal::HubFromRow(row));
  return out;
}

Result<Hub> HubService::Get(const identity::Principal& caller, const std::string& key) const {
  storage::Session session(db_);
  storage::TenantSession s(session, caller.tenant_id);
  auto hub = internal::FindHubByKey(s, key);
  if (!hub) return internal::HubNotFound();
  CR_TRY(RequireLevel(HubLevel(s, caller, *hub), AccessLevel::kViewer, "hub"));
  return *hub;
}

Result<HubPermissions> HubService::Permissions(const identity::Principal& caller, const std::string& key) const {
  storage::Session session(db_);
  storage::TenantSession s(session, caller.tenant_id);
  auto hub = internal::FindHubByKey(s, key);
  if (!hub) return internal::HubNotFound();
  const AccessLevel level = HubLevel(s, caller, *hub);
  CR_TRY(RequireLevel(level, AccessLevel::kViewer, "hub"));
  return HubPermissions{level, caller.is_global_admin()};
}

Result<Hub> HubService::Create(const identity::Principal& caller, const NewHub& request) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession s(session, caller.tenant_id);
  if (internal::FindHubByKey(s, request.key))
    return Error::Conflict("hub_key_taken", "A hub with key '" + request.key + "' exists.");
  CR_TRY(CheckExpiryTemplate(s, request.default_expiry_template_id));
  Hub hub;
  hub.id = NewId();
  hub.key = request.key;
  hub.name = request.name;
  hub.default_expiry_days = request.default_expiry_days;
  hub.owner_id = caller.user_id;
  hub.category_id = request.category_id;
  hub.tag_ids = request.tag_ids;
  hub.preview_image = request.preview_image;
  hub.default_org_role = request.default_org_role;
  hub.default_expiry_template_id = request.default_expiry_template_id;
  hub.created_at = hub.updated_at = clock_.Now();
  s.Run(internal::kInsertHub, {hub.id, hub.key, hub.name, hub.default_expiry_days, hub.owner_id, hub.category_id,
                               StringListToJson(hub.tag_ids), hub.preview_image, hub.default_org_role,
                               hub.default_expiry_template_id, hub.created_at});
  session.Commit();
  return hub;
}

Result<Hub> HubService::Update(const identity::Principal& caller, const std::string& key,
                               const HubUpdate& update) const {
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession s(session, caller.tenant_id);
  auto hub = internal::FindHubByKey(s, key);
  if (!hub) return internal::HubNotFound();
  CR_TRY(RequireLevel(HubLevel(s, caller, *hub), AccessLevel::kAdmin, "hub"));
  CR_TRY(CheckExpiryTemplate(s, update.default_expiry_template_id));
  const bool template_changed = hub->default_expiry_template_id != update.default_expiry_template_id;
  hub->name = update.name;
  hub->default_expiry_days = update.default_expiry_days;
  hub->preview_image = update.preview_image;
  hub->default_org_role = update.default_org_role;
  hub->default_expiry_template_id = update.default_expiry_template_id;
  hub->updated_at = clock_.Now();
  s.Run(internal::kUpdateHub, {hub->id, hub->name, hub->default_expiry_days, hub->preview_image, hub->default_org_role,
                               hub->default_expiry_template_id, hub->updated_at});
  if (template_changed) s.Run(internal::kRecheckHubEntries, {hub->id, hub->updated_at});
  session.Commit();
  return *hub;
}

Status HubService::Delete(const identity::Principal& caller, const std::string& key) const {
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession s(session, caller.tenant_id);
  auto hub = internal::FindHubByKey(s, key);
  if (!hub) return internal::HubNotFound();
  CR_TRY(RequireLevel(HubLevel(s, caller, *hub), AccessLevel::kViewer, "hub"));
  if (!caller.is_global_admin() && hub->owner_id != caller.user_id)
    return Error::PermissionDenied("Only the hub's owner or a global admin can delete a hub.");
  if (auto denial = guards_.Check(s, {"Hub.Delete", caller.tenant_id, caller.user_id, hub->id, {{"hubKey", hub->key}}}))
    return GuardDeniedError(*denial);
  // Foreign keys cascade to entries, blocks, translations, memberships and
  // permissions; the SQLite search index is a virtual table and goes by hand.
  s.Run(internal::kSearchDeleteHub, {hub->id});
  if (session.dialect() == storage::Dialect::kSqlite) s.Run(internal::kSearchDeleteHubDocs, {hub->id});
  s.Run(internal::kDeleteHub, {hub->id});
  session.Commit();
  return Ok();
}

Result<Hub> HubService::TransferOwnership(const identity::Principal& caller, const std::string& key,
                                          const std::string& new_owner_id) const {
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession s(session, caller.tenant_id);
  auto hub = internal::FindHubByKey(s, key);
  if (!hub) return internal::HubNotFound();
  CR_TRY(RequireLevel(HubLevel(s, caller, *hub), AccessLevel::kAdmin, "hub"));
  if (s.Run(internal::kIsActiveMember, {new_owner_id}).empty())
    return Error::Validation({{"newOwnerId", "is not an active user of this tenant"}});
  hub->owner_id = new_owner_id;
  hub->updated_at = clock_.Now();
  s.Run(internal::kSetHubOwner, {hub->id, hub->owner_id, hub->updated_at});
  session.Commit();
  return *hub;
}

}  // namespace credence::kb
