#pragma once
#include <memory>
#include <string>
#include <string_view>

#include "storage/database.h"

namespace credence::storage {

// PostgreSQL through libpq with a fixed-size connection pool. Statements are
// prepared once per connection (named by their query name) and run with
// text-format parameters and results.
std::unique_ptr<Database> OpenPostgres(const std::string& url, const DatabaseOptions& options);

// The kind of a SQLSTATE: 53100 disk_full is kStorageFull, 58030 io_error
// kIoError, the rest of class 53 and the connection classes kUnavailable,
// serialization failures and deadlocks kBusy.
StorageError::Kind PostgresErrorKind(std::string_view sqlstate);

}  // namespace credence::storage
