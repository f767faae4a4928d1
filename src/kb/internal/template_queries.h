#pragma once
// SQL of entry templates (migration 210, kb/schema.cpp).
#include "storage/query.h"

namespace credence::kb::internal {

using storage::TenantQuery;

#define CR_TEMPLATE_COLUMNS                                                                                   \
  "id, name, description, category, language, blocks, is_official, owner_id, usage_count, rating_count,"     \
  " rating_sum, created_at, updated_at"

// $2 name pattern for LIKE ('' for any), $3 category ('' for any), $4
// filter (all, mine, official, community), $5 the caller's user id.
#define CR_TEMPLATE_FILTER                                                                                    \
  " WHERE tenant_id = $1 AND (CAST($2 AS TEXT) = '' OR name_key LIKE CAST($2 AS TEXT) ESCAPE '!')"            \
  " AND (CAST($3 AS TEXT) = '' OR category = CAST($3 AS TEXT))"                                               \
  " AND (CAST($4 AS TEXT) = 'all' OR (CAST($4 AS TEXT) = 'mine' AND owner_id = CAST($5 AS TEXT))"             \
  " OR (CAST($4 AS TEXT) = 'official' AND is_official = 1) OR (CAST($4 AS TEXT) = 'community' AND is_official = 0))"

inline constexpr TenantQuery kListTemplates{
    "kb.list_templates",
    "SELECT " CR_TEMPLATE_COLUMNS " FROM kb_templates" CR_TEMPLATE_FILTER
    " ORDER BY name_key, id LIMIT CAST($6 AS BIGINT) OFFSET CAST($7 AS BIGINT)"};

inline constexpr TenantQuery kCountTemplates{"kb.count_templates",
                                             "SELECT COUNT(*) FROM kb_templates" CR_TEMPLATE_FILTER};

inline constexpr TenantQuery kFindTemplate{
    "kb.find_template", "SELECT " CR_TEMPLATE_COLUMNS " FROM kb_templates WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kInsertTemplate{
    "kb.insert_template",
    "INSERT INTO kb_templates (tenant_id, id, name, name_key, description, category, language, blocks,"
    " is_official, owner_id, usage_count, rating_count, rating_sum, created_at, updated_at)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 0, 0, 0, $11, $11)"};

inline constexpr TenantQuery kUpdateTemplate{
    "kb.update_template",
    "UPDATE kb_templates SET name = $3, name_key = $4, description = $5, category = $6, language = $7,"
    " blocks = $8, is_official = $9, updated_at = $10 WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kDeleteTemplate{"kb.delete_template",
                                             "DELETE FROM kb_templates WHERE tenant_id = $1 AND id = $2"};
inline constexpr TenantQuery kDeleteTemplateRatings{
    "kb.delete_template_ratings", "DELETE FROM kb_template_ratings WHERE tenant_id = $1 AND template_id = $2"};
inline constexpr TenantQuery kDeleteTemplateUses{
    "kb.delete_template_uses", "DELETE FROM kb_template_uses WHERE tenant_id = $1 AND template_id = $2"};

inline constexpr TenantQuery kTemplateCategories{
    "kb.template_categories",
    "SELECT DISTINCT category FROM kb_templates WHERE tenant_id = $1 AND category IS NOT NULL ORDER BY category"};

inline constexpr TenantQuery kCountTemplateUse{
    "kb.count_template_use",
    "UPDATE kb_templates SET usage_count = usage_count + 1 WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kInsertTemplateUse{
    "kb.insert_template_use",
    "INSERT INTO kb_template_uses (tenant_id, id, template_id, user_id, used_at) VALUES ($1, $2, $3, $4, $5)"};

// One rating per user: a second one replaces the first.
inline constexpr TenantQuery kUpsertTemplateRating{
    "kb.upsert_template_rating",
    "INSERT INTO kb_template_ratings (tenant_id, template_id, user_id, stars, rated_at) VALUES ($1, $2, $3, $4, $5)"
    " ON CONFLICT (tenant_id, template_id, user_id) DO UPDATE SET stars = excluded.stars, rated_at = excluded.rated_at"};

// Takes the template's row lock (a no-op update) so that concurrent ratings
// of one template recompute its average one after the other, each seeing the
// ratings committed before it (PostgreSQL READ COMMITTED). No row: not found.
inline constexpr TenantQuery kLockTemplate{
    "kb.lock_template", "UPDATE kb_templates SET rating_count = rating_count WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kRefreshTemplateRating{
    "kb.refresh_template_rating",
    "UPDATE kb_templates SET"
    " rating_count = (SELECT COUNT(*) FROM kb_template_ratings r WHERE r.tenant_id = $1 AND r.template_id = $2),"
    " rating_sum = (SELECT COALESCE(SUM(stars), 0) FROM kb_template_ratings r WHERE r.tenant_id = $1"
    " AND r.template_id = $2) WHERE tenant_id = $1 AND id = $2"};

#undef CR_TEMPLATE_FILTER
#undef CR_TEMPLATE_COLUMNS

}  // namespace credence::kb::internal
