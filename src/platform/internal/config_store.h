#pragma once
// The storage of tenant configuration items (docs/configuration.md,
// "Storage"): categories, tags, block-type heuristics, style rules,
// glossaries and language settings are small documents, read whole and
// written whole, each in one row of config_items keyed (tenant, kind, id)
// with a name unique per kind (ignoring case) and, for per-language kinds,
// a language. The services validate the body; this layer knows only rows.
#include <optional>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "core/clock.h"

namespace credence::storage {
class TenantSession;
}

namespace credence::platform::internal {

struct ConfigItem {
  std::string id;
  std::string name;
  std::string language;  // "" for kinds that have none
  boost::json::object body;
  TimeMs created_at = 0;
  TimeMs updated_at = 0;
};

std::vector<ConfigItem> ListItems(storage::TenantSession& tenant, std::string_view kind);
std::optional<ConfigItem> GetItem(storage::TenantSession& tenant, std::string_view kind, const std::string& id);
// The id of the item of `kind` whose name is `name` ignoring case.
std::optional<std::string> FindItemByName(storage::TenantSession& tenant, std::string_view kind,
                                          const std::string& name);
// Items whose name starts with `prefix` ignoring case, by name.
std::vector<ConfigItem> SearchItemsByPrefix(storage::TenantSession& tenant, std::string_view kind,
                                            const std::string& prefix, int64_t limit);
void InsertItem(storage::TenantSession& tenant, std::string_view kind, const ConfigItem& item);
// False when no such item.
bool UpdateItem(storage::TenantSession& tenant, std::string_view kind, const ConfigItem& item);
bool DeleteItem(storage::TenantSession& tenant, std::string_view kind, const std::string& id);

int64_t CountLinks(storage::TenantSession& tenant, const std::string& item_id);
void DeleteLinksOfItem(storage::TenantSession& tenant, const std::string& item_id);
// The ids of the items of `kind` linked to the target, by item name.
std::vector<std::string> LinksOf(storage::TenantSession& tenant, std::string_view target_type,
                                 const std::string& target_id, std::string_view kind);
// Replaces the target's links to items of `kind` by `item_ids`.
void SetLinks(storage::TenantSession& tenant, std::string_view target_type, const std::string& target_id,
              std::string_view kind, const std::vector<std::string>& item_ids);

}  // namespace credence::platform::internal
