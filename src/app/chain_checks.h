#pragma once
// Checks of a whole store's hash chains, shared by the commands that make a
// store from another one and must show it whole before handing it over:
// `credence admin migrate-database` (app/migrate_database.h) and
// `credence admin restore` (app/backup_restore.h).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "integrity/chain_heads.h"
#include "integrity/signing_key.h"
#include "trust/ledger.h"

namespace credence::storage {
class Database;
}

namespace credence::app {

// Reads the chain-signing key at `path` (PEM). Never creates one: a key made
// here would have signed nothing the store holds. Null with `error` set
// (what is wrong, without the flag's name) when the file is missing or is
// not an Ed25519 private key.
std::shared_ptr<const integrity::SigningKey> ReadChainSigningKey(const std::string& path, std::string& error);

// The tenant's ledger from its first record, verified in ranges on as many
// threads as there are cores when it is long. Throws StorageError.
trust::VerifyResult VerifyLedger(storage::Database& db, const std::string& tenant_id);

// One tenant's chain, checked.
struct ChainCheck {
  std::string chain, tenant_id;
  int64_t records = 0, heads = 0;
  bool ok = true;
  std::string problem;
};

// Both chains of every tenant (the decision ledger, the audit log with its
// platform chain), each from its first record and against its signed heads
// (`heads` knows the public keys from the store). One line per chain on
// stderr as it goes. Throws StorageError.
std::vector<ChainCheck> VerifyChains(storage::Database& db, const integrity::ChainHeads& heads);

}  // namespace credence::app
