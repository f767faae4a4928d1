#include "retention/schema.h"

namespace credence::retention {

const std::vector<storage::Migration>& Migrations() {
  // retention_settings: per tenant, months kept in the database (absent:
  // the default). retention_archives: every archive file written, so look-ups
  // over an archived window can point to it and an interrupted deletion can
  // be finished; kept after the records are gone. first_id/last_id: the
  // smallest and largest decision id archived (ids are UUID v7, ordered by
  // the time they were made), so a look-up of an archived decision can
  // name its archive.
  static const std::vector<storage::Migration> kMigrations = {
      {1700, "retention: settings and archives",
       R"sql(
CREATE TABLE retention_settings (
  tenant_id TEXT PRIMARY KEY REFERENCES tenants(id) ON DELETE CASCADE,
  decisions_months INTEGER NOT NULL,
  usage_months INTEGER NOT NULL,
  audit_months INTEGER NOT NULL,
  updated_by TEXT,
  updated_at BIGINT NOT NULL
);
CREATE TABLE retention_archives (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  kind TEXT NOT NULL,
  period TEXT NOT NULL,
  file TEXT NOT NULL,
  sha256 TEXT NOT NULL,
  bytes BIGINT NOT NULL,
  records BIGINT NOT NULL,
  from_seq BIGINT,
  to_seq BIGINT,
  last_hash TEXT,
  first_id TEXT,
  last_id TEXT,
  from_time BIGINT NOT NULL,
  to_time BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX retention_archives_kind ON retention_archives (tenant_id, kind, to_time);
)sql",
       ""},
  };
  return kMigrations;
}

}  // namespace credence::retention
