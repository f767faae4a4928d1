#include "analytics/analytics_service.h"

#include <boost/json/object.hpp>

#include "core/ids.h"
#include "identity/authorization.h"
#include "identity/tenant_service.h"
#include "kb/access.h"
#include "kb/internal/queries.h"
#include "storage/session.h"

namespace credence::analytics {
namespace {

using storage::GlobalQuery;
using storage::TenantQuery;

constexpr TenantQuery kInsertEvent{
    "analytics.insert_event",
    "INSERT INTO analytics_events (tenant_id, id, entry_id, event_type, user_id, language, seconds, occurred_at)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"};
constexpr TenantQuery kAddEditor{
    "analytics.add_editor",
    "INSERT INTO analytics_editors (tenant_id, entry_id, user_id, edits, last_edited_at) VALUES ($1, $2, $3, 1, $4)"
    " ON CONFLICT (tenant_id, entry_id, user_id) DO UPDATE SET edits = analytics_editors.edits + 1,"
    " last_edited_at = $4"};
constexpr TenantQuery kAddDailyTime{
    "analytics.add_daily_time",
    "INSERT INTO analytics_daily (tenant_id, entry_id, day, time_reports, time_spent_seconds)"
    " VALUES ($1, $2, $3, 1, $4) ON CONFLICT (tenant_id, entry_id, day) DO UPDATE SET"
    " time_reports = analytics_daily.time_reports + 1,"
    " time_spent_seconds = analytics_daily.time_spent_seconds + $4"};
constexpr TenantQuery kDailyTotals{
    "analytics.daily_totals",
    "SELECT COALESCE(SUM(reads), 0), COALESCE(SUM(time_reports), 0), COALESCE(SUM(time_spent_seconds), 0)"
    " FROM analytics_daily WHERE tenant_id = $1 AND entry_id = $2"};
constexpr TenantQuery kEditorTotals{
    "analytics.editor_totals",
    "SELECT COUNT(*), COALESCE(SUM(edits), 0) FROM analytics_editors WHERE tenant_id = $1 AND entry_id = $2"};
constexpr TenantQuery kLastRead{"analytics.last_read",
                                "SELECT last_read_at FROM analytics_entries WHERE tenant_id = $1 AND entry_id = $2"};
constexpr TenantQuery kCountEvents{
    "analytics.count_events",
    "SELECT COUNT(*) FROM analytics_events WHERE tenant_id = $1 AND entry_id = $2 AND ($3 = '' OR event_type = $3)"};
constexpr TenantQuery kListEvents{
    "analytics.list_events",
    "SELECT id, entry_id, event_type, user_id, language, seconds, occurred_at FROM analytics_events"
    " WHERE tenant_id = $1 AND entry_id = $2 AND ($3 = '' OR event_type = $3)"
    " ORDER BY occurred_at DESC, id DESC LIMIT $4 OFFSET $5"};
// $2 the cutoff; $3 to $5 as CREDENCE_KB_CAN_VIEW expects.
constexpr TenantQuery kInactive{
    "analytics.inactive",
    "SELECT e.id, e.hub_id, h.hub_key, e.entry_key, e.title, e.owner_id, e.created_at, a.last_read_at"
    " FROM entries e JOIN hubs h ON h.tenant_id = e.tenant_id AND h.id = e.hub_id"
    " LEFT JOIN analytics_entries a ON a.tenant_id = e.tenant_id AND a.entry_id = e.id"
    " WHERE e.tenant_id = $1 AND e.created_at < $2 AND (a.last_read_at IS NULL OR a.last_read_at < $2) "
    "AND " CREDENCE_KB_CAN_VIEW_ENTRY " ORDER BY COALESCE(a.last_read_at, -1), e.created_at, e.id"};
constexpr TenantQuery kTop{
    "analytics.top",
    "SELECT e.id, h.hub_key, e.entry_key, e.title, SUM(d.reads), SUM(d.time_spent_seconds)"
    " FROM analytics_daily d JOIN entries e ON e.tenant_id = d.tenant_id AND e.id = d.entry_id"
    " JOIN hubs h ON h.tenant_id = e.tenant_id AND h.id = e.hub_id"
    " WHERE d.tenant_id = $1 AND d.day >= $2 AND " CREDENCE_KB_CAN_VIEW_ENTRY
    " GROUP BY e.id, h.hub_key, e.entry_key, e.title HAVING SUM(d.reads) > 0"
    " ORDER BY SUM(d.reads) DESC, e.title, e.id LIMIT $6"};
constexpr TenantQuery kGetSettings{
    "analytics.get_settings",
    "SELECT retention_days, updated_by, updated_at FROM analytics_settings WHERE tenant_id = $1"};
constexpr TenantQuery kSetSettings{
    "analytics.set_settings",
    "INSERT INTO analytics_settings (tenant_id, retention_days, updated_by, updated_at) VALUES ($1, $2, $3, $4)"
    " ON CONFLICT (tenant_id) DO UPDATE SET retention_days = $2, updated_by = $3, updated_at = $4"};
// $1 now, $2 the default retention in days.
#define CREDENCE_ANALYTICS_EXPIRED                                                                    \
  " FROM analytics_events WHERE occurred_at < CAST($1 AS BIGINT) - COALESCE((SELECT s.retention_days" \
  " FROM analytics_settings s WHERE s.tenant_id = analytics_events.tenant_id), CAST($2 AS BIGINT)) * 86400000"
constexpr GlobalQuery kCountExpired{"analytics.count_expired", "SELECT COUNT(*)" CREDENCE_ANALYTICS_EXPIRED};
constexpr GlobalQuery kDeleteExpired{"analytics.delete_expired", "DELETE" CREDENCE_ANALYTICS_EXPIRED};

storage::Param OptParam(const std::optional<std::string>& s) {
  return s ? storage::Param(*s) : storage::Param(nullptr);
}

Settings LoadSettings(storage::TenantSession& s) {
  Settings out;
  auto rows = s.Run(kGetSettings);
  if (rows.empty()) return out;
  const auto& r = rows.front();
  out.retention_days = static_cast<int>(r.Int(0));
  out.updated_by = r.OptText(1);
  if (!r.IsNull(2)) out.updated_at = r.Int(2);
  return out;
}

}  // namespace

bool IsEventType(const std::string& type) {
  return type == "DocumentRead" || type == "DocumentEdited" || type == "TimeSpent";
}

AnalyticsService::AnalyticsService(storage::Database& db, const Clock& clock, const identity::AuditRecorder& audit,
                                   bool record_reads, int64_t flush_interval_ms)
    : db_(db), clock_(clock), audit_(audit), record_reads_(record_reads), reads_(db, flush_interval_ms) {}

AnalyticsService::~AnalyticsService() = default;

void AnalyticsService::EntryRead(const std::string& tenant_id, const std::string& entry_id, const std::string& user_id,
                                 const std::string& language, TimeMs now) const noexcept {
  if (!record_reads_) return;
  try {
    reads_.Add({tenant_id, entry_id, user_id, language, now});
  } catch (...) {  // copying the strings ran out of memory: the read is not counted
  }
}

void AnalyticsService::EntryEdited(storage::TenantSession& tx, const std::string& entry_id, const std::string& user_id,
                                   const std::string& language, TimeMs now) const {
  tx.Run(kInsertEvent,
         {NewId(), entry_id, "DocumentEdited", user_id.empty() ? storage::Param(nullptr) : storage::Param(user_id),
          language.empty() ? storage::Param(nullptr) : storage::Param(language), nullptr, now});
  if (!user_id.empty()) tx.Run(kAddEditor, {entry_id, user_id, now});
}

Result<Summary> AnalyticsService::GetSummary(const identity::Principal& caller, const std::string& entry_id) const {
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY(kb::RequireEntryAccess(s, caller, entry_id, kb::AccessLevel::kViewer));
  Summary out;
  out.entry_id = entry_id;
  if (auto rows = s.Run(kDailyTotals, {entry_id}); !rows.empty()) {
    out.total_reads = rows.front().Int(0);
    out.time_spent_reports = rows.front().Int(1);
    out.total_time_spent_seconds = rows.front().Int(2);
  }
  if (auto rows = s.Run(kEditorTotals, {entry_id}); !rows.empty()) {
    out.unique_editors = rows.front().Int(0);
    out.total_edits = rows.front().Int(1);
  }
  if (auto rows = s.Run(kLastRead, {entry_id}); !rows.empty()) out.last_read_at = rows.front().Int(0);
  if (out.time_spent_reports > 0)  // rounded half up, in integers: (2t + n) / 2n
    out.average_time_spent_seconds =
        (2 * out.total_time_spent_seconds + out.time_spent_reports) / (2 * out.time_spent_reports);
  return out;
}

Result<EventPage> AnalyticsService::ListEvents(const identity::Principal& caller, const std::string& entry_id,
                                               const std::string& event_type, int skip, int take) const {
  if (!event_type.empty() && !IsEventType(event_type))
    return Error::Validation({{"eventType", "must be DocumentRead, DocumentEdited or TimeSpent"}});
  if (skip < 0) return Error::Validation({{"skip", "must be an integer of at least 0"}});
  if (take < 1 || take > kMaxTake) return Error::Validation({{"take", "must be an integer from 1 to 200"}});
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY(kb::RequireEntryAccess(s, caller, entry_id, kb::AccessLevel::kViewer));
  EventPage page;
  page.total = s.Run(kCountEvents, {entry_id, event_type}).front().Int(0);
  for (const auto& r : s.Run(kListEvents, {entry_id, event_type, take, skip})) {
    Event e;
    e.id = r.Text(0);
    e.entry_id = r.Text(1);
    e.event_type = r.Text(2);
    e.user_id = r.OptText(3);
    e.language = r.OptText(4);
    if (!r.IsNull(5)) e.seconds = r.Int(5);
    e.occurred_at = r.Int(6);
    page.events.push_back(std::move(e));
  }
  return page;
}

Result<Event> AnalyticsService::RecordTimeSpent(const identity::Principal& caller, const std::string& entry_id,
                                                int64_t seconds, const std::optional<std::string>& language) const {
  if (seconds < kMinTimeSpentSeconds || seconds > kMaxTimeSpentSeconds)
    return Error::Validation({{"seconds", "must be an integer from 5 to 86400"}});
  if (language && !identity::IsKnownLanguage(*language))
    return Error::Validation({{"language", "unknown language '" + *language + "'"}});
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY(kb::RequireEntryAccess(s, caller, entry_id, kb::AccessLevel::kViewer));
  Event e;
  e.id = NewId();
  e.entry_id = entry_id;
  e.event_type = "TimeSpent";
  e.user_id = caller.user_id;
  e.language = language;
  e.seconds = seconds;
  e.occurred_at = clock_.Now();
  s.Run(kInsertEvent, {e.id, entry_id, e.event_type, caller.user_id, OptParam(language), seconds, e.occurred_at});
  s.Run(kAddDailyTime, {entry_id, e.occurred_at / kMsPerDay, seconds});
  session.Commit();
  return e;
}

Result<std::vector<TopEntry>> AnalyticsService::Top(const identity::Principal& caller, int days, int limit) const {
  std::vector<FieldError> errors;
  if (days < 1 || days > kMaxInactiveDays) errors.push_back({"days", "must be an integer from 1 to 3650"});
  if (limit < 1 || limit > kMaxTopLimit) errors.push_back({"limit", "must be an integer from 1 to 100"});
  if (!errors.empty()) return Error::Validation(std::move(errors));
  const int64_t first_day = clock_.Now() / kMsPerDay - (days - 1);
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession s(session, caller.tenant_id);
  std::vector<TopEntry> out;
  for (const auto& r : s.Run(kTop, {first_day, caller.user_id, caller.is_global_admin(),
                                    kb::DefaultOrgRoleApplies(caller), int64_t{limit}}))
    out.push_back({r.Text(0), r.Text(1), r.Text(2), r.Text(3), r.Int(4), r.Int(5)});
  return out;
}

Result<std::vector<InactiveEntry>> AnalyticsService::Inactive(const identity::Principal& caller, int days) const {
  if (days < 1 || days > kMaxInactiveDays) return Error::Validation({{"days", "must be an integer from 1 to 3650"}});
  const TimeMs cutoff = clock_.Now() - static_cast<TimeMs>(days) * kMsPerDay;
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession s(session, caller.tenant_id);
  std::vector<InactiveEntry> out;
  for (const auto& r :
       s.Run(kInactive, {cutoff, caller.user_id, caller.is_global_admin(), kb::DefaultOrgRoleApplies(caller)})) {
    InactiveEntry e;
    e.id = r.Text(0);
    e.hub_id = r.Text(1);
    e.hub_key = r.Text(2);
    e.key = r.Text(3);
    e.title = r.Text(4);
    e.owner_id = r.Text(5);
    e.created_at = r.Int(6);
    if (!r.IsNull(7)) e.last_read_at = r.Int(7);
    out.push_back(std::move(e));
  }
  return out;
}

Result<Settings> AnalyticsService::GetSettings(const identity::Principal& caller) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession s(session, caller.tenant_id);
  return LoadSettings(s);
}

Result<Settings> AnalyticsService::SetSettings(const identity::Principal& caller, int retention_days) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  if (retention_days < kMinRetentionDays || retention_days > kMaxRetentionDays)
    return Error::Validation({{"rawEventRetentionDays", "must be an integer from 1 to 3650"}});
  const TimeMs now = clock_.Now();
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession s(session, caller.tenant_id);
  const Settings before = LoadSettings(s);
  s.Run(kSetSettings, {retention_days, caller.user_id, now});
  audit_.Record(s, identity::AuditOf(caller, "analytics.settings_updated", {"tenant", caller.tenant_id},
                                     {{"rawEventRetentionDays", retention_days},
                                      {"rawEventRetentionDaysBefore", before.retention_days}}));
  session.Commit();
  return Settings{retention_days, caller.user_id, now};
}

PruneOutcome AnalyticsService::Prune() const {
  const TimeMs now = clock_.Now();
  storage::Session session(db_, storage::TxMode::kWrite);
  PruneOutcome out;
  out.events_deleted = session.Run(kCountExpired, {now, kDefaultRetentionDays}).front().Int(0);
  if (out.events_deleted > 0) session.Run(kDeleteExpired, {now, kDefaultRetentionDays});
  session.Commit();
  return out;
}

int64_t AnalyticsService::FlushReads() const { return reads_.Flush(); }

void AnalyticsService::Shutdown() const { reads_.Stop(); }

}  // namespace credence::analytics
