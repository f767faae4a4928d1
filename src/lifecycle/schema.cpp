#include "lifecycle/schema.h"

namespace credence::lifecycle {

// Expiry templates and review checklists. name_key is the trimmed name
// ASCII-lowercased (names are unique per tenant ignoring case). At most one
// default template per tenant (a partial unique index). entries gains the
// entry's custom template, which makes a template "in use".
const std::vector<storage::Migration>& Migrations() {
  static const std::vector<storage::Migration> kMigrations = {
      {300, "lifecycle: expiry templates, review checklists",
       R"sql(
CREATE TABLE expiry_templates (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  name_key TEXT NOT NULL,
  description TEXT,
  expiry_days INTEGER NOT NULL,
  warning_days INTEGER NOT NULL,
  grace_days INTEGER NOT NULL,
  review_required INTEGER NOT NULL DEFAULT 0,
  review_type TEXT,
  checklist_id TEXT,
  auto_renew_on_attestation INTEGER NOT NULL DEFAULT 0,
  is_active INTEGER NOT NULL DEFAULT 1,
  is_default INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, name_key)
);
CREATE UNIQUE INDEX expiry_templates_default ON expiry_templates (tenant_id) WHERE is_default = 1;
CREATE INDEX expiry_templates_checklist ON expiry_templates (tenant_id, checklist_id);
CREATE TABLE review_checklists (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  hub_id TEXT,
  items TEXT NOT NULL DEFAULT '[]',
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX review_checklists_hub ON review_checklists (tenant_id, hub_id);
ALTER TABLE entries ADD COLUMN expiry_template_id TEXT;
CREATE INDEX entries_expiry_template ON entries (tenant_id, expiry_template_id);
)sql",
       ""},
      // Changes of an entry's custom template (change-template), with the
      // optional reason; from_template_id is NULL when it had none.
      {301, "lifecycle: entry template changes",
       R"sql(
CREATE TABLE entry_template_changes (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  from_template_id TEXT,
  to_template_id TEXT NOT NULL,
  reason TEXT,
  changed_by TEXT NOT NULL,
  changed_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX entry_template_changes_entry ON entry_template_changes (tenant_id, entry_id);
)sql",
       ""},
  };
  return kMigrations;
}

}  // namespace credence::lifecycle
