#include "analytics/schema.h"

#include <string>

namespace credence::analytics {
namespace {

// Raw events are pruned after the tenant's retention; the aggregates
// (per entry and UTC day; per entry; per entry and editor) are kept, so the
// summary survives pruning. No foreign key to entries: the read buffer may
// flush a read of an entry deleted meanwhile (its insert checks the entry
// exists instead), and triggers remove an entry's rows with it.
constexpr char kTables[] = R"sql(
CREATE TABLE analytics_events (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  event_type TEXT NOT NULL,
  user_id TEXT,
  language TEXT,
  seconds BIGINT,
  occurred_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX analytics_events_entry ON analytics_events (tenant_id, entry_id, occurred_at);
CREATE INDEX analytics_events_time ON analytics_events (occurred_at);
CREATE TABLE analytics_daily (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  entry_id TEXT NOT NULL,
  day BIGINT NOT NULL,
  reads BIGINT NOT NULL DEFAULT 0,
  time_reports BIGINT NOT NULL DEFAULT 0,
  time_spent_seconds BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, entry_id, day)
);
CREATE TABLE analytics_entries (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  entry_id TEXT NOT NULL,
  last_read_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, entry_id)
);
CREATE TABLE analytics_editors (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  entry_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  edits BIGINT NOT NULL,
  last_edited_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, entry_id, user_id)
);
CREATE TABLE analytics_settings (
  tenant_id TEXT NOT NULL PRIMARY KEY REFERENCES tenants(id) ON DELETE CASCADE,
  retention_days INTEGER NOT NULL,
  updated_by TEXT,
  updated_at BIGINT
);
)sql";

constexpr char kForgetBody[] = R"sql(
  DELETE FROM analytics_events WHERE tenant_id = OLD.tenant_id AND entry_id = OLD.id;
  DELETE FROM analytics_daily WHERE tenant_id = OLD.tenant_id AND entry_id = OLD.id;
  DELETE FROM analytics_entries WHERE tenant_id = OLD.tenant_id AND entry_id = OLD.id;
  DELETE FROM analytics_editors WHERE tenant_id = OLD.tenant_id AND entry_id = OLD.id;
)sql";

std::string Sqlite() {
  return std::string(kTables) + "CREATE TRIGGER analytics_forget_entry AFTER DELETE ON entries BEGIN" + kForgetBody +
         "END;\n";
}

std::string Postgres() {
  return std::string(kTables) +
         "CREATE FUNCTION analytics_forget_entry() RETURNS trigger LANGUAGE plpgsql AS $$\nBEGIN" + kForgetBody +
         "  RETURN NULL;\nEND $$;\n"
         "CREATE TRIGGER analytics_forget_entry AFTER DELETE ON entries FOR EACH ROW EXECUTE FUNCTION "
         "analytics_forget_entry();\n";
}

}  // namespace

const std::vector<storage::Migration>& Migrations() {
  static const std::string sqlite = Sqlite();
  static const std::string postgres = Postgres();
  static const std::vector<storage::Migration> kMigrations = {
      {1600, "analytics: events, daily aggregates, last reads, editors, retention setting", sqlite, postgres},
  };
  return kMigrations;
}

}  // namespace credence::analytics
