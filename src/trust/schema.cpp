#include "trust/schema.h"

#include <string>

namespace credence::trust {
namespace {

// Policies: one row per level that sets one (the tenant default, a hub, an
// entry), holding every policy field as JSON. The most specific row decides
// (docs/trust-admin.md).
// Context configuration: the tenant's channel and action vocabulary.
// Sensitivity facts: per source, with who set them; the content scanner
// never overrides a fact a human set.
// Connected documents: external documents known by connector key and
// external id; their review state lives with them.
// Entry source links: URLs that name a native entry (an external source it
// was written from or is published at).
// The ledger: decisions, chained per tenant by hash; each per-source outcome
// with the state it was decided on is stored once (content-addressed) in
// trust_evidence and referenced by id.
// Usage: what callers report they actually used.
constexpr const char* kTemplate = R"sql(
CREATE TABLE trust_policies (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  scope TEXT NOT NULL,
  target_id TEXT NOT NULL,
  policy TEXT NOT NULL,
  updated_by TEXT,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, scope, target_id)
);
CREATE TABLE trust_context_config (
  tenant_id TEXT NOT NULL PRIMARY KEY REFERENCES tenants(id) ON DELETE CASCADE,
  config TEXT NOT NULL,
  updated_by TEXT,
  updated_at BIGINT NOT NULL
);
CREATE TABLE source_sensitivity (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  source_kind TEXT NOT NULL,
  source_id TEXT NOT NULL,
  classification TEXT NOT NULL,
  has_secrets INTEGER NOT NULL DEFAULT 0,
  has_personal_data INTEGER NOT NULL DEFAULT 0,
  set_by TEXT NOT NULL,
  set_by_user TEXT,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, source_kind, source_id)
);
CREATE TABLE connected_documents (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  connector_key TEXT NOT NULL,
  external_id TEXT NOT NULL,
  url TEXT,
  title TEXT NOT NULL,
  content_hash TEXT,
  content_updated_at BIGINT NOT NULL,
  last_synced_at BIGINT NOT NULL,
  owner_id TEXT,
  last_reviewed_at BIGINT,
  last_review_type TEXT,
  status TEXT NOT NULL DEFAULT 'Published',
  version BIGINT NOT NULL DEFAULT 1,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, connector_key, external_id)
);
CREATE INDEX connected_documents_url ON connected_documents (tenant_id, url);
CREATE TABLE entry_source_links (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  entry_id TEXT NOT NULL,
  url TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, entry_id, url)
);
CREATE INDEX entry_source_links_url ON entry_source_links (tenant_id, url);
CREATE TABLE trust_evidence (
  id @ID@,
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  hash TEXT NOT NULL,
  body TEXT NOT NULL,
  UNIQUE (tenant_id, hash)
);
CREATE TABLE trust_decisions (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  seq BIGINT NOT NULL,
  evaluated_at BIGINT NOT NULL,
  endpoint TEXT NOT NULL,
  actor_kind TEXT NOT NULL,
  actor_label TEXT,
  actor_type TEXT,
  action TEXT,
  channel TEXT,
  header TEXT NOT NULL,
  user_id TEXT,
  key_id TEXT,
  app_id TEXT,
  overall TEXT NOT NULL,
  total INTEGER NOT NULL,
  allowed INTEGER NOT NULL,
  warned INTEGER NOT NULL,
  blocked INTEGER NOT NULL,
  escalated INTEGER NOT NULL,
  evidence TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, seq)
);
CREATE INDEX trust_decisions_time ON trust_decisions (tenant_id, evaluated_at);
CREATE TABLE trust_usage (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  decision_id TEXT,
  actor_label TEXT,
  action TEXT,
  sources TEXT NOT NULL,
  outcome TEXT NOT NULL,
  user_id TEXT,
  key_id TEXT,
  app_id TEXT,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX trust_usage_decision ON trust_usage (tenant_id, decision_id);
CREATE INDEX trust_usage_time ON trust_usage (tenant_id, created_at);
)sql";

// Migration 502: every write that can change how a source resolves bumps
// its tenant's generation, from a trigger, so no write path can forget to.
// The evaluation cache (source_cache.h) trusts what it holds only while the
// generation it was read at is current. Ledger and usage writes do not bump
// it, nor do the scheduler's bookkeeping columns on entries.
struct Watched {
  const char* table;
  const char* update_of;  // the columns whose update matters; "" = any
};
constexpr Watched kWatched[] = {
    {"entries",
     "title, status, expiry_at, paused_at, version, content_updated_at, owner_id, expiry_template_id,"
     " hub_id, last_renewed_at"},
    {"entry_reviews", ""},
    {"expiry_templates", ""},
    {"hubs", "default_expiry_template_id"},
    {"tenant_members", ""},
    {"trust_policies", ""},
    {"trust_context_config", ""},
    {"source_sensitivity", ""},
    {"connected_documents", ""},
    {"entry_source_links", ""},
};

std::string GenerationsSqlite() {
  std::string out = "CREATE TABLE trust_generations (tenant_id TEXT PRIMARY KEY, generation BIGINT NOT NULL);\n";
  for (const auto& w : kWatched) {
    for (const char* op : {"INSERT", "UPDATE", "DELETE"}) {
      const std::string row = std::string(op) == "DELETE" ? "OLD" : "NEW";
      std::string event = op;
      if (std::string(op) == "UPDATE" && *w.update_of) event += std::string(" OF ") + w.update_of;
      out += std::string("CREATE TRIGGER trust_gen_") + w.table + "_" + op + " AFTER " + event + " ON " + w.table +
             " BEGIN INSERT INTO trust_generations (tenant_id, generation) VALUES (" + row +
             ".tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET generation = generation + 1; END;\n";
    }
  }
  return out;
}

std::string GenerationsPostgres() {
  std::string out = R"sql(
CREATE TABLE trust_generations (tenant_id TEXT PRIMARY KEY, generation BIGINT NOT NULL);
CREATE FUNCTION trust_bump_generation() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE t TEXT;
BEGIN
  IF TG_OP = 'DELETE' THEN t := OLD.tenant_id; ELSE t := NEW.tenant_id; END IF;
  INSERT INTO trust_generations (tenant_id, generation) VALUES (t, 1)
    ON CONFLICT (tenant_id) DO UPDATE SET generation = trust_generations.generation + 1;
  RETURN NULL;
END $$;
)sql";
  for (const auto& w : kWatched) {
    std::string events = "INSERT OR DELETE OR UPDATE";
    if (*w.update_of) events += std::string(" OF ") + w.update_of;
    out += std::string("CREATE TRIGGER trust_gen_") + w.table + " AFTER " + events + " ON " + w.table +
           " FOR EACH ROW EXECUTE FUNCTION trust_bump_generation();\n";
  }
  return out;
}

std::string AppsSql(bool postgres) {
  std::string out = R"sql(
CREATE TABLE trust_apps (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  channel TEXT NOT NULL,
  risk TEXT NOT NULL,
  default_policy TEXT NOT NULL,
  owner_id TEXT REFERENCES users(id),
  created_by TEXT REFERENCES users(id),
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  archived_at BIGINT,
  archived_by TEXT REFERENCES users(id),
  PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX trust_apps_name ON trust_apps (tenant_id, name) WHERE archived_at IS NULL;
CREATE INDEX trust_decisions_app_time ON trust_decisions (tenant_id, app_id, evaluated_at) WHERE app_id IS NOT NULL;
)sql";
  if (postgres) {
    out +=
        "CREATE TRIGGER trust_gen_trust_apps AFTER INSERT OR DELETE OR UPDATE ON trust_apps"
        " FOR EACH ROW EXECUTE FUNCTION trust_bump_generation();\n";
    return out;
  }
  for (const char* op : {"INSERT", "UPDATE", "DELETE"}) {
    const std::string row = std::string(op) == "DELETE" ? "OLD" : "NEW";
    out += std::string("CREATE TRIGGER trust_gen_trust_apps_") + op + " AFTER " + op +
           " ON trust_apps BEGIN INSERT INTO trust_generations (tenant_id, generation) VALUES (" + row +
           ".tenant_id, 1) ON CONFLICT (tenant_id) DO UPDATE SET generation = generation + 1; END;\n";
  }
  return out;
}

constexpr char kScanningTables[] = R"sql(
CREATE TABLE scan_settings (
  tenant_id TEXT NOT NULL PRIMARY KEY REFERENCES tenants(id) ON DELETE CASCADE,
  auto_scan INTEGER NOT NULL DEFAULT 1,
  fingerprint_key TEXT NOT NULL,
  updated_by TEXT,
  updated_at BIGINT
);
CREATE TABLE scan_findings (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  source_kind TEXT NOT NULL,
  source_ref TEXT NOT NULL,
  part TEXT NOT NULL,
  detector TEXT NOT NULL,
  fingerprint TEXT NOT NULL,
  kind TEXT NOT NULL,
  sub_type TEXT NOT NULL,
  block_id TEXT,
  count BIGINT NOT NULL,
  part_hash TEXT NOT NULL,
  first_seen_at BIGINT NOT NULL,
  last_seen_at BIGINT NOT NULL,
  resolved_at BIGINT,
  dismissed_by TEXT,
  dismissed_at BIGINT,
  dismiss_reason TEXT,
  dismissed_part_hash TEXT,
  PRIMARY KEY (tenant_id, id)
);
CREATE UNIQUE INDEX scan_findings_value ON scan_findings (tenant_id, source_kind, source_ref, part, detector, fingerprint);
CREATE INDEX scan_findings_detector ON scan_findings (tenant_id, detector, id);
ALTER TABLE source_sensitivity ADD COLUMN secret_count BIGINT;
ALTER TABLE source_sensitivity ADD COLUMN personal_data_count BIGINT;
ALTER TABLE source_sensitivity ADD COLUMN detectors TEXT;
)sql";

constexpr char kScanningSqliteTriggers[] = R"sql(
CREATE TRIGGER scan_forget_entry AFTER DELETE ON entries BEGIN
  DELETE FROM scan_findings WHERE tenant_id = OLD.tenant_id AND source_kind = 'entry' AND source_ref = OLD.id;
END;
CREATE TRIGGER scan_forget_document AFTER DELETE ON connected_documents BEGIN
  DELETE FROM scan_findings WHERE tenant_id = OLD.tenant_id AND source_kind = 'connected' AND source_ref = OLD.id;
END;
)sql";
constexpr char kScanningPostgresTriggers[] = R"sql(
CREATE FUNCTION scan_forget_source() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM scan_findings WHERE tenant_id = OLD.tenant_id AND source_kind = TG_ARGV[0] AND source_ref = OLD.id;
  RETURN NULL;
END $$;
CREATE TRIGGER scan_forget_entry AFTER DELETE ON entries FOR EACH ROW EXECUTE FUNCTION scan_forget_source('entry');
CREATE TRIGGER scan_forget_document AFTER DELETE ON connected_documents
  FOR EACH ROW EXECUTE FUNCTION scan_forget_source('connected');
)sql";

std::string WithId(const char* id) {
  std::string s = kTemplate;
  s.replace(s.find("@ID@"), 4, id);
  return s;
}

}  // namespace

const std::vector<storage::Migration>& Migrations() {
  static const std::string sqlite = WithId("INTEGER PRIMARY KEY");
  static const std::string postgres = WithId("BIGSERIAL PRIMARY KEY");
  static const std::string generations_sqlite = GenerationsSqlite();
  static const std::string generations_postgres = GenerationsPostgres();
  static const std::string apps_sqlite = AppsSql(false);
  static const std::string apps_postgres = AppsSql(true);
  static const std::string scanning_sqlite = std::string(kScanningTables) + kScanningSqliteTriggers;
  static const std::string scanning_postgres = std::string(kScanningTables) + kScanningPostgresTriggers;
  static const std::vector<storage::Migration> kMigrations = {
      {500, "trust: policies, context, sensitivity, connected documents, source links, ledger, usage", sqlite,
       postgres},
      // A URL names at most one connected document of a tenant (URL
      // resolution must not choose arbitrarily), also under concurrent
      // registrations.
      {501, "trust: one connected document per URL",
       "CREATE UNIQUE INDEX connected_documents_url_unique ON connected_documents (tenant_id, url)"
       " WHERE url IS NOT NULL",
       ""},
      {502, "trust: per-tenant generations bumped by triggers", generations_sqlite, generations_postgres},
      // The trust rows about an entry or a hub go with it. Triggers keep
      // that here, so the knowledge base needs no knowledge of trust tables.
      {503, "trust: an entry's or hub's trust rows are deleted with it",
       R"sql(
CREATE TRIGGER trust_forget_entry AFTER DELETE ON entries BEGIN
  DELETE FROM trust_policies WHERE tenant_id = OLD.tenant_id AND scope = 'entry' AND target_id = OLD.id;
  DELETE FROM source_sensitivity WHERE tenant_id = OLD.tenant_id AND source_kind = 'entry' AND source_id = OLD.id;
  DELETE FROM entry_source_links WHERE tenant_id = OLD.tenant_id AND entry_id = OLD.id;
END;
CREATE TRIGGER trust_forget_hub AFTER DELETE ON hubs BEGIN
  DELETE FROM trust_policies WHERE tenant_id = OLD.tenant_id AND scope = 'hub' AND target_id = OLD.id;
END;
)sql",
       R"sql(
CREATE FUNCTION trust_forget_entry() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM trust_policies WHERE tenant_id = OLD.tenant_id AND scope = 'entry' AND target_id = OLD.id;
  DELETE FROM source_sensitivity WHERE tenant_id = OLD.tenant_id AND source_kind = 'entry' AND source_id = OLD.id;
  DELETE FROM entry_source_links WHERE tenant_id = OLD.tenant_id AND entry_id = OLD.id;
  RETURN NULL;
END $$;
CREATE TRIGGER trust_forget_entry AFTER DELETE ON entries FOR EACH ROW EXECUTE FUNCTION trust_forget_entry();
CREATE FUNCTION trust_forget_hub() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM trust_policies WHERE tenant_id = OLD.tenant_id AND scope = 'hub' AND target_id = OLD.id;
  RETURN NULL;
END $$;
CREATE TRIGGER trust_forget_hub AFTER DELETE ON hubs FOR EACH ROW EXECUTE FUNCTION trust_forget_hub();
)sql"},
      // The AI application registry (docs/apps.md). An app's default policy
      // and channel take part in its decisions, so its writes bump the
      // tenant's generation like the other inputs of an evaluation. Stats
      // and reports read an app's decisions by time through the index.
      {504, "trust: AI applications", apps_sqlite, apps_postgres},
      // Nothing reads decisions by time alone: reports fold the ledger by
      // sequence (reports/rollup.h) and app stats have their own index. One
      // B-tree fewer on every append.
      {505, "trust: no index on decisions by time alone", "DROP INDEX IF EXISTS trust_decisions_time", ""},
      // Records before it keep their hash formula (format 1); ledger.h
      // explains format 2.
      {506, "trust: ledger hash format",
       "ALTER TABLE trust_decisions ADD COLUMN hash_format INTEGER NOT NULL DEFAULT 1", ""},
      // Content scanning (docs/scanning.md): the tenant's setting and
      // fingerprint key, the findings (never the matched text), and what the
      // scanner's facts were derived from. Findings go with their entry.
      {507, "trust: content scanning settings, findings, scanner detail of facts", scanning_sqlite, scanning_postgres},
      // An app's own rate limit (docs/apps.md): both set or both NULL.
      {508, "trust: app rate limits",
       "ALTER TABLE trust_apps ADD COLUMN rate_limit_rps DOUBLE PRECISION;\n"
       "ALTER TABLE trust_apps ADD COLUMN rate_limit_burst BIGINT;\n",
       ""},
      // The lookup of a connected document by (tenant, connector, external
      // id) had two indexes starting with tenant_id to choose from, and on
      // PostgreSQL a connection's generic plan, made while the table was
      // empty and never analysed, chose this one with the other two columns
      // as a filter: a first sync of 10,000 documents then read every
      // document of the tenant twice per document (docs/performance.md,
      // "The PostgreSQL first sync"). Every lookup by URL (url = $n, url IN
      // (...): the resolver and the url_taken check) uses the partial unique
      // index of migration 501 on both backends, which holds the same
      // (tenant_id, url) for every row with a URL; rows without one are
      // never looked up by it.
      {509, "trust: connected documents by URL through the unique index only",
       "DROP INDEX IF EXISTS connected_documents_url", ""},
      // A policy what-if replays up to millions of records (docs/what-if.md)
      // and reads of each only what the rules' context is made of. Two of
      // those were only in the header; as columns, SQLite answers the replay
      // from this covering index alone: about an eighth of the bytes of the
      // rows and no lookup of each row (docs/performance.md, "Policy
      // what-if"). Older rows keep NULL and are read from their header.
      // PostgreSQL reads the rows through (tenant_id, seq) as before: its
      // index-only scans wait on the visibility map, which a ledger
      // appended to all the time keeps behind, so there the index would cost
      // every append and save a replay little.
      {510, "trust: decision context columns and the replay index",
       "ALTER TABLE trust_decisions ADD COLUMN external_model INTEGER;\n"
       "ALTER TABLE trust_decisions ADD COLUMN language TEXT;\n"
       "CREATE INDEX trust_decisions_replay ON trust_decisions (tenant_id, seq, evaluated_at, app_id, overall,"
       " action, channel, external_model, language, evidence);\n",
       "ALTER TABLE trust_decisions ADD COLUMN external_model INTEGER;\n"
       "ALTER TABLE trust_decisions ADD COLUMN language TEXT;\n"},
  };
  return kMigrations;
}

}  // namespace credence::trust
