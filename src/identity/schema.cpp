#include "identity/schema.h"

namespace credence::identity {

// Users are global identities (one person may belong to several tenants);
// everything a tenant owns hangs off tenant_members, keyed by tenant first.
const std::vector<storage::Migration>& Migrations() {
  static const std::vector<storage::Migration> kMigrations = {
      {100, "identity: tenants, users, memberships",
       R"sql(
CREATE TABLE tenants (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  slug TEXT NOT NULL UNIQUE,
  domain TEXT,
  allow_all_users INTEGER NOT NULL DEFAULT 0,
  enabled_languages TEXT NOT NULL DEFAULT '["en"]',
  enabled_plugins TEXT NOT NULL DEFAULT '[]',
  default_language TEXT NOT NULL DEFAULT 'en',
  created_at BIGINT NOT NULL
);
CREATE TABLE users (
  id TEXT PRIMARY KEY,
  email TEXT NOT NULL UNIQUE,
  display_name TEXT NOT NULL,
  created_at BIGINT NOT NULL
);
CREATE TABLE tenant_members (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  user_id TEXT NOT NULL REFERENCES users(id),
  role TEXT NOT NULL,
  persona TEXT,
  preferred_language TEXT,
  is_active INTEGER NOT NULL DEFAULT 1,
  joined_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, user_id)
);
CREATE UNIQUE INDEX tenant_members_persona ON tenant_members (tenant_id, persona) WHERE persona IS NOT NULL;
CREATE INDEX tenant_members_user ON tenant_members (user_id);
)sql",
       ""},
  };
  return kMigrations;
}

}  // namespace credence::identity
