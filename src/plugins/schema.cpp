#include "plugins/schema.h"

namespace credence::plugins {
namespace {

// Migration 1500: plugin installations, one row per tenant and installed
// plugin (docs/plugins.md). settings is the JSON object the plugin's
// settings schema accepted ('{}' until configured).
constexpr const char* kInstallations = R"sql(
CREATE TABLE plugin_installations (
  tenant_id TEXT NOT NULL,
  plugin_id TEXT NOT NULL,
  is_enabled INTEGER NOT NULL,
  settings TEXT NOT NULL,
  installed_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, plugin_id)
);
)sql";

// Migration 1501: approval-workflow's approval requests (docs/plugins.md):
// one row per request for an entry, Pending until an Editor or Admin of the
// entry other than its owner and the requester approves or rejects it.
constexpr const char* kApprovals = R"sql(
CREATE TABLE plugin_approvals (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  status TEXT NOT NULL,
  requested_by TEXT NOT NULL,
  requested_at BIGINT NOT NULL,
  request_comment TEXT NOT NULL,
  decided_by TEXT NOT NULL,
  decided_at BIGINT NOT NULL,
  decision_comment TEXT NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX plugin_approvals_entry ON plugin_approvals (tenant_id, entry_id, requested_at);
)sql";

// Migration 1502: tenant-supplied guards (docs/plugins.md): script-guards'
// Lua scripts (kind 'script': source, version bumped on every change) and
// admission-hooks' HTTP hooks (kind 'hook': url, whsec_ secret, timeout).
// action '' guards every guarded action.
constexpr const char* kCustomGuards = R"sql(
CREATE TABLE plugin_custom_guards (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  kind TEXT NOT NULL,
  name TEXT NOT NULL,
  action TEXT NOT NULL,
  is_enabled INTEGER NOT NULL,
  source TEXT NOT NULL,
  version BIGINT NOT NULL,
  url TEXT NOT NULL,
  secret TEXT NOT NULL,
  timeout_ms BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX plugin_custom_guards_kind ON plugin_custom_guards (tenant_id, kind, created_at);
)sql";

// Migration 1503: content-rules' hub rules (docs/plugins.md): per hub, an
// enabled flag and a rules document of the same shape as the tenant's
// global rules, which it tightens. Keyed by hub id (hub keys can be reused
// after a delete; rows of a deleted hub are never read again).
constexpr const char* kHubRules = R"sql(
CREATE TABLE plugin_hub_rules (
  tenant_id TEXT NOT NULL,
  hub_id TEXT NOT NULL,
  is_enabled INTEGER NOT NULL,
  rules TEXT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, hub_id)
);
)sql";

}  // namespace

const std::vector<storage::Migration>& Migrations() {
  static const std::vector<storage::Migration> kMigrations = {
      {1500, "plugins: tenant plugin installations and their settings", kInstallations, ""},
      {1501, "plugins: approval-workflow's approval requests", kApprovals, ""},
      {1502, "plugins: tenant guard scripts and admission hooks", kCustomGuards, ""},
      {1503, "plugins: content-rules' hub rules", kHubRules, ""},
  };
  return kMigrations;
}

}  // namespace credence::plugins
