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

}  // namespace

void LedgerWriter::Write(std::deque<Job*>& batch) {
  // One tenant's jobs together, tenants in one order on every node: each
  // node then takes the chain locks in the same order, so two nodes writing
  // batches for the same tenants wait for each other instead of deadlocking.
  // Within a tenant, arrival order is kept.
  std::stable_sort(batch.begin(), batch.end(), [](const Job* a, const Job* b) { return a->tenant_id < b->tenant_id; });
  // Read once per tenant and batch: every job of the batch was decided
  // before the batch began, so a generation read at its start is as late as
  // the check needs (and ledger writes do not move generations).
  std::unordered_map<std::string, int64_t> generations;
  storage::Session session(db_, storage::TxMode::kWrite);
  const bool postgres = session.dialect() == storage::Dialect::kPostgres;
  const std::string* locked_tenant = nullptr;
  // The chain's end as this transaction moves it; read under the lock for
  // the first of each tenant's jobs (another node may have appended since
  // this one last did).
  std::optional<ChainTip> tip;
  for (Job* job : batch) {
    storage::TenantSession tenant(session, job->tenant_id);
    if (locked_tenant == nullptr || *locked_tenant != job->tenant_id) {
      if (postgres) session.Run(kLockChain, {job->tenant_id});
      locked_tenant = &job->tenant_id;
      tip.reset();
    }
    auto generation = [&] {
      auto [it, fresh] = generations.try_emplace(job->tenant_id, 0);
      if (fresh) it->second = SourceCache::CurrentGeneration(tenant);
      return it->second;
    };
    if (job->expected_generation && generation() != *job->expected_generation) {
      job->stale = true;
      continue;
    }
    job->outcome = AppendDecision(tenant, *job->record, &cache_, &tip, &list_digests_);
    if (job->blocked_event) events_.EmitLazy(tenant, "trust.decision.blocked", job->blocked_event);
  }
  session.Commit();
  for (Job* job : batch)
    if (auto& learned = job->outcome.learned_list_digest)
      list_digests_.Add(job->tenant_id, learned->first, std::move(learned->second));
}

void LedgerWriter::Loop() {
  for (;;) {
    std::deque<Job*> batch;
    {
      std::unique_lock lock(mu_);
      work_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stopping, nothing left
      while (!queue_.empty() && batch.size() < kMaxBatch) {
        batch.push_back(queue_.front());
        queue_.pop_front();
      }
    }
    try {
      Write(batch);
    } catch (...) {
      // One append failed and took the batch's transaction with it: write
      // them one by one, so only the failing one reports its error.
      for (Job* job : batch) {
        job->stale = false;
        job->outcome = {};
        std::deque<Job*> one{job};
        try {
          Write(one);
        } catch (...) {
          job->error = std::current_exception();
        }
      }
    }
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
