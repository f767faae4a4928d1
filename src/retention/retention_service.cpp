#include "retention/retention_service.h"

#include "identity/audit.h"
#include "identity/authorization.h"
#include "retention/periods.h"
#include "storage/session.h"

namespace credence::retention {
namespace {

using storage::TenantQuery;

constexpr TenantQuery kGetSettings{
    "retention.get_settings",
    "SELECT decisions_months, usage_months, audit_months, updated_by, updated_at FROM retention_settings"
    " WHERE tenant_id = $1"};
constexpr TenantQuery kSetSettings{
    "retention.set_settings",
    "INSERT INTO retention_settings (tenant_id, decisions_months, usage_months, audit_months, updated_by, updated_at)"
    " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (tenant_id) DO UPDATE SET decisions_months = $2,"
    " usage_months = $3, audit_months = $4, updated_by = $5, updated_at = $6"};
#define CREDENCE_ARCHIVE_COLUMNS                                                                              \
  "id, kind, period, file, sha256, bytes, records, from_seq, to_seq, last_hash, from_time, to_time, created_at," \
  " first_id, last_id"
constexpr TenantQuery kOverlapping{
    "retention.archives_overlapping",
    "SELECT " CREDENCE_ARCHIVE_COLUMNS " FROM retention_archives WHERE tenant_id = $1 AND kind = $2"
    " AND to_time > $3 AND from_time < $4 ORDER BY from_time, created_at"};
constexpr TenantQuery kArchivedBefore{
    "retention.archived_before", "SELECT MAX(to_time) FROM retention_archives WHERE tenant_id = $1 AND kind = $2"};
constexpr TenantQuery kArchives{
    "retention.archives",
    "SELECT " CREDENCE_ARCHIVE_COLUMNS " FROM retention_archives WHERE tenant_id = $1 AND ($2 = '' OR kind = $2)"
    " ORDER BY to_time DESC, created_at DESC"};

ArchiveInfo ArchiveFromRow(const storage::Row& r) {
  ArchiveInfo a;
  a.id = r.Text(0);
  a.kind = r.Text(1);
  a.period = r.Text(2);
  a.file = r.Text(3);
  a.sha256 = r.Text(4);
  a.bytes = r.Int(5);
  a.records = r.Int(6);
  a.from_seq = r.OptInt(7);
  a.to_seq = r.OptInt(8);
  a.last_hash = r.OptText(9);
  a.from_time = r.Int(10);
  a.to_time = r.Int(11);
  a.created_at = r.Int(12);
  a.first_id = r.OptText(13);
  a.last_id = r.OptText(14);
  return a;
}

std::optional<FieldError> MonthsProblem(const char* field, const std::optional<int>& months) {
  if (!months || (*months >= kMinRetentionMonths && *months <= kMaxRetentionMonths)) return std::nullopt;
  return FieldError{field, "must be a whole number of months from " + std::to_string(kMinRetentionMonths) + " to " +
                               std::to_string(kMaxRetentionMonths)};
}

}  // namespace

int RetentionSettings::MonthsOf(std::string_view kind) const {
  return kind == "decisions" ? decisions_months : kind == "usage" ? usage_months : audit_months;
}

RetentionSettings LoadRetentionSettings(storage::TenantSession& tenant) {
  RetentionSettings out{kDefaultRetentionMonths, kDefaultRetentionMonths, kDefaultRetentionMonths, std::nullopt,
                        std::nullopt};
  auto rows = tenant.Run(kGetSettings);
  if (rows.empty()) return out;
  const auto& r = rows.front();
  out.decisions_months = static_cast<int>(r.Int(0));
  out.usage_months = static_cast<int>(r.Int(1));
  out.audit_months = static_cast<int>(r.Int(2));
  out.updated_by = r.OptText(3);
  out.updated_at = r.OptInt(4);
  return out;
}

std::vector<ArchiveInfo> ArchivesOverlapping(storage::TenantSession& tenant, std::string_view kind, TimeMs from,
                                             TimeMs to) {
  std::vector<ArchiveInfo> out;
  for (const auto& r : tenant.Run(kOverlapping, {std::string(kind), from, to})) out.push_back(ArchiveFromRow(r));
  return out;
}

std::optional<TimeMs> ArchivedBefore(storage::TenantSession& tenant, std::string_view kind) {
  auto rows = tenant.Run(kArchivedBefore, {std::string(kind)});
  if (rows.empty() || rows.front().IsNull(0)) return std::nullopt;
  return rows.front().Int(0);
}

RetentionService::View RetentionService::Load(storage::TenantSession& tenant) const {
  View v{LoadRetentionSettings(tenant), archiving_, {}};
  for (size_t i = 0; i < std::size(kKinds); ++i) v.archived_before[i] = ArchivedBefore(tenant, kKinds[i]);
  return v;
}

Result<RetentionService::View> RetentionService::Get(const identity::Principal& caller) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  return Load(tenant);
}

Result<RetentionService::View> RetentionService::Set(const identity::Principal& caller,
                                                     const SettingsChange& change) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  std::vector<FieldError> problems;
  for (auto p : {MonthsProblem("decisionsMonths", change.decisions_months),
                 MonthsProblem("usageMonths", change.usage_months), MonthsProblem("auditMonths", change.audit_months)})
    if (p) problems.push_back(*p);
  if (!change.decisions_months && !change.usage_months && !change.audit_months)
    problems.push_back({"decisionsMonths", "give at least one of decisionsMonths, usageMonths, auditMonths"});
  if (!problems.empty()) return Error::Validation(std::move(problems));
  const TimeMs now = clock_.Now();
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tx(session, caller.tenant_id);
  const RetentionSettings before = LoadRetentionSettings(tx);
  RetentionSettings after = before;
  if (change.decisions_months) after.decisions_months = *change.decisions_months;
  if (change.usage_months) after.usage_months = *change.usage_months;
  if (change.audit_months) after.audit_months = *change.audit_months;
  tx.Run(kSetSettings, {after.decisions_months, after.usage_months, after.audit_months, caller.user_id, now});
  audit_.Record(tx, identity::AuditOf(caller, "retention.settings_updated", {"tenant", caller.tenant_id},
                                      {{"decisionsMonths", after.decisions_months},
                                       {"usageMonths", after.usage_months},
                                       {"auditMonths", after.audit_months},
                                       {"decisionsMonthsBefore", before.decisions_months},
                                       {"usageMonthsBefore", before.usage_months},
                                       {"auditMonthsBefore", before.audit_months}}));
  View v = Load(tx);
  session.Commit();
  return v;
}

std::optional<RetentionService::ArchivedWindow> RetentionService::Archived(const std::string& tenant_id,
                                                                          std::string_view kind, TimeMs from,
                                                                          TimeMs to) const {
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, tenant_id);
  const auto before = ArchivedBefore(tenant, kind);
  if (!before || from >= *before) return std::nullopt;
  return ArchivedWindow{*before, ArchivesOverlapping(tenant, kind, from, to)};
}

std::vector<ArchiveInfo> RetentionService::DecisionArchivesHolding(const std::string& tenant_id,
                                                                  const std::string& decision_id) const {
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, tenant_id);
  // Compared here, not in SQL: a PostgreSQL collation may order '-' and
  // hex digits otherwise than bytes do. One row per month archived.
  std::vector<ArchiveInfo> out;
  for (const auto& r : tenant.Run(kArchives, {std::string("decisions")})) {
    ArchiveInfo a = ArchiveFromRow(r);
    if (a.first_id && a.last_id && *a.first_id <= decision_id && decision_id <= *a.last_id) out.push_back(std::move(a));
  }
  return out;
}

Result<std::vector<ArchiveInfo>> RetentionService::Archives(const identity::Principal& caller,
                                                            const std::string& kind) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  std::vector<ArchiveInfo> out;
  for (const auto& r : tenant.Run(kArchives, {kind})) out.push_back(ArchiveFromRow(r));
  return out;
}

}  // namespace credence::retention
