#pragma once
// SQL of hub memberships and entry permissions. $1 is always the tenant
// (bound by TenantSession). A row names either a user or a group (the other
// is NULL); partial unique indexes keep one row per user and one per group
// on a hub or an entry.
#include "storage/query.h"

namespace credence::kb::internal {

using storage::TenantQuery;

// Columns of a membership or permission as the service reads it: id,
// resource id (hub or entry), user id, group id, display name (the user's
// or the group's), role, created at.
//
// Users removed from the tenant keep their rows (like their group rows) but
// are left out of lists; lookups by id still find them, so an admin can
// change or remove such a row.
#define CREDENCE_KB_GRANT_SELECT(table, resource)                                                   \
  "SELECT m.id, m." resource ", m.user_id, m.group_id, COALESCE(u.display_name, g.name, ''), m.role," \
  " m.created_at FROM " table " m"                                                                 \
  " LEFT JOIN users u ON u.id = m.user_id"                                                         \
  " LEFT JOIN tenant_members tm ON tm.tenant_id = m.tenant_id AND tm.user_id = m.user_id"          \
  " LEFT JOIN groups g ON g.tenant_id = m.tenant_id AND g.id = m.group_id"

inline constexpr int kGrantColumnCount = 7;

// Hub memberships.
inline constexpr TenantQuery kListHubMemberships{
    "kb.list_hub_memberships",
    CREDENCE_KB_GRANT_SELECT("hub_memberships", "hub_id")
    " WHERE m.tenant_id = $1 AND m.hub_id = $2 AND (tm.is_active = 1 OR g.id IS NOT NULL)"
    " ORDER BY m.created_at, m.id"};

// $2 hub, $3 membership id.
inline constexpr TenantQuery kHubMembershipById{
    "kb.hub_membership_by_id",
    CREDENCE_KB_GRANT_SELECT("hub_memberships", "hub_id") " WHERE m.tenant_id = $1 AND m.hub_id = $2 AND m.id = $3"};

// $2 hub, $3 user id or NULL, $4 group id or NULL.
inline constexpr TenantQuery kHubMembershipOf{
    "kb.hub_membership_of",
    CREDENCE_KB_GRANT_SELECT("hub_memberships", "hub_id")
    " WHERE m.tenant_id = $1 AND m.hub_id = $2 AND (m.user_id = $3 OR m.group_id = $4)"};

// $2 id, $3 hub, $4 user id or NULL, $5 group id or NULL, $6 role, $7 now.
// A second membership of the same user or group changes no row (the partial
// unique indexes), also when two admins add at once.
inline constexpr TenantQuery kInsertHubMembership{
    "kb.insert_hub_membership",
    "INSERT INTO hub_memberships (tenant_id, id, hub_id, user_id, group_id, role, created_at)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING"};

// $2 hub, $3 user id or NULL, $4 group id or NULL, $5 role.
inline constexpr TenantQuery kSetHubMembershipRoleOf{
    "kb.set_hub_membership_role_of",
    "UPDATE hub_memberships SET role = $5 WHERE tenant_id = $1 AND hub_id = $2 AND (user_id = $3 OR group_id = $4)"};

// $2 hub, $3 membership id, $4 role.
inline constexpr TenantQuery kSetHubMembershipRole{
    "kb.set_hub_membership_role",
    "UPDATE hub_memberships SET role = $4 WHERE tenant_id = $1 AND hub_id = $2 AND id = $3"};

inline constexpr TenantQuery kDeleteHubMembership{
    "kb.delete_hub_membership", "DELETE FROM hub_memberships WHERE tenant_id = $1 AND hub_id = $2 AND id = $3"};

// Entry permissions: the same statements over entry_permissions.
inline constexpr TenantQuery kListEntryPermissions{
    "kb.list_entry_permissions",
    CREDENCE_KB_GRANT_SELECT("entry_permissions", "entry_id")
    " WHERE m.tenant_id = $1 AND m.entry_id = $2 AND (tm.is_active = 1 OR g.id IS NOT NULL)"
    " ORDER BY m.created_at, m.id"};

inline constexpr TenantQuery kEntryPermissionById{
    "kb.entry_permission_by_id",
    CREDENCE_KB_GRANT_SELECT("entry_permissions", "entry_id")
    " WHERE m.tenant_id = $1 AND m.entry_id = $2 AND m.id = $3"};

inline constexpr TenantQuery kEntryPermissionOf{
    "kb.entry_permission_of",
    CREDENCE_KB_GRANT_SELECT("entry_permissions", "entry_id")
    " WHERE m.tenant_id = $1 AND m.entry_id = $2 AND (m.user_id = $3 OR m.group_id = $4)"};

inline constexpr TenantQuery kInsertEntryPermission{
    "kb.insert_entry_permission",
    "INSERT INTO entry_permissions (tenant_id, id, entry_id, user_id, group_id, role, created_at)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING"};

inline constexpr TenantQuery kSetEntryPermissionRoleOf{
    "kb.set_entry_permission_role_of",
    "UPDATE entry_permissions SET role = $5 WHERE tenant_id = $1 AND entry_id = $2"
    " AND (user_id = $3 OR group_id = $4)"};

inline constexpr TenantQuery kDeleteEntryPermission{
    "kb.delete_entry_permission",
    "DELETE FROM entry_permissions WHERE tenant_id = $1 AND entry_id = $2 AND id = $3"};

// A group of the tenant (active members: kIsActiveMember in queries.h).
inline constexpr TenantQuery kGroupExists{
    "kb.group_exists", "SELECT 1 FROM groups WHERE tenant_id = $1 AND id = $2"};

}  // namespace credence::kb::internal
