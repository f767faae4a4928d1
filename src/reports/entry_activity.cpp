#include "reports/entry_activity.h"

#include "storage/session.h"

namespace credence::reports {
namespace {

// Calls without an app key are rolled up under app_id '', and every
// caller's together again under '*' (rollup.cpp).
constexpr storage::TenantQuery kAppEvaluations{
    "reports.app_evaluations_of_entry",
    "SELECT app_id, SUM(evaluations) FROM report_sources_daily WHERE tenant_id = $1 AND entry_id = $2"
    " AND last_at >= $3 AND app_id NOT IN ('', '*') GROUP BY app_id ORDER BY app_id"};

}  // namespace

AppEvaluations AppEvaluationsOf(storage::TenantSession& tx, const std::string& entry_id, TimeMs since) {
  AppEvaluations out;
  for (const auto& r : tx.Run(kAppEvaluations, {entry_id, since})) {
    out.app_ids.push_back(r.Text(0));
    out.evaluations += r.Int(1);
  }
  return out;
}

}  // namespace credence::reports
