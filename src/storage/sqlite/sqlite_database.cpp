#include "storage/sqlite/sqlite_database.h"

#include "core/logging.h"
#include "storage/internal/connection_pool.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

namespace credence::storage {

StorageError::Kind SqliteErrorKind(int extended) {
  switch (extended) {
    case SQLITE_CONSTRAINT_UNIQUE:
    case SQLITE_CONSTRAINT_PRIMARYKEY:
      return StorageError::Kind::kUniqueViolation;
    case SQLITE_CONSTRAINT_FOREIGNKEY:
      return StorageError::Kind::kForeignKeyViolation;
    default:
      break;
  }
  switch (extended & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return StorageError::Kind::kBusy;
    case SQLITE_CANTOPEN:
      return StorageError::Kind::kUnavailable;
    case SQLITE_FULL:
      return StorageError::Kind::kStorageFull;
    // Every SQLITE_IOERR_* (write, fsync, truncate, short read, ...).
    case SQLITE_IOERR:
      return StorageError::Kind::kIoError;
    default:
      return StorageError::Kind::kOther;
  }
}

namespace {

[[noreturn]] void Throw(sqlite3* db, int rc, std::string_view what) {
  const int extended = db != nullptr ? sqlite3_extended_errcode(db) : rc;
  std::string message = std::string(what) + ": " + (db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
  throw StorageError(SqliteErrorKind(extended), message);
}

struct CachedStatement {
  sqlite3_stmt* stmt = nullptr;
  // For each SQLite parameter index (1-based, slot 0 unused), the 0-based
  // index into the caller's params ($k -> k-1).
  std::vector<int> param_slots;
};

class SqliteConnection final : public Connection {
 public:
  SqliteConnection(const std::string& path, const DatabaseOptions& options, std::shared_ptr<std::mutex> writer)
      : writer_(std::move(writer)) {
    const int rc =
        sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
    if (rc != SQLITE_OK) {
      std::string message = "cannot open " + path + ": " + (db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc));
      sqlite3_close(db_);
      db_ = nullptr;
      throw StorageError(StorageError::Kind::kUnavailable, message);
    }
    sqlite3_busy_timeout(db_, options.busy_timeout_ms);
    ExecuteScript(
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;"
        "PRAGMA temp_store=MEMORY; PRAGMA cache_size=-16000; PRAGMA wal_autocheckpoint=0;");
  }

  ~SqliteConnection() override {
    for (auto& [sql, cached] : cache_) sqlite3_finalize(cached.stmt);
    sqlite3_close(db_);
  }

  Dialect dialect() const override { return Dialect::kSqlite; }
  bool healthy() const override { return true; }

  Rows Execute(std::string_view name, std::string_view sql, std::span<const Param> params) override {
    CachedStatement& cached = Prepare(name, sql);
    sqlite3_stmt* stmt = cached.stmt;
    // Reset on every exit path so the statement never holds a read lock.
    struct Resetter {
      sqlite3_stmt* s;
      ~Resetter() {
        sqlite3_reset(s);
        sqlite3_clear_bindings(s);
      }
    } resetter{stmt};

    Bind(cached, name, params);

    const int columns = sqlite3_column_count(stmt);
    Rows rows(columns);
    while (true) {
      const int rc = sqlite3_step(stmt);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) Throw(db_, rc, name);
      for (int c = 0; c < columns; ++c) {
        switch (sqlite3_column_type(stmt, c)) {
          case SQLITE_NULL:
            rows.Add(std::monostate{});
            break;
          case SQLITE_INTEGER:
            rows.Add(static_cast<int64_t>(sqlite3_column_int64(stmt, c)));
            break;
          case SQLITE_FLOAT:
            rows.Add(sqlite3_column_double(stmt, c));
            break;
          default: {
            const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
            rows.Add(std::string(text, static_cast<size_t>(sqlite3_column_bytes(stmt, c))));
          }
        }
      }
    }
    rows.set_affected(sqlite3_changes64(db_));
    return rows;
  }

  void ExecuteScript(std::string_view sql) override {
    const std::string text(sql);
    char* message = nullptr;
    const int rc = sqlite3_exec(db_, text.c_str(), nullptr, nullptr, &message);
    if (rc != SQLITE_OK) {
      std::string what = message != nullptr ? message : sqlite3_errstr(rc);
      sqlite3_free(message);
      Throw(db_, rc, "script: " + what);
    }
  }

  // Writers of this process queue on a mutex before BEGIN IMMEDIATE: SQLite
  // admits one writer at a time anyway, and its busy handler waits by
  // sleeping with back-off, which turns contention into long tail latency.
  // (Other processes still meet the busy timeout.)
  void Begin(TxMode mode) override {
    if (mode == TxMode::kWrite) {
      writer_->lock();
      holds_writer_ = true;
    }
    try {
      Step(mode == TxMode::kWrite ? "BEGIN IMMEDIATE" : "BEGIN");
    } catch (...) {
      ReleaseWriter();
      throw;
    }
  }
  void Commit() override {
    Step("COMMIT");
    ReleaseWriter();
  }
  void Rollback() override {
    if (!sqlite3_get_autocommit(db_)) sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    ReleaseWriter();
  }

  // BackupSqliteSnapshot: inside the caller's read transaction.
  SqliteBackupStats BackupTo(const std::string& dest_path, int pages_per_step,
                             const std::function<void(int64_t, int64_t)>& progress) {
    if (sqlite3_get_autocommit(db_) != 0)
      throw std::invalid_argument("BackupSqliteSnapshot needs a connection inside a read transaction");
    // BEGIN is deferred: the snapshot starts with the transaction's first
    // read. Take it now, or the first step would open (and close) one of
    // its own.
    Execute("backup.snapshot", "SELECT count(*) FROM sqlite_schema", {});
    sqlite3* dest = nullptr;
    const int opened = sqlite3_open_v2(dest_path.c_str(), &dest,
                                       SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
    struct Closer {
      sqlite3* db;
      ~Closer() { sqlite3_close(db); }
    } closer{dest};
    if (opened != SQLITE_OK) Throw(dest, opened, "backup: cannot open " + dest_path);
    sqlite3_backup* backup = sqlite3_backup_init(dest, "main", db_, "main");
    if (backup == nullptr) Throw(dest, sqlite3_errcode(dest), "backup (init)");
    SqliteBackupStats stats;
    // The copy's pages reach the file as each step spills them; their
    // writeback is started after every step, so that the sync at the end
    // does not flush the whole file at once (a burst that stalled the
    // server's own writes).
    int dest_fd = -1;
    struct FdCloser {
      int& fd;
      ~FdCloser() {
        if (fd >= 0) ::close(fd);
      }
    } fd_closer{dest_fd};
    int rc = SQLITE_OK;
    do {
      rc = sqlite3_backup_step(backup, pages_per_step);
      if (dest_fd < 0) dest_fd = ::open(dest_path.c_str(), O_RDONLY | O_CLOEXEC);
      if (dest_fd >= 0) ::sync_file_range(dest_fd, 0, 0, SYNC_FILE_RANGE_WRITE);
      ++stats.steps;
      stats.pages = sqlite3_backup_pagecount(backup);
      if (progress && (rc == SQLITE_OK || rc == SQLITE_DONE))
        progress(stats.pages - sqlite3_backup_remaining(backup), stats.pages);
    } while (rc == SQLITE_OK);
    // Busy or locked cannot come from the source (its snapshot is held) and
    // would mean something else has the new file open: not retried.
    const int finished = sqlite3_backup_finish(backup);
    if (rc != SQLITE_DONE) Throw(dest, rc, "backup");
    if (finished != SQLITE_OK) Throw(dest, finished, "backup (finish)");
    stats.page_size = Execute("backup.page_size", "PRAGMA page_size", {}).front().Int(0);
    return stats;
  }

  // ForEachSqliteRow: a one-off statement (a whole-table read is not worth
  // a cache slot), stepped row by row.
  void StreamRows(std::string_view sql, const std::function<void(std::span<const SqliteValue>)>& row) {
    sqlite3_stmt* stmt = nullptr;
    const int prepared = sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt, nullptr);
    if (prepared != SQLITE_OK) Throw(db_, prepared, "stream (prepare)");
    struct Finalizer {
      sqlite3_stmt* s;
      ~Finalizer() { sqlite3_finalize(s); }
    } finalizer{stmt};
    const int columns = sqlite3_column_count(stmt);
    std::vector<SqliteValue> values(static_cast<size_t>(columns));
    while (true) {
      const int rc = sqlite3_step(stmt);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) Throw(db_, rc, "stream");
      ReadValues(stmt, values);
      row(values);
    }
  }

  // ForEachSqliteRow with parameters: a named statement from the cache.
  void StreamRows(std::string_view name, std::string_view sql, std::span<const Param> params,
                  const std::function<void(std::span<const SqliteValue>)>& row) {
    CachedStatement& cached = Prepare(name, sql);
    sqlite3_stmt* stmt = cached.stmt;
    struct Resetter {
      sqlite3_stmt* s;
      ~Resetter() {
        sqlite3_reset(s);
        sqlite3_clear_bindings(s);
      }
    } resetter{stmt};
    Bind(cached, name, params);
    std::vector<SqliteValue> values(static_cast<size_t>(sqlite3_column_count(stmt)));
    while (true) {
      const int rc = sqlite3_step(stmt);
      if (rc == SQLITE_DONE) break;
      if (rc != SQLITE_ROW) Throw(db_, rc, name);
      ReadValues(stmt, values);
      row(values);
    }
  }

 private:
  void Bind(CachedStatement& cached, std::string_view name, std::span<const Param> params) {
    sqlite3_stmt* stmt = cached.stmt;
    for (size_t i = 1; i < cached.param_slots.size(); ++i) {
      const int slot = cached.param_slots[i];
      if (slot < 0 || static_cast<size_t>(slot) >= params.size())
        throw StorageError(StorageError::Kind::kOther,
                           std::string(name) + ": parameter $" + std::to_string(slot + 1) + " not supplied");
      int rc = SQLITE_OK;
      const auto& v = params[static_cast<size_t>(slot)].get();
      const int index = static_cast<int>(i);
      switch (v.index()) {
        case 0:
          rc = sqlite3_bind_null(stmt, index);
          break;
        case 1:
          rc = sqlite3_bind_int64(stmt, index, std::get<1>(v));
          break;
        case 2:
          rc = sqlite3_bind_double(stmt, index, std::get<2>(v));
          break;
        case 3: {
          const std::string_view s = std::get<3>(v);
          // A null data pointer would bind NULL; an empty string must stay "".
          rc = sqlite3_bind_text(stmt, index, s.data() != nullptr ? s.data() : "", static_cast<int>(s.size()),
                                 SQLITE_STATIC);
          break;
        }
      }
      if (rc != SQLITE_OK) Throw(db_, rc, name);
    }
  }

  // The current row of `stmt` as views into SQLite's buffers.
  static void ReadValues(sqlite3_stmt* stmt, std::vector<SqliteValue>& values) {
    const int columns = static_cast<int>(values.size());
    for (int c = 0; c < columns; ++c) {
      SqliteValue& v = values[static_cast<size_t>(c)];
      switch (sqlite3_column_type(stmt, c)) {
        case SQLITE_NULL:
          v.type = SqliteValue::Type::kNull;
          break;
        case SQLITE_INTEGER:
          v.type = SqliteValue::Type::kInteger;
          v.integer = sqlite3_column_int64(stmt, c);
          break;
        case SQLITE_FLOAT:
          v.type = SqliteValue::Type::kReal;
          v.real = sqlite3_column_double(stmt, c);
          break;
        case SQLITE_BLOB: {
          v.type = SqliteValue::Type::kBlob;
          const void* blob = sqlite3_column_blob(stmt, c);
          v.bytes = std::string_view(static_cast<const char*>(blob),
                                     blob != nullptr ? static_cast<size_t>(sqlite3_column_bytes(stmt, c)) : 0);
          break;
        }
        default: {
          v.type = SqliteValue::Type::kText;
          const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, c));
          v.bytes = std::string_view(text != nullptr ? text : "",
                                     text != nullptr ? static_cast<size_t>(sqlite3_column_bytes(stmt, c)) : 0);
        }
      }
    }
  }

  // A statement without parameters or rows, prepared once per connection
  // (BEGIN and COMMIT run on every transaction; sqlite3_exec would parse
  // them each time).
  void Step(std::string_view sql) {
    sqlite3_stmt* stmt = Prepare(sql, sql).stmt;
    const int rc = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    if (rc != SQLITE_DONE) Throw(db_, rc, std::string(sql));
  }

  CachedStatement& Prepare(std::string_view name, std::string_view sql) {
    auto it = cache_.find(sql);
    if (it != cache_.end()) return it->second;
    sqlite3_stmt* stmt = nullptr;
    const int rc =
        sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT, &stmt, nullptr);
    if (rc != SQLITE_OK) Throw(db_, rc, std::string(name) + " (prepare)");
    CachedStatement cached{stmt, {}};
    const int count = sqlite3_bind_parameter_count(stmt);
    cached.param_slots.assign(static_cast<size_t>(count) + 1, -1);
    for (int i = 1; i <= count; ++i) {
      const char* pname = sqlite3_bind_parameter_name(stmt, i);
      if (pname != nullptr && pname[0] == '$') cached.param_slots[static_cast<size_t>(i)] = std::atoi(pname + 1) - 1;
    }
    return cache_.emplace(std::string(sql), std::move(cached)).first->second;
  }

  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  void ReleaseWriter() {
    if (holds_writer_) {
      holds_writer_ = false;
      writer_->unlock();
    }
  }

  std::shared_ptr<std::mutex> writer_;
  bool holds_writer_ = false;
  sqlite3* db_ = nullptr;
  std::unordered_map<std::string, CachedStatement, Hash, std::equal_to<>> cache_;
};

class SqliteDatabase final : public Database {
 public:
  SqliteDatabase(std::string path, const DatabaseOptions& options) : path_(std::move(path)), options_(options) {
    const auto parent = std::filesystem::path(path_).parent_path();
    std::error_code ec;
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    // Open one connection now so a bad path fails at start-up, not on the first request.
    pool_.Give(pool_.Take(), /*reusable=*/true);
    checkpointer_ = std::thread([this] { Checkpoint(); });
  }

  ~SqliteDatabase() override {
    {
      std::lock_guard lock(checkpoint_mu_);
      stopping_ = true;
    }
    checkpoint_wake_.notify_all();
    checkpointer_.join();
  }

  Dialect dialect() const override { return Dialect::kSqlite; }
  std::string Describe() const override { return "sqlite:" + path_; }

  ConnectionLease Acquire() override { return ConnectionLease(this, pool_.Take()); }

  bool HasRoomToWrite() const override {
    constexpr uint64_t kMinFreeBytes = uint64_t{1} << 20;
    std::error_code ec;
    const auto parent = std::filesystem::absolute(path_, ec).parent_path();
    if (ec) return true;
    const auto space = std::filesystem::space(parent, ec);
    return ec || space.available >= kMinFreeBytes;  // unknown: let the probe decide
  }

 protected:
  void Release(std::unique_ptr<Connection> conn) override { pool_.Give(std::move(conn), /*reusable=*/true); }

 private:
  // Request connections never checkpoint the WAL (wal_autocheckpoint=0):
  // a checkpoint inside a commit stalled that request, the tail of every
  // write-heavy load (the trust ledger's p99). This thread does it instead,
  // PASSIVE (it never blocks readers or the writer), on its own connection.
  void Checkpoint() {
    sqlite3* db = nullptr;
    if (sqlite3_open_v2(path_.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr) != SQLITE_OK) {
      sqlite3_close(db);
      return;
    }
    sqlite3_busy_timeout(db, 1000);
    // A connection opens the WAL on its first read; until then a checkpoint
    // through it does nothing at all (and reports -1 frames).
    sqlite3_exec(db, "SELECT 1 FROM sqlite_master LIMIT 1", nullptr, nullptr, nullptr);
    int64_t page_size = 4096;
    sqlite3_exec(
        db, "PRAGMA page_size",
        [](void* out, int, char** values, char**) {
          if (values[0] != nullptr) *static_cast<int64_t*>(out) = std::atoll(values[0]);
          return 0;
        },
        &page_size, nullptr);
    std::unique_lock lock(checkpoint_mu_);
    while (!checkpoint_wake_.wait_for(lock, std::chrono::milliseconds(kCheckpointIntervalMs),
                                      [this] { return stopping_; })) {
      lock.unlock();
      int frames = 0;
      sqlite3_wal_checkpoint_v2(db, nullptr, SQLITE_CHECKPOINT_PASSIVE, &frames, nullptr);
      // Once a pass has copied every frame back, the next writer starts the
      // WAL over from the top of the file by itself. Under a load without
      // pauses that moment never comes (a pass always ends with some write
      // transaction open) and the WAL grows. Past a large bound it is
      // restarted. A RESTART holds writers back while it copies the last
      // frames and syncs (120-180 ms under load on this project's machines,
      // performance.md), so it is kept rare (every 4 GB by default); this process's
      // writers queue on their mutex meanwhile (SQLite's busy handler would
      // sleep them in steps of up to 100 ms), and it never waits for
      // readers. The bound counts the frames in use, not the file's size:
      // the file keeps its size after a restart, so a size test would
      // restart on every pass from then on.
      if (frames > 0 && frames * page_size > options_.sqlite_wal_restart_bytes) {
        const auto start = std::chrono::steady_clock::now();
        int rc = SQLITE_OK;
        {
          std::lock_guard writers(*writer_);
          sqlite3_busy_timeout(db, 0);
          rc = sqlite3_wal_checkpoint_v2(db, nullptr, SQLITE_CHECKPOINT_RESTART, nullptr, nullptr);
          sqlite3_busy_timeout(db, 1000);
        }
        LogLine(LogLevel::kInfo, "sqlite wal restart")
            .Int("walBytes", frames * page_size)
            .Str("result", rc == SQLITE_OK ? "restarted" : "busy")
            .Int("ms", std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start)
                           .count());
      }
      lock.lock();
    }
    lock.unlock();
    sqlite3_wal_checkpoint_v2(db, nullptr, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
    sqlite3_close(db);
  }

  static constexpr int kCheckpointIntervalMs = 200;
  const std::string path_;
  const DatabaseOptions options_;
  const std::shared_ptr<std::mutex> writer_ = std::make_shared<std::mutex>();
  std::mutex checkpoint_mu_;
  std::condition_variable checkpoint_wake_;
  bool stopping_ = false;
  std::thread checkpointer_;
  internal::ConnectionPool pool_{options_.pool_size, options_.acquire_timeout_ms,
                                 [this] { return std::make_unique<SqliteConnection>(path_, options_, writer_); }};
};

}  // namespace

void ForEachSqliteRow(Connection& conn, std::string_view sql,
                      const std::function<void(std::span<const SqliteValue>)>& row) {
  auto* sqlite = dynamic_cast<SqliteConnection*>(&conn);
  if (sqlite == nullptr) throw std::invalid_argument("ForEachSqliteRow needs a SQLite connection");
  sqlite->StreamRows(sql, row);
}

void ForEachSqliteRow(Connection& conn, std::string_view name, std::string_view sql, std::span<const Param> params,
                      const std::function<void(std::span<const SqliteValue>)>& row) {
  auto* sqlite = dynamic_cast<SqliteConnection*>(&conn);
  if (sqlite == nullptr) throw std::invalid_argument("ForEachSqliteRow needs a SQLite connection");
  sqlite->StreamRows(name, sql, params, row);
}

SqliteBackupStats BackupSqliteSnapshot(Connection& conn, const std::string& dest_path, int pages_per_step,
                                       const std::function<void(int64_t copied, int64_t total)>& progress) {
  auto* sqlite = dynamic_cast<SqliteConnection*>(&conn);
  if (sqlite == nullptr) throw std::invalid_argument("BackupSqliteSnapshot needs a SQLite connection");
  return sqlite->BackupTo(dest_path, pages_per_step, progress);
}

std::unique_ptr<Database> OpenSqlite(const std::string& path, const DatabaseOptions& options) {
  // Memory statistics make every SQLite allocation take one process-wide
  // mutex; we never read them. Must precede SQLite's initialization.
  static std::once_flag configured;
  std::call_once(configured, [] { sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0); });
  return std::make_unique<SqliteDatabase>(path, options);
}

}  // namespace credence::storage
