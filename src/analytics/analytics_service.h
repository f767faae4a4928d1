#pragma once
// Reading analytics of entries (docs/analytics.md): DocumentRead (each read
// of an entry by a signed-in user, buffered: read_buffer.h), DocumentEdited
// (each content change, in the edit's transaction) and TimeSpent (reported
// by the client) events; a per-entry summary from aggregates that outlive
// the raw events' retention; the raw events; entries nobody read lately.
//
// Access: an entry's analytics are for its viewers (Entry Viewer+); an entry
// the caller cannot view, or of another tenant, is 404. Thread safety: const
// methods may be called from any thread.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analytics/read_buffer.h"
#include "core/clock.h"
#include "core/result.h"
#include "identity/audit.h"
#include "identity/principal.h"
#include "kb/activity_observer.h"

namespace credence::storage {
class Database;
}

namespace credence::analytics {

inline constexpr int kDefaultTake = 50;
inline constexpr int kMaxTake = 200;
inline constexpr int kDefaultInactiveDays = 90;
inline constexpr int kMaxInactiveDays = 3650;
inline constexpr int64_t kMinTimeSpentSeconds = 5;
// One report covers at most a day: a client that left a tab open for a week
// reports nonsense.
inline constexpr int64_t kMaxTimeSpentSeconds = 86'400;
inline constexpr int kDefaultRetentionDays = 365;
inline constexpr int kMinRetentionDays = 1;
inline constexpr int kMaxRetentionDays = 3650;

struct Summary {
  std::string entry_id;
  int64_t total_reads = 0;
  int64_t unique_editors = 0;
  int64_t total_edits = 0;
  int64_t time_spent_reports = 0;
  int64_t total_time_spent_seconds = 0;
  // Per report, rounded to the nearest second (halves up), as every figure of
  // the summary is a whole number (knowledge-base.md); 0 without reports.
  int64_t average_time_spent_seconds = 0;
  std::optional<TimeMs> last_read_at;
};

struct Event {
  std::string id;
  std::string entry_id;
  std::string event_type;  // DocumentRead | DocumentEdited | TimeSpent
  std::optional<std::string> user_id;
  std::optional<std::string> language;
  std::optional<int64_t> seconds;
  TimeMs occurred_at = 0;
};

struct EventPage {
  std::vector<Event> events;  // newest first
  int64_t total = 0;          // matching the filter, before skip and take
};

struct InactiveEntry {
  std::string id;
  std::string hub_id;
  std::string hub_key;
  std::string key;
  std::string title;
  std::string owner_id;
  TimeMs created_at = 0;
  std::optional<TimeMs> last_read_at;
};

struct Settings {
  int retention_days = kDefaultRetentionDays;
  std::optional<std::string> updated_by;
  std::optional<TimeMs> updated_at;
};

struct PruneOutcome {
  int64_t events_deleted = 0;
};

bool IsEventType(const std::string& type);

// One line of the most-read ranking.
struct TopEntry {
  std::string id;
  std::string hub_key;
  std::string key;
  std::string title;
  int64_t reads = 0;
  int64_t time_spent_seconds = 0;
};
inline constexpr int kDefaultTopDays = 30;
inline constexpr int kMaxTopLimit = 100;

class AnalyticsService final : public kb::ActivityObserver {
 public:
  // `record_reads` false: reads are not recorded (--record-reads=false, to
  // measure their cost). `flush_interval_ms`: how often buffered reads are
  // written (at most the reads a crash loses).
  AnalyticsService(storage::Database& db, const Clock& clock, const identity::AuditRecorder& audit,
                   bool record_reads = true, int64_t flush_interval_ms = 1000);
  ~AnalyticsService() override;  // writes the buffered reads

  // kb::ActivityObserver.
  void EntryRead(const std::string& tenant_id, const std::string& entry_id, const std::string& user_id,
                 const std::string& language, TimeMs now) const noexcept override;
  void EntryEdited(storage::TenantSession& tx, const std::string& entry_id, const std::string& user_id,
                   const std::string& language, TimeMs now) const override;

  // Entry Viewer+. Buffered reads not yet written are not counted (at most
  // the flush interval behind).
  Result<Summary> GetSummary(const identity::Principal& caller, const std::string& entry_id) const;
  // Entry Viewer+. `event_type` one of the three, or empty for all.
  Result<EventPage> ListEvents(const identity::Principal& caller, const std::string& entry_id,
                               const std::string& event_type, int skip, int take) const;
  // Entry Viewer+ (a user who can read it). Seconds kMinTimeSpentSeconds to
  // kMaxTimeSpentSeconds; `language` a known code when given.
  Result<Event> RecordTimeSpent(const identity::Principal& caller, const std::string& entry_id, int64_t seconds,
                                const std::optional<std::string>& language) const;
  // Entries the caller can view, older than `days`, that nobody read within
  // the last `days` days; least recently read first (never read first).
  Result<std::vector<InactiveEntry>> Inactive(const identity::Principal& caller, int days) const;
  // The entries the caller can view, most read in the last `days` days
  // (today included) first, at most `limit`; entries without reads are left
  // out.
  Result<std::vector<TopEntry>> Top(const identity::Principal& caller, int days, int limit) const;

  // Global admins; the change is audited (analytics.settings_updated).
  Result<Settings> GetSettings(const identity::Principal& caller) const;
  Result<Settings> SetSettings(const identity::Principal& caller, int retention_days) const;

  // Background jobs: deletes raw events older than each tenant's retention
  // (the aggregates stay). Idempotent; safe on several nodes at once.
  PruneOutcome Prune() const;
  // Writes the buffered reads now (shutdown, /dev/analytics/flush).
  int64_t FlushReads() const;
  // Stops the read writer after writing what is buffered: at shutdown,
  // before the store closes.
  void Shutdown() const;

 private:
  storage::Database& db_;
  const Clock& clock_;
  const identity::AuditRecorder& audit_;
  const bool record_reads_;
  mutable ReadBuffer reads_;
};

}  // namespace credence::analytics
