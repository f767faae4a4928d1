#pragma once
// SQL of sign-in: sessions, linked provider identities, pending logins
// (migration 104). These tables are global: a session and an identity
// belong to a person before any tenant is chosen. The session's tenant is
// bound from its own row, never from the request.
#include "storage/query.h"

namespace credence::identity::internal {

using storage::GlobalQuery;

inline constexpr GlobalQuery kInsertSession{
    "identity.insert_session",
    "INSERT INTO sessions (id, token_hash, user_id, tenant_id, provider, created_at, last_seen_at, expires_at,"
    " client_address, user_agent) VALUES ($1, $2, $3, $4, $5, $6, $6, $7, $8, $9)"};

// The session with its user and, when a tenant is selected, the membership
// (NULL role when the user is no longer an active member).
inline constexpr GlobalQuery kFindSession{
    "identity.find_session",
    "SELECT s.id, s.user_id, s.tenant_id, s.last_seen_at, s.expires_at, s.ended_at, u.email, u.display_name,"
    " m.role, m.preferred_language FROM sessions s JOIN users u ON u.id = s.user_id"
    " LEFT JOIN tenant_members m ON m.tenant_id = s.tenant_id AND m.user_id = s.user_id AND m.is_active = 1"
    " WHERE s.token_hash = $1"};

inline constexpr GlobalQuery kTouchSession{
    "identity.touch_session", "UPDATE sessions SET last_seen_at = $2 WHERE id = $1 AND ended_at IS NULL"};

inline constexpr GlobalQuery kEndSession{
    "identity.end_session", "UPDATE sessions SET ended_at = $2 WHERE id = $1 AND ended_at IS NULL"};

inline constexpr GlobalQuery kSelectSessionTenant{
    "identity.select_session_tenant",
    "UPDATE sessions SET tenant_id = $2 WHERE id = $1 AND ended_at IS NULL"};

inline constexpr GlobalQuery kEndUserSessionsInTenant{
    "identity.end_user_sessions_in_tenant",
    "UPDATE sessions SET ended_at = $3 WHERE tenant_id = $1 AND user_id = $2 AND ended_at IS NULL"};

// The tenants a user is an active member of, with the role (GET /auth/tenants).
inline constexpr GlobalQuery kTenantsOfUser{
    "identity.tenants_of_user",
    "SELECT t.id, t.name, t.slug, m.role FROM tenant_members m JOIN tenants t ON t.id = m.tenant_id"
    " WHERE m.user_id = $1 AND m.is_active = 1 ORDER BY t.name, t.id"};

inline constexpr GlobalQuery kFindIdentity{
    "identity.find_identity", "SELECT user_id FROM user_identities WHERE issuer = $1 AND subject = $2"};

inline constexpr GlobalQuery kInsertIdentity{
    "identity.insert_identity",
    "INSERT INTO user_identities (issuer, subject, user_id, email, linked_at, last_sign_in_at)"
    " VALUES ($1, $2, $3, $4, $5, $5)"};

inline constexpr GlobalQuery kTouchIdentity{
    "identity.touch_identity",
    "UPDATE user_identities SET last_sign_in_at = $3, email = $4 WHERE issuer = $1 AND subject = $2"};

inline constexpr GlobalQuery kFindUserByEmail{
    "identity.find_user_by_email", "SELECT id, display_name FROM users WHERE LOWER(email) = $1"};

inline constexpr GlobalQuery kFindUser{
    "identity.find_user", "SELECT email, display_name FROM users WHERE id = $1"};

inline constexpr GlobalQuery kInsertLoginRequest{
    "identity.insert_login_request",
    "INSERT INTO oidc_login_requests (state, browser_hash, provider, nonce, code_verifier, created_at)"
    " VALUES ($1, $2, $3, $4, $5, $6)"};

inline constexpr GlobalQuery kForgetOldLoginRequests{
    "identity.forget_old_login_requests", "DELETE FROM oidc_login_requests WHERE created_at < $1"};

inline constexpr GlobalQuery kCountRecentLoginRequests{
    "identity.count_recent_login_requests", "SELECT COUNT(*) FROM oidc_login_requests WHERE created_at >= $1"};

inline constexpr GlobalQuery kFindLoginRequest{
    "identity.find_login_request",
    "SELECT browser_hash, provider, nonce, code_verifier, created_at, used_at FROM oidc_login_requests"
    " WHERE state = $1"};

// Marks the request used; 0 rows when another callback used it first.
inline constexpr GlobalQuery kUseLoginRequest{
    "identity.use_login_request",
    "UPDATE oidc_login_requests SET used_at = $2 WHERE state = $1 AND used_at IS NULL"};

// Tenant creations by one user in a window (the rate limit of POST
// /api/tenant/create outside development mode).
inline constexpr GlobalQuery kCountTenantsCreatedBy{
    "identity.count_tenants_created_by",
    "SELECT COUNT(*), MIN(created_at) FROM tenants WHERE created_by = $1 AND created_at >= $2"};

}  // namespace credence::identity::internal
