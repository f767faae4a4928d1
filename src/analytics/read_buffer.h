#pragma once
// The read events of entries, buffered in memory and written in batches off
// the request path (docs/analytics.md, "Reads"). A request only appends to
// a vector under a mutex; one writer thread takes everything pending at
// least every `flush_interval_ms` (sooner when many are pending) and writes
// it in one write transaction: the raw events, the per-day read counts and
// each entry's last read. A crash loses the reads of at most the last
// interval; a clean shutdown (the destructor) writes them.
//
// Thread safety: Add and Flush may be called from any thread.
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/clock.h"

namespace credence::storage {
class Database;
}

namespace credence::analytics {

struct PendingRead {
  std::string tenant_id;
  std::string entry_id;
  std::string user_id;
  std::string language;
  TimeMs at = 0;
};

class ReadBuffer {
 public:
  // Beyond this many pending reads (the store unavailable for long), new
  // reads are dropped and counted, so memory stays bounded.
  static constexpr size_t kMaxPending = 100'000;
  // The writer is woken early when this many are pending.
  static constexpr size_t kEagerBatch = 2'000;

  ReadBuffer(storage::Database& db, int64_t flush_interval_ms = 1000);
  ~ReadBuffer();  // Stop()
  // Stops the writer thread and writes what is pending; later reads are
  // written only by Flush. Idempotent. Call it before the store closes.
  void Stop();
  ReadBuffer(const ReadBuffer&) = delete;
  ReadBuffer& operator=(const ReadBuffer&) = delete;

  // Never blocks on the store and never throws.
  void Add(PendingRead read) noexcept;
  // Writes every read added before the call (waiting for a batch the writer
  // has in flight); answers how many it wrote. A failed write is logged and
  // its reads are dropped (counted in dropped()).
  int64_t Flush();
  int64_t dropped() const;

 private:
  void Loop();
  // One transaction; throws what storage throws.
  void Write(const std::vector<PendingRead>& batch);

  storage::Database& db_;
  const int64_t flush_interval_ms_;
  // Held while a batch is taken and written: one writer at a time, and
  // Flush returns only after earlier reads are committed.
  std::mutex write_mu_;
  mutable std::mutex mu_;
  std::condition_variable wake_;
  std::vector<PendingRead> pending_;  // guarded by mu_
  int64_t dropped_ = 0;               // guarded by mu_
  bool stopping_ = false;             // guarded by mu_
  std::once_flag stopped_;
  std::thread thread_;
};

}  // namespace credence::analytics
