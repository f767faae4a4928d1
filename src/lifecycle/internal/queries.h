#pragma once
// SQL of the lifecycle module: expiry templates and review checklists
// (migration 300).
#include "storage/query.h"

namespace credence::lifecycle::internal {

using storage::TenantQuery;

inline constexpr TenantQuery kListTemplates{
    "lifecycle.list_templates",
    "SELECT id, name, description, expiry_days, warning_days, grace_days, review_required, review_type,"
    " checklist_id, auto_renew_on_attestation, is_active, is_default, created_at, updated_at FROM expiry_templates"
    " WHERE tenant_id = $1 AND (CAST($2 AS INTEGER) = 0 OR is_active = 1) ORDER BY name_key, id"};

inline constexpr TenantQuery kFindTemplate{
    "lifecycle.find_template",
    "SELECT id, name, description, expiry_days, warning_days, grace_days, review_required, review_type,"
    " checklist_id, auto_renew_on_attestation, is_active, is_default, created_at, updated_at FROM expiry_templates "
    "WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kFindDefaultTemplate{
    "lifecycle.find_default_template",
    "SELECT id, name, description, expiry_days, warning_days, grace_days, review_required, review_type,"
    " checklist_id, auto_renew_on_attestation, is_active, is_default, created_at, updated_at FROM expiry_templates "
    "WHERE tenant_id = $1 AND is_default = 1"};

// Another template of the tenant with this name key ($3: the template being
// updated, or '' when creating).
inline constexpr TenantQuery kFindOtherTemplateByNameKey{
    "lifecycle.find_other_template_by_name_key",
    "SELECT id FROM expiry_templates WHERE tenant_id = $1 AND name_key = $2 AND id <> CAST($3 AS TEXT)"};

inline constexpr TenantQuery kInsertTemplate{
    "lifecycle.insert_template",
    "INSERT INTO expiry_templates (tenant_id, id, name, name_key, description, expiry_days, warning_days,"
    " grace_days, review_required, review_type, checklist_id, auto_renew_on_attestation, is_active, is_default,"
    " created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 0, $14, $14)"};

inline constexpr TenantQuery kUpdateTemplate{
    "lifecycle.update_template",
    "UPDATE expiry_templates SET name = $3, name_key = $4, description = $5, expiry_days = $6, warning_days = $7,"
    " grace_days = $8, review_required = $9, review_type = $10, checklist_id = $11,"
    " auto_renew_on_attestation = $12, is_active = $13, updated_at = $14 WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kDeleteTemplate{"lifecycle.delete_template",
                                             "DELETE FROM expiry_templates WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kClearDefaultTemplate{
    "lifecycle.clear_default_template",
    "UPDATE expiry_templates SET is_default = 0, updated_at = $2 WHERE tenant_id = $1 AND is_default = 1"};

inline constexpr TenantQuery kMarkDefaultTemplate{
    "lifecycle.mark_default_template",
    "UPDATE expiry_templates SET is_default = 1, updated_at = $3 WHERE tenant_id = $1 AND id = $2"};

// entries with the template as their custom one; hubs with it as default;
// entries without a custom template in those hubs.
inline constexpr TenantQuery kTemplateUsage{
    "lifecycle.template_usage",
    "SELECT"
    " (SELECT COUNT(*) FROM entries e WHERE e.tenant_id = $1 AND e.expiry_template_id = $2),"
    " (SELECT COUNT(*) FROM hubs h WHERE h.tenant_id = $1 AND h.default_expiry_template_id = $2),"
    " (SELECT COUNT(*) FROM entries e JOIN hubs h ON h.tenant_id = e.tenant_id AND h.id = e.hub_id"
    " WHERE e.tenant_id = $1 AND h.default_expiry_template_id = $2 AND e.expiry_template_id IS NULL)"};

inline constexpr TenantQuery kTemplateInUse{
    "lifecycle.template_in_use",
    "SELECT 1 WHERE EXISTS (SELECT 1 FROM entries WHERE tenant_id = $1 AND expiry_template_id = $2)"
    " OR EXISTS (SELECT 1 FROM hubs WHERE tenant_id = $1 AND default_expiry_template_id = $2)"};

inline constexpr TenantQuery kChecklistExists{"lifecycle.checklist_exists",
                                              "SELECT 1 FROM review_checklists WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kHubExists{"lifecycle.hub_exists", "SELECT 1 FROM hubs WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kListChecklists{
    "lifecycle.list_checklists",
    "SELECT id, name, hub_id, items, created_at, updated_at FROM review_checklists WHERE tenant_id = $1"
    " AND (CAST($2 AS TEXT) IS NULL OR hub_id IS NULL OR hub_id = CAST($2 AS TEXT)) ORDER BY name, id"};

inline constexpr TenantQuery kFindChecklist{
    "lifecycle.find_checklist",
    "SELECT id, name, hub_id, items, created_at, updated_at FROM review_checklists WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kInsertChecklist{
    "lifecycle.insert_checklist",
    "INSERT INTO review_checklists (tenant_id, id, name, hub_id, items, created_at, updated_at)"
    " VALUES ($1, $2, $3, $4, $5, $6, $6)"};

inline constexpr TenantQuery kUpdateChecklist{"lifecycle.update_checklist",
                                              "UPDATE review_checklists SET name = $3, hub_id = $4, items = $5, "
                                              "updated_at = $6 WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kDeleteChecklist{"lifecycle.delete_checklist",
                                              "DELETE FROM review_checklists WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kChecklistInUse{
    "lifecycle.checklist_in_use", "SELECT 1 FROM expiry_templates WHERE tenant_id = $1 AND checklist_id = $2 LIMIT 1"};

// Expiry of entries (ExpiryService). The entry's custom template.
inline constexpr TenantQuery kEntryTemplateId{
    "lifecycle.entry_template_id", "SELECT expiry_template_id FROM entries WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kSetEntryTemplate{
    "lifecycle.set_entry_template", "UPDATE entries SET expiry_template_id = $3 WHERE tenant_id = $1 AND id = $2"};

// Migration 301: one row per change of an entry's custom template.
inline constexpr TenantQuery kInsertTemplateChange{
    "lifecycle.insert_template_change",
    "INSERT INTO entry_template_changes (tenant_id, id, entry_id, from_template_id, to_template_id, reason,"
    " changed_by, changed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"};

// Asks the scheduler to look at the entry at `$3` (normally now). Every
// write that changes an entry's expiry facts (renewal, pause, resume,
// template change, publish) runs it in its own transaction.
inline constexpr TenantQuery kScheduleRecheck{
    "lifecycle.schedule_recheck", "UPDATE entries SET next_check_at = $3 WHERE tenant_id = $1 AND id = $2"};

// Rechecks for the entries whose windows may have changed with a template:
// those the template applies to ($2), through any of the three levels.
inline constexpr TenantQuery kRecheckTemplateUsers{
    "lifecycle.recheck_template_users",
    "UPDATE entries SET next_check_at = $3 WHERE tenant_id = $1 AND (expiry_template_id = $2 OR"
    " (expiry_template_id IS NULL AND hub_id IN (SELECT h.id FROM hubs h WHERE h.tenant_id = $1 AND"
    " (h.default_expiry_template_id = $2 OR (h.default_expiry_template_id IS NULL AND EXISTS"
    " (SELECT 1 FROM expiry_templates d WHERE d.tenant_id = $1 AND d.id = $2 AND d.is_default = 1))))))"};

// ...and those that fall through to the tenant default (set-default, or the
// default deleted).
inline constexpr TenantQuery kRecheckTenantDefaultUsers{
    "lifecycle.recheck_tenant_default_users",
    "UPDATE entries SET next_check_at = $2 WHERE tenant_id = $1 AND expiry_template_id IS NULL AND hub_id IN"
    " (SELECT h.id FROM hubs h WHERE h.tenant_id = $1 AND h.default_expiry_template_id IS NULL)"};

}  // namespace credence::lifecycle::internal
