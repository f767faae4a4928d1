#include "analytics/read_buffer.h"

#include <chrono>
#include <exception>
#include <map>
#include <set>
#include <tuple>
#include <utility>

#include "core/ids.h"
#include "core/logging.h"
#include "storage/session.h"

namespace credence::analytics {
namespace {

using storage::TenantQuery;

constexpr TenantQuery kEntryExists{"analytics.entry_exists", "SELECT 1 FROM entries WHERE tenant_id = $1 AND id = $2"};
constexpr TenantQuery kInsertRead{
    "analytics.insert_read",
    "INSERT INTO analytics_events (tenant_id, id, entry_id, event_type, user_id, language, seconds, occurred_at)"
    " VALUES ($1, $2, $3, 'DocumentRead', $4, $5, NULL, $6)"};
constexpr TenantQuery kAddDailyReads{
    "analytics.add_daily_reads",
    "INSERT INTO analytics_daily (tenant_id, entry_id, day, reads) VALUES ($1, $2, $3, $4)"
    " ON CONFLICT (tenant_id, entry_id, day) DO UPDATE SET reads = analytics_daily.reads + excluded.reads"};
constexpr TenantQuery kSetLastRead{
    "analytics.set_last_read",
    "INSERT INTO analytics_entries (tenant_id, entry_id, last_read_at) VALUES ($1, $2, $3)"
    " ON CONFLICT (tenant_id, entry_id) DO UPDATE SET last_read_at = $3"
    " WHERE analytics_entries.last_read_at < $3"};

}  // namespace

ReadBuffer::ReadBuffer(storage::Database& db, int64_t flush_interval_ms)
    : db_(db), flush_interval_ms_(flush_interval_ms), thread_([this] { Loop(); }) {}

ReadBuffer::~ReadBuffer() { Stop(); }

void ReadBuffer::Stop() {
  std::call_once(stopped_, [this] {
    {
      std::lock_guard lock(mu_);
      stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
    Flush();
  });
}

void ReadBuffer::Add(PendingRead read) noexcept {
  bool wake = false;
  {
    std::lock_guard lock(mu_);
    if (pending_.size() >= kMaxPending) {
      ++dropped_;
      return;
    }
    try {
      pending_.push_back(std::move(read));
    } catch (...) {
      ++dropped_;
      return;
    }
    wake = pending_.size() == kEagerBatch;
  }
  if (wake) wake_.notify_one();
}

int64_t ReadBuffer::dropped() const {
  std::lock_guard lock(mu_);
  return dropped_;
}

int64_t ReadBuffer::Flush() {
  std::lock_guard write_lock(write_mu_);
  std::vector<PendingRead> batch;
  {
    std::lock_guard lock(mu_);
    batch.swap(pending_);
  }
  if (batch.empty()) return 0;
  try {
    Write(batch);
  } catch (const std::exception& e) {
    LogLine(LogLevel::kError, "analytics read flush failed")
        .Int("reads", static_cast<int64_t>(batch.size()))
        .Str("error", e.what());
    std::lock_guard lock(mu_);
    dropped_ += static_cast<int64_t>(batch.size());
    return 0;
  }
  return static_cast<int64_t>(batch.size());
}

void ReadBuffer::Loop() {
  for (;;) {
    {
      std::unique_lock lock(mu_);
      wake_.wait_for(lock, std::chrono::milliseconds(flush_interval_ms_),
                     [this] { return stopping_ || pending_.size() >= kEagerBatch; });
      if (stopping_) return;  // the destructor flushes
    }
    Flush();
  }
}

void ReadBuffer::Write(const std::vector<PendingRead>& batch) {
  // Folded first: one upsert per entry and day, one per entry.
  std::map<std::tuple<std::string, std::string, int64_t>, int64_t> daily;
  std::map<std::pair<std::string, std::string>, TimeMs> last;
  for (const PendingRead& r : batch) {
    ++daily[{r.tenant_id, r.entry_id, r.at / kMsPerDay}];
    auto [it, inserted] = last.try_emplace({r.tenant_id, r.entry_id}, r.at);
    if (!inserted && it->second < r.at) it->second = r.at;
  }
  storage::Session session(db_, storage::TxMode::kWrite);
  // Reads of entries deleted since (or of a deleted tenant) are skipped.
  std::set<std::pair<std::string, std::string>> gone;
  for (const auto& [key, at] : last) {
    storage::TenantSession s(session, key.first);
    if (s.Run(kEntryExists, {key.second}).empty()) {
      gone.insert(key);
      continue;
    }
    s.Run(kSetLastRead, {key.second, at});
  }
  for (const auto& [key, count] : daily) {
    const auto& [tenant, entry, day] = key;
    if (gone.count({tenant, entry})) continue;
    storage::TenantSession s(session, tenant);
    s.Run(kAddDailyReads, {entry, day, count});
  }
  for (const PendingRead& r : batch) {
    if (gone.count({r.tenant_id, r.entry_id})) continue;
    storage::TenantSession s(session, r.tenant_id);
    s.Run(kInsertRead, {NewId(), r.entry_id, r.user_id,
                        r.language.empty() ? storage::Param(nullptr) : storage::Param(r.language), r.at});
  }
  session.Commit();
}

}  // namespace credence::analytics
