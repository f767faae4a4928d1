#include "kb/schema.h"

#include <string>

namespace credence::kb {
namespace {

// Shared by both dialects; only full-text search differs.
constexpr std::string_view kTables = R"sql(
CREATE TABLE hubs (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  hub_key TEXT NOT NULL,
  name TEXT NOT NULL,
  default_expiry_days INTEGER NOT NULL,
  owner_id TEXT NOT NULL,
  category_id TEXT,
  tag_ids TEXT NOT NULL DEFAULT '[]',
  preview_image TEXT,
  default_org_role TEXT,
  default_expiry_template_id TEXT,
  root_entry_id TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, hub_key)
);
CREATE TABLE entries (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  hub_id TEXT NOT NULL,
  entry_key TEXT NOT NULL,
  title TEXT NOT NULL,
  content TEXT NOT NULL,
  original_language TEXT NOT NULL,
  status TEXT NOT NULL,
  expiry_at BIGINT NOT NULL,
  owner_id TEXT NOT NULL,
  preview_image TEXT,
  version INTEGER NOT NULL DEFAULT 1,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  content_updated_at BIGINT NOT NULL,
  published_at BIGINT,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, hub_id, entry_key),
  FOREIGN KEY (tenant_id, hub_id) REFERENCES hubs (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX entries_hub ON entries (tenant_id, hub_id, title);
CREATE INDEX entries_expiry ON entries (tenant_id, expiry_at);
CREATE INDEX entries_owner ON entries (tenant_id, owner_id);
CREATE TABLE entry_blocks (
  tenant_id TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  block_id TEXT NOT NULL,
  position INTEGER NOT NULL,
  hash TEXT NOT NULL,
  node TEXT NOT NULL,
  is_deleted INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (tenant_id, entry_id, block_id),
  FOREIGN KEY (tenant_id, entry_id) REFERENCES entries (tenant_id, id) ON DELETE CASCADE
) /*CLUSTERED*/;
CREATE TABLE translations (
  tenant_id TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  language TEXT NOT NULL,
  title TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  updated_by TEXT NOT NULL,
  PRIMARY KEY (tenant_id, entry_id, language),
  FOREIGN KEY (tenant_id, entry_id) REFERENCES entries (tenant_id, id) ON DELETE CASCADE
);
CREATE TABLE translation_blocks (
  tenant_id TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  language TEXT NOT NULL,
  block_id TEXT NOT NULL,
  node TEXT NOT NULL,
  source_hash TEXT NOT NULL,
  PRIMARY KEY (tenant_id, entry_id, language, block_id),
  FOREIGN KEY (tenant_id, entry_id, language) REFERENCES translations (tenant_id, entry_id, language) ON DELETE CASCADE
) /*CLUSTERED*/;
CREATE INDEX translation_blocks_block ON translation_blocks (tenant_id, entry_id, block_id);
CREATE TABLE hub_memberships (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  hub_id TEXT NOT NULL,
  user_id TEXT,
  group_id TEXT,
  role TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, hub_id) REFERENCES hubs (tenant_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX hub_memberships_user ON hub_memberships (tenant_id, hub_id, user_id) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX hub_memberships_group ON hub_memberships (tenant_id, hub_id, group_id) WHERE group_id IS NOT NULL;
CREATE INDEX hub_memberships_by_user ON hub_memberships (tenant_id, user_id);
CREATE INDEX hub_memberships_by_group ON hub_memberships (tenant_id, group_id);
CREATE TABLE entry_permissions (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  user_id TEXT,
  group_id TEXT,
  role TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, entry_id) REFERENCES entries (tenant_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX entry_permissions_user ON entry_permissions (tenant_id, entry_id, user_id) WHERE user_id IS NOT NULL;
CREATE UNIQUE INDEX entry_permissions_group ON entry_permissions (tenant_id, entry_id, group_id) WHERE group_id IS NOT NULL;
CREATE INDEX entry_permissions_by_user ON entry_permissions (tenant_id, user_id);
CREATE INDEX entry_permissions_by_group ON entry_permissions (tenant_id, group_id);
)sql";

// Block rows are read a whole entry at a time by key: on SQLite they live
// in the key's B-tree itself (WITHOUT ROWID), one lookup per row instead of
// two. PostgreSQL has no such clause; its heap plus index is the norm.
std::string Dialect(std::string_view sql, std::string_view clustered) {
  std::string out(sql);
  constexpr std::string_view kMarker = "/*CLUSTERED*/";
  for (size_t pos; (pos = out.find(kMarker)) != std::string::npos;) out.replace(pos, kMarker.size(), clustered);
  return out;
}

}  // namespace

// Search: SQLite FTS5 keyed by the entries table's rowid; PostgreSQL a
// weighted tsvector with a GIN index ('simple' configuration: the corpus is
// multilingual, so no language's stemmer is imposed on the others).
const std::vector<storage::Migration>& Migrations() {
  static const std::string kSqlite = Dialect(kTables, "WITHOUT ROWID") + R"sql(
-- What search filters on lives in compact rows beside the index: reading an
-- UNINDEXED column of the FTS table itself would load each match's text.
CREATE TABLE search_docs (
  rowid INTEGER PRIMARY KEY,
  tenant_id TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  hub_id TEXT NOT NULL,
  owner_id TEXT NOT NULL,
  UNIQUE (tenant_id, entry_id)
);
CREATE INDEX search_docs_hub ON search_docs (tenant_id, hub_id);
CREATE VIRTUAL TABLE entry_search USING fts5(title, body, tokenize = 'unicode61 remove_diacritics 2');
)sql";
  static const std::string kPostgres = Dialect(kTables, "") + R"sql(
CREATE TABLE entry_search (
  tenant_id TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  hub_id TEXT NOT NULL,
  title TEXT NOT NULL,
  document tsvector NOT NULL,
  PRIMARY KEY (tenant_id, entry_id),
  FOREIGN KEY (tenant_id, entry_id) REFERENCES entries (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX entry_search_document ON entry_search USING GIN (document);
)sql";
  // Entry templates (docs/templates.md). name_key is the name
  // ASCII-lowercased, for search; blocks is a JSON array of editor nodes;
  // rating_count and rating_sum follow kb_template_ratings (one row per
  // user); kb_template_uses has one row per apply.
  static constexpr char kTemplates[] = R"sql(
CREATE TABLE kb_templates (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  name_key TEXT NOT NULL,
  description TEXT,
  category TEXT,
  language TEXT NOT NULL,
  blocks TEXT NOT NULL,
  is_official INTEGER NOT NULL DEFAULT 0,
  owner_id TEXT NOT NULL,
  usage_count BIGINT NOT NULL DEFAULT 0,
  rating_count BIGINT NOT NULL DEFAULT 0,
  rating_sum BIGINT NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX kb_templates_name ON kb_templates (tenant_id, name_key);
CREATE INDEX kb_templates_category ON kb_templates (tenant_id, category);
CREATE TABLE kb_template_ratings (
  tenant_id TEXT NOT NULL,
  template_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  stars INTEGER NOT NULL,
  rated_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, template_id, user_id),
  FOREIGN KEY (tenant_id, template_id) REFERENCES kb_templates (tenant_id, id) ON DELETE CASCADE
);
CREATE TABLE kb_template_uses (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  template_id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  used_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, template_id) REFERENCES kb_templates (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX kb_template_uses_template ON kb_template_uses (tenant_id, template_id, used_at);
)sql";
  static constexpr std::string_view kTranslationJobs = R"sql(
CREATE TABLE translation_jobs (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  language TEXT NOT NULL,
  provider TEXT,
  requested_by TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL,
  claimed_by TEXT,
  claimed_until BIGINT,
  last_error TEXT,
  status TEXT NOT NULL DEFAULT 'pending',
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, entry_id) REFERENCES entries (tenant_id, id) ON DELETE CASCADE
);
CREATE UNIQUE INDEX translation_jobs_entry_language ON translation_jobs (tenant_id, entry_id, language);
CREATE INDEX translation_jobs_due ON translation_jobs (status, next_attempt_at);
)sql";
  // The text of an original block that translations were made from, kept
  // when the block changes while a translation still points at it, so a
  // stale block can show what changed in its source (docs/translations.md).
  static constexpr std::string_view kBlockVersions = R"sql(
CREATE TABLE entry_block_versions (
  tenant_id TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  block_id TEXT NOT NULL,
  hash TEXT NOT NULL,
  node TEXT NOT NULL,
  PRIMARY KEY (tenant_id, entry_id, block_id, hash),
  FOREIGN KEY (tenant_id, entry_id) REFERENCES entries (tenant_id, id) ON DELETE CASCADE
);
)sql";
  static const std::vector<storage::Migration> kMigrations = {
      {200, "kb: hubs, entries, blocks, translations, memberships, permissions, search", kSqlite, kPostgres},
      {210, "kb: entry templates, their ratings and uses", kTemplates, ""},
      // A machine-translated block stays marked until a person edits or
      // confirms it (docs/machine-translation.md).
      {220, "kb: machine-translated translation blocks",
       "ALTER TABLE translation_blocks ADD COLUMN machine_translated INTEGER NOT NULL DEFAULT 0;", ""},
      // The machine-translation triggers' queue (docs/machine-translation.md,
      // "Triggers"): one row per entry and language.
      {230, "kb: machine-translation jobs", kTranslationJobs, ""},
      {240, "kb: original block versions that translations were made from", kBlockVersions, ""},
  };
  return kMigrations;
}

}  // namespace credence::kb
