#include "storage/session.h"

#include <vector>

namespace credence::storage {

bool Database::Ping() {
  try {
    auto conn = Acquire();
    conn->Execute("ping", "SELECT 1", {});
    return true;
  } catch (const StorageError&) {
    return false;
  }
}

ConnectionLease::~ConnectionLease() {
  if (conn_ && db_ != nullptr) db_->Release(std::move(conn_));
}

Session::Session(Database& db) : lease_(db.Acquire()), dialect_(db.dialect()) {}

Session::Session(Database& db, TxMode mode) : Session(db) {
  lease_->Begin(mode);
  in_transaction_ = true;
}

Session::~Session() {
  if (in_transaction_) lease_->Rollback();
}

Rows Session::Run(const GlobalQuery& q, std::initializer_list<Param> params) {
  const std::string_view sql = dialect_ == Dialect::kSqlite ? q.sqlite : q.postgres;
  return lease_->Execute(q.name, sql, std::span<const Param>(params.begin(), params.size()));
}

void Session::Commit() {
  if (!in_transaction_) return;
  lease_->Commit();
  in_transaction_ = false;
}

Rows TenantSession::Run(const TenantQuery& q, std::initializer_list<Param> params) {
  // Small fixed buffer: queries rarely take more than a dozen parameters.
  std::vector<Param> bound;
  bound.reserve(params.size() + 1);
  bound.emplace_back(std::string_view(tenant_id_));
  bound.insert(bound.end(), params.begin(), params.end());
  const std::string_view sql = session_.dialect() == Dialect::kSqlite ? q.sqlite : q.postgres;
  if (sql.empty()) throw StorageError(StorageError::Kind::kOther, std::string(q.name) + " has no SQL for this dialect");
  return session_.connection().Execute(q.name, sql, bound);
}

}  // namespace credence::storage
