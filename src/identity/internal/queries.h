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
    " default_language, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"};

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
