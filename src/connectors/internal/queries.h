#pragma once
// The connectors' SQL, shared by the service and the sync engine.
#include "connectors/connector.h"
#include "storage/query.h"
#include "storage/rows.h"

namespace credence::connectors::internal {

using storage::GlobalQuery;
using storage::TenantQuery;

#define CREDENCE_CONNECTOR_COLUMNS                                                                   \
  "id, connector_key, kind, name, settings, schedule_minutes, next_run_at, sync_cursor, created_by," \
  " created_at, updated_at, credential_info, credential_sealed"

inline constexpr TenantQuery kConnectorById{
    "connectors.by_id", "SELECT " CREDENCE_CONNECTOR_COLUMNS " FROM connectors WHERE tenant_id = $1 AND id = $2"};
inline constexpr TenantQuery kConnectorByKey{"connectors.by_key",
                                             "SELECT " CREDENCE_CONNECTOR_COLUMNS
                                             " FROM connectors WHERE tenant_id = $1 AND connector_key = $2"};

#define CREDENCE_RUN_COLUMNS                                                                                         \
  "id, connector_id, run_trigger, status, queued_at, started_at, finished_at, updated_at, target, base, checkpoint," \
  " attempts, seen, added, changed, removed, unchanged, failed, error"

inline constexpr TenantQuery kRunById{
    "connectors.run_by_id", "SELECT " CREDENCE_RUN_COLUMNS " FROM connector_runs WHERE tenant_id = $1 AND id = $2"};
inline constexpr TenantQuery kOpenRun{"connectors.open_run",
                                      "SELECT " CREDENCE_RUN_COLUMNS
                                      " FROM connector_runs WHERE tenant_id = $1 AND connector_id = $2"
                                      " AND status IN ('queued', 'running') ORDER BY queued_at LIMIT 1"};
// Takes the connector row's lock for the transaction (PostgreSQL; SQLite's
// write transaction already excludes other writers), so that the check for
// an open run and the insert of a new one are one step across nodes: the
// scheduler's schedule advance takes the same lock.
inline constexpr TenantQuery kLockConnector{
    "connectors.lock_connector", "UPDATE connectors SET updated_at = updated_at WHERE tenant_id = $1 AND id = $2"};
inline constexpr TenantQuery kInsertRun{
    "connectors.insert_run",
    "INSERT INTO connector_runs (tenant_id, id, connector_id, run_trigger, status, queued_at, updated_at)"
    " VALUES ($1, $2, $3, $4, 'queued', $5, $5)"};

inline Connector ConnectorFromRow(const storage::Row& r) {
  Connector c;
  c.id = r.Text(0);
  c.key = r.Text(1);
  c.kind = r.Text(2);
  c.name = r.Text(3);
  c.settings = r.Text(4);
  c.schedule_minutes = r.OptInt(5);
  c.next_run_at = r.OptInt(6);
  c.sync_cursor = r.OptText(7);
  c.created_by = r.OptText(8);
  c.created_at = r.Int(9);
  c.updated_at = r.Int(10);
  c.credential_info = r.OptText(11);
  c.credential_sealed = r.OptText(12);
  return c;
}

inline Run RunFromRow(const storage::Row& r) {
  Run run;
  run.id = r.Text(0);
  run.connector_id = r.Text(1);
  run.trigger = r.Text(2);
  run.status = r.Text(3);
  run.queued_at = r.Int(4);
  run.started_at = r.OptInt(5);
  run.finished_at = r.OptInt(6);
  run.updated_at = r.Int(7);
  run.target = r.OptText(8);
  run.base = r.OptText(9);
  run.checkpoint = r.OptText(10);
  run.attempts = r.Int(11);
  run.seen = r.Int(12);
  run.added = r.Int(13);
  run.changed = r.Int(14);
  run.removed = r.Int(15);
  run.unchanged = r.Int(16);
  run.failed = r.Int(17);
  run.error = r.OptText(18);
  return run;
}

}  // namespace credence::connectors::internal
