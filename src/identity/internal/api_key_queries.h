#pragma once
// SQL of tenant API keys and the access-token signing key (migration 102).
#include "storage/query.h"

namespace credence::identity::internal {

using storage::GlobalQuery;
using storage::TenantQuery;

inline constexpr TenantQuery kInsertApiKey{
    "identity.insert_api_key",
    "INSERT INTO api_keys (tenant_id, id, name, client_id, secret_prefix, secret_hash, scopes, created_by,"
    " created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"};

inline constexpr TenantQuery kListApiKeys{
    "identity.list_api_keys",
    "SELECT id, name, client_id, secret_prefix, scopes, created_by, created_at, expires_at FROM api_keys"
    " WHERE tenant_id = $1 AND revoked_at IS NULL ORDER BY created_at, id"};

// The row stays (revoked_at set): decisions a key made keep naming it.
inline constexpr TenantQuery kRevokeApiKey{
    "identity.revoke_api_key",
    "UPDATE api_keys SET revoked_at = $3, revoked_by = $4 WHERE tenant_id = $1 AND id = $2 AND revoked_at IS NULL"};

// Authentication resolves the tenant from the credential, so these two
// cannot be TenantQuery statements: the tenant is what they find. They read
// by an index on the credential and hand back the row's own tenant_id.
inline constexpr GlobalQuery kFindApiKeysBySecretPrefix{
    "identity.find_api_keys_by_secret_prefix",
    "SELECT tenant_id, id, client_id, secret_hash, scopes, expires_at FROM api_keys"
    " WHERE secret_prefix = $1 AND revoked_at IS NULL"};

inline constexpr GlobalQuery kFindApiKeysByClientId{
    "identity.find_api_keys_by_client_id",
    "SELECT tenant_id, id, client_id, secret_hash, scopes, expires_at FROM api_keys"
    " WHERE client_id = $1 AND revoked_at IS NULL"};

inline constexpr GlobalQuery kFindSigningKey{
    "identity.find_signing_key", "SELECT secret FROM signing_keys WHERE name = $1"};

inline constexpr GlobalQuery kInsertSigningKey{
    "identity.insert_signing_key",
    "INSERT INTO signing_keys (name, secret, created_at) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING"};

}  // namespace credence::identity::internal
