#pragma once
// SQL of plugin installations (migration 1500).
#include "storage/query.h"

namespace credence::plugins::internal {

using storage::TenantQuery;

inline constexpr TenantQuery kListInstallations{
    "plugins.list", "SELECT plugin_id, is_enabled, settings, installed_at, updated_at FROM plugin_installations"
                    " WHERE tenant_id = $1 ORDER BY plugin_id"};
inline constexpr TenantQuery kGetInstallation{
    "plugins.get", "SELECT plugin_id, is_enabled, settings, installed_at, updated_at FROM plugin_installations"
                   " WHERE tenant_id = $1 AND plugin_id = $2"};
inline constexpr TenantQuery kEnabledInstallations{
    "plugins.enabled", "SELECT plugin_id, is_enabled, settings, installed_at, updated_at FROM plugin_installations"
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
