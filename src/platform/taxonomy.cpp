#include "platform/taxonomy.h"

#include <algorithm>

#include "core/ids.h"
#include "core/text.h"
#include "identity/authorization.h"
#include "kb/access.h"
#include "platform/internal/config_store.h"
#include "storage/session.h"

namespace credence::platform {
namespace json = boost::json;
namespace {

std::string Capitalized(TaxonomyKind kind) { return kind == TaxonomyKind::kCategory ? "Category" : "Tag"; }

Error NotFound(TaxonomyKind kind) { return Error::NotFound(Capitalized(kind) + " not found."); }

Error NameTaken(TaxonomyKind kind, const std::string& name) {
  return Error::Conflict(
      std::string(TaxonomyKindName(kind)) + "_name_taken",
      "A " + std::string(TaxonomyKindName(kind)) + " named '" + name + "' already exists in this tenant.");
}

TaxonomyItem FromItem(storage::TenantSession& tenant, std::string_view kind, const internal::ConfigItem& item) {
  TaxonomyItem out;
  out.id = item.id;
  out.name = item.name;
  if (const auto* v = item.body.if_contains("description"); v && v->is_string())
    out.description = std::string(v->as_string());
  out.usage_count = internal::CountLinks(tenant, item.id) + kb::CountHubsUsing(tenant, kind, item.id);
  out.created_at = item.created_at;
  out.updated_at = item.updated_at;
  return out;
}

Result<TaxonomyInput> Validated(const TaxonomyInput& input) {
  TaxonomyInput out{Trim(input.name), input.description};
  std::vector<FieldError> errors;
  if (out.name.empty()) errors.push_back({"name", "must not be blank"});
  if (Utf8Length(out.name) > kMaxTaxonomyNameLength) errors.push_back({"name", "must be at most 100 characters"});
  if (out.description && Utf8Length(*out.description) > kMaxTaxonomyDescriptionLength)
    errors.push_back({"description", "must be at most 1000 characters"});
  if (!errors.empty()) return Error::Validation(std::move(errors));
  return out;
}

bool IsUniqueViolation(const storage::StorageError& e) {
  return e.kind() == storage::StorageError::Kind::kUniqueViolation;
}

constexpr std::string_view kEntry = "entry";

Classification Read(storage::TenantSession& tenant, const std::string& entry_id) {
  Classification out;
  auto categories = internal::LinksOf(tenant, kEntry, entry_id, "category");
  if (!categories.empty()) out.category_id = categories.front();
  out.tag_ids = internal::LinksOf(tenant, kEntry, entry_id, "tag");
  return out;
}

}  // namespace

std::string_view TaxonomyKindName(TaxonomyKind kind) { return kind == TaxonomyKind::kCategory ? "category" : "tag"; }

Result<std::vector<TaxonomyItem>> TaxonomyService::List(const identity::Principal& caller, TaxonomyKind kind) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  std::vector<TaxonomyItem> out;
  for (const auto& item : internal::ListItems(tenant, TaxonomyKindName(kind)))
    out.push_back(FromItem(tenant, TaxonomyKindName(kind), item));
  return out;
}

Result<TaxonomyItem> TaxonomyService::Get(const identity::Principal& caller, TaxonomyKind kind,
                                          const std::string& id) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto item = internal::GetItem(tenant, TaxonomyKindName(kind), id);
  if (!item) return NotFound(kind);
  return FromItem(tenant, TaxonomyKindName(kind), *item);
}

Result<std::vector<TaxonomyItem>> TaxonomyService::SearchTags(const identity::Principal& caller,
                                                              const std::string& prefix, int64_t limit) const {
  CR_TRY(identity::RequireUser(caller));
  if (limit < 1 || limit > kMaxTagSearchResults)
    return Error::Validation({{"limit", "must be between 1 and " + std::to_string(kMaxTagSearchResults)}});
  if (Utf8Length(prefix) > kMaxTaxonomyNameLength) return Error::Validation({{"q", "must be at most 100 characters"}});
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  std::vector<TaxonomyItem> out;
  for (const auto& item : internal::SearchItemsByPrefix(tenant, "tag", Trim(prefix), limit))
    out.push_back(FromItem(tenant, "tag", item));
  return out;
}

Result<TaxonomyItem> TaxonomyService::Create(const identity::Principal& caller, TaxonomyKind kind,
                                             const TaxonomyInput& input) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  CR_TRY_ASSIGN(auto valid, Validated(input));
  internal::ConfigItem item;
  item.id = NewId();
  item.name = valid.name;
  if (valid.description) item.body["description"] = *valid.description;
  item.created_at = item.updated_at = clock_.Now();
  const auto kind_name = TaxonomyKindName(kind);

  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (internal::FindItemByName(tenant, kind_name, item.name)) return NameTaken(kind, item.name);
  try {
    internal::InsertItem(tenant, kind_name, item);
  } catch (const storage::StorageError& e) {
    if (IsUniqueViolation(e)) return NameTaken(kind, item.name);
    throw;
  }
  audit_.Record(tenant, identity::AuditOf(caller, std::string(kind_name) + ".created",
                                          {std::string(kind_name), item.id}, {{"name", item.name}}));
  session.Commit();
  return TaxonomyItem{item.id, item.name, valid.description, 0, item.created_at, item.updated_at};
}

Result<TaxonomyItem> TaxonomyService::Update(const identity::Principal& caller, TaxonomyKind kind,
                                             const std::string& id, const TaxonomyInput& input) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  CR_TRY_ASSIGN(auto valid, Validated(input));
  const auto kind_name = TaxonomyKindName(kind);
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto item = internal::GetItem(tenant, kind_name, id);
  if (!item) return NotFound(kind);
  if (auto other = internal::FindItemByName(tenant, kind_name, valid.name); other && *other != id)
    return NameTaken(kind, valid.name);
  const std::string previous = item->name;
  item->name = valid.name;
  item->body = {};
  if (valid.description) item->body["description"] = *valid.description;
  item->updated_at = clock_.Now();
  try {
    internal::UpdateItem(tenant, kind_name, *item);
  } catch (const storage::StorageError& e) {
    if (IsUniqueViolation(e)) return NameTaken(kind, valid.name);
    throw;
  }
  audit_.Record(tenant, identity::AuditOf(caller, std::string(kind_name) + ".updated", {std::string(kind_name), id},
                                          {{"name", item->name}, {"previousName", previous}}));
  auto out = FromItem(tenant, TaxonomyKindName(kind), *item);
  session.Commit();
  return out;
}

Status TaxonomyService::Delete(const identity::Principal& caller, TaxonomyKind kind, const std::string& id,
                               bool detach) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  const auto kind_name = TaxonomyKindName(kind);
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto item = internal::GetItem(tenant, kind_name, id);
  if (!item) return NotFound(kind);
  const int64_t used = internal::CountLinks(tenant, id) + kb::CountHubsUsing(tenant, kind_name, id);
  if (used > 0 && !detach)
    return Error::Conflict(std::string(kind_name) + "_in_use",
                           "The " + std::string(kind_name) + " '" + item->name + "' is used by " +
                               std::to_string(used) +
                               " hubs and entries; delete with ?detach=true to remove it from them.")
        .With("usageCount", std::to_string(used));
  internal::DeleteLinksOfItem(tenant, id);
  kb::DetachFromHubs(tenant, kind_name, id, clock_.Now());
  internal::DeleteItem(tenant, kind_name, id);
  audit_.Record(tenant, identity::AuditOf(caller, std::string(kind_name) + ".deleted", {std::string(kind_name), id},
                                          {{"name", item->name}, {"detached", used}}));
  session.Commit();
  return Ok();
}

Status TaxonomyService::CheckReferences(const identity::Principal& caller,
                                        const std::optional<std::string>& category_id,
                                        const std::vector<std::string>& tag_ids) const {
  CR_TRY(identity::RequireUser(caller));
  if (!category_id && tag_ids.empty()) return Ok();
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  std::vector<FieldError> errors;
  if (category_id && !internal::GetItem(tenant, "category", *category_id))
    errors.push_back({"categoryId", "not a category of this tenant"});
  for (size_t i = 0; i < tag_ids.size(); ++i)
    if (!internal::GetItem(tenant, "tag", tag_ids[i]))
      errors.push_back({"tagIds[" + std::to_string(i) + "]", "not a tag of this tenant"});
  if (!errors.empty()) return Error::Validation(std::move(errors));
  return Ok();
}

Result<Classification> TaxonomyService::HubClassification(const identity::Principal& caller, const std::string& key,
                                                          std::string& hub_id) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  CR_TRY_ASSIGN(auto hub, kb::RequireHubAccess(tenant, caller, key, identity::AccessLevel::kViewer));
  hub_id = hub.id;
  return Classification{hub.category_id, hub.tag_ids};
}

Result<Classification> TaxonomyService::ClassifyHub(const identity::Principal& caller, const std::string& key,
                                                    const std::optional<std::optional<std::string>>& category_id,
                                                    const std::optional<std::vector<std::string>>& tag_ids,
                                                    std::string& hub_id) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  CR_TRY_ASSIGN(auto hub, kb::RequireHubAccess(tenant, caller, key, identity::AccessLevel::kAdmin));
  hub_id = hub.id;
  Classification out{hub.category_id, hub.tag_ids};
  json::object details;
  if (category_id) {
    if (*category_id && !internal::GetItem(tenant, "category", **category_id))
      return Error::Validation({{"categoryId", "not a category of this tenant"}});
    out.category_id = *category_id;
    details["categoryId"] = *category_id ? json::value(**category_id) : json::value(nullptr);
  }
  if (tag_ids) {
    std::vector<std::string> tags;
    for (const auto& t : *tag_ids)
      if (std::find(tags.begin(), tags.end(), t) == tags.end()) tags.push_back(t);
    if (tags.size() > kMaxTagsPerTarget) return Error::Validation({{"tagIds", "at most 50 tags"}});
    json::array ids;
    for (size_t i = 0; i < tags.size(); ++i) {
      if (!internal::GetItem(tenant, "tag", tags[i]))
        return Error::Validation({{"tagIds[" + std::to_string(i) + "]", "not a tag of this tenant"}});
      ids.push_back(json::value(tags[i]));
    }
    out.tag_ids = std::move(tags);
    details["tagIds"] = std::move(ids);
  }
  kb::SetHubClassification(tenant, hub.id, out.category_id, out.tag_ids, clock_.Now());
  audit_.Record(tenant, identity::AuditOf(caller, "hub.classified", {"hub", hub.id}, std::move(details)));
  session.Commit();
  return out;
}

Result<Classification> TaxonomyService::EntryClassification(const identity::Principal& caller,
                                                            const std::string& entry_id) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  CR_TRY(kb::RequireEntryAccess(tenant, caller, entry_id, identity::AccessLevel::kViewer));
  return Read(tenant, entry_id);
}

Result<Classification> TaxonomyService::ClassifyEntry(const identity::Principal& caller, const std::string& entry_id,
                                                      const std::optional<std::optional<std::string>>& category_id,
                                                      const std::optional<std::vector<std::string>>& tag_ids) const {
  CR_TRY(identity::RequireUser(caller));
  std::vector<std::string> tags;
  if (tag_ids) {
    for (const auto& t : *tag_ids)
      if (std::find(tags.begin(), tags.end(), t) == tags.end()) tags.push_back(t);
    if (tags.size() > kMaxTagsPerTarget) return Error::Validation({{"tagIds", "at most 50 tags"}});
  }
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  CR_TRY(kb::RequireEntryAccess(tenant, caller, entry_id, identity::AccessLevel::kEditor));
  json::object details;
  if (category_id) {
    if (*category_id && !internal::GetItem(tenant, "category", **category_id))
      return Error::Validation({{"categoryId", "not a category of this tenant"}});
    internal::SetLinks(tenant, kEntry, entry_id, "category",
                       *category_id ? std::vector<std::string>{**category_id} : std::vector<std::string>{});
    details["categoryId"] = *category_id ? json::value(**category_id) : json::value(nullptr);
  }
  if (tag_ids) {
    for (size_t i = 0; i < tags.size(); ++i)
      if (!internal::GetItem(tenant, "tag", tags[i]))
        return Error::Validation({{"tagIds[" + std::to_string(i) + "]", "not a tag of this tenant"}});
    internal::SetLinks(tenant, kEntry, entry_id, "tag", tags);
    json::array ids;
    for (const auto& t : tags) ids.push_back(json::value(t));
    details["tagIds"] = std::move(ids);
  }
  auto out = Read(tenant, entry_id);
  audit_.Record(tenant, identity::AuditOf(caller, "entry.classified", {"entry", entry_id}, std::move(details)));
  session.Commit();
  return out;
}

}  // namespace credence::platform
