#pragma once
// The operator's side of connector credentials (docs/connectors.md,
// "Credentials"): re-sealing every stored credential with the secrets key
// file's current key after a rotation, and which keys stored credentials
// still need (so the others can be pruned from the file).
#include <set>
#include <string>
#include <vector>

#include "connectors/secret_box.h"

namespace credence::storage {
class Database;
}

namespace credence::connectors {

struct ResealSummary {
  int64_t resealed = 0;
  // Credentials that did not open (their key is not in the file): left as
  // they are, named "<tenant id>/<connector id>".
  std::vector<std::string> failed;
};

// Every connector credential of every tenant opened and sealed again with
// `secrets`' current key, in one write transaction.
ResealSummary ResealCredentials(storage::Database& db, const SecretBox& secrets);

// The key ids the stored credentials are sealed with.
std::set<std::string> CredentialKeyIds(storage::Database& db);

}  // namespace credence::connectors
