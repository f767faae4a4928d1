#pragma once
// SQL of the identity module: tenants, users, memberships.
#include "storage/query.h"

namespace credence::identity::internal {

using storage::GlobalQuery;
using storage::TenantQuery;

inline constexpr TenantQuery kFindActiveMember{
    "identity.find_active_member",
    "SELECT m.role, u.email, u.display_name, m.preferred_language FROM tenant_members m"
    " JOIN users u ON u.id = m.user_id"
    " WHERE m.tenant_id = $1 AND m.user_id = $2 AND m.is_active = 1"};

inline constexpr TenantQuery kFindPersona{
    "identity.find_persona",
    "SELECT u.id, u.email, u.display_name, m.role, m.preferred_language FROM tenant_members m"
    " JOIN users u ON u.id = m.user_id"
    " WHERE m.tenant_id = $1 AND m.persona = $2 AND m.is_active = 1"};

inline constexpr TenantQuery kInsertMember{
    "identity.insert_member",
    "INSERT INTO tenant_members (tenant_id, user_id, role, persona, is_active, joined_at)"
    " VALUES ($1, $2, $3, $4, 1, $5)"};

inline constexpr GlobalQuery kInsertTenant{
    "identity.insert_tenant",
    "INSERT INTO tenants (id, name, slug, domain, allow_all_users, enabled_languages, enabled_plugins,"
    " default_language, created_at, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"};

inline constexpr GlobalQuery kFindTenantBySlug{
    "identity.find_tenant_by_slug",
    "SELECT id, name, slug, domain, allow_all_users, enabled_languages, enabled_plugins, default_language,"
    " created_at FROM tenants WHERE slug = $1"};

inline constexpr GlobalQuery kFindTenantById{
    "identity.find_tenant_by_id",
    "SELECT id, name, slug, domain, allow_all_users, enabled_languages, enabled_plugins, default_language,"
    " created_at FROM tenants WHERE id = $1"};

inline constexpr GlobalQuery kListTenants{
    "identity.list_tenants", "SELECT id, name, slug FROM tenants ORDER BY created_at, slug"};

inline constexpr GlobalQuery kInsertUser{
    "identity.insert_user",
    "INSERT INTO users (id, email, display_name, created_at) VALUES ($1, $2, $3, $4)"};

}  // namespace credence::identity::internal

namespace credence::identity::internal {

inline constexpr TenantQuery kListMembers{
    "identity.list_members",
    "SELECT u.id, u.email, u.display_name, m.role, m.preferred_language, m.joined_at FROM tenant_members m"
    " JOIN users u ON u.id = m.user_id WHERE m.tenant_id = $1 AND m.is_active = 1"
    " ORDER BY u.display_name, u.id"};

inline constexpr TenantQuery kSetPreferredLanguage{
    "identity.set_preferred_language",
    "UPDATE tenant_members SET preferred_language = $3 WHERE tenant_id = $1 AND user_id = $2"};

inline constexpr TenantQuery kFindMemberRole{
    "identity.find_member_role",
    "SELECT role FROM tenant_members WHERE tenant_id = $1 AND user_id = $2 AND is_active = 1"};

inline constexpr TenantQuery kCountActiveOwners{
    "identity.count_active_owners",
    "SELECT COUNT(*) FROM tenant_members WHERE tenant_id = $1 AND role = 'Owner' AND is_active = 1"};

inline constexpr TenantQuery kDeactivateMember{
    "identity.deactivate_member",
    "UPDATE tenant_members SET is_active = 0, persona = NULL WHERE tenant_id = $1 AND user_id = $2 AND is_active = 1"};

}  // namespace credence::identity::internal

// Groups and invitations (migration 101).
namespace credence::identity::internal {

// Member counts and member lists only show active tenant members: a user
// removed from the tenant keeps their group rows but no longer counts.
inline constexpr TenantQuery kListGroups{
    "identity.list_groups",
    "SELECT g.id, g.name, g.description, g.created_at,"
    " (SELECT COUNT(*) FROM group_members gm JOIN tenant_members m"
    " ON m.tenant_id = gm.tenant_id AND m.user_id = gm.user_id"
    " WHERE gm.tenant_id = g.tenant_id AND gm.group_id = g.id AND m.is_active = 1)"
    " FROM groups g WHERE g.tenant_id = $1 ORDER BY g.name_key, g.id"};

inline constexpr TenantQuery kFindGroup{
    "identity.find_group",
    "SELECT g.id, g.name, g.description, g.created_at,"
    " (SELECT COUNT(*) FROM group_members gm JOIN tenant_members m"
    " ON m.tenant_id = gm.tenant_id AND m.user_id = gm.user_id"
    " WHERE gm.tenant_id = g.tenant_id AND gm.group_id = g.id AND m.is_active = 1)"
    " FROM groups g WHERE g.tenant_id = $1 AND g.id = $2"};

inline constexpr TenantQuery kGroupExists{
    "identity.group_exists", "SELECT 1 FROM groups WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kFindGroupByNameKey{
    "identity.find_group_by_name_key", "SELECT id FROM groups WHERE tenant_id = $1 AND name_key = $2"};

inline constexpr TenantQuery kInsertGroup{
    "identity.insert_group",
    "INSERT INTO groups (tenant_id, id, name, name_key, description, created_at) VALUES ($1, $2, $3, $4, $5, $6)"};

inline constexpr TenantQuery kListGroupMembers{
    "identity.list_group_members",
    "SELECT u.id, u.email, u.display_name, m.role, gm.added_at FROM group_members gm"
    " JOIN tenant_members m ON m.tenant_id = gm.tenant_id AND m.user_id = gm.user_id"
    " JOIN users u ON u.id = gm.user_id"
    " WHERE gm.tenant_id = $1 AND gm.group_id = $2 AND m.is_active = 1"
    " ORDER BY u.display_name, u.id"};

// Adding twice is not an error: the second insert changes no row.
inline constexpr TenantQuery kInsertGroupMember{
    "identity.insert_group_member",
    "INSERT INTO group_members (tenant_id, group_id, user_id, added_at) VALUES ($1, $2, $3, $4)"
    " ON CONFLICT (tenant_id, group_id, user_id) DO NOTHING"};

inline constexpr TenantQuery kFindGroupMembership{
    "identity.find_group_membership",
    "SELECT added_at FROM group_members WHERE tenant_id = $1 AND group_id = $2 AND user_id = $3"};

inline constexpr TenantQuery kDeleteGroupMember{
    "identity.delete_group_member",
    "DELETE FROM group_members WHERE tenant_id = $1 AND group_id = $2 AND user_id = $3"};

inline constexpr TenantQuery kGroupIdsOfUser{
    "identity.group_ids_of_user",
    "SELECT gm.group_id FROM group_members gm"
    " JOIN tenant_members m ON m.tenant_id = gm.tenant_id AND m.user_id = gm.user_id"
    " WHERE gm.tenant_id = $1 AND gm.user_id = $2 AND m.is_active = 1 ORDER BY gm.group_id"};

inline constexpr TenantQuery kFindActiveMemberByEmail{
    "identity.find_active_member_by_email",
    "SELECT u.id FROM tenant_members m JOIN users u ON u.id = m.user_id"
    " WHERE m.tenant_id = $1 AND m.is_active = 1 AND LOWER(u.email) = $2"};

inline constexpr TenantQuery kFindPendingInvitation{
    "identity.find_pending_invitation",
    "SELECT id, email, role, display_name, status, invited_by, invited_at FROM invitations"
    " WHERE tenant_id = $1 AND email = $2 AND status = 'Pending'"};

inline constexpr TenantQuery kListInvitations{
    "identity.list_invitations",
    "SELECT id, email, role, display_name, status, invited_by, invited_at FROM invitations"
    " WHERE tenant_id = $1 AND (CAST($2 AS TEXT) IS NULL OR status = CAST($2 AS TEXT))"
    " ORDER BY invited_at DESC, id DESC"};

// At most one Pending invitation per email (a partial unique index); a
// concurrent second invite inserts nothing and reads the first.
inline constexpr TenantQuery kInsertInvitation{
    "identity.insert_invitation",
    "INSERT INTO invitations (tenant_id, id, email, role, display_name, status, invited_by, invited_at)"
    " VALUES ($1, $2, $3, $4, $5, 'Pending', $6, $7)"
    " ON CONFLICT (tenant_id, email) WHERE status = 'Pending' DO NOTHING"};

}  // namespace credence::identity::internal
