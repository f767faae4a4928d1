#include "storage/session.h"

#include <vector>

#include "core/clock.h"
#include "core/logging.h"

namespace credence::storage {

namespace {

constexpr GlobalQuery kWriteProbe{
    "storage.write_probe",
    "INSERT INTO storage_write_probe (id, probed_at) VALUES (1, $1) "
    "ON CONFLICT (id) DO UPDATE SET probed_at = excluded.probed_at"};

Database::Health HealthOf(StorageError::Kind kind) {
  switch (kind) {
    case StorageError::Kind::kStorageFull: return Database::Health::kFull;
    case StorageError::Kind::kIoError: return Database::Health::kIoError;
    default: return Database::Health::kReady;
  }
}

}  // namespace

bool Database::Ping() {
  try {
    auto conn = Acquire();
    conn->Execute("ping", "SELECT 1", {});
    return true;
  } catch (const StorageError&) {
    return false;
  }
}

void Database::NoteError(const StorageError& e) {
  const Health health = HealthOf(e.kind());
  if (health == Health::kReady) return;
  if (write_failure_.exchange(health) != health)
    LogLine(LogLevel::kError, "storage cannot write; not ready until a probe write succeeds").Str("error", e.what());
}

Database::Health Database::Readiness() {
  const Health failing = write_failure_.load();
  if (failing == Health::kReady) return Ping() ? Health::kReady : Health::kUnreachable;
  if (failing == Health::kFull && !HasRoomToWrite()) return failing;
  try {
    Session session(*this, TxMode::kWrite);
    session.Run(kWriteProbe, {SystemClock().Now()});
    session.Commit();
  } catch (const StorageError& e) {
    const Health now = HealthOf(e.kind());
    return now != Health::kReady ? now : failing;
  }
  // Only the mark this probe saw is cleared: a different failure noted
  // meanwhile stays (`expected` then holds it).
  Health expected = failing;
  if (!write_failure_.compare_exchange_strong(expected, Health::kReady)) return expected;
  LogLine(LogLevel::kInfo, "storage writes succeed again; ready");
  return Health::kReady;
}

ConnectionLease::~ConnectionLease() {
  if (conn_ && db_ != nullptr) db_->Release(std::move(conn_));
}

Session::Session(Database& db) : db_(db), lease_(db.Acquire()), dialect_(db.dialect()) {}

namespace {

telemetry::Span TransactionSpan(const Database& db, TxMode mode) {
  telemetry::Span span(mode == TxMode::kWrite ? "storage write transaction" : "storage read transaction");
  if (span.recording())
    span.SetString("db.system.name", db.dialect() == Dialect::kSqlite ? "sqlite" : "postgresql");
  return span;
}

}  // namespace

Session::Session(Database& db, TxMode mode)
    : span_(TransactionSpan(db, mode)), db_(db), lease_(db.Acquire()), dialect_(db.dialect()) {
  try {
    lease_->Begin(mode);
  } catch (const StorageError& e) {
    span_.SetError(e.what());
    db_.NoteError(e);
    throw;
  }
  in_transaction_ = true;
}

Session::~Session() {
  if (in_transaction_) {
    lease_->Rollback();
    if (span_.recording()) span_.SetString("credence.transaction.outcome", "rollback").SetInt("credence.transaction.statements", statements_);
  }
}

Rows Session::Execute(std::string_view name, std::string_view sql, std::span<const Param> params) {
  ++statements_;
  try {
    return lease_->Execute(name, sql, params);
  } catch (const StorageError& e) {
    db_.NoteError(e);
    throw;
  }
}

Rows Session::Run(const GlobalQuery& q, std::initializer_list<Param> params) {
  const std::string_view sql = dialect_ == Dialect::kSqlite ? q.sqlite : q.postgres;
  return Execute(q.name, sql, std::span<const Param>(params.begin(), params.size()));
}

void Session::Commit() {
  if (!in_transaction_) return;
  try {
    lease_->Commit();
  } catch (const StorageError& e) {
    span_.SetError(e.what());
    db_.NoteError(e);
    throw;
  }
  in_transaction_ = false;
  // Ended here: what runs after the commit is not the transaction's.
  if (span_.recording())
    span_.SetString("credence.transaction.outcome", "commit").SetInt("credence.transaction.statements", statements_);
  span_.End();
  auto callbacks = std::move(after_commit_);
  after_commit_.clear();
  for (auto& fn : callbacks) fn();
}

void Session::AfterCommit(std::function<void()> fn) {
  if (!in_transaction_) {
    fn();
    return;
  }
  after_commit_.push_back(std::move(fn));
}

Rows TenantSession::Run(const TenantQuery& q, std::initializer_list<Param> params) {
  // Small fixed buffer: queries rarely take more than a dozen parameters.
  std::vector<Param> bound;
  bound.reserve(params.size() + 1);
  bound.emplace_back(std::string_view(tenant_id_));
  bound.insert(bound.end(), params.begin(), params.end());
  const std::string_view sql = session_.dialect() == Dialect::kSqlite ? q.sqlite : q.postgres;
  if (sql.empty()) throw StorageError(StorageError::Kind::kOther, std::string(q.name) + " has no SQL for this dialect");
  return session_.Execute(q.name, sql, bound);
}

}  // namespace credence::storage
