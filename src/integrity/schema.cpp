#include "integrity/schema.h"

#include <string>

namespace credence::integrity {
namespace {

// The tenants' Merkle logs (merkle_log.h; docs/receipts.md). Tiles hold raw
// 32-byte hashes, 256 to a row: a BLOB on SQLite, in the key's B-tree
// (WITHOUT ROWID: one lookup per tile), bytea on PostgreSQL.
constexpr char kMerkleLogs[] = R"sql(
CREATE TABLE merkle_logs (
  tenant_id TEXT NOT NULL,
  chain TEXT NOT NULL,
  origin TEXT NOT NULL,
  first_seq BIGINT NOT NULL,
  tree_size BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, chain)
);
CREATE TABLE merkle_checkpoints (
  tenant_id TEXT NOT NULL,
  chain TEXT NOT NULL,
  tree_size BIGINT NOT NULL,
  root_hash TEXT NOT NULL,
  signed_at BIGINT NOT NULL,
  key_id TEXT NOT NULL,
  note TEXT NOT NULL,
  PRIMARY KEY (tenant_id, chain, tree_size)
);
)sql";
constexpr char kMerkleTilesSqlite[] = R"sql(
CREATE TABLE merkle_tiles (
  tenant_id TEXT NOT NULL,
  chain TEXT NOT NULL,
  tile_level INTEGER NOT NULL,
  tile_index BIGINT NOT NULL,
  hashes BLOB NOT NULL,
  PRIMARY KEY (tenant_id, chain, tile_level, tile_index)
) WITHOUT ROWID;
)sql";
constexpr char kMerkleTilesPostgres[] = R"sql(
CREATE TABLE merkle_tiles (
  tenant_id TEXT NOT NULL,
  chain TEXT NOT NULL,
  tile_level INTEGER NOT NULL,
  tile_index BIGINT NOT NULL,
  hashes BYTEA NOT NULL,
  PRIMARY KEY (tenant_id, chain, tile_level, tile_index)
);
)sql";

}  // namespace

const std::vector<storage::Migration>& Migrations() {
  // chain_signing_keys: every public key that ever signed, global (one key
  // per installation). The private key is never in the database.
  // chain_heads: per tenant and chain, the signed heads; never updated. No
  // foreign key to tenants: the audit log's platform chain (sign-in
  // failures that name no tenant) has heads too, under the nil tenant id.
  static const std::string kSqlite802 = std::string(kMerkleLogs) + kMerkleTilesSqlite;
  static const std::string kPostgres802 = std::string(kMerkleLogs) + kMerkleTilesPostgres;
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
      // Per tenant and chain, the Merkle log over the chain: its tiles and
      // signed checkpoints (merkle_log.h).
      {802, "integrity: Merkle logs, tiles and checkpoints", kSqlite802, kPostgres802},
  };
  return kMigrations;
}

}  // namespace credence::integrity
