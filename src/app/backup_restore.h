#pragma once
// `credence admin backup` and `credence admin restore` (docs/backup.md):
//
//   credence admin backup --out DIR [--database URL] [--data-dir DIR] [--pg-bin DIR]
//
// makes DIR (new; its parent must exist) holding one consistent snapshot of
// the store while the server keeps serving: on SQLite a copy of the file made
// with SQLite's online backup API inside one read transaction
// (credence.db); on PostgreSQL a pg_dump custom-format archive
// (credence.pgdump) of an exported snapshot. Beside it, manifest.json,
// written from the same snapshot: the format, backend, time, schema
// version, every table's row count, each tenant's ledger and audit chain
// head (sequence and hash), the ids of the chain-signing keys, and the data
// file's size and SHA-256. The signing key itself (a secret kept outside the
// database) is not in the backup.
//
//   credence admin restore --from DIR [--database URL] [--data-dir DIR]
//       [--chain-signing-key FILE] [--pg-bin DIR]
//
// puts a backup into an empty store only (SQLite: no file, or an empty one;
// PostgreSQL: a database without tables or functions), through pg_restore
// in one transaction on PostgreSQL; then compares every table's row count
// with the manifest, applies this binary's migrations, verifies both chains
// of every tenant and their signed heads with the key, and checks that each
// chain reaches the manifest's head with the same hash there. A failed check
// leaves the target empty again.
#include <string>
#include <vector>

namespace credence::app {

// `args` follow "backup" / "restore". Print progress on stderr and a JSON
// summary on stdout; return the exit code: 0 done (and, for restore,
// verified), 1 it failed (the store cannot be read, the target is not
// empty, a check failed, pg_dump or pg_restore failed), 2 a flag is missing
// or wrong (the message names it; a --from that is not a backup, a --out
// that exists or whose parent does not).
int BackupDatabase(const std::vector<std::string>& args);
int RestoreDatabase(const std::vector<std::string>& args);

// Their flags, for `credence admin`'s usage text.
extern const char* const kBackupUsage;
extern const char* const kRestoreUsage;

}  // namespace credence::app
