#pragma once
// What running PostgreSQL's own tools against a Credence database needs
// (`credence admin backup` and `restore` call pg_dump and pg_restore;
// app/backup_restore.h): how to hand them the connection, and what is in a
// database apart from PostgreSQL's own catalogs.
#include <optional>
#include <string>

#include "storage/database.h"

namespace credence::storage {

// `url` for a libpq command-line tool: a key=value connection string
// without the password, for its command line (which every user of the
// machine can read), and the password apart, for PGPASSWORD in its
// environment. Throws StorageError(kOther) for a URL libpq cannot parse.
struct PostgresToolLogin {
  std::string conninfo;
  std::optional<std::string> password;
};
PostgresToolLogin ToolLogin(const std::string& url);

// The first table, view, sequence or function in the database outside
// PostgreSQL's own schemas and not part of an extension, as "table
// public.tenants"; "" when there is none. Runs on `pg`, a PostgreSQL
// connection.
std::string FirstUserObject(Connection& pg);

// Drops every table, view, sequence and function that FirstUserObject would
// find (CASCADE: their indexes, constraints and triggers with them), in one
// transaction. For emptying again a database that held none of them before
// (a restore that failed its checks); schemas themselves are kept.
void DropUserObjects(Connection& pg);

}  // namespace credence::storage
