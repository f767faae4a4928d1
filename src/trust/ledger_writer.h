#pragma once
// Group commit for the decision ledger. Requests hand their record to one
// writer thread and wait; the writer appends every record waiting, in one
// write transaction, and wakes them when it has committed. Many appends
// then share one commit (and the WAL pages it writes), instead of queueing
// one by one on the store's single writer. A request is answered only after
// its record is committed, as before.
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include <boost/json/object.hpp>

#include "identity/events.h"
#include "trust/ledger.h"

namespace credence::storage {
class Database;
}

namespace credence::trust {

class LedgerWriter {
 public:
  struct Job {
    std::string tenant_id;
    const LedgerRecord* record = nullptr;
    // When set, the record is appended only if the tenant's generation is
    // still this one (decided from the cache); otherwise `stale` is set.
    std::optional<int64_t> expected_generation;
    // When set (a decision that blocked or escalated a source), emitted as
    // trust.decision.blocked in the append's transaction (docs/webhooks.md).
    // Builds its data only when a webhook is subscribed (EmitLazy).
    std::function<boost::json::object()> blocked_event;
    // Results.
    bool stale = false;
    AppendOutcome outcome;
    std::exception_ptr error;
    bool done = false;
    // For Submit: called on the writer's thread once the job is done; the
    // writer touches the job no more after.
    std::function<void()> on_done;
  };

  LedgerWriter(storage::Database& db, const EvidenceCache& cache,
               const identity::EventSink& events = identity::kNoEvents);
  ~LedgerWriter();
  LedgerWriter(const LedgerWriter&) = delete;
  LedgerWriter& operator=(const LedgerWriter&) = delete;

  // Blocks until the job's record is committed, found stale, or failed.
  void Append(Job& job);
  // Returns at once; `job.on_done` is called when it is done. The job must
  // live until then.
  void Submit(Job& job);

 private:
  void Loop();
  // Appends the batch (ledger_writer.cpp says how it locks on PostgreSQL);
  // sets each job's outcome or error.
  void WriteBatch(std::vector<Job*>& batch);
  // Appends `jobs` (sorted by tenant) in one transaction. With `wait`
  // false, on PostgreSQL, the jobs of a tenant whose chain lock another node
  // holds are not written but returned. Throws when an append fails.
  std::vector<Job*> Write(std::span<Job* const> jobs, bool wait);
  void WriteOneByOne(std::span<Job* const> jobs);

  static constexpr size_t kMaxBatch = 64;
  // Only the writer's thread touches it; filled after each commit.
  EvidenceListDigests list_digests_;
  storage::Database& db_;
  const EvidenceCache& cache_;
  const identity::EventSink& events_;
  std::mutex mu_;
  std::condition_variable work_;
  std::condition_variable done_;
  std::deque<Job*> queue_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace credence::trust
