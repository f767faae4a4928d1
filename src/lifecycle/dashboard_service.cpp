#include "lifecycle/dashboard_service.h"

#include <algorithm>
#include <map>

#include "identity/authorization.h"
#include "kb/access.h"
#include "kb/internal/queries.h"
#include "kb/internal/rows.h"
#include "storage/session.h"

namespace credence::lifecycle {
namespace {

using storage::TenantQuery;

#define CREDENCE_DASHBOARD_COLUMNS                                                                       \
  "SELECT e.id, e.title, e.entry_key, e.owner_id, e.status, e.expiry_at, e.paused_at,"                   \
  " COALESCE(xt.warning_days, 0), COALESCE(xt.grace_days, 0), h.id, h.hub_key, h.name" CREDENCE_KB_ENTRY_FROM

constexpr TenantQuery kOwnedEntries{"lifecycle.dashboard_owned",
                                    CREDENCE_DASHBOARD_COLUMNS " WHERE e.tenant_id = $1 AND e.owner_id = $2"};

// $2: a hub id, or '' for every hub; $3..$5 as CREDENCE_KB_CAN_VIEW.
constexpr TenantQuery kViewableEntries{
    "lifecycle.dashboard_viewable",
    CREDENCE_DASHBOARD_COLUMNS " WHERE e.tenant_id = $1 AND (CAST($2 AS TEXT) = '' OR e.hub_id = $2) AND "
    CREDENCE_KB_CAN_VIEW_ENTRY};

struct Loaded {
  EntryExpiryRow row;
  std::string hub_name;
};

Loaded FromRow(const storage::Row& r, TimeMs now) {
  Loaded out;
  out.row.entry_id = r.Text(0);
  out.row.title = r.Text(1);
  out.row.key = r.Text(2);
  out.row.owner_id = r.Text(3);
  const ExpiryFacts facts{r.TextView(4) != "Draft", r.Int(5), r.OptInt(6)};
  out.row.status = ComputeExpiryStatus(facts, {static_cast<int>(r.Int(7)), static_cast<int>(r.Int(8))}, now);
  out.row.hub_id = r.Text(9);
  out.row.hub_key = r.Text(10);
  out.hub_name = r.Text(11);
  return out;
}

bool SoonerExpiry(const EntryExpiryRow& a, const EntryExpiryRow& b) {
  if (a.status.expiry_at != b.status.expiry_at) return a.status.expiry_at < b.status.expiry_at;
  return a.entry_id < b.entry_id;
}

}  // namespace

void StatusCounts::Add(const ExpiryStatus& s) {
  ++total;
  switch (s.status) {
    case kb::EntryStatus::kDraft:
      ++draft;
      break;
    case kb::EntryStatus::kPublished:
      ++published;
      break;
    case kb::EntryStatus::kExpiringSoon:
      ++expiring_soon;
      break;
    case kb::EntryStatus::kWarning:
      ++warning;
      break;
    case kb::EntryStatus::kExpired:
      ++expired;
      break;
  }
  if (s.is_paused) ++paused;
}

Result<MyDashboard> DashboardService::Me(const identity::Principal& caller) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  const TimeMs now = clock_.Now();
  MyDashboard out;
  for (const auto& r : tenant.Run(kOwnedEntries, {caller.user_id})) {
    Loaded l = FromRow(r, now);
    out.counts.Add(l.row.status);
    const auto st = l.row.status.status;
    if (st != kb::EntryStatus::kDraft && st != kb::EntryStatus::kExpired) out.upcoming.push_back(std::move(l.row));
  }
  std::sort(out.upcoming.begin(), out.upcoming.end(), SoonerExpiry);
  if (out.upcoming.size() > kUpcomingLimit) out.upcoming.resize(kUpcomingLimit);
  return out;
}

Result<TenantSummary> DashboardService::Summary(const identity::Principal& caller) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  const TimeMs now = clock_.Now();
  std::map<std::string, HubCounts> by_id;
  for (const auto& r : tenant.Run(kb::internal::kListViewableHubs,
                                  {caller.user_id, caller.is_global_admin(), kb::DefaultOrgRoleApplies(caller)})) {
    const kb::Hub h = kb::internal::HubFromRow(r);
    by_id[h.id] = HubCounts{h.id, h.key, h.name, {}};
  }
  TenantSummary out;
  for (const auto& r : tenant.Run(kViewableEntries, {std::string(), caller.user_id, caller.is_global_admin(),
                                                     kb::DefaultOrgRoleApplies(caller)})) {
    Loaded l = FromRow(r, now);
    auto [it, inserted] = by_id.try_emplace(l.row.hub_id);
    if (inserted) it->second = HubCounts{l.row.hub_id, l.row.hub_key, l.hub_name, {}};
    it->second.counts.Add(l.row.status);
    out.totals.Add(l.row.status);
  }
  for (auto& [id, hub] : by_id) out.hubs.push_back(std::move(hub));
  std::sort(out.hubs.begin(), out.hubs.end(), [](const HubCounts& a, const HubCounts& b) {
    return a.hub_name != b.hub_name ? a.hub_name < b.hub_name : a.hub_id < b.hub_id;
  });
  return out;
}

Result<std::vector<EntryExpiryRow>> DashboardService::HubEntries(const identity::Principal& caller,
                                                                 const std::string& hub_key) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto hubs = tenant.Run(kb::internal::kHubByKey, {hub_key});
  if (hubs.empty()) return Error::NotFound("Hub not found.");
  const kb::Hub hub = kb::internal::HubFromRow(hubs.front());
  CR_TRY(identity::RequireLevel(kb::HubLevel(tenant, caller, hub), kb::AccessLevel::kViewer, "hub"));
  const TimeMs now = clock_.Now();
  std::vector<EntryExpiryRow> out;
  for (const auto& r : tenant.Run(kViewableEntries, {hub.id, caller.user_id, caller.is_global_admin(),
                                                     kb::DefaultOrgRoleApplies(caller)}))
    out.push_back(FromRow(r, now).row);
  std::sort(out.begin(), out.end(), SoonerExpiry);
  return out;
}

}  // namespace credence::lifecycle
