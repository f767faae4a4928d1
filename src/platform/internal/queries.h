#pragma once
// SQL of the audit log (migration 700). Untyped parameters are cast for
// PostgreSQL, which cannot infer the type of `$n IS NULL`.
#include "storage/query.h"

namespace credence::platform::internal {

using storage::GlobalQuery;
using storage::TenantQuery;

// The head row is moved first: the UPDATE takes the row's lock (PostgreSQL
// re-reads the row once a concurrent appender commits, so it sees that
// append), and answers the new sequence and the previous hash.
inline constexpr TenantQuery kAdvanceHead{
    "platform.audit_advance_head",
    "UPDATE audit_heads SET seq = seq + 1 WHERE tenant_id = $1 RETURNING seq, hash"};
inline constexpr TenantQuery kCreateHead{
    "platform.audit_create_head",
    "INSERT INTO audit_heads (tenant_id, seq, hash) VALUES ($1, 0, $2) ON CONFLICT (tenant_id) DO NOTHING"};
inline constexpr TenantQuery kSetHeadHash{"platform.audit_set_head_hash",
                                          "UPDATE audit_heads SET hash = $3 WHERE tenant_id = $1 AND seq = $2"};
inline constexpr TenantQuery kReadHead{"platform.audit_read_head",
                                       "SELECT seq, hash FROM audit_heads WHERE tenant_id = $1"};

inline constexpr TenantQuery kInsertEntry{
    "platform.audit_insert",
    "INSERT INTO audit_log (tenant_id, seq, id, at, actor_type, actor_id, actor_label, action, target_type,"
    " target_id, outcome, request_id, client_address, user_agent, details, prev_hash, hash)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)"};

#define CREDENCE_AUDIT_COLUMNS                                                                                   \
  "seq, id, at, actor_type, actor_id, actor_label, action, target_type, target_id, outcome, request_id,"        \
  " client_address, user_agent, details, prev_hash, hash"

inline constexpr TenantQuery kLastEntry{
    "platform.audit_last", "SELECT seq, hash FROM audit_log WHERE tenant_id = $1 ORDER BY seq DESC LIMIT 1"};
inline constexpr TenantQuery kHashAt{"platform.audit_hash_at",
                                     "SELECT hash FROM audit_log WHERE tenant_id = $1 AND seq = $2"};

inline constexpr TenantQuery kRange{
    "platform.audit_range",
    "SELECT " CREDENCE_AUDIT_COLUMNS " FROM audit_log WHERE tenant_id = $1 AND seq >= $2"
    " AND ($3 = 0 OR seq <= $3) ORDER BY seq LIMIT $4"};

// Newest first; every filter optional (NULL: not filtered). $4 is an action
// prefix ending in '.', compared with substr (not LIKE, whose '_' is a
// wildcard); $7/$8 the time window [from, to); $9 the cursor (entries
// before that sequence).
inline constexpr TenantQuery kList{
    "platform.audit_list",
    "SELECT " CREDENCE_AUDIT_COLUMNS " FROM audit_log WHERE tenant_id = $1"
    " AND (CAST($2 AS TEXT) IS NULL OR actor_id = $2)"
    " AND (CAST($3 AS TEXT) IS NULL OR action = $3)"
    " AND (CAST($4 AS TEXT) IS NULL OR substr(action, 1, length(CAST($4 AS TEXT))) = $4)"
    " AND (CAST($5 AS TEXT) IS NULL OR target_type = $5)"
    " AND (CAST($6 AS TEXT) IS NULL OR target_id = $6)"
    " AND (CAST($7 AS BIGINT) IS NULL OR at >= $7)"
    " AND (CAST($8 AS BIGINT) IS NULL OR at < $8)"
    " AND (CAST($9 AS BIGINT) IS NULL OR seq < $9)"
    " ORDER BY seq DESC LIMIT $10"};

inline constexpr GlobalQuery kChainTenants{"platform.audit_chain_tenants",
                                           "SELECT tenant_id FROM audit_heads ORDER BY tenant_id"};

}  // namespace credence::platform::internal
