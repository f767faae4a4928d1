#pragma once
// SQL of the tenant configuration (migration 701): one table of small
// configuration items of several kinds, and the links from items
// (categories, tags) to the hubs and entries that use them.
#include "storage/query.h"

namespace credence::platform::internal {

using storage::TenantQuery;

inline constexpr TenantQuery kListItems{"platform.config_list",
                                        "SELECT id, name, language, body, created_at, updated_at FROM config_items"
                                        " WHERE tenant_id = $1 AND kind = $2 ORDER BY name_key, id"};
inline constexpr TenantQuery kGetItem{"platform.config_get",
                                      "SELECT id, name, language, body, created_at, updated_at FROM config_items"
                                      " WHERE tenant_id = $1 AND kind = $2 AND id = $3"};
inline constexpr TenantQuery kFindItemByName{
    "platform.config_find_by_name", "SELECT id FROM config_items WHERE tenant_id = $1 AND kind = $2 AND name_key = $3"};
// $3 is the lowercased prefix, $4 its length in characters: a comparison
// both backends make the same way (no LIKE escaping, no collation).
inline constexpr TenantQuery kSearchItemsByPrefix{
    "platform.config_search_prefix",
    "SELECT id, name, language, body, created_at, updated_at FROM config_items"
    " WHERE tenant_id = $1 AND kind = $2 AND SUBSTR(name_key, 1, CAST($4 AS INTEGER)) = CAST($3 AS TEXT)"
    " ORDER BY name_key, id LIMIT $5"};
inline constexpr TenantQuery kInsertItem{
    "platform.config_insert",
    "INSERT INTO config_items (tenant_id, kind, id, name, name_key, language, body, created_at, updated_at)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)"};
inline constexpr TenantQuery kUpdateItem{
    "platform.config_update",
    "UPDATE config_items SET name = $4, name_key = $5, language = $6, body = $7, updated_at = $8"
    " WHERE tenant_id = $1 AND kind = $2 AND id = $3"};
inline constexpr TenantQuery kDeleteItem{"platform.config_delete",
                                         "DELETE FROM config_items WHERE tenant_id = $1 AND kind = $2 AND id = $3"};

// Links of entries deleted since are not counted (kb deletes entries
// without knowing of these links; a detaching delete drops them).
inline constexpr TenantQuery kCountLinks{
    "platform.config_count_links",
    "SELECT COUNT(*) FROM config_links l WHERE l.tenant_id = $1 AND l.item_id = $2 AND EXISTS"
    " (SELECT 1 FROM entries e WHERE e.tenant_id = l.tenant_id AND e.id = l.target_id)"};
inline constexpr TenantQuery kDeleteLinksOfItem{"platform.config_delete_links_of_item",
                                                "DELETE FROM config_links WHERE tenant_id = $1 AND item_id = $2"};
inline constexpr TenantQuery kLinksOfTarget{
    "platform.config_links_of_target",
    "SELECT l.item_id FROM config_links l JOIN config_items i ON i.tenant_id = l.tenant_id AND i.id = l.item_id"
    " WHERE l.tenant_id = $1 AND l.target_type = $2 AND l.target_id = $3 AND i.kind = $4 ORDER BY i.name_key, i.id"};
inline constexpr TenantQuery kDeleteLinksOfTarget{
    "platform.config_delete_links_of_target",
    "DELETE FROM config_links WHERE tenant_id = $1 AND target_type = $2 AND target_id = $3 AND item_id IN"
    " (SELECT id FROM config_items WHERE tenant_id = $1 AND kind = $4)"};
inline constexpr TenantQuery kInsertLink{
    "platform.config_insert_link",
    "INSERT INTO config_links (tenant_id, item_id, target_type, target_id) VALUES ($1, $2, $3, $4)"
    " ON CONFLICT DO NOTHING"};

}  // namespace credence::platform::internal
