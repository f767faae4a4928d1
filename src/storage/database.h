#pragma once
// The storage interface: a Database hands out pooled Connections; a
// Connection runs named statements. SQLite and PostgreSQL implement it;
// nothing above storage/ knows which one is in use except through Dialect.
//
// Errors: every method throws StorageError. Callers map kUniqueViolation and
// kForeignKeyViolation to domain errors; everything else is a 500/503 at the
// HTTP boundary.
#include <atomic>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "storage/rows.h"
#include "storage/value.h"

namespace credence::storage {

enum class Dialect { kSqlite, kPostgres };

class StorageError : public std::runtime_error {
 public:
  enum class Kind {
    kUniqueViolation,
    kForeignKeyViolation,
    kBusy,
    kUnavailable,
    kStorageFull,  // the disk (or quota) is full: SQLITE_FULL, SQLSTATE 53100
    kIoError,      // the disk failed a read or write: SQLITE_IOERR*, SQLSTATE 58030
    kOther,
  };
  StorageError(Kind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  Kind kind() const { return kind_; }

 private:
  Kind kind_;
};

enum class TxMode {
  kRead,   // a consistent snapshot for several reads
  kWrite,  // takes the write lock up front (SQLite BEGIN IMMEDIATE)
};

class Connection {
 public:
  virtual ~Connection() = default;
  virtual Dialect dialect() const = 0;

  // Runs one statement. `name` identifies it for statement caching and
  // logs; `sql` must stay valid for the connection's lifetime (it is a
  // query constant).
  virtual Rows Execute(std::string_view name, std::string_view sql, std::span<const Param> params) = 0;
  // Runs a script of several statements without parameters (migrations).
  virtual void ExecuteScript(std::string_view sql) = 0;

  virtual void Begin(TxMode mode) = 0;
  virtual void Commit() = 0;
  virtual void Rollback() = 0;  // must not throw on a broken connection
  // False once the connection failed in a way that makes it unusable; the
  // pool then drops it instead of reusing it.
  virtual bool healthy() const = 0;
};

class Database;

// A connection borrowed from the pool; returns it on destruction.
class ConnectionLease {
 public:
  ConnectionLease(Database* db, std::unique_ptr<Connection> conn) : db_(db), conn_(std::move(conn)) {}
  ConnectionLease(ConnectionLease&&) noexcept = default;
  ConnectionLease& operator=(ConnectionLease&&) = delete;
  ~ConnectionLease();
  Connection& operator*() const { return *conn_; }
  Connection* operator->() const { return conn_.get(); }

 private:
  Database* db_;
  std::unique_ptr<Connection> conn_;
};

struct DatabaseOptions {
  int pool_size = 4;
  int busy_timeout_ms = 5000;  // SQLite: wait this long for the write lock
  int acquire_timeout_ms = 5000;  // wait this long for a free connection, then kUnavailable
  // SQLite: restart the WAL once this much of it is in use (under writes
  // without pauses it never restarts by itself; sqlite_database.cpp).
  int64_t sqlite_wal_restart_bytes = int64_t{4} << 30;
};

class Database {
 public:
  virtual ~Database() = default;
  virtual Dialect dialect() const = 0;
  // Waits until a connection is free. Throws StorageError(kUnavailable)
  // when none can be made, or none frees up within acquire_timeout_ms.
  virtual ConnectionLease Acquire() = 0;
  // True when the store answers a trivial query.
  bool Ping();

  // Whether writes can succeed (docs/decisions.md, "Storage"). A disk-full or
  // I/O error from any statement of a Session marks the store as failing
  // writes; Readiness() then tries a small real write (the write probe) and
  // clears the mark once one commits. Reads are not affected.
  enum class Health { kReady, kUnreachable, kFull, kIoError };
  Health Readiness();
  // The write failure recorded last, kReady when none is pending.
  Health WriteFailure() const { return write_failure_.load(std::memory_order_relaxed); }
  // By Session, for every StorageError it sees.
  void NoteError(const StorageError& e);
  // Whether the store has room to write, where the server can tell (SQLite:
  // at least 1 MiB free on the database's file system). After a disk-full
  // failure, Readiness() probes only once there is room: a small probe
  // could otherwise fit in what the WAL file already holds while real
  // writes still fail.
  virtual bool HasRoomToWrite() const { return true; }
  // A short description without secrets, for logs.
  virtual std::string Describe() const = 0;

 protected:
  friend class ConnectionLease;
  virtual void Release(std::unique_ptr<Connection> conn) = 0;

 private:
  std::atomic<Health> write_failure_{Health::kReady};
};

// Opens `url` ("sqlite:<path>" or "postgresql://..."). Throws StorageError.
std::unique_ptr<Database> OpenDatabase(const std::string& url, const DatabaseOptions& options);

}  // namespace credence::storage
