#pragma once
// `credence admin migrate-database`: moves an installation from the embedded
// SQLite store to PostgreSQL (docs/migrate-database.md):
//
//   credence admin migrate-database --from sqlite:PATH --to postgresql://...
//       [--chain-signing-key FILE]
//
// Brings both databases to this binary's schema, refuses a target that
// holds any data, copies every table in one PostgreSQL transaction (COPY
// FROM STDIN) from one read snapshot of the SQLite file, makes the
// PostgreSQL search rows from the SQLite full-text index, and then checks
// the target: row counts per table against the source, both hash chains of
// every tenant (the decision ledger, the audit log and its platform chain)
// and their signed heads with the chain-signing key (default: the one
// beside the SQLite file). A failed check empties the target again.
#include <string>
#include <vector>

namespace credence::app {

// `args` follow "migrate-database". Prints progress on stderr and a JSON
// summary on stdout; returns the exit code: 0 copied and verified, 1 the
// copy or its check failed (or the target is not empty), 2 bad flags.
int MigrateDatabase(const std::vector<std::string>& args);

// The flags, for `credence admin`'s usage text.
extern const char* const kMigrateDatabaseUsage;

}  // namespace credence::app
