#include "storage/internal/connection_pool.h"

namespace credence::storage::internal {

std::unique_ptr<Connection> ConnectionPool::Take() {
  const auto deadline = std::chrono::steady_clock::now() + timeout_;
  std::unique_lock lock(mu_);
  while (true) {
    if (!idle_.empty()) {
      auto conn = std::move(idle_.back());
      idle_.pop_back();
      return conn;
    }
    if (open_ < max_open_) {
      ++open_;  // reserve the slot, then connect without the lock
      lock.unlock();
      try {
        return open_connection_();
      } catch (...) {
        lock.lock();
        --open_;
        if (waiting_ > 0) available_.notify_one();
        throw;
      }
    }
    ++waiting_;
    const bool woken = available_.wait_until(lock, deadline) == std::cv_status::no_timeout;
    --waiting_;
    if (!woken && idle_.empty() && open_ >= max_open_)
      throw StorageError(StorageError::Kind::kUnavailable, "no database connection became free in time");
  }
}

void ConnectionPool::Give(std::unique_ptr<Connection> conn, bool reusable) {
  bool wake;
  {
    std::lock_guard lock(mu_);
    if (reusable) {
      idle_.push_back(std::move(conn));
    } else {
      --open_;
    }
    wake = waiting_ > 0;
  }
  if (wake) available_.notify_one();
  // A connection not kept is closed here, outside the lock.
}

}  // namespace credence::storage::internal
