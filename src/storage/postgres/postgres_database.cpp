#include "storage/postgres/postgres_database.h"

#include "storage/internal/connection_pool.h"

#include <libpq-fe.h>

#include <charconv>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/logging.h"

namespace credence::storage {
namespace {

// PostgreSQL keys prepared statements on their first NAMEDATALEN - 1 bytes,
// so two longer names sharing a prefix would collide on the server.
constexpr size_t kMaxStatementName = 63;
// Bounds a connection attempt to an unreachable host; a URL that sets its own
// connect_timeout wins (see NewConnection).
constexpr const char* kDefaultConnectTimeoutSeconds = "10";
// SQLSTATE read_only_sql_transaction: a write reached a standby.
constexpr std::string_view kReadOnlyTransaction = "25006";

// Owns a PGresult.
struct ResultDeleter {
  void operator()(PGresult* res) const { PQclear(res); }
};
using Result = std::unique_ptr<PGresult, ResultDeleter>;

// libpq messages end with a newline (and may span lines); logs want one line.
std::string OneLine(const char* message) {
  std::string out = message != nullptr ? message : "";
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  for (char& c : out)
    if (c == '\n') c = ' ';
  return out;
}

// `url` without its password, for logs and error messages. Handles the URI
// form (user:password@ in the authority, password= in the query string) the
// way libpq reads it; a key=value conninfo string is rebuilt from libpq's own
// parse without the password.
std::string RedactUrl(const std::string& url) {
  const size_t scheme_end = url.find("://");
  if (scheme_end == std::string::npos) {
    PQconninfoOption* options = PQconninfoParse(url.c_str(), nullptr);
    if (options == nullptr) return "postgresql (unparsable connection string)";
    std::string out;
    for (const PQconninfoOption* o = options; o->keyword != nullptr; ++o) {
      if (o->val == nullptr || std::string_view(o->keyword) == "password") continue;
      if (!out.empty()) out += ' ';
      out += std::string(o->keyword) + "=" + o->val;
    }
    PQconninfoFree(options);
    return out;
  }
  std::string out = url;
  // libpq treats everything before the first '@' as user info, unless a '/'
  // comes first.
  const size_t authority = scheme_end + 3;
  const size_t at_or_slash = out.find_first_of("@/", authority);
  if (at_or_slash != std::string::npos && out[at_or_slash] == '@') {
    const size_t colon = out.find(':', authority);
    if (colon != std::string::npos && colon < at_or_slash) out.erase(colon, at_or_slash - colon);
  }
  const size_t query = out.find('?');
  if (query == std::string::npos) return out;
  std::string kept;
  size_t start = query + 1;
  while (start <= out.size()) {
    size_t end = out.find('&', start);
    if (end == std::string::npos) end = out.size();
    const std::string_view pair(out.data() + start, end - start);
    if (!pair.empty() && pair.substr(0, pair.find('=')) != "password") {
      kept += kept.empty() ? "" : "&";
      kept += pair;
    }
    start = end + 1;
  }
  out.erase(query);
  if (!kept.empty()) out += "?" + kept;
  return out;
}

StorageError::Kind KindFor(PGconn* conn, const PGresult* res) {
  if (PQstatus(conn) != CONNECTION_OK) return StorageError::Kind::kUnavailable;
  const char* state = res != nullptr ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : nullptr;
  // No result at all means libpq could not even build one (out of memory or
  // a lost connection it has not noticed yet): treat it as unavailable.
  if (state == nullptr) return res == nullptr ? StorageError::Kind::kUnavailable : StorageError::Kind::kOther;
  return PostgresErrorKind(state);
}

}  // namespace

StorageError::Kind PostgresErrorKind(std::string_view code) {
  if (code == "23505") return StorageError::Kind::kUniqueViolation;
  if (code == "23503") return StorageError::Kind::kForeignKeyViolation;
  // serialization_failure, deadlock_detected, lock_not_available: retrying
  // the transaction may succeed.
  if (code == "40001" || code == "40P01" || code == "55P03") return StorageError::Kind::kBusy;
  // Class 08 is connection_exception; 57P01-57P03 mean the server is
  // shutting down or not yet accepting work.
  if (code.substr(0, 2) == "08" || code == "57P01" || code == "57P02" || code == "57P03")
    return StorageError::Kind::kUnavailable;
  // disk_full; the rest of class 53 (insufficient resources: out of memory,
  // too many connections, configuration limits) passes with time.
  if (code == "53100") return StorageError::Kind::kStorageFull;
  if (code.substr(0, 2) == "53") return StorageError::Kind::kUnavailable;
  if (code == "58030") return StorageError::Kind::kIoError;  // io_error
  return StorageError::Kind::kOther;
}

namespace {

// Server notices (warnings; client_min_messages hides the rest) go to the
// structured log instead of libpq's default, raw stderr.
void LogNotice(void* /*arg*/, const char* message) {
  LogLine(LogLevel::kWarn, "postgres notice").Str("message", OneLine(message));
}

struct PreparedStatement {
  std::string name;
  size_t param_count = 0;
};

class PostgresConnection final : public Connection {
 public:
  // Throws StorageError(kUnavailable) when the server cannot be reached.
  PostgresConnection(const std::string& url, const std::string& described) {
    // Keywords are applied in order: "dbname" comes last so that settings in
    // the URL (expanded from it) override the defaults before it.
    // TCP keepalives and a user timeout: a server that vanishes without
    // closing its sockets (a host lost, a network partition) fails the
    // connection within seconds instead of leaving a request waiting for
    // the kernel's default of minutes; the pool then drops it and the next
    // request connects again, to whichever server is primary by then.
    const char* keywords[] = {"connect_timeout",  "keepalives_idle",           "keepalives_interval",
                              "keepalives_count", "tcp_user_timeout",          "fallback_application_name",
                              "dbname",           nullptr};
    const char* values[] = {kDefaultConnectTimeoutSeconds, "5", "2", "3", "15000", "credence", url.c_str(), nullptr};
    conn_ = PQconnectdbParams(keywords, values, /*expand_dbname=*/1);
    if (conn_ == nullptr)
      throw StorageError(StorageError::Kind::kUnavailable, "cannot connect to " + described + ": out of memory");
    if (PQstatus(conn_) != CONNECTION_OK) {
      std::string message = "cannot connect to " + described + ": " + OneLine(PQerrorMessage(conn_));
      PQfinish(conn_);
      throw StorageError(StorageError::Kind::kUnavailable, message);
    }
    PQsetNoticeProcessor(conn_, LogNotice, nullptr);
    try {
      // CREATE TABLE IF NOT EXISTS and friends emit NOTICEs that are only noise.
      ExecuteScript("SET client_min_messages TO warning");
    } catch (...) {
      PQfinish(conn_);  // the destructor does not run for a throwing constructor
      throw;
    }
  }

  ~PostgresConnection() override { PQfinish(conn_); }
  PostgresConnection(const PostgresConnection&) = delete;
  PostgresConnection& operator=(const PostgresConnection&) = delete;

  Dialect dialect() const override { return Dialect::kPostgres; }
  bool healthy() const override { return !retired_ && PQstatus(conn_) == CONNECTION_OK; }

  Rows Execute(std::string_view name, std::string_view sql, std::span<const Param> params) override {
    const PreparedStatement& statement = Prepare(name, sql);
    if (params.size() < statement.param_count)
      throw StorageError(StorageError::Kind::kOther, std::string(name) + ": parameter $" +
                                                         std::to_string(params.size() + 1) + " not supplied");
    // Like SQLite, ignore parameters the statement does not use; the server
    // would reject them.
    const size_t count = statement.param_count;

    // Text format for every parameter; the server parses each as the type it
    // inferred for that $n when the statement was prepared.
    std::vector<std::string> text(count);
    std::vector<const char*> values(count, nullptr);
    for (size_t i = 0; i < count; ++i) {
      const auto& v = params[i].get();
      switch (v.index()) {
        case 0: continue;  // NULL: values[i] stays nullptr
        case 1: text[i] = std::to_string(std::get<1>(v)); break;
        case 2: {
          char buffer[32];
          std::snprintf(buffer, sizeof buffer, "%.17g", std::get<2>(v));  // round-trips every double
          text[i] = buffer;
          break;
        }
        case 3: text[i] = std::string(std::get<3>(v)); break;  // borrowed, and not NUL-terminated
      }
      values[i] = text[i].c_str();
    }

    Result res(PQexecPrepared(conn_, statement.name.c_str(), static_cast<int>(count), values.data(),
                              /*paramLengths=*/nullptr, /*paramFormats=*/nullptr, /*resultFormat=*/0));
    const ExecStatusType status = res ? PQresultStatus(res.get()) : PGRES_FATAL_ERROR;
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) Throw(res.get(), name);

    const int columns = PQnfields(res.get());
    const int tuples = PQntuples(res.get());
    Rows rows(columns);
    rows.Reserve(static_cast<size_t>(tuples));
    for (int r = 0; r < tuples; ++r) {
      for (int c = 0; c < columns; ++c) {
        Cell cell;  // NULL unless the server sent a value
        if (!PQgetisnull(res.get(), r, c))
          cell.emplace<std::string>(PQgetvalue(res.get(), r, c), static_cast<size_t>(PQgetlength(res.get(), r, c)));
        rows.Add(std::move(cell));
      }
    }
    // "" for statements that affect no rows by definition (DDL, BEGIN).
    const std::string_view affected = PQcmdTuples(res.get());
    int64_t n = 0;
    std::from_chars(affected.data(), affected.data() + affected.size(), n);
    rows.set_affected(n);
    return rows;
  }

  void ExecuteScript(std::string_view sql) override {
    // PQexec runs several ';'-separated statements in one round trip (and in
    // one implicit transaction when none is open) and returns the last
    // result, or the first error.
    const std::string text(sql);
    Result res(PQexec(conn_, text.c_str()));
    const ExecStatusType status = res ? PQresultStatus(res.get()) : PGRES_FATAL_ERROR;
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) Throw(res.get(), "script");
  }

  // kRead promises one consistent snapshot, which READ COMMITTED does not
  // give; REPEATABLE READ does. kWrite stays READ COMMITTED: writers rely on
  // constraints and atomic updates rather than SQLite's single-writer lock
  // (docs/architecture.md, "The two backends").
  void Begin(TxMode mode) override {
    ExecuteScript(mode == TxMode::kRead ? "BEGIN ISOLATION LEVEL REPEATABLE READ" : "BEGIN");
  }

  void Commit() override {
    Result res(PQexec(conn_, "COMMIT"));
    const ExecStatusType status = res ? PQresultStatus(res.get()) : PGRES_FATAL_ERROR;
    if (status != PGRES_COMMAND_OK) Throw(res.get(), "commit");
    // COMMIT of a transaction in which a statement failed succeeds as a
    // ROLLBACK. The caller must not believe its writes were kept.
    if (std::string_view(PQcmdStatus(res.get())) == "ROLLBACK")
      throw StorageError(StorageError::Kind::kOther,
                         "commit: the transaction was rolled back because a statement in it failed");
  }

  void Rollback() override {
    // Nothing to undo outside a transaction; a broken connection has no
    // transaction left on the server and is dropped by the pool.
    if (PQtransactionStatus(conn_) == PQTRANS_IDLE || !healthy()) return;
    // Errors are swallowed: this runs on error paths and in destructors. A
    // failure that broke the connection shows in healthy().
    Result res(PQexec(conn_, "ROLLBACK"));
  }

  // BeginCopyIn: sends the COPY statement and hands the connection's copy
  // state to the returned object.
  std::unique_ptr<CopyIn> StartCopy(const std::string& statement);

  // Makes a returned connection safe to hand to the next borrower: a
  // transaction its last user left open is rolled back. False when the
  // connection must be dropped instead.
  bool ResetForReuse() {
    if (!healthy()) return false;
    if (PQtransactionStatus(conn_) != PQTRANS_IDLE) Rollback();
    return healthy() && PQtransactionStatus(conn_) == PQTRANS_IDLE;
  }

 private:
  friend class PostgresCopyIn;
  [[noreturn]] void Throw(const PGresult* res, std::string_view what) {
    const char* message = res != nullptr ? PQresultErrorMessage(res) : PQerrorMessage(conn_);
    if (message == nullptr || message[0] == '\0') message = PQerrorMessage(conn_);
    const char* state = res != nullptr ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : nullptr;
    if (state != nullptr && std::string_view(state) == kReadOnlyTransaction) {
      // The server this connection reaches is a standby now (a primary that
      // Patroni demoted): retire the connection, so the pool connects again
      // through the address that leads to the new primary, and answer 503
      // meanwhile rather than 500.
      retired_ = true;
      throw StorageError(StorageError::Kind::kUnavailable, std::string(what) + ": " + OneLine(message));
    }
    throw StorageError(KindFor(conn_, res), std::string(what) + ": " + OneLine(message));
  }

  // The server-side statement for `sql`, prepared on first use. Statements
  // are named after their query so that they read well in server logs and
  // pg_prepared_statements;
  // a name already taken by other SQL text (or too long, or empty) gets a
  // generated one.
  const PreparedStatement& Prepare(std::string_view name, std::string_view sql) {
    auto it = statements_.find(sql);
    if (it != statements_.end()) return it->second;

    std::string statement_name(name);
    if (statement_name.empty() || statement_name.size() > kMaxStatementName ||
        used_names_.contains(statement_name)) {
      const std::string prefix(name.substr(0, kMaxStatementName - 12));
      do {
        statement_name = prefix + "#" + std::to_string(++generated_names_);
      } while (used_names_.contains(statement_name));
    }

    const std::string text(sql);
    Result res(PQprepare(conn_, statement_name.c_str(), text.c_str(), 0, /*paramTypes=*/nullptr));
    if (!res || PQresultStatus(res.get()) != PGRES_COMMAND_OK) Throw(res.get(), std::string(name) + " (prepare)");
    // Taken on the server from now on, even if the describe below fails.
    used_names_.insert(statement_name);
    // One more round trip, once per statement and connection, to learn how
    // many parameters the server found, so a missing one is reported like
    // on SQLite and extra ones can be left out.
    Result described(PQdescribePrepared(conn_, statement_name.c_str()));
    if (!described || PQresultStatus(described.get()) != PGRES_COMMAND_OK)
      Throw(described.get(), std::string(name) + " (describe)");

    PreparedStatement prepared{std::move(statement_name), static_cast<size_t>(PQnparams(described.get()))};
    return statements_.emplace(text, std::move(prepared)).first->second;
  }

  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>()(s); }
  };
  PGconn* conn_ = nullptr;
  bool retired_ = false;  // healthy no more: the pool drops it
  // SQL text -> its prepared statement on this connection.
  std::unordered_map<std::string, PreparedStatement, Hash, std::equal_to<>> statements_;
  std::unordered_set<std::string> used_names_;
  int generated_names_ = 0;
};

class PostgresCopyIn final : public CopyIn {
 public:
  explicit PostgresCopyIn(PostgresConnection& conn) : conn_(conn) { buffer_.reserve(kChunk + 4096); }
  ~PostgresCopyIn() override {
    if (finished_) return;
    // Abandoned (an exception on the way): end the copy with an error so the
    // connection leaves COPY mode; the transaction is aborted.
    if (PQputCopyEnd(conn_.conn_, "copy abandoned by the client") == 1)
      while (Result res{PQgetResult(conn_.conn_)}) {
      }
  }
  PostgresCopyIn(const PostgresCopyIn&) = delete;
  PostgresCopyIn& operator=(const PostgresCopyIn&) = delete;

  void Put(std::string_view rows) override {
    buffer_.append(rows);
    if (buffer_.size() >= kChunk) Flush();
  }

  int64_t Finish() override {
    Flush();
    finished_ = true;
    if (PQputCopyEnd(conn_.conn_, nullptr) != 1) conn_.Throw(nullptr, "copy (end)");
    // The COPY's own result, then the end of the command.
    Result res(PQgetResult(conn_.conn_));
    while (Result more{PQgetResult(conn_.conn_)}) {
    }
    if (!res || PQresultStatus(res.get()) != PGRES_COMMAND_OK) conn_.Throw(res.get(), "copy");
    const std::string_view stored = PQcmdTuples(res.get());
    int64_t n = 0;
    std::from_chars(stored.data(), stored.data() + stored.size(), n);
    return n;
  }

 private:
  // Rows go to the server in chunks of about this size: large enough that
  // the per-call cost vanishes, small enough to keep memory flat.
  static constexpr size_t kChunk = size_t{1} << 20;

  void Flush() {
    if (buffer_.empty()) return;
    if (PQputCopyData(conn_.conn_, buffer_.data(), static_cast<int>(buffer_.size())) != 1)
      conn_.Throw(nullptr, "copy (data)");
    buffer_.clear();
  }

  PostgresConnection& conn_;
  std::string buffer_;
  bool finished_ = false;
};

std::unique_ptr<CopyIn> PostgresConnection::StartCopy(const std::string& statement) {
  Result res(PQexec(conn_, statement.c_str()));
  if (!res || PQresultStatus(res.get()) != PGRES_COPY_IN) {
    // A statement that is not a COPY would have run to completion: nothing
    // to drain. A failed one leaves its error in `res`.
    Throw(res.get(), "copy (start)");
  }
  return std::make_unique<PostgresCopyIn>(*this);
}

class PostgresDatabase final : public Database {
 public:
  PostgresDatabase(std::string url, const DatabaseOptions& options)
      : url_(std::move(url)), described_(RedactUrl(url_)), options_(options) {
    // Connect once now so a wrong URL fails at start-up, not on the first request.
    pool_.Give(pool_.Take(), /*reusable=*/true);
  }

  Dialect dialect() const override { return Dialect::kPostgres; }
  std::string Describe() const override { return described_; }

  ConnectionLease Acquire() override { return ConnectionLease(this, pool_.Take()); }

 protected:
  void Release(std::unique_ptr<Connection> conn) override {
    // Only this pool makes connections, so they are all PostgresConnections.
    const bool reusable = static_cast<PostgresConnection&>(*conn).ResetForReuse();
    pool_.Give(std::move(conn), reusable);
  }

 private:
  const std::string url_;
  const std::string described_;
  const DatabaseOptions options_;
  internal::ConnectionPool pool_{options_.pool_size, options_.acquire_timeout_ms,
                                 [this] { return std::make_unique<PostgresConnection>(url_, described_); }};
};

}  // namespace

std::string QuoteIdentifier(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

void AppendCopyText(std::string& out, std::string_view value) {
  size_t start = 0;
  for (size_t i = 0; i < value.size(); ++i) {
    const char c = value[i];
    const char* escaped = c == '\\' ? "\\\\" : c == '\t' ? "\\t" : c == '\n' ? "\\n" : c == '\r' ? "\\r" : nullptr;
    if (escaped == nullptr) continue;
    out.append(value.data() + start, i - start);
    out += escaped;
    start = i + 1;
  }
  out.append(value.data() + start, value.size() - start);
}

std::unique_ptr<CopyIn> BeginCopyIn(Connection& conn, std::string_view table, std::span<const std::string> columns) {
  auto* pg = dynamic_cast<PostgresConnection*>(&conn);
  if (pg == nullptr) throw std::invalid_argument("BeginCopyIn needs a PostgreSQL connection");
  std::string statement = "COPY " + QuoteIdentifier(table) + " (";
  for (size_t i = 0; i < columns.size(); ++i) statement += (i > 0 ? ", " : "") + QuoteIdentifier(columns[i]);
  statement += ") FROM STDIN";
  return pg->StartCopy(statement);
}

std::unique_ptr<Database> OpenPostgres(const std::string& url, const DatabaseOptions& options) {
  return std::make_unique<PostgresDatabase>(url, options);
}

}  // namespace credence::storage
