#pragma once
// The expiry scheduler: materializes each status transition of an entry
// once (docs/lifecycle.md), so that owners are notified and channels get one
// delivery per transition, even when a pass is retried after a crash or runs
// on several nodes at once.
#include <cstdint>
#include <mutex>
#include <string>

#include "core/clock.h"
#include "identity/events.h"

namespace credence::storage {
class Database;
}

namespace credence::lifecycle {

struct SchedulerRunResult {
  int checked = 0;      // entries whose next check was due
  int transitions = 0;  // transitions materialized
  int notifications = 0;
  bool lease_held = true;  // false: another node holds the lease; nothing done
};

class ExpiryScheduler {
 public:
  // `node_id` names this process in the lease.
  // `events` gets entry.expiring and entry.expired (docs/webhooks.md) in
  // the transition's transaction.
  ExpiryScheduler(storage::Database& db, const Clock& clock, std::string node_id,
                  const identity::EventSink& events = identity::kNoEvents);

  // Takes the scheduler lease, then handles every entry whose next check is
  // due, in batches, until none is left. Passes of this process (the jobs'
  // thread, POST /dev/jobs/run) run one after the other: the lease is the
  // node's, so it cannot keep them apart.
  SchedulerRunResult RunOnce() const;

 private:
  bool TakeLease() const;

  storage::Database& db_;
  const Clock& clock_;
  std::string node_id_;
  const identity::EventSink& events_;
  mutable std::mutex pass_;
};

}  // namespace credence::lifecycle
