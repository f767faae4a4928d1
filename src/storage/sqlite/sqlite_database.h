#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "storage/database.h"

namespace credence::storage {

// A SQLite file in WAL mode with foreign keys on and a busy timeout. WAL
// lets readers run beside the one writer; synchronous=NORMAL keeps every
// committed transaction across a crash of the process (a power loss may
// drop the last ones; docs/architecture.md).
std::unique_ptr<Database> OpenSqlite(const std::string& path, const DatabaseOptions& options);

// The kind of a SQLite extended result code: SQLITE_FULL is kStorageFull,
// every SQLITE_IOERR_* kIoError, busy and locked kBusy.
StorageError::Kind SqliteErrorKind(int extended_code);

// One value of a row as SQLite steps it: `bytes` points into SQLite's own
// buffer and is valid only during the callback that receives it.
struct SqliteValue {
  enum class Type { kNull, kInteger, kReal, kText, kBlob };
  Type type = Type::kNull;
  int64_t integer = 0;
  double real = 0;
  std::string_view bytes;  // kText, kBlob
};

// Runs `sql` (one statement without parameters) on `conn`, which must come
// from a SQLite Database, and hands each result row to `row` as SQLite
// steps it, without materializing the result as Connection::Execute does:
// for reading whole tables (credence admin migrate-database). The statement
// is prepared for this call only. Throws StorageError, and
// std::invalid_argument for a connection of another backend; whatever `row`
// throws ends the walk and reaches the caller.
void ForEachSqliteRow(Connection& conn, std::string_view sql,
                      const std::function<void(std::span<const SqliteValue>)>& row);
// The same for a named statement with parameters ($1... as Execute takes
// them), prepared once per connection: for reads of many rows on a hot path
// (a policy what-if's pages), where building Rows cost more than SQLite's
// own work.
void ForEachSqliteRow(Connection& conn, std::string_view name, std::string_view sql, std::span<const Param> params,
                      const std::function<void(std::span<const SqliteValue>)>& row);

// What BackupSqliteSnapshot copied.
struct SqliteBackupStats {
  int64_t pages = 0;
  int64_t page_size = 0;
  int64_t steps = 0;
};

// Copies the database as `conn`'s open read transaction sees it into a new
// SQLite file at `dest_path` (which must not exist), with SQLite's online
// backup API, `pages_per_step` pages at a time; `progress` (may be empty)
// is called after each step with the pages copied and the total. `conn`
// must come from a SQLite Database and be inside a read transaction
// (Begin(kRead)): every step then reads that one snapshot, so the copy is
// consistent, and a writer committing meanwhile never restarts it (without
// a transaction of its own, each step would begin a new one and SQLite
// would start over whenever another connection wrote). In WAL mode the
// transaction blocks no writer; the WAL grows past it until it ends. The
// copy is synced to disk before this returns. Throws StorageError, and
// std::invalid_argument for another backend's connection or one outside a
// transaction.
SqliteBackupStats BackupSqliteSnapshot(Connection& conn, const std::string& dest_path, int pages_per_step,
                                       const std::function<void(int64_t copied, int64_t total)>& progress);

}  // namespace credence::storage
