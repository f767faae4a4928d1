#include "storage/database.h"
#include "storage/postgres/postgres_database.h"
#include "storage/sqlite/sqlite_database.h"

namespace credence::storage {

std::unique_ptr<Database> OpenDatabase(const std::string& url, const DatabaseOptions& options) {
  if (url.rfind("sqlite:", 0) == 0) return OpenSqlite(url.substr(7), options);
  if (url.rfind("postgresql://", 0) == 0 || url.rfind("postgres://", 0) == 0) return OpenPostgres(url, options);
  throw StorageError(StorageError::Kind::kUnavailable, "unsupported database URL scheme");
}

}  // namespace credence::storage
