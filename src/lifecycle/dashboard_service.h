#pragma once
// Expiry dashboards: the signed-in user's entries, per-hub counts across the
// tenant, and every entry of a hub, each with the status a reader sees now
// (computed with the state table, never stored).
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/principal.h"
#include "lifecycle/status.h"

namespace credence::storage {
class Database;
}

namespace credence::lifecycle {

// Entries per status a reader sees; paused entries are also counted in
// `paused` (besides their frozen status).
struct StatusCounts {
  int64_t total = 0;
  int64_t draft = 0;
  int64_t published = 0;
  int64_t expiring_soon = 0;
  int64_t warning = 0;
  int64_t expired = 0;
  int64_t paused = 0;
  void Add(const ExpiryStatus& s);
};

struct EntryExpiryRow {
  std::string entry_id;
  std::string title;
  std::string key;
  std::string hub_id;
  std::string hub_key;
  std::string owner_id;
  ExpiryStatus status;
};

struct MyDashboard {
  StatusCounts counts;
  // Published entries that have not expired yet, soonest expiry date first
  // (at most kUpcomingLimit).
  std::vector<EntryExpiryRow> upcoming;
};

struct HubCounts {
  std::string hub_id;
  std::string hub_key;
  std::string hub_name;
  StatusCounts counts;
};

struct TenantSummary {
  StatusCounts totals;
  std::vector<HubCounts> hubs;  // by hub name
};

inline constexpr size_t kUpcomingLimit = 20;

class DashboardService {
 public:
  DashboardService(storage::Database& db, const Clock& clock) : db_(db), clock_(clock) {}

  // Signed-in users: the entries they own.
  Result<MyDashboard> Me(const identity::Principal& caller) const;
  // Signed-in users: per hub, the entries they may view; hubs they may view
  // appear even when empty.
  Result<TenantSummary> Summary(const identity::Principal& caller) const;
  // Hub Viewer+ (404 otherwise): the hub's entries the caller may view,
  // soonest expiry date first.
  Result<std::vector<EntryExpiryRow>> HubEntries(const identity::Principal& caller, const std::string& hub_key) const;

 private:
  storage::Database& db_;
  const Clock& clock_;
};

}  // namespace credence::lifecycle
