#include "reports/schema.h"

#include <string>

namespace credence::reports {
namespace {

// Migration 600: the maintained aggregates of the compliance reports
// (docs/reports.md, "How reports are computed").
//
// - report_watermarks: per tenant, the last ledger sequence folded in. The
//   ledger's sequence is gap-free and committed in order (an append reads
//   the previous record), so "everything after the watermark" is exact.
// - report_usage_pending: usage records not yet folded in, queued by a
//   trigger. Usage has no sequence, and its created_at comes from the clock
//   and commits out of order on PostgreSQL, so a time watermark could skip
//   records; the queue cannot. Folding deletes the queued ids it folds
//   (DELETE ... RETURNING), so two nodes never fold one record twice.
// - report_evidence_facts: what the reports need from one evidence row,
//   extracted once (evidence rows are immutable).
// - report_documents: the latest title and origin seen per document, so
//   rows about documents deleted since still have a name.
// - the *_daily tables: per UTC day (epoch ms of midnight) and app ('' for
//   calls without an app). Counts only ever grow, by upserts.
//   report_sources_daily and report_usage_daily also hold app_id '*' rows,
//   the totals over every caller, and lead with the app: a report without an
//   app filter reads the '*' rows of the window (days x documents), not
//   days x apps x documents. report_stale_usage_daily holds only usage whose
//   evidence was stale (few), for expired-knowledge-used.
constexpr const char* kAggregates = R"sql(
CREATE TABLE report_watermarks (
  tenant_id TEXT NOT NULL PRIMARY KEY REFERENCES tenants(id) ON DELETE CASCADE,
  decision_seq BIGINT NOT NULL,
  updated_at BIGINT NOT NULL
);
CREATE TABLE report_usage_pending (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  usage_id TEXT NOT NULL,
  PRIMARY KEY (tenant_id, usage_id)
);
CREATE TABLE report_evidence_facts (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  evidence_id BIGINT NOT NULL,
  source_id TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  origin TEXT,
  title TEXT,
  decision TEXT NOT NULL,
  escalated INTEGER NOT NULL,
  classification TEXT NOT NULL,
  stale INTEGER NOT NULL,
  expiry_at BIGINT,
  owner_id TEXT,
  owner_active INTEGER NOT NULL,
  sensitivity TEXT,
  block_reasons TEXT NOT NULL,
  PRIMARY KEY (tenant_id, evidence_id)
);
CREATE INDEX report_evidence_facts_source ON report_evidence_facts (tenant_id, source_id);
CREATE TABLE report_documents (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  entry_id TEXT NOT NULL,
  origin TEXT NOT NULL,
  title TEXT NOT NULL,
  source_id TEXT NOT NULL,
  PRIMARY KEY (tenant_id, entry_id)
);
CREATE TABLE report_decisions_daily (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  day BIGINT NOT NULL,
  app_id TEXT NOT NULL,
  channel TEXT NOT NULL,
  decisions BIGINT NOT NULL,
  sources BIGINT NOT NULL,
  allowed BIGINT NOT NULL,
  warned BIGINT NOT NULL,
  blocked BIGINT NOT NULL,
  escalated BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, day, app_id, channel)
);
CREATE TABLE report_sources_daily (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  app_id TEXT NOT NULL,
  day BIGINT NOT NULL,
  entry_id TEXT NOT NULL,
  evaluations BIGINT NOT NULL,
  last_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, app_id, day, entry_id)
);
CREATE TABLE report_blocked_daily (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  day BIGINT NOT NULL,
  app_id TEXT NOT NULL,
  reason_code TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  source_id TEXT NOT NULL,
  blocked BIGINT NOT NULL,
  last_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, day, app_id, reason_code, entry_id, source_id)
);
CREATE TABLE report_usage_daily (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  app_id TEXT NOT NULL,
  day BIGINT NOT NULL,
  entry_id TEXT NOT NULL,
  uses BIGINT NOT NULL,
  last_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, app_id, day, entry_id)
);
CREATE TABLE report_stale_usage_daily (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  day BIGINT NOT NULL,
  app_id TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  evidence_id BIGINT NOT NULL,
  uses BIGINT NOT NULL,
  last_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, day, app_id, entry_id, evidence_id)
);
INSERT INTO report_usage_pending (tenant_id, usage_id) SELECT tenant_id, id FROM trust_usage;
)sql";

constexpr const char* kQueueSqlite = R"sql(
CREATE TRIGGER report_usage_enqueue AFTER INSERT ON trust_usage BEGIN
  INSERT INTO report_usage_pending (tenant_id, usage_id) VALUES (NEW.tenant_id, NEW.id);
END;
)sql";

constexpr const char* kQueuePostgres = R"sql(
CREATE FUNCTION report_usage_enqueue() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO report_usage_pending (tenant_id, usage_id) VALUES (NEW.tenant_id, NEW.id);
  RETURN NULL;
END $$;
CREATE TRIGGER report_usage_enqueue AFTER INSERT ON trust_usage FOR EACH ROW EXECUTE FUNCTION report_usage_enqueue();
)sql";

}  // namespace

const std::vector<storage::Migration>& Migrations() {
  static const std::string sqlite = std::string(kAggregates) + kQueueSqlite;
  static const std::string postgres = std::string(kAggregates) + kQueuePostgres;
  static const std::vector<storage::Migration> kMigrations = {
      {600, "reports: watermarks, the usage queue, evidence facts and daily aggregates", sqlite, postgres},
  };
  return kMigrations;
}

}  // namespace credence::reports
