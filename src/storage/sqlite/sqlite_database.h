#pragma once
#include <memory>
#include <string>

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

}  // namespace credence::storage
