#pragma once
// What repositories use: a Session holds one pooled connection, optionally
// inside a transaction that rolls back unless committed. TenantSession adds
// the tenant: it only runs TenantQuery statements and binds the tenant id as
// $1 itself, so tenant scoping cannot be forgotten. A transaction is a span
// of the current trace (docs/tracing.md), from waiting for a connection to
// commit or rollback; statements outside one are not.
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "storage/database.h"
#include "storage/query.h"
#include "telemetry/span.h"

namespace credence::storage {

class Session {
 public:
  // No transaction: each statement commits on its own.
  explicit Session(Database& db);
  Session(Database& db, TxMode mode);
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  ~Session();  // rolls back an uncommitted transaction

  Rows Run(const GlobalQuery& q, std::initializer_list<Param> params = {});
  void Commit();
  // Runs `fn` once the transaction has committed (at once outside a
  // transaction); dropped when it rolls back. For work that must only
  // follow a committed action (plugins' event handlers); `fn` must not
  // throw.
  void AfterCommit(std::function<void()> fn);
  Dialect dialect() const { return dialect_; }
  Connection& connection() { return *lease_; }
  // Runs one statement; a storage error is noted on the database
  // (Database::NoteError) on its way to the caller.
  Rows Execute(std::string_view name, std::string_view sql, std::span<const Param> params);

 private:
  // First, so that it starts before the connection is acquired and ends
  // after it went back.
  telemetry::Span span_;
  Database& db_;
  ConnectionLease lease_;
  Dialect dialect_;
  bool in_transaction_ = false;
  int64_t statements_ = 0;  // counted for the span
  std::vector<std::function<void()>> after_commit_;
};

class TenantSession {
 public:
  TenantSession(Session& session, std::string tenant_id)
      : session_(session), tenant_id_(std::move(tenant_id)) {}

  Rows Run(const TenantQuery& q, std::initializer_list<Param> params = {});
  const std::string& tenant_id() const { return tenant_id_; }
  Session& session() { return session_; }
  void Commit() { session_.Commit(); }

 private:
  Session& session_;
  std::string tenant_id_;
};

}  // namespace credence::storage
