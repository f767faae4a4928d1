#pragma once
#include <cstdint>
#include <memory>
#include <span>
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

// A COPY ... FROM STDIN in progress on one connection: the bulk-load path
// (one statement; rows streamed in COPY's text format, which is several
// times faster than a prepared INSERT per row). The connection runs nothing
// else until Finish, or until the CopyIn is destroyed, which abandons the
// copy (the server then fails the statement and its transaction).
class CopyIn {
 public:
  virtual ~CopyIn() = default;
  // Rows in COPY's text format: fields separated by a tab, each row ended by
  // a newline, NULL as \N, every field escaped with AppendCopyText. Buffered
  // and sent in large chunks. Throws StorageError.
  virtual void Put(std::string_view rows) = 0;
  // Ends the copy and returns the rows the server stored. Throws
  // StorageError, e.g. for a value its column's type refuses (the message
  // names the table, the line and the column); the transaction is then
  // aborted.
  virtual int64_t Finish() = 0;
};

// Starts COPY "table" ("column", ...) FROM STDIN on `conn`, which must come
// from a PostgreSQL Database (std::invalid_argument otherwise); the names
// are quoted here. Throws StorageError.
std::unique_ptr<CopyIn> BeginCopyIn(Connection& conn, std::string_view table, std::span<const std::string> columns);

// `value` escaped for a field of COPY's text format (backslash, tab,
// newline and carriage return), appended to `out`.
void AppendCopyText(std::string& out, std::string_view value);

// `name` as a quoted SQL identifier ("a""b").
std::string QuoteIdentifier(std::string_view name);

}  // namespace credence::storage
