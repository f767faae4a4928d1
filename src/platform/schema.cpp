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

// Migration 701: tenant configuration (docs/configuration.md).
//
// - config_items: categories, tags, block-type heuristics, style rules,
//   glossaries and language settings, one row each, the body a JSON
//   document the platform services validate. Names are unique per tenant
//   and kind ignoring ASCII case (name_key, core NameKey).
// - config_links: which hubs and entries use which categories and tags;
//   counted before a delete (409 in use) and dropped by a detaching delete.
constexpr const char* kConfiguration = R"sql(
CREATE TABLE config_items (
  tenant_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  name_key TEXT NOT NULL,
  language TEXT NOT NULL,
  body TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, kind, id)
);
CREATE UNIQUE INDEX config_items_name ON config_items (tenant_id, kind, name_key);
CREATE TABLE config_links (
  tenant_id TEXT NOT NULL,
  item_id TEXT NOT NULL,
  target_type TEXT NOT NULL,
  target_id TEXT NOT NULL,
  PRIMARY KEY (tenant_id, item_id, target_type, target_id)
);
CREATE INDEX config_links_target ON config_links (tenant_id, target_type, target_id);
)sql";

}  // namespace

const std::vector<storage::Migration>& Migrations() {
  static const std::vector<storage::Migration> kMigrations = {
      {700, "platform: the hash-chained audit log and its chain heads", kAuditLog, ""},
      {701, "platform: tenant configuration items and their links to hubs and entries", kConfiguration, ""},
      // The id a machine-translation provider gave a pushed glossary
      // (docs/machine-translation.md); a deleted glossary's row stays (ids are never reused).
      {702, "platform: glossaries pushed to translation providers",
       "CREATE TABLE glossary_provider_ids (tenant_id TEXT NOT NULL, glossary_id TEXT NOT NULL,"
       " provider TEXT NOT NULL, provider_glossary_id TEXT NOT NULL, synced_at BIGINT NOT NULL,"
       " PRIMARY KEY (tenant_id, glossary_id, provider));",
       ""},
  };
  return kMigrations;
}

}  // namespace credence::platform
