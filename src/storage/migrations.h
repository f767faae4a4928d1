#pragma once
// Versioned schema migrations, applied in order at start-up, each in its own
// transaction, recorded in schema_migrations. Modules own their migrations;
// app/ assembles the ordered list. On PostgreSQL an advisory lock keeps
// several nodes starting at once from racing.
#include <span>
#include <string_view>
#include <vector>

#include "storage/database.h"

namespace credence::storage {

struct Migration {
  int version;
  std::string_view name;
  std::string_view sqlite;    // script for SQLite
  std::string_view postgres;  // script for PostgreSQL; empty means same as sqlite
};

// Applies every migration newer than the recorded version. Throws
// StorageError, or std::logic_error when versions are not strictly
// increasing or the database is newer than this binary.
// Returns the number applied.
int ApplyMigrations(Database& db, std::span<const Migration> migrations);

// The storage module's own tables (version 10: the write probe's one row,
// Database::Readiness), listed before every other module's.
const std::vector<Migration>& Migrations();

}  // namespace credence::storage
