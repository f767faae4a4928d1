#include "lifecycle/scheduler.h"

namespace credence::lifecycle {

ExpiryScheduler::ExpiryScheduler(storage::Database& db, const Clock& clock, std::string node_id)
    : db_(db), clock_(clock), node_id_(std::move(node_id)) {}

SchedulerRunResult ExpiryScheduler::RunOnce() const { return {}; }

}  // namespace credence::lifecycle
