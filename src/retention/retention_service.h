#pragma once
// A tenant's retention settings and its archives (docs/retention.md), for
// the tenant's admins: how many months each kind of record stays in the
// database, and where the records past it went.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"

namespace credence::storage {
class Database;
class TenantSession;
}  // namespace credence::storage
namespace credence::identity {
struct Principal;
class AuditRecorder;
}  // namespace credence::identity

namespace credence::retention {

// The kinds of records archived: "decisions" (the ledger), "usage", "audit".
inline constexpr const char* kKinds[] = {"decisions", "usage", "audit"};

struct RetentionSettings {
  int decisions_months, usage_months, audit_months;
  std::optional<std::string> updated_by;
  std::optional<TimeMs> updated_at;
  int MonthsOf(std::string_view kind) const;
};
RetentionSettings LoadRetentionSettings(storage::TenantSession& tenant);

struct ArchiveInfo {
  std::string id, kind, period, file, sha256;
  int64_t bytes = 0, records = 0;
  std::optional<int64_t> from_seq, to_seq;
  std::optional<std::string> last_hash;
  std::optional<std::string> first_id, last_id;  // decisions: the smallest and largest id archived
  TimeMs from_time = 0, to_time = 0;  // [from_time, to_time): the month
  TimeMs created_at = 0;
};

// The archives of `kind` that hold records of [from, to), oldest first.
std::vector<ArchiveInfo> ArchivesOverlapping(storage::TenantSession& tenant, std::string_view kind, TimeMs from,
                                             TimeMs to);
// The end of the newest archive of `kind` (records before it left the
// database), or nullopt when nothing was archived.
std::optional<TimeMs> ArchivedBefore(storage::TenantSession& tenant, std::string_view kind);

struct SettingsChange {
  std::optional<int> decisions_months, usage_months, audit_months;
};

class RetentionService {
 public:
  // `archiving`: whether this server archives (it was given an archive
  // directory); shown to admins, since settings alone delete nothing.
  RetentionService(storage::Database& db, const Clock& clock, const identity::AuditRecorder& audit, bool archiving)
      : db_(db), clock_(clock), audit_(audit), archiving_(archiving) {}

  struct View {
    RetentionSettings settings;
    bool archiving = false;
    std::optional<TimeMs> archived_before[3];  // by kKinds
  };
  Result<View> Get(const identity::Principal& caller) const;
  // Each given field 6 to 120 months; audited (retention.settings_updated).
  Result<View> Set(const identity::Principal& caller, const SettingsChange& change) const;
  // `kind` empty: every kind; newest first.
  Result<std::vector<ArchiveInfo>> Archives(const identity::Principal& caller, const std::string& kind) const;

  // For look-ups whose caller is already authorized: when [from, to) of
  // `kind` reaches before what the database still holds, the time before
  // which records were archived and the archives of the window; else
  // nullopt. Answers say so instead of counting only what is left.
  struct ArchivedWindow {
    TimeMs before = 0;
    std::vector<ArchiveInfo> archives;
  };
  std::optional<ArchivedWindow> Archived(const std::string& tenant_id, std::string_view kind, TimeMs from,
                                         TimeMs to) const;
  // The decision archives whose id range holds `decision_id` (lowercase).
  std::vector<ArchiveInfo> DecisionArchivesHolding(const std::string& tenant_id, const std::string& decision_id) const;

 private:
  View Load(storage::TenantSession& tenant) const;
  storage::Database& db_;
  const Clock& clock_;
  const identity::AuditRecorder& audit_;
  bool archiving_;
};

}  // namespace credence::retention
