#include "integrity/schema.h"

namespace credence::integrity {

const std::vector<storage::Migration>& Migrations() {
  // chain_signing_keys: every public key that ever signed, global (one key
  // per installation). The private key is never in the database.
  // chain_heads: per tenant and chain, the signed heads; never updated. No
  // foreign key to tenants: the audit log's platform chain (sign-in
  // failures that name no tenant) has heads too, under the nil tenant id.
  static const std::vector<storage::Migration> kMigrations = {
      {800, "integrity: chain-signing keys and signed chain heads",
       R"sql(
CREATE TABLE chain_signing_keys (
  key_id TEXT PRIMARY KEY,
  algorithm TEXT NOT NULL,
  public_key TEXT NOT NULL,
  created_at BIGINT NOT NULL,
  retired_at BIGINT,
  retired_by TEXT,
  retirement_signature TEXT
);
CREATE TABLE chain_heads (
  tenant_id TEXT NOT NULL,
  chain TEXT NOT NULL,
  seq BIGINT NOT NULL,
  hash TEXT NOT NULL,
  signed_at BIGINT NOT NULL,
  key_id TEXT NOT NULL,
  signature TEXT NOT NULL,
  PRIMARY KEY (tenant_id, chain, seq)
);
)sql",
       ""},
      // Per tenant and chain, the last record moved to an archive file
      // (archive_boundary.h; docs/retention.md).
      {801, "integrity: where each chain was archived through",
       R"sql(
CREATE TABLE chain_archive_boundaries (
  tenant_id TEXT NOT NULL,
  chain TEXT NOT NULL,
  seq BIGINT NOT NULL,
  hash TEXT NOT NULL,
  archived_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, chain)
);
)sql",
       ""},
  };
  return kMigrations;
}

}  // namespace credence::integrity
