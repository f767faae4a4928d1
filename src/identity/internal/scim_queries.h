#pragma once
// SQL of SCIM provisioning (migration 108, identity/scim/scim_service.h).
#include "storage/query.h"

namespace credence::identity::internal {

using storage::TenantQuery;

// The columns ScimService reads a provisioned user from, in this order.
#define CREDENCE_SCIM_USER_COLUMNS "user_id, resource, active, created_at, updated_at, version"

inline constexpr TenantQuery kScimFindUser{"identity.scim_find_user",
                                           "SELECT " CREDENCE_SCIM_USER_COLUMNS
                                           " FROM scim_users WHERE tenant_id = $1 AND user_id = $2"};

inline constexpr TenantQuery kScimFindUserByNameKey{"identity.scim_find_user_by_name_key",
                                                    "SELECT " CREDENCE_SCIM_USER_COLUMNS
                                                    " FROM scim_users WHERE tenant_id = $1 AND user_name_key = $2"};

inline constexpr TenantQuery kScimFindUsersByExternalId{"identity.scim_find_users_by_external_id",
                                                        "SELECT " CREDENCE_SCIM_USER_COLUMNS
                                                        " FROM scim_users WHERE tenant_id = $1 AND external_id = $2"
                                                        " ORDER BY created_at, user_id"};

inline constexpr TenantQuery kScimListUsers{"identity.scim_list_users",
                                            "SELECT " CREDENCE_SCIM_USER_COLUMNS
                                            " FROM scim_users WHERE tenant_id = $1 ORDER BY created_at, user_id"};

// $2: how many, $3: how many to skip.
inline constexpr TenantQuery kScimListUsersPage{"identity.scim_list_users_page",
                                                "SELECT " CREDENCE_SCIM_USER_COLUMNS
                                                " FROM scim_users WHERE tenant_id = $1 ORDER BY created_at, user_id"
                                                " LIMIT $2 OFFSET $3"};

#undef CREDENCE_SCIM_USER_COLUMNS

inline constexpr TenantQuery kScimCountUsers{"identity.scim_count_users",
                                             "SELECT COUNT(*) FROM scim_users WHERE tenant_id = $1"};

inline constexpr TenantQuery kScimInsertUser{
    "identity.scim_insert_user",
    "INSERT INTO scim_users (tenant_id, user_id, user_name, user_name_key, external_id, active, resource,"
    " created_at, updated_at, version) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8, 1)"};

inline constexpr TenantQuery kScimUpdateUser{
    "identity.scim_update_user",
    "UPDATE scim_users SET user_name = $3, user_name_key = $4, external_id = $5, active = $6, resource = $7,"
    " updated_at = $8, version = version + 1 WHERE tenant_id = $1 AND user_id = $2"};

inline constexpr TenantQuery kScimDeleteUser{"identity.scim_delete_user",
                                             "DELETE FROM scim_users WHERE tenant_id = $1 AND user_id = $2"};

// The membership whatever its state: role, is_active.
inline constexpr TenantQuery kScimMemberState{
    "identity.scim_member_state", "SELECT role, is_active FROM tenant_members WHERE tenant_id = $1 AND user_id = $2"};

// A deactivated member back with the role they had.
inline constexpr TenantQuery kScimReactivateMember{
    "identity.scim_reactivate_member",
    "UPDATE tenant_members SET is_active = 1, removed_at = NULL, removed_by = NULL"
    " WHERE tenant_id = $1 AND user_id = $2 AND is_active = 0"};

inline constexpr TenantQuery kScimDeleteUserGroupMemberships{
    "identity.scim_delete_user_group_memberships", "DELETE FROM group_members WHERE tenant_id = $1 AND user_id = $2"};

// Groups: every group of the tenant, with what SCIM keeps of it when it
// has touched it (externalId, version).
#define CREDENCE_SCIM_GROUP_SELECT                                                          \
  "SELECT g.id, g.name, g.created_at, s.external_id, s.updated_at, s.version FROM groups g" \
  " LEFT JOIN scim_groups s ON s.tenant_id = g.tenant_id AND s.group_id = g.id WHERE g.tenant_id = $1"

inline constexpr TenantQuery kScimFindGroup{"identity.scim_find_group", CREDENCE_SCIM_GROUP_SELECT " AND g.id = $2"};

inline constexpr TenantQuery kScimFindGroupByNameKey{"identity.scim_find_group_by_name_key",
                                                     CREDENCE_SCIM_GROUP_SELECT " AND g.name_key = $2"};

inline constexpr TenantQuery kScimFindGroupsByExternalId{"identity.scim_find_groups_by_external_id",
                                                         CREDENCE_SCIM_GROUP_SELECT
                                                         " AND s.external_id = $2 ORDER BY g.created_at, g.id"};

inline constexpr TenantQuery kScimListGroups{"identity.scim_list_groups",
                                             CREDENCE_SCIM_GROUP_SELECT " ORDER BY g.created_at, g.id"};

#undef CREDENCE_SCIM_GROUP_SELECT

// Every member of the group, deactivated ones too: the identity provider
// still lists them, and access follows the membership's state.
inline constexpr TenantQuery kScimGroupMembers{
    "identity.scim_group_members",
    "SELECT gm.user_id, u.display_name FROM group_members gm JOIN users u ON u.id = gm.user_id"
    " WHERE gm.tenant_id = $1 AND gm.group_id = $2 ORDER BY gm.added_at, gm.user_id"};

inline constexpr TenantQuery kScimRenameGroup{
    "identity.scim_rename_group", "UPDATE groups SET name = $3, name_key = $4 WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kScimUpsertGroup{
    "identity.scim_upsert_group",
    "INSERT INTO scim_groups (tenant_id, group_id, external_id, updated_at, version) VALUES ($1, $2, $3, $4, 1)"
    " ON CONFLICT (tenant_id, group_id) DO UPDATE SET external_id = excluded.external_id,"
    " updated_at = excluded.updated_at, version = scim_groups.version + 1"};

}  // namespace credence::identity::internal
