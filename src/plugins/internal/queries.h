#pragma once
// SQL of plugin installations (migration 1500).
#include "storage/query.h"

namespace credence::plugins::internal {

using storage::TenantQuery;

inline constexpr TenantQuery kListInstallations{
    "plugins.list",
    "SELECT plugin_id, is_enabled, settings, installed_at, updated_at FROM plugin_installations"
    " WHERE tenant_id = $1 ORDER BY plugin_id"};
inline constexpr TenantQuery kGetInstallation{
    "plugins.get",
    "SELECT plugin_id, is_enabled, settings, installed_at, updated_at FROM plugin_installations"
    " WHERE tenant_id = $1 AND plugin_id = $2"};
inline constexpr TenantQuery kEnabledInstallations{
    "plugins.enabled",
    "SELECT plugin_id, is_enabled, settings, installed_at, updated_at FROM plugin_installations"
    " WHERE tenant_id = $1 AND is_enabled = 1"};
inline constexpr TenantQuery kInsertInstallation{
    "plugins.insert",
    "INSERT INTO plugin_installations (tenant_id, plugin_id, is_enabled, settings, installed_at, updated_at)"
    " VALUES ($1, $2, 1, '{}', $3, $3)"};
inline constexpr TenantQuery kSetEnabled{
    "plugins.set_enabled",
    "UPDATE plugin_installations SET is_enabled = $3, updated_at = $4 WHERE tenant_id = $1 AND plugin_id = $2"};
inline constexpr TenantQuery kSetSettings{
    "plugins.set_settings",
    "UPDATE plugin_installations SET settings = $3, updated_at = $4 WHERE tenant_id = $1 AND plugin_id = $2"};
inline constexpr TenantQuery kDeleteInstallation{
    "plugins.delete", "DELETE FROM plugin_installations WHERE tenant_id = $1 AND plugin_id = $2"};

}  // namespace credence::plugins::internal

namespace credence::plugins::internal {

inline constexpr TenantQuery kInsertApproval{
    "plugins.approval_insert",
    "INSERT INTO plugin_approvals (tenant_id, id, entry_id, status, requested_by, requested_at, request_comment,"
    " decided_by, decided_at, decision_comment) VALUES ($1, $2, $3, 'Pending', $4, $5, $6, '', 0, '')"};
inline constexpr TenantQuery kApprovalById{
    "plugins.approval_get",
    "SELECT id, entry_id, status, requested_by, requested_at, request_comment, decided_by, decided_at,"
    " decision_comment FROM plugin_approvals WHERE tenant_id = $1 AND id = $2"};
inline constexpr TenantQuery kApprovalsOfEntry{
    "plugins.approval_list",
    "SELECT id, entry_id, status, requested_by, requested_at, request_comment, decided_by, decided_at,"
    " decision_comment FROM plugin_approvals WHERE tenant_id = $1 AND entry_id = $2"
    " ORDER BY requested_at DESC, id DESC"};
inline constexpr TenantQuery kDecideApproval{
    "plugins.approval_decide",
    "UPDATE plugin_approvals SET status = $3, decided_by = $4, decided_at = $5, decision_comment = $6"
    " WHERE tenant_id = $1 AND id = $2 AND status = 'Pending'"};

}  // namespace credence::plugins::internal

namespace credence::plugins::internal {

#define CREDENCE_CUSTOM_GUARD_COLUMNS \
  "id, kind, name, action, is_enabled, source, version, url, secret, timeout_ms, created_at, updated_at"

inline constexpr TenantQuery kCustomGuardsOfKind{"plugins.custom_list",
                                                 "SELECT " CREDENCE_CUSTOM_GUARD_COLUMNS
                                                 " FROM plugin_custom_guards WHERE tenant_id = $1 AND kind = $2"
                                                 " ORDER BY created_at, id"};
inline constexpr TenantQuery kEnabledCustomGuards{
    "plugins.custom_enabled", "SELECT " CREDENCE_CUSTOM_GUARD_COLUMNS
                              " FROM plugin_custom_guards WHERE tenant_id = $1 AND kind = $2"
                              " AND is_enabled = 1 AND (action = '' OR action = $3) ORDER BY created_at, id"};
inline constexpr TenantQuery kCustomGuardById{
    "plugins.custom_get", "SELECT " CREDENCE_CUSTOM_GUARD_COLUMNS
                          " FROM plugin_custom_guards WHERE tenant_id = $1 AND kind = $2 AND id = $3"};
inline constexpr TenantQuery kInsertCustomGuard{
    "plugins.custom_insert", "INSERT INTO plugin_custom_guards (tenant_id, " CREDENCE_CUSTOM_GUARD_COLUMNS
                             ") VALUES ($1, $2, $3, $4, $5, 1, $6, 1, $7, $8, $9, $10, $10)"};
inline constexpr TenantQuery kUpdateScript{
    "plugins.custom_update_script",
    "UPDATE plugin_custom_guards SET name = $3, action = $4, source = $5, version = version + 1, updated_at = $6"
    " WHERE tenant_id = $1 AND kind = 'script' AND id = $2"};
inline constexpr TenantQuery kSetCustomGuardEnabled{
    "plugins.custom_set_enabled",
    "UPDATE plugin_custom_guards SET is_enabled = $4, updated_at = $5 WHERE tenant_id = $1 AND kind = $2 AND id = $3"};
inline constexpr TenantQuery kDeleteCustomGuard{
    "plugins.custom_delete", "DELETE FROM plugin_custom_guards WHERE tenant_id = $1 AND kind = $2 AND id = $3"};

#undef CREDENCE_CUSTOM_GUARD_COLUMNS

}  // namespace credence::plugins::internal

namespace credence::plugins::internal {

inline constexpr TenantQuery kHubRules{
    "plugins.hub_rules_get",
    "SELECT is_enabled, rules, updated_at FROM plugin_hub_rules WHERE tenant_id = $1 AND hub_id = $2"};
inline constexpr TenantQuery kUpsertHubRules{
    "plugins.hub_rules_put",
    "INSERT INTO plugin_hub_rules (tenant_id, hub_id, is_enabled, rules, updated_at) VALUES ($1, $2, $3, $4, $5)"
    " ON CONFLICT (tenant_id, hub_id) DO UPDATE SET is_enabled = excluded.is_enabled, rules = excluded.rules,"
    " updated_at = excluded.updated_at"};

}  // namespace credence::plugins::internal

namespace credence::plugins::internal {

inline constexpr TenantQuery kDeleteApprovalsOfEntry{
    "plugins.approvals_delete_of_entry", "DELETE FROM plugin_approvals WHERE tenant_id = $1 AND entry_id = $2"};

}  // namespace credence::plugins::internal
