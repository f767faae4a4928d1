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
