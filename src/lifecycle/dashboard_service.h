#pragma once
// Expiry dashboards: the signed-in user's entries, per-hub counts across the
// tenant, and every entry of a hub, each with the status a reader sees now.
#include "core/clock.h"

namespace credence::storage {
class Database;
}

namespace credence::lifecycle {

class DashboardService {
 public:
  DashboardService(storage::Database& db, const Clock& clock) : db_(db), clock_(clock) {}

 private:
  storage::Database& db_;
  const Clock& clock_;
};

}  // namespace credence::lifecycle
