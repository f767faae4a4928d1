#pragma once
// SQL of the knowledge base. $1 is always the tenant (bound by TenantSession).
#include "kb/search_schema.h"
#include "storage/query.h"

namespace credence::kb::internal {

using storage::TenantQuery;

// Access. The caller's groups, as a subquery on $3 = user id.
#define CREDENCE_KB_USER_GROUPS "(SELECT g.group_id FROM group_members g WHERE g.tenant_id = $1 AND g.user_id = $3)"

inline constexpr TenantQuery kHubMembershipLevel{
    "kb.hub_membership_level",
    "SELECT COALESCE(MAX(CASE role WHEN 'Admin' THEN 3 WHEN 'Editor' THEN 2 WHEN 'Viewer' THEN 1 ELSE 0 END), 0)"
    " FROM hub_memberships WHERE tenant_id = $1 AND hub_id = $2"
    " AND (user_id = $3 OR group_id IN " CREDENCE_KB_USER_GROUPS ")"};

inline constexpr TenantQuery kEntryPermissionLevel{
    "kb.entry_permission_level",
    "SELECT COALESCE(MAX(CASE role WHEN 'Editor' THEN 2 WHEN 'Viewer' THEN 1 ELSE 0 END), 0)"
    " FROM entry_permissions WHERE tenant_id = $1 AND entry_id = $2"
    " AND (user_id = $3 OR group_id IN " CREDENCE_KB_USER_GROUPS ")"};

// Entries the caller may open: $3 user, $4 1 when global admin, $5 1 when
// the default org role applies (not a Guest). Used inside WHERE with
// entries aliased e and hubs aliased h.
#define CREDENCE_KB_CAN_VIEW(ENTRY_ID, ENTRY_OWNER)                                                             \
  "($4 = 1 OR h.owner_id = $3 OR " ENTRY_OWNER " = $3 OR (h.default_org_role IS NOT NULL AND $5 = 1)"           \
  " OR EXISTS (SELECT 1 FROM hub_memberships m WHERE m.tenant_id = $1 AND m.hub_id = h.id"                      \
  "   AND (m.user_id = $3 OR m.group_id IN " CREDENCE_KB_USER_GROUPS "))"                                      \
  " OR EXISTS (SELECT 1 FROM entry_permissions p WHERE p.tenant_id = $1 AND p.entry_id = " ENTRY_ID              \
  "   AND (p.user_id = $3 OR p.group_id IN " CREDENCE_KB_USER_GROUPS ")))"
#define CREDENCE_KB_CAN_VIEW_ENTRY CREDENCE_KB_CAN_VIEW("e.id", "e.owner_id")

#define CREDENCE_KB_HUB_COLUMNS                                                                                \
  "h.id, h.hub_key, h.name, h.default_expiry_days, h.owner_id, h.category_id, h.tag_ids, h.preview_image,"      \
  " h.default_org_role, h.default_expiry_template_id, h.root_entry_id, h.created_at, h.updated_at"

// $2 user, $3 1 when global admin, $4 1 when the default org role applies.
inline constexpr TenantQuery kListViewableHubs{
    "kb.list_viewable_hubs",
    "SELECT " CREDENCE_KB_HUB_COLUMNS " FROM hubs h WHERE h.tenant_id = $1 AND ($3 = 1 OR h.owner_id = $2"
    " OR (h.default_org_role IS NOT NULL AND $4 = 1)"
    " OR EXISTS (SELECT 1 FROM hub_memberships m WHERE m.tenant_id = $1 AND m.hub_id = h.id"
    "   AND (m.user_id = $2 OR m.group_id IN"
    "     (SELECT g.group_id FROM group_members g WHERE g.tenant_id = $1 AND g.user_id = $2))))"
    " ORDER BY h.name, h.id"};

inline constexpr TenantQuery kHubByKey{
    "kb.hub_by_key", "SELECT " CREDENCE_KB_HUB_COLUMNS " FROM hubs h WHERE h.tenant_id = $1 AND h.hub_key = $2"};

inline constexpr TenantQuery kHubById{
    "kb.hub_by_id", "SELECT " CREDENCE_KB_HUB_COLUMNS " FROM hubs h WHERE h.tenant_id = $1 AND h.id = $2"};

inline constexpr TenantQuery kInsertHub{
    "kb.insert_hub",
    "INSERT INTO hubs (tenant_id, id, hub_key, name, default_expiry_days, owner_id, category_id, tag_ids,"
    " preview_image, default_org_role, default_expiry_template_id, created_at, updated_at)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)"};

inline constexpr TenantQuery kUpdateHub{
    "kb.update_hub",
    "UPDATE hubs SET name = $3, default_expiry_days = $4, preview_image = $5, default_org_role = $6,"
    " default_expiry_template_id = $7, updated_at = $8 WHERE tenant_id = $1 AND id = $2"};

// Categories and tags used by hubs (platform's taxonomy). Tag ids are
// UUIDs, so the LIKE pattern '%"<id>"%' has no wildcard inside the id.
inline constexpr TenantQuery kCountHubsWithCategory{
    "kb.count_hubs_with_category", "SELECT COUNT(*) FROM hubs WHERE tenant_id = $1 AND category_id = $2"};
inline constexpr TenantQuery kClearHubCategory{
    "kb.clear_hub_category",
    "UPDATE hubs SET category_id = NULL, updated_at = $3 WHERE tenant_id = $1 AND category_id = $2"};
inline constexpr TenantQuery kHubsWithTag{"kb.hubs_with_tag",
                                          "SELECT id, tag_ids FROM hubs WHERE tenant_id = $1 AND tag_ids LIKE $2"};
inline constexpr TenantQuery kSetHubClassification{
    "kb.set_hub_classification",
    "UPDATE hubs SET category_id = $3, tag_ids = $4, updated_at = $5 WHERE tenant_id = $1 AND id = $2"};
inline constexpr TenantQuery kSetHubTags{
    "kb.set_hub_tags", "UPDATE hubs SET tag_ids = $3, updated_at = $4 WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kSetHubOwner{
    "kb.set_hub_owner", "UPDATE hubs SET owner_id = $3, updated_at = $4 WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kSetHubRoot{
    "kb.set_hub_root", "UPDATE hubs SET root_entry_id = $3, updated_at = $4 WHERE tenant_id = $1 AND id = $2"};

// Expiry templates are the lifecycle module's; a hub refers to one as its
// default.
inline constexpr TenantQuery kExpiryTemplateExists{
    "kb.expiry_template_exists", "SELECT 1 FROM expiry_templates WHERE tenant_id = $1 AND id = $2"};

// The expiry scheduler looks at the hub's entries again (their template may
// have changed with the hub's default).
inline constexpr TenantQuery kRecheckHubEntries{
    "kb.recheck_hub_entries",
    "UPDATE entries SET next_check_at = $3 WHERE tenant_id = $1 AND hub_id = $2 AND expiry_template_id IS NULL"};

inline constexpr TenantQuery kDeleteHub{"kb.delete_hub", "DELETE FROM hubs WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kIsActiveMember{
    "kb.is_active_member", "SELECT 1 FROM tenant_members WHERE tenant_id = $1 AND user_id = $2 AND is_active = 1"};

// Entries.
// The last three columns are the expiry facts the status a reader sees is
// derived from (docs/lifecycle.md): the pause instant and the windows of the
// expiry template that applies, resolved as lifecycle's ExpiryService does
// (entry custom, hub default, tenant default). expiry_templates and the
// pause column belong to the lifecycle module's migrations.
#define CREDENCE_KB_ENTRY_COLUMNS                                                                              \
  "e.id, e.hub_id, h.hub_key, e.entry_key, e.title, e.original_language, e.status, e.expiry_at, e.owner_id,"   \
  " e.preview_image, e.version, e.created_at, e.updated_at, e.content_updated_at, e.published_at,"             \
  " e.paused_at, COALESCE(xt.warning_days, 0), COALESCE(xt.grace_days, 0)"

// entries e joined with their hub h and the expiry template xt that applies.
#define CREDENCE_KB_ENTRY_FROM                                                                                 \
  " FROM entries e JOIN hubs h ON h.tenant_id = e.tenant_id AND h.id = e.hub_id"                               \
  " LEFT JOIN expiry_templates xt ON xt.tenant_id = e.tenant_id AND xt.id = COALESCE("                         \
  "(SELECT x.id FROM expiry_templates x WHERE x.tenant_id = e.tenant_id AND x.id = e.expiry_template_id),"     \
  " (SELECT x.id FROM expiry_templates x WHERE x.tenant_id = e.tenant_id AND x.id = h.default_expiry_template_id)," \
  " (SELECT x.id FROM expiry_templates x WHERE x.tenant_id = e.tenant_id AND x.is_default = 1))"

inline constexpr TenantQuery kEntryById{
    "kb.entry_by_id",
    "SELECT " CREDENCE_KB_ENTRY_COLUMNS ", e.content, " CREDENCE_KB_HUB_COLUMNS
    CREDENCE_KB_ENTRY_FROM " WHERE e.tenant_id = $1 AND e.id = $2"};

// The same without the content column (which can be large): for writes and
// checks that never show the document.
inline constexpr TenantQuery kEntryMetaById{
    "kb.entry_meta_by_id",
    "SELECT " CREDENCE_KB_ENTRY_COLUMNS ", '', " CREDENCE_KB_HUB_COLUMNS
    CREDENCE_KB_ENTRY_FROM " WHERE e.tenant_id = $1 AND e.id = $2"};

// Every entry of the tenant in id order after $2, at most $3: an AI
// application's listing (EntryService::ListForApplication).
inline constexpr TenantQuery kEntriesAfter{
    "kb.entries_after",
    "SELECT " CREDENCE_KB_ENTRY_COLUMNS CREDENCE_KB_ENTRY_FROM " WHERE e.tenant_id = $1 AND e.id > $2"
    " ORDER BY e.id LIMIT $3"};

inline constexpr TenantQuery kEntryContent{
    "kb.entry_content", "SELECT content FROM entries WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kEntriesOfHub{
    "kb.entries_of_hub",
    "SELECT " CREDENCE_KB_ENTRY_COLUMNS CREDENCE_KB_ENTRY_FROM
    " WHERE e.tenant_id = $1 AND e.hub_id = $2 ORDER BY e.title, e.id"};

inline constexpr TenantQuery kExpiredViewable{
    "kb.expired_viewable",
    "SELECT " CREDENCE_KB_ENTRY_COLUMNS CREDENCE_KB_ENTRY_FROM
    " WHERE e.tenant_id = $1 AND e.expiry_at < $2 AND " CREDENCE_KB_CAN_VIEW_ENTRY " ORDER BY e.expiry_at, e.id"};

inline constexpr TenantQuery kEntryKeyTaken{
    "kb.entry_key_taken", "SELECT 1 FROM entries WHERE tenant_id = $1 AND hub_id = $2 AND entry_key = $3"};

inline constexpr TenantQuery kInsertEntry{
    "kb.insert_entry",
    "INSERT INTO entries (tenant_id, id, hub_id, entry_key, title, content, original_language, status, expiry_at,"
    " owner_id, preview_image, version, created_at, updated_at, content_updated_at)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 1, $12, $12, $12)"};

inline constexpr TenantQuery kUpdateEntry{
    "kb.update_entry",
    "UPDATE entries SET title = $3, content = $4, preview_image = $5, status = $6, version = version + 1,"
    " updated_at = $7, content_updated_at = $8, next_check_at = $7 WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kSetEntryStatus{
    "kb.set_entry_status",
    "UPDATE entries SET status = $3, published_at = COALESCE(published_at, $4), updated_at = $4,"
    " next_check_at = $4 WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kSetEntryOwner{
    "kb.set_entry_owner", "UPDATE entries SET owner_id = $3, updated_at = $4 WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kSetOriginalLanguage{
    "kb.set_original_language",
    "UPDATE entries SET original_language = $3, updated_at = $4 WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kDeleteEntry{"kb.delete_entry", "DELETE FROM entries WHERE tenant_id = $1 AND id = $2"};

// Blocks.
inline constexpr TenantQuery kBlocksOfEntry{
    "kb.blocks_of_entry",
    "SELECT block_id, position, hash, node, is_deleted FROM entry_blocks WHERE tenant_id = $1 AND entry_id = $2"
    " ORDER BY position, is_deleted DESC, block_id"};

inline constexpr TenantQuery kBlockHashesOfEntry{
    "kb.block_hashes_of_entry",
    "SELECT block_id, position, hash, is_deleted FROM entry_blocks WHERE tenant_id = $1 AND entry_id = $2"};

inline constexpr TenantQuery kInsertBlock{
    "kb.insert_block",
    "INSERT INTO entry_blocks (tenant_id, entry_id, block_id, position, hash, node, is_deleted)"
    " VALUES ($1, $2, $3, $4, $5, $6, 0)"};

inline constexpr TenantQuery kUpdateBlock{
    "kb.update_block",
    "UPDATE entry_blocks SET position = $4, hash = $5, node = $6, is_deleted = 0"
    " WHERE tenant_id = $1 AND entry_id = $2 AND block_id = $3"};

inline constexpr TenantQuery kMoveBlock{
    "kb.move_block",
    "UPDATE entry_blocks SET position = $4, is_deleted = 0 WHERE tenant_id = $1 AND entry_id = $2 AND block_id = $3"};

inline constexpr TenantQuery kSoftDeleteBlock{
    "kb.soft_delete_block",
    "UPDATE entry_blocks SET is_deleted = 1 WHERE tenant_id = $1 AND entry_id = $2 AND block_id = $3"};

inline constexpr TenantQuery kDeleteBlock{
    "kb.delete_block", "DELETE FROM entry_blocks WHERE tenant_id = $1 AND entry_id = $2 AND block_id = $3"};

inline constexpr TenantQuery kTranslatedBlockIds{
    "kb.translated_block_ids",
    "SELECT DISTINCT block_id FROM translation_blocks WHERE tenant_id = $1 AND entry_id = $2"};

// Translations. Staleness is derived, never stored: a translated block is
// stale when the hash it was translated from differs from the original
// block's current hash.
inline constexpr TenantQuery kTranslationSummaries{
    "kb.translation_summaries",
    "SELECT t.language, t.title, t.updated_at,"
    " (SELECT COUNT(*) FROM translation_blocks tb JOIN entry_blocks eb ON eb.tenant_id = tb.tenant_id"
    "   AND eb.entry_id = tb.entry_id AND eb.block_id = tb.block_id"
    "   WHERE tb.tenant_id = t.tenant_id AND tb.entry_id = t.entry_id AND tb.language = t.language"
    "   AND eb.is_deleted = 0 AND tb.source_hash <> eb.hash),"
    " (SELECT COUNT(*) FROM translation_blocks tb JOIN entry_blocks eb ON eb.tenant_id = tb.tenant_id"
    "   AND eb.entry_id = tb.entry_id AND eb.block_id = tb.block_id"
    "   WHERE tb.tenant_id = t.tenant_id AND tb.entry_id = t.entry_id AND tb.language = t.language"
    "   AND eb.is_deleted = 0),"
    " (SELECT COUNT(*) FROM entry_blocks eb WHERE eb.tenant_id = t.tenant_id AND eb.entry_id = t.entry_id"
    "   AND eb.is_deleted = 0),"
    " (SELECT COUNT(*) FROM translation_blocks tb JOIN entry_blocks eb ON eb.tenant_id = tb.tenant_id"
    "   AND eb.entry_id = tb.entry_id AND eb.block_id = tb.block_id"
    "   WHERE tb.tenant_id = t.tenant_id AND tb.entry_id = t.entry_id AND tb.language = t.language"
    "   AND eb.is_deleted = 0 AND tb.machine_translated = 1)"
    " FROM translations t WHERE t.tenant_id = $1 AND t.entry_id = $2 AND ($3 = '' OR t.language = $3)"
    " ORDER BY t.language"};

inline constexpr TenantQuery kTranslationRow{
    "kb.translation_row",
    "SELECT title, updated_at FROM translations WHERE tenant_id = $1 AND entry_id = $2 AND language = $3"};

inline constexpr TenantQuery kTranslationBlocks{
    "kb.translation_blocks",
    "SELECT block_id, node, source_hash, machine_translated FROM translation_blocks"
    " WHERE tenant_id = $1 AND entry_id = $2 AND language = $3"};

inline constexpr TenantQuery kDeleteTranslationBlock{
    "kb.delete_translation_block",
    "DELETE FROM translation_blocks WHERE tenant_id = $1 AND entry_id = $2 AND language = $3 AND block_id = $4"};

inline constexpr TenantQuery kInsertMachineTranslationBlock{
    "kb.insert_machine_translation_block",
    "INSERT INTO translation_blocks (tenant_id, entry_id, language, block_id, node, source_hash, machine_translated)"
    " VALUES ($1, $2, $3, $4, $5, $6, 1)"};

inline constexpr TenantQuery kConfirmMachineTranslatedBlock{
    "kb.confirm_machine_translated_block",
    "UPDATE translation_blocks SET machine_translated = 0"
    " WHERE tenant_id = $1 AND entry_id = $2 AND language = $3 AND block_id = $4 AND machine_translated = 1"};

inline constexpr TenantQuery kMarkTranslationBlockUpToDate{
    "kb.mark_translation_block_up_to_date",
    "UPDATE translation_blocks SET source_hash = (SELECT eb.hash FROM entry_blocks eb"
    "   WHERE eb.tenant_id = translation_blocks.tenant_id AND eb.entry_id = translation_blocks.entry_id"
    "   AND eb.block_id = translation_blocks.block_id)"
    " WHERE tenant_id = $1 AND entry_id = $2 AND language = $3 AND block_id = $4"};

inline constexpr TenantQuery kConfirmMachineTranslation{
    "kb.confirm_machine_translation",
    "UPDATE translation_blocks SET machine_translated = 0"
    " WHERE tenant_id = $1 AND entry_id = $2 AND language = $3 AND machine_translated = 1"};

inline constexpr TenantQuery kInsertTranslation{
    "kb.insert_translation",
    "INSERT INTO translations (tenant_id, entry_id, language, title, created_at, updated_at, updated_by)"
    " VALUES ($1, $2, $3, $4, $5, $5, $6)"};

inline constexpr TenantQuery kUpdateTranslation{
    "kb.update_translation",
    "UPDATE translations SET title = $4, updated_at = $5, updated_by = $6"
    " WHERE tenant_id = $1 AND entry_id = $2 AND language = $3"};

inline constexpr TenantQuery kInsertTranslationBlock{
    "kb.insert_translation_block",
    "INSERT INTO translation_blocks (tenant_id, entry_id, language, block_id, node, source_hash)"
    " VALUES ($1, $2, $3, $4, $5, $6)"};

inline constexpr TenantQuery kDeleteTranslationBlocks{
    "kb.delete_translation_blocks",
    "DELETE FROM translation_blocks WHERE tenant_id = $1 AND entry_id = $2 AND language = $3"};

inline constexpr TenantQuery kDeleteTranslation{
    "kb.delete_translation", "DELETE FROM translations WHERE tenant_id = $1 AND entry_id = $2 AND language = $3"};

inline constexpr TenantQuery kMarkTranslationUpToDate{
    "kb.mark_translation_up_to_date",
    "UPDATE translation_blocks SET source_hash = (SELECT eb.hash FROM entry_blocks eb"
    "   WHERE eb.tenant_id = translation_blocks.tenant_id AND eb.entry_id = translation_blocks.entry_id"
    "   AND eb.block_id = translation_blocks.block_id)"
    " WHERE tenant_id = $1 AND entry_id = $2 AND language = $3"};

inline constexpr TenantQuery kDeleteGroupHubMemberships{
    "kb.delete_group_hub_memberships", "DELETE FROM hub_memberships WHERE tenant_id = $1 AND group_id = $2"};

inline constexpr TenantQuery kDeleteGroupEntryPermissions{
    "kb.delete_group_entry_permissions", "DELETE FROM entry_permissions WHERE tenant_id = $1 AND group_id = $2"};

inline constexpr TenantQuery kStaleBlocks{
    "kb.stale_blocks",
    "SELECT tb.block_id, tb.source_hash, eb.hash, eb.node, tb.node, v.node FROM translation_blocks tb"
    " JOIN entry_blocks eb ON eb.tenant_id = tb.tenant_id AND eb.entry_id = tb.entry_id AND eb.block_id = tb.block_id"
    " LEFT JOIN entry_block_versions v ON v.tenant_id = tb.tenant_id AND v.entry_id = tb.entry_id"
    " AND v.block_id = tb.block_id AND v.hash = tb.source_hash"
    " WHERE tb.tenant_id = $1 AND tb.entry_id = $2 AND tb.language = $3 AND eb.is_deleted = 0"
    " AND tb.source_hash <> eb.hash ORDER BY eb.position"};

// Before an original block changes: its current text is kept when a
// translation was made from it.
inline constexpr TenantQuery kKeepTranslatedBlockVersion{
    "kb.keep_translated_block_version",
    "INSERT INTO entry_block_versions (tenant_id, entry_id, block_id, hash, node)"
    " SELECT eb.tenant_id, eb.entry_id, eb.block_id, eb.hash, eb.node FROM entry_blocks eb"
    " WHERE eb.tenant_id = $1 AND eb.entry_id = $2 AND eb.block_id = $3 AND EXISTS (SELECT 1 FROM translation_blocks tb"
    " WHERE tb.tenant_id = eb.tenant_id AND tb.entry_id = eb.entry_id AND tb.block_id = eb.block_id"
    " AND tb.source_hash = eb.hash) ON CONFLICT DO NOTHING"};

// Versions no translation points at any more.
inline constexpr TenantQuery kDropUnreferencedBlockVersions{
    "kb.drop_unreferenced_block_versions",
    "DELETE FROM entry_block_versions WHERE tenant_id = $1 AND entry_id = $2 AND NOT EXISTS (SELECT 1"
    " FROM translation_blocks tb WHERE tb.tenant_id = entry_block_versions.tenant_id"
    " AND tb.entry_id = entry_block_versions.entry_id AND tb.block_id = entry_block_versions.block_id"
    " AND tb.source_hash = entry_block_versions.hash)"};

// Search maintenance. SQLite: FTS rows keyed by search_docs.rowid;
// PostgreSQL: entry_search rows, cascading with their entry.
inline constexpr TenantQuery kSearchDelete{
    "kb.search_delete",
    "DELETE FROM entry_search WHERE rowid = (SELECT rowid FROM search_docs WHERE tenant_id = $1 AND entry_id = $2)",
    "DELETE FROM entry_search WHERE tenant_id = $1 AND entry_id = $2"};

inline constexpr TenantQuery kSearchDeleteDoc = TenantQuery::SqliteOnly(
    "kb.search_delete_doc", "DELETE FROM search_docs WHERE tenant_id = $1 AND entry_id = $2");

inline constexpr TenantQuery kSearchDeleteHub{
    "kb.search_delete_hub",
    "DELETE FROM entry_search WHERE rowid IN (SELECT rowid FROM search_docs WHERE tenant_id = $1 AND hub_id = $2)",
    "DELETE FROM entry_search WHERE tenant_id = $1 AND hub_id = $2"};

inline constexpr TenantQuery kSearchDeleteHubDocs = TenantQuery::SqliteOnly(
    "kb.search_delete_hub_docs", "DELETE FROM search_docs WHERE tenant_id = $1 AND hub_id = $2");

inline constexpr TenantQuery kSearchUpsertDoc = TenantQuery::SqliteOnly(
    "kb.search_upsert_doc",
    "INSERT INTO search_docs (tenant_id, entry_id, hub_id, owner_id)"
    " SELECT $1, $2, hub_id, owner_id FROM entries WHERE tenant_id = $1 AND id = $2"
    " ON CONFLICT (tenant_id, entry_id) DO UPDATE SET hub_id = excluded.hub_id, owner_id = excluded.owner_id");

inline constexpr TenantQuery kSearchSetOwner = TenantQuery::SqliteOnly(
    "kb.search_set_owner", "UPDATE search_docs SET owner_id = $3 WHERE tenant_id = $1 AND entry_id = $2");

inline constexpr TenantQuery kSearchInsert{
    "kb.search_insert",
    "INSERT INTO entry_search (rowid, title, body)"
    " SELECT rowid, $3, $4 FROM search_docs WHERE tenant_id = $1 AND entry_id = $2",
    "INSERT INTO entry_search (tenant_id, entry_id, hub_id, title, document)"
    " SELECT $1, $2, hub_id, CAST($3 AS TEXT), "
    CREDENCE_KB_SEARCH_DOCUMENT("CAST($3 AS TEXT)", "CAST($4 AS TEXT)")
    " FROM entries WHERE tenant_id = $1 AND id = $2"};

// SQLite search runs in three steps so that a common word matching most of
// the corpus costs a bounded amount of work: (1) the newest N matching
// entries the caller may open (FTS5 walks postings in rowid order and stops);
// (2) bm25 ranking of the matches in that rowid range only; (3) details and a
// snippet for the top results.
// (1): $2 match, $3..$5 caller (CAN_VIEW), $6 hub key or '', $7 N.
inline constexpr TenantQuery kSearchCandidates = TenantQuery::SqliteOnly(
    "kb.search_candidates",
    "SELECT d.rowid FROM entry_search JOIN search_docs d ON d.rowid = entry_search.rowid"
    " JOIN hubs h ON h.tenant_id = d.tenant_id AND h.id = d.hub_id"
    " WHERE entry_search MATCH $2 AND d.tenant_id = $1 AND ($6 = '' OR h.hub_key = $6)"
    " AND " CREDENCE_KB_CAN_VIEW("d.entry_id", "d.owner_id") " ORDER BY entry_search.rowid DESC LIMIT $7");

// (2): $2 match, $3 lowest candidate rowid.
inline constexpr TenantQuery kSearchRank = TenantQuery::SqliteOnly(
    "kb.search_rank",
    "SELECT entry_search.rowid FROM entry_search JOIN search_docs d ON d.rowid = entry_search.rowid"
    " WHERE entry_search MATCH $2 AND entry_search.rowid >= $3 AND d.tenant_id = $1"
    " ORDER BY bm25(entry_search, 10.0, 1.0)");

// (3): $2 match, $3 rowid.
inline constexpr TenantQuery kSearchDetails = TenantQuery::SqliteOnly(
    "kb.search_details",
    "SELECT e.id, e.title, e.entry_key, e.hub_id, h.hub_key, e.original_language, e.status,"
    " snippet(entry_search, 1, '', '', '...', 12)"
    " FROM entry_search JOIN search_docs d ON d.rowid = entry_search.rowid"
    " JOIN entries e ON e.tenant_id = d.tenant_id AND e.id = d.entry_id"
    " JOIN hubs h ON h.tenant_id = e.tenant_id AND h.id = e.hub_id"
    " WHERE entry_search MATCH $2 AND entry_search.rowid = $3 AND d.tenant_id = $1");

// PostgreSQL: one ranked query. $2 match, $6 hub key or '', $7 limit.
inline constexpr TenantQuery kSearch = TenantQuery::PostgresOnly(
    "kb.search",
    "SELECT e.id, e.title, e.entry_key, e.hub_id, h.hub_key, e.original_language, e.status, ''"
    " FROM entry_search s JOIN entries e ON e.tenant_id = s.tenant_id AND e.id = s.entry_id"
    " JOIN hubs h ON h.tenant_id = e.tenant_id AND h.id = e.hub_id"
    " WHERE s.tenant_id = $1 AND s.document @@ to_tsquery('simple', CAST($2 AS TEXT))"
    " AND (CAST($6 AS TEXT) = '' OR h.hub_key = $6)"
    " AND " CREDENCE_KB_CAN_VIEW_ENTRY
    " ORDER BY ts_rank(s.document, to_tsquery('simple', CAST($2 AS TEXT))) DESC, e.id LIMIT $7");

}  // namespace credence::kb::internal
