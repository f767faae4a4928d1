#pragma once
// What AI applications did with one entry lately, from the rollup of the
// decision ledger (rollup.h): the ledger itself is not indexed by source, and
// its rollup is, per day. As current as the rollup's last pass (the
// background jobs run it every few seconds, and every report first).
#include <cstdint>
#include <string>
#include <vector>

#include "core/clock.h"

namespace credence::storage {
class TenantSession;
}

namespace credence::reports {

struct AppEvaluations {
  int64_t evaluations = 0;           // evaluations of the entry by registered apps
  std::vector<std::string> app_ids;  // those apps, sorted
};

// Evaluations of `entry_id` by registered AI applications whose last one in
// a day was at or after `since`.
AppEvaluations AppEvaluationsOf(storage::TenantSession& tx, const std::string& entry_id, TimeMs since);

}  // namespace credence::reports
