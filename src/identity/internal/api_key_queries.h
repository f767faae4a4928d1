#pragma once
// SQL of tenant API keys, app-bound keys and their history, and the
// access-token signing key (migrations 102 and 103).
#include "storage/query.h"

namespace credence::identity::internal {

using storage::GlobalQuery;
using storage::TenantQuery;

inline constexpr TenantQuery kInsertApiKey{
    "identity.insert_api_key",
    "INSERT INTO api_keys (tenant_id, id, name, client_id, secret_prefix, secret_hash, scopes, created_by,"
    " created_at, expires_at, connector_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"};

inline constexpr TenantQuery kListApiKeys{
    "identity.list_api_keys",
    "SELECT id, name, client_id, secret_prefix, scopes, created_by, created_at, expires_at, connector_id"
    " FROM api_keys WHERE tenant_id = $1 AND revoked_at IS NULL AND app_id IS NULL ORDER BY created_at, id"};

// The row stays (revoked_at set): decisions a key made keep naming it.
inline constexpr TenantQuery kRevokeApiKey{
    "identity.revoke_api_key",
    "UPDATE api_keys SET revoked_at = $3, revoked_by = $4 WHERE tenant_id = $1 AND id = $2 AND revoked_at IS NULL"
    " AND app_id IS NULL"};

// Authentication resolves the tenant from the credential, so these two
// cannot be TenantQuery statements: the tenant is what they find. They read
// by an index on the credential and hand back the row's own tenant_id.
inline constexpr GlobalQuery kFindApiKeysBySecretPrefix{
    "identity.find_api_keys_by_secret_prefix",
    "SELECT tenant_id, id, client_id, secret_hash, scopes, expires_at, app_id, disabled_at, connector_id FROM api_keys"
    " WHERE secret_prefix = $1 AND revoked_at IS NULL"};

inline constexpr GlobalQuery kFindApiKeysByClientId{
    "identity.find_api_keys_by_client_id",
    "SELECT tenant_id, id, client_id, secret_hash, scopes, expires_at, app_id, disabled_at, connector_id FROM api_keys"
    " WHERE client_id = $1 AND revoked_at IS NULL"};

// What decides whether a key still works: a resource-bound access token is
// held against it on every use.
inline constexpr TenantQuery kKeyState{
    "identity.key_state", "SELECT expires_at, disabled_at, revoked_at, app_id FROM api_keys WHERE tenant_id = $1 AND id = $2"};

// --- App-bound keys (migration 103). Every statement names the app as well
// as the key, so a tenant key (app_id NULL) or another app's key is not
// found through an app's path.

inline constexpr TenantQuery kInsertAppKey{
    "identity.insert_app_key",
    "INSERT INTO api_keys (tenant_id, id, name, client_id, secret_prefix, secret_hash, scopes, created_by,"
    " created_at, expires_at, app_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"};

#define CREDENCE_APP_KEY_COLUMNS                                                                             \
  "id, name, client_id, secret_prefix, scopes, created_by, created_at, expires_at, app_id, disabled_at,"   \
  " revoked_at, rotated_at"

// Every key of the app, revoked ones included, oldest first.
inline constexpr TenantQuery kListAppKeys{
    "identity.list_app_keys",
    "SELECT " CREDENCE_APP_KEY_COLUMNS " FROM api_keys WHERE tenant_id = $1 AND app_id = $2"
    " ORDER BY created_at, id"};

inline constexpr TenantQuery kFindAppKey{
    "identity.find_app_key",
    "SELECT " CREDENCE_APP_KEY_COLUMNS " FROM api_keys WHERE tenant_id = $1 AND app_id = $2 AND id = $3"};

#undef CREDENCE_APP_KEY_COLUMNS

// History, oldest first: of one key, and of every key of an app.
inline constexpr TenantQuery kAppKeyEvents{
    "identity.app_key_events",
    "SELECT key_id, event, at, by_user_id FROM api_key_events WHERE tenant_id = $1 AND key_id = $2 ORDER BY seq"};
inline constexpr TenantQuery kAppKeysEvents{
    "identity.app_keys_events",
    "SELECT e.key_id, e.event, e.at, e.by_user_id FROM api_key_events e JOIN api_keys k"
    " ON k.tenant_id = e.tenant_id AND k.id = e.key_id WHERE e.tenant_id = $1 AND k.app_id = $2"
    " ORDER BY e.key_id, e.seq"};

// The next number of the key's history. Run after the statement that
// changed the key's row in the same transaction: that row lock (PostgreSQL)
// or the write lock (SQLite) keeps two events of one key from taking the
// same number.
inline constexpr TenantQuery kInsertKeyEvent{
    "identity.insert_key_event",
    "INSERT INTO api_key_events (tenant_id, key_id, seq, event, at, by_user_id)"
    " SELECT CAST($1 AS TEXT), CAST($2 AS TEXT), COALESCE(MAX(seq), 0) + 1, CAST($3 AS TEXT),"
    " CAST($4 AS BIGINT), CAST($5 AS TEXT)"
    " FROM api_key_events WHERE tenant_id = $1 AND key_id = $2"};

// Conditional updates: each changes the row only from the state it
// leaves, so a concurrent change is seen as "nothing changed" (0 rows).
inline constexpr TenantQuery kDisableAppKey{
    "identity.disable_app_key",
    "UPDATE api_keys SET disabled_at = $4, disabled_by = $5 WHERE tenant_id = $1 AND app_id = $2 AND id = $3"
    " AND revoked_at IS NULL AND disabled_at IS NULL"};
inline constexpr TenantQuery kEnableAppKey{
    "identity.enable_app_key",
    "UPDATE api_keys SET disabled_at = NULL, disabled_by = NULL WHERE tenant_id = $1 AND app_id = $2 AND id = $3"
    " AND revoked_at IS NULL AND disabled_at IS NOT NULL"};
// A new secret for the same key: the old one stops matching at once.
inline constexpr TenantQuery kRotateAppKey{
    "identity.rotate_app_key",
    "UPDATE api_keys SET secret_prefix = $4, secret_hash = $5, rotated_at = $6 WHERE tenant_id = $1"
    " AND app_id = $2 AND id = $3 AND revoked_at IS NULL"};
// Every live key of the app (archiving); answers their ids.
inline constexpr TenantQuery kRevokeAppKeys{
    "identity.revoke_app_keys",
    "UPDATE api_keys SET revoked_at = $3, revoked_by = $4 WHERE tenant_id = $1 AND app_id = $2"
    " AND revoked_at IS NULL RETURNING id"};

inline constexpr GlobalQuery kFindSigningKey{
    "identity.find_signing_key", "SELECT secret FROM signing_keys WHERE name = $1"};

inline constexpr GlobalQuery kInsertSigningKey{
    "identity.insert_signing_key",
    "INSERT INTO signing_keys (name, secret, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING"};

}  // namespace credence::identity::internal
