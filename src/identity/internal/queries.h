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

// The tenants row is keyed by id, so these are global statements the
// caller binds to the session's own tenant (ReadTenantLanguages).
inline constexpr GlobalQuery kReadTenantLanguages{
    "identity.read_tenant_languages", "SELECT enabled_languages, default_language FROM tenants WHERE id = $1"};
inline constexpr GlobalQuery kLockTenantLanguages{
    "identity.lock_tenant_languages", "SELECT enabled_languages, default_language FROM tenants WHERE id = $1",
    "SELECT enabled_languages, default_language FROM tenants WHERE id = $1 FOR UPDATE"};
inline constexpr GlobalQuery kWriteTenantLanguages{
    "identity.write_tenant_languages",
    "UPDATE tenants SET enabled_languages = $2, default_language = $3 WHERE id = $1"};

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

// $3: when, $4: the removing admin.
inline constexpr TenantQuery kDeactivateMember{
    "identity.deactivate_member",
    "UPDATE tenant_members SET is_active = 0, persona = NULL, removed_at = $3, removed_by = $4"
    " WHERE tenant_id = $1 AND user_id = $2 AND is_active = 1"};

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

inline constexpr TenantQuery kUpdateGroup{
    "identity.update_group",
    "UPDATE groups SET name = $3, name_key = $4, description = $5 WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kDeleteGroup{
    "identity.delete_group", "DELETE FROM groups WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kSetMemberRole{
    "identity.set_member_role",
    "UPDATE tenant_members SET role = $3 WHERE tenant_id = $1 AND user_id = $2 AND is_active = 1"};

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

// Invitation columns, in the order InvitationFromRow reads them; the 5th is
// the status as of $now (a Pending invitation past expires_at is Expired).
#define CREDENCE_INVITATION_COLUMNS(now)                                                                   \
  "id, email, role, display_name,"                                                                         \
  " CASE WHEN status = 'Pending' AND expires_at <= " now " THEN 'Expired' ELSE status END,"                \
  " invited_by, invited_at, expires_at, accepted_at, accepted_user_id, revoked_at, revoked_by"

// The stored-Pending invitation for email $2 ($3: now), expired or not.
inline constexpr TenantQuery kFindPendingInvitation{
    "identity.find_pending_invitation",
    "SELECT " CREDENCE_INVITATION_COLUMNS("$3") " FROM invitations"
    " WHERE tenant_id = $1 AND email = $2 AND status = 'Pending'"};

// $2: now; $3: a status to filter by (derived), or NULL.
inline constexpr TenantQuery kListInvitations{
    "identity.list_invitations",
    "SELECT " CREDENCE_INVITATION_COLUMNS("$2") " FROM invitations"
    " WHERE tenant_id = $1 AND (CAST($3 AS TEXT) IS NULL OR"
    " (CASE WHEN status = 'Pending' AND expires_at <= $2 THEN 'Expired' ELSE status END) = CAST($3 AS TEXT))"
    " ORDER BY invited_at DESC, id DESC"};

inline constexpr TenantQuery kFindInvitation{
    "identity.find_invitation",
    "SELECT " CREDENCE_INVITATION_COLUMNS("$3") " FROM invitations WHERE tenant_id = $1 AND id = $2"};

#undef CREDENCE_INVITATION_COLUMNS

// At most one Pending invitation per email (a partial unique index); a
// concurrent second invite inserts nothing and reads the first.
inline constexpr TenantQuery kInsertInvitation{
    "identity.insert_invitation",
    "INSERT INTO invitations (tenant_id, id, email, role, display_name, status, invited_by, invited_at, expires_at)"
    " VALUES ($1, $2, $3, $4, $5, 'Pending', $6, $7, $8)"
    " ON CONFLICT (tenant_id, email) WHERE status = 'Pending' DO NOTHING"};

// An expired Pending invitation for email $2 is stored as Expired when a new
// one replaces it ($3: now).
inline constexpr TenantQuery kSupersedeExpiredInvitation{
    "identity.supersede_expired_invitation",
    "UPDATE invitations SET status = 'Expired'"
    " WHERE tenant_id = $1 AND email = $2 AND status = 'Pending' AND expires_at <= $3"};

// $2: id, $3: now, $4: the revoking admin. Only a Pending, unexpired one.
inline constexpr TenantQuery kRevokeInvitation{
    "identity.revoke_invitation",
    "UPDATE invitations SET status = 'Revoked', revoked_at = $3, revoked_by = $4"
    " WHERE tenant_id = $1 AND id = $2 AND status = 'Pending' AND expires_at > $3"};

// $2: id, $3: now, $4: the accepting user. Only a Pending, unexpired one.
inline constexpr TenantQuery kAcceptInvitation{
    "identity.accept_invitation",
    "UPDATE invitations SET status = 'Accepted', accepted_at = $3, accepted_user_id = $4"
    " WHERE tenant_id = $1 AND id = $2 AND status = 'Pending' AND expires_at > $3"};

// Sign-in: the Pending, unexpired invitations of email $1 in every tenant
// ($2: now), oldest first (invitations_pending_by_email).
inline constexpr GlobalQuery kPendingInvitationsForEmail{
    "identity.pending_invitations_for_email",
    "SELECT tenant_id, id, role FROM invitations WHERE email = $1 AND status = 'Pending' AND expires_at > $2"
    " ORDER BY invited_at, tenant_id, id"};

// Sign-in: tenants that let every user of domain $1 (lowercase) join
// (tenants_domain).
inline constexpr GlobalQuery kTenantsOpenToDomain{
    "identity.tenants_open_to_domain",
    "SELECT id FROM tenants WHERE allow_all_users = 1 AND LOWER(domain) = $1 ORDER BY created_at, id"};

// Accepting an invitation: a new membership with role $3, or a removed
// (inactive) member's reactivated with it; an active member is left as is
// (no row changes). $4: now.
inline constexpr TenantQuery kJoinByInvitation{
    "identity.join_by_invitation",
    "INSERT INTO tenant_members (tenant_id, user_id, role, persona, is_active, joined_at)"
    " VALUES ($1, $2, $3, NULL, 1, $4)"
    " ON CONFLICT (tenant_id, user_id) DO UPDATE SET is_active = 1, role = excluded.role,"
    " joined_at = excluded.joined_at, removed_at = NULL, removed_by = NULL WHERE tenant_members.is_active = 0"};

// Joining by domain: only a user with no membership row at all; a removed
// member keeps their inactive row, so they do not come back this way.
inline constexpr TenantQuery kJoinByDomain{
    "identity.join_by_domain",
    "INSERT INTO tenant_members (tenant_id, user_id, role, persona, is_active, joined_at)"
    " VALUES ($1, $2, 'Member', NULL, 1, $3) ON CONFLICT (tenant_id, user_id) DO NOTHING"};

}  // namespace credence::identity::internal
