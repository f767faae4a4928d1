#pragma once
#include <memory>
#include <string>

#include "storage/database.h"

namespace credence::storage {

// PostgreSQL through libpq with a fixed-size connection pool. Statements are
// prepared once per connection (named by their query name) and run with
// text-format parameters and results.
std::unique_ptr<Database> OpenPostgres(const std::string& url, const DatabaseOptions& options);

}  // namespace credence::storage
