#include "connectors/schema.h"

namespace credence::connectors {

// docs/connectors.md.
// - connectors: a tenant's configured source of documents. connector_key is
//   the <connector_key> of its documents' source ids and never changes.
//   settings: the kind's settings as JSON. schedule_minutes NULL: manual
//   only; next_run_at: when the background jobs queue the next scheduled run.
//   sync_cursor: how far the last complete sync got (git: the commit synced).
//   lease_holder/lease_expires_at: the one sync that may run it now.
// - connector_runs: every sync, updated as its batches commit (progress).
//   target/base/checkpoint make it resumable: what it syncs to (git: the
//   commit), from, and the last document done in its order.
// - connector_run_errors: documents that failed in a run, one row each.
// - connector_documents: what the connector knows of each of its
//   documents besides connected_documents: the source's own version
//   (git: the blob id; web: ETag and Last-Modified) and the content hash,
//   so unchanged documents are skipped cheaply; the run that last saw it.
// The two indexes without tenant_id are how the background jobs find work
// across tenants (like entries' next_check_at).
constexpr const char* kSchema = R"sql(
CREATE TABLE connectors (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  connector_key TEXT NOT NULL,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  settings TEXT NOT NULL,
  schedule_minutes BIGINT,
  next_run_at BIGINT,
  sync_cursor TEXT,
  lease_holder TEXT,
  lease_expires_at BIGINT NOT NULL DEFAULT 0,
  created_by TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, connector_key)
);
CREATE INDEX connectors_due ON connectors (next_run_at) WHERE next_run_at IS NOT NULL;
CREATE TABLE connector_runs (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  connector_id TEXT NOT NULL,
  run_trigger TEXT NOT NULL,
  status TEXT NOT NULL,
  queued_at BIGINT NOT NULL,
  started_at BIGINT,
  finished_at BIGINT,
  updated_at BIGINT NOT NULL,
  target TEXT,
  base TEXT,
  checkpoint TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  seen BIGINT NOT NULL DEFAULT 0,
  added BIGINT NOT NULL DEFAULT 0,
  changed BIGINT NOT NULL DEFAULT 0,
  removed BIGINT NOT NULL DEFAULT 0,
  unchanged BIGINT NOT NULL DEFAULT 0,
  failed BIGINT NOT NULL DEFAULT 0,
  error TEXT,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX connector_runs_connector ON connector_runs (tenant_id, connector_id, queued_at);
CREATE INDEX connector_runs_open ON connector_runs (queued_at) WHERE status IN ('queued', 'running');
CREATE TABLE connector_run_errors (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  run_id TEXT NOT NULL,
  external_id TEXT NOT NULL,
  message TEXT NOT NULL,
  at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, run_id, external_id)
);
CREATE TABLE connector_documents (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  connector_id TEXT NOT NULL,
  external_id TEXT NOT NULL,
  document_id TEXT NOT NULL,
  source_version TEXT,
  etag TEXT,
  last_modified TEXT,
  content_hash TEXT,
  removed INTEGER NOT NULL DEFAULT 0,
  last_seen_run TEXT,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, connector_id, external_id)
);
)sql";

// 901: a connector's credential (docs/connectors.md, "Credentials"):
// credential_info the non-secret part answers show (kind, user name, header
// name), JSON; credential_sealed the whole credential sealed with the
// secrets key (connectors/secret_box.h), which is not in the database.
constexpr const char* kCredentials = R"sql(
ALTER TABLE connectors ADD COLUMN credential_info TEXT;
ALTER TABLE connectors ADD COLUMN credential_sealed TEXT;
)sql";

const std::vector<storage::Migration>& Migrations() {
  static const std::vector<storage::Migration> kMigrations = {
      {900, "connectors: connectors, runs, run errors, connector documents", kSchema, ""},
      {901, "connectors: sealed credentials", kCredentials, ""},
  };
  return kMigrations;
}

}  // namespace credence::connectors
