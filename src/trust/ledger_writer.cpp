#include "trust/ledger_writer.h"

#include <algorithm>
#include <vector>

#include "storage/session.h"
#include "trust/source_cache.h"

namespace credence::trust {

LedgerWriter::LedgerWriter(storage::Database& db, const EvidenceCache& cache, const identity::EventSink& events)
    : db_(db), cache_(cache), events_(events), thread_([this] { Loop(); }) {}

LedgerWriter::~LedgerWriter() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  work_.notify_all();
  thread_.join();
}

void LedgerWriter::Append(Job& job) {
  std::unique_lock lock(mu_);
  queue_.push_back(&job);
  work_.notify_one();
  done_.wait(lock, [&job] { return job.done; });
  if (job.error) std::rethrow_exception(job.error);
}

void LedgerWriter::Submit(Job& job) {
  std::lock_guard lock(mu_);
  queue_.push_back(&job);
  work_.notify_one();
}

namespace {

// Serializes appends to one tenant's chain across every node of a
// PostgreSQL deployment until the transaction ends. Taken before the chain's
// end is read, so two nodes never append at the same position. On SQLite the
// write transaction already excludes every other writer.
constexpr storage::GlobalQuery kLockChain{
    "trust.ledger_lock_chain", "SELECT 1",
    "SELECT pg_advisory_xact_lock(hashtextextended('credence:ledger:' || CAST($1 AS TEXT), 0))"};
// The same lock, when no other node holds it: true when taken.
constexpr storage::GlobalQuery kTryLockChain{
    "trust.ledger_try_lock_chain", "SELECT 1",
    "SELECT CAST(pg_try_advisory_xact_lock(hashtextextended('credence:ledger:' || CAST($1 AS TEXT), 0)) AS INTEGER)"};

}  // namespace

std::vector<LedgerWriter::Job*> LedgerWriter::Write(std::span<Job* const> jobs, bool wait) {
  std::vector<Job*> deferred;
  storage::Session session(db_, storage::TxMode::kWrite);
  const bool postgres = session.dialect() == storage::Dialect::kPostgres;
  // The current tenant's jobs to append, appended together (one INSERT for
  // their decisions) when the next tenant begins, and at the end.
  std::vector<Job*> pending;
  std::vector<const LedgerRecord*> records;
  auto append_pending = [&] {
    if (pending.empty()) return;
    storage::TenantSession tenant(session, pending.front()->tenant_id);
    records.clear();
    for (Job* job : pending) records.push_back(job->record);
    // The chain's end is read under the lock, once per tenant and
    // transaction: another node may have appended since this one last did.
    std::optional<ChainTip> tip;
    auto outcomes = AppendDecisions(tenant, records, &cache_, tip, &list_digests_);
    for (size_t i = 0; i < pending.size(); ++i) {
      pending[i]->outcome = std::move(outcomes[i]);
      if (pending[i]->blocked_event) events_.EmitLazy(tenant, "trust.decision.blocked", pending[i]->blocked_event);
    }
    pending.clear();
  };
  const std::string* current_tenant = nullptr;
  bool locked = false;
  std::optional<int64_t> generation;
  for (Job* job : jobs) {
    if (current_tenant == nullptr || *current_tenant != job->tenant_id) {
      append_pending();
      current_tenant = &job->tenant_id;
      locked = true;
      if (postgres && wait) {
        session.Run(kLockChain, {job->tenant_id});
      } else if (postgres) {
        auto taken = session.Run(kTryLockChain, {job->tenant_id});
        locked = !taken.empty() && taken.front().Bool(0);
      }
      generation.reset();
    }
    if (!locked) {
      deferred.push_back(job);
      continue;
    }
    // Read once per tenant and transaction: every job was decided before
    // the batch began, so a generation read now is as late as the check
    // needs (and ledger writes do not move generations).
    if (job->expected_generation && !generation) {
      storage::TenantSession tenant(session, job->tenant_id);
      generation = SourceCache::CurrentGeneration(tenant);
    }
    if (job->expected_generation && *generation != *job->expected_generation) {
      job->stale = true;
      continue;
    }
    pending.push_back(job);
  }
  append_pending();
  session.Commit();
  for (Job* job : jobs)
    if (auto& learned = job->outcome.learned_list_digest)
      list_digests_.Add(job->tenant_id, learned->first, std::move(learned->second));
  return deferred;
}

void LedgerWriter::WriteOneByOne(std::span<Job* const> jobs) {
  for (Job* job : jobs) {
    job->stale = false;
    job->outcome = {};
    try {
      Write(std::span<Job* const>(&job, 1), true);
    } catch (...) {
      job->error = std::current_exception();
    }
  }
}

void LedgerWriter::WriteBatch(std::vector<Job*>& batch) {
  // One tenant's jobs together, in arrival order.
  std::stable_sort(batch.begin(), batch.end(), [](const Job* a, const Job* b) { return a->tenant_id < b->tenant_id; });
  // The batch in one transaction, taking on PostgreSQL only the chain locks
  // no other node holds right now (pg_try_advisory_xact_lock never waits);
  // the tenants another node is appending to follow, each in a transaction
  // of its own that waits for that one lock. No transaction ever waits while
  // it holds a lock another could want, so nodes cannot deadlock, and two
  // nodes with batches of the same tenants commit different tenants side by
  // side. On SQLite the store has one writer: every lock is taken at once.
  std::vector<Job*> deferred;
  try {
    deferred = Write(batch, false);
  } catch (...) {
    // One append failed and took the transaction with it: write its jobs
    // one by one, so only the failing one reports its error.
    WriteOneByOne(batch);
    return;
  }
  for (size_t begin = 0; begin < deferred.size();) {
    size_t end = begin + 1;
    while (end < deferred.size() && deferred[end]->tenant_id == deferred[begin]->tenant_id) ++end;
    const std::span<Job* const> tenant_jobs(deferred.data() + begin, end - begin);
    try {
      Write(tenant_jobs, true);
    } catch (...) {
      WriteOneByOne(tenant_jobs);
    }
    begin = end;
  }
}

void LedgerWriter::Loop() {
  for (;;) {
    std::vector<Job*> batch;
    {
      std::unique_lock lock(mu_);
      work_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, nothing left
      while (!queue_.empty() && batch.size() < kMaxBatch) {
        batch.push_back(queue_.front());
        queue_.pop_front();
      }
    }
    WriteBatch(batch);
    std::vector<std::function<void()>> callbacks;
    {
      std::lock_guard lock(mu_);
      for (Job* job : batch) {
        if (job->on_done) callbacks.push_back(std::move(job->on_done));
        job->done = true;
      }
    }
    done_.notify_all();
    for (auto& done : callbacks) done();
  }
}

}  // namespace credence::trust
