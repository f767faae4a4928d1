#include "trust/entry_usage.h"

#include <algorithm>

#include "storage/query.h"
#include "storage/session.h"

namespace credence::trust {
namespace {

// sources is the JSON array of source ids as recorded; the entry's id is
// canonical lowercase, and "entry:<uuid>" holds no LIKE wildcard.
constexpr storage::TenantQuery kRecentEntryUsage{
    "trust.usage_of_entry",
    "SELECT app_id FROM trust_usage WHERE tenant_id = $1 AND created_at >= $2 AND sources LIKE $3 LIMIT 1000"};

constexpr storage::TenantQuery kActiveSecretDetectors{
    "trust.entry_active_secrets",
    "SELECT DISTINCT detector FROM scan_findings WHERE tenant_id = $1 AND source_kind = 'entry' AND source_ref = $2"
    " AND kind = 'secret' AND resolved_at IS NULL AND dismissed_at IS NULL ORDER BY detector"};

}  // namespace

std::vector<std::string> ActiveSecretDetectors(storage::TenantSession& tx, const std::string& entry_id) {
  std::vector<std::string> out;
  for (const auto& row : tx.Run(kActiveSecretDetectors, {entry_id})) out.push_back(row.Text(0));
  return out;
}

EntryUsage RecentEntryUsage(storage::TenantSession& tx, const std::string& entry_id, TimeMs since) {
  EntryUsage out;
  const std::string pattern = "%\"entry:" + entry_id + "\"%";
  for (const auto& row : tx.Run(kRecentEntryUsage, {since, pattern})) {
    ++out.usage_count;
    if (row.IsNull(0)) continue;
    std::string app = row.Text(0);
    if (std::find(out.app_ids.begin(), out.app_ids.end(), app) == out.app_ids.end()) out.app_ids.push_back(app);
  }
  return out;
}

}  // namespace credence::trust
