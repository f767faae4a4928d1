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

}  // namespace

const std::vector<storage::Migration>& Migrations() {
  static const std::vector<storage::Migration> kMigrations = {
      {1500, "plugins: tenant plugin installations and their settings", kInstallations, ""},
  };
  return kMigrations;
}

}  // namespace credence::plugins
