#include "platform/schema.h"

namespace credence::platform {
namespace {

// Migration 700: the audit log (docs/audit.md).
//
// - audit_log: one row per event, chained per tenant by hash: `seq` counts
//   1, 2, 3, ... per tenant without gaps, `prev_hash` is the hash of the
//   entry before (64 zeros for the first) and `hash` covers every other
//   column (platform/audit_log.cpp, EntryHash). Absent values are empty
//   strings, not NULL, so what is hashed is what is stored. No foreign key
//   to tenants: events that belong to no tenant are chained under the nil
//   UUID (identity::kPlatformTenantId), and the log outlives what it names.
// - audit_heads: per tenant, the chain's last (seq, hash). Appending updates
//   it first, so it is the row that serializes concurrent appenders of one
//   tenant (a row lock on PostgreSQL; SQLite's write lock anyway). Verify
//   checks it against the last entry, which catches a removed tail.
constexpr const char* kAuditLog = R"sql(
CREATE TABLE audit_log (
  tenant_id TEXT NOT NULL,
  seq BIGINT NOT NULL,
  id TEXT NOT NULL,
  at BIGINT NOT NULL,
  actor_type TEXT NOT NULL,
  actor_id TEXT NOT NULL,
  actor_label TEXT NOT NULL,
  action TEXT NOT NULL,
  target_type TEXT NOT NULL,
  target_id TEXT NOT NULL,
  outcome TEXT NOT NULL,
  request_id TEXT NOT NULL,
  client_address TEXT NOT NULL,
  user_agent TEXT NOT NULL,
  details TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL,
  PRIMARY KEY (tenant_id, seq)
);
CREATE UNIQUE INDEX audit_log_id ON audit_log (tenant_id, id);
CREATE INDEX audit_log_at ON audit_log (tenant_id, at);
CREATE INDEX audit_log_actor ON audit_log (tenant_id, actor_id, seq);
CREATE INDEX audit_log_target ON audit_log (tenant_id, target_id, seq);
CREATE TABLE audit_heads (
  tenant_id TEXT NOT NULL PRIMARY KEY,
  seq BIGINT NOT NULL,
  hash TEXT NOT NULL
);
)sql";

}  // namespace

const std::vector<storage::Migration>& Migrations() {
  static const std::vector<storage::Migration> kMigrations = {
      {700, "platform: the hash-chained audit log and its chain heads", kAuditLog, ""},
  };
  return kMigrations;
}

}  // namespace credence::platform
