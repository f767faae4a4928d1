#pragma once
// A bounded pool of connections shared by the backends: hands out an idle
// connection, opens a new one while under the limit (outside the lock: a
// PostgreSQL connect is a network round trip), or waits for one to come back.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "storage/database.h"

namespace credence::storage::internal {

class ConnectionPool {
 public:
  using Factory = std::function<std::unique_ptr<Connection>()>;

  ConnectionPool(int max_open, int timeout_ms, Factory open)
      : max_open_(max_open), timeout_(timeout_ms), open_connection_(std::move(open)) {}

  // Waits until a connection is free; StorageError(kUnavailable) after the
  // timeout (a hung store must not hang every request, health checks
  // included). Throws what the factory throws.
  std::unique_ptr<Connection> Take();

  // Returns a connection; one that is not `reusable` is closed (outside the
  // lock) and frees its slot for a fresh one.
  void Give(std::unique_ptr<Connection> conn, bool reusable);

 private:
  const int max_open_;
  const std::chrono::milliseconds timeout_;
  const Factory open_connection_;
  std::mutex mu_;
  std::condition_variable available_;
  std::vector<std::unique_ptr<Connection>> idle_;  // guarded by mu_
  int open_ = 0;     // guarded by mu_; idle and leased
  int waiting_ = 0;  // guarded by mu_
};

}  // namespace credence::storage::internal
