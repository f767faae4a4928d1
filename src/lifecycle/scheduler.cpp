#include "lifecycle/scheduler.h"

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <optional>

#include "core/ids.h"
#include "kb/internal/queries.h"
#include "kb/model.h"
#include "lifecycle/status.h"
#include "notify/outbox.h"
#include "storage/session.h"

namespace credence::lifecycle {
namespace {

namespace json = boost::json;
using storage::GlobalQuery;
using storage::TenantQuery;

constexpr char kLeaseName[] = "expiry-scheduler";
constexpr TimeMs kLeaseMs = 5 * 60 * 1000;
// Entries handled per write transaction: small enough that API writes
// waiting behind a batch barely notice it.
constexpr int64_t kBatchSize = 200;

constexpr GlobalQuery kEnsureLease{
    "lifecycle.ensure_lease",
    "INSERT INTO job_leases (name, holder, expires_at) VALUES ($1, '', 0) ON CONFLICT (name) DO NOTHING"};

// Taken when free, expired, or already ours. A lease that claims to run
// more than a lease further ahead than this node would write ($5) was
// written by a clock that has since been set back (a test clock, a
// corrected system clock): it is treated as expired rather than blocking
// the scheduler until that time comes. Not merely further ahead: another
// node that took it just after this one read its clock wrote a later expiry.
constexpr GlobalQuery kTakeLease{"lifecycle.take_lease",
                                 "UPDATE job_leases SET holder = $2, expires_at = $3 WHERE name = $1"
                                 " AND (holder = $2 OR expires_at <= $4 OR expires_at > $5)"};

constexpr GlobalQuery kReleaseLease{"lifecycle.release_lease",
                                    "UPDATE job_leases SET expires_at = 0 WHERE name = $1 AND holder = $2"};

// The entries whose next check is due, across tenants, through the partial
// index on next_check_at, with every fact a transition needs.
#define CREDENCE_DUE_ENTRIES                                                                                     \
  "SELECT e.tenant_id, e.id, e.title, e.owner_id, e.status, e.expiry_at, e.paused_at, e.lifecycle_status,"       \
  " e.next_check_at, COALESCE(xt.warning_days, 0), COALESCE(xt.grace_days, 0), h.hub_key,"                       \
  " (SELECT u.email FROM users u JOIN tenant_members m ON m.user_id = u.id"                                      \
  " WHERE u.id = e.owner_id AND m.tenant_id = e.tenant_id AND m.is_active = 1), e.hub_id" CREDENCE_KB_ENTRY_FROM \
  " WHERE e.next_check_at <= $1 ORDER BY e.next_check_at"
// Passes that overlap on PostgreSQL (a lease taken over from a node whose
// clock was set back) take the entries in one order, so that one waits for
// the other instead of both deadlocking. SQLite has one writer at a time.
constexpr GlobalQuery kDueEntries{"lifecycle.due_entries", CREDENCE_DUE_ENTRIES " LIMIT $2",
                                  CREDENCE_DUE_ENTRIES ", e.tenant_id, e.id LIMIT $2"};
#undef CREDENCE_DUE_ENTRIES

// Once per (entry, expiry date, status): a retried or concurrent pass
// inserts nothing the second time.
constexpr TenantQuery kInsertTransition{
    "lifecycle.insert_transition",
    "INSERT INTO expiry_transitions (tenant_id, id, entry_id, from_status, to_status, expiry_at, occurred_at)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (tenant_id, entry_id, expiry_at, to_status) DO NOTHING"};

constexpr TenantQuery kInsertNotification{
    "lifecycle.insert_notification",
    "INSERT INTO notifications (tenant_id, id, user_id, entry_id, kind, expiry_at, created_at)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7)"};

// Guarded by the next_check_at read: a write that scheduled a new check in
// the meantime (a renewal) wins, and the entry is looked at again.
constexpr TenantQuery kMarkChecked{
    "lifecycle.mark_checked",
    "UPDATE entries SET lifecycle_status = $3, next_check_at = $4 WHERE tenant_id = $1 AND id = $2"
    " AND next_check_at = $5"};

bool Notifies(kb::EntryStatus s) {
  return s == kb::EntryStatus::kExpiringSoon || s == kb::EntryStatus::kWarning || s == kb::EntryStatus::kExpired;
}

const char* EventOf(kb::EntryStatus s) {
  switch (s) {
    case kb::EntryStatus::kExpiringSoon:
      return "entry.expiring_soon";
    case kb::EntryStatus::kWarning:
      return "entry.warning";
    default:
      return "entry.expired";
  }
}

std::string SubjectOf(const std::string& title, const ExpiryStatus& st) {
  const std::string quoted = "\"" + title + "\"";
  switch (st.status) {
    case kb::EntryStatus::kExpiringSoon:
      return quoted + " expires in " + std::to_string(st.days_until_expiry) +
             (st.days_until_expiry == 1 ? " day" : " days");
    case kb::EntryStatus::kWarning:
      return quoted + " is past its expiry date";
    default:
      return quoted + " has expired";
  }
}

struct DueEntry {
  std::string tenant_id;
  std::string id;
  std::string title;
  std::string owner_id;
  ExpiryFacts facts;
  ExpiryWindows windows;
  std::optional<std::string> materialized;
  TimeMs next_check_at = 0;
  std::string hub_key;
  std::optional<std::string> owner_email;
  std::string hub_id;
};

DueEntry DueFromRow(const storage::Row& r) {
  DueEntry d;
  d.tenant_id = r.Text(0);
  d.id = r.Text(1);
  d.title = r.Text(2);
  d.owner_id = r.Text(3);
  d.facts.published = r.TextView(4) != "Draft";
  d.facts.expiry_at = r.Int(5);
  d.facts.paused_at = r.OptInt(6);
  d.materialized = r.OptText(7);
  d.next_check_at = r.Int(8);
  d.windows = {static_cast<int>(r.Int(9)), static_cast<int>(r.Int(10))};
  d.hub_key = r.Text(11);
  d.owner_email = r.OptText(12);
  d.hub_id = r.Text(13);
  return d;
}

}  // namespace

ExpiryScheduler::ExpiryScheduler(storage::Database& db, const Clock& clock, std::string node_id,
                                 const identity::EventSink& events)
    : db_(db), clock_(clock), node_id_(std::move(node_id)), events_(events) {}

bool ExpiryScheduler::TakeLease() const {
  storage::Session session(db_);
  session.Run(kEnsureLease, {kLeaseName});
  const TimeMs now = clock_.Now();
  return session.Run(kTakeLease, {kLeaseName, node_id_, now + kLeaseMs, now, now + 2 * kLeaseMs}).affected() == 1;
}

SchedulerRunResult ExpiryScheduler::RunOnce() const {
  SchedulerRunResult result;
  const std::lock_guard one_pass_at_a_time(pass_);
  if (!TakeLease()) {
    result.lease_held = false;
    return result;
  }
  for (;;) {
    const TimeMs now = clock_.Now();
    storage::Session session(db_, storage::TxMode::kWrite);
    const auto rows = session.Run(kDueEntries, {now, kBatchSize});
    if (rows.empty()) break;
    for (const auto& row : rows) {
      const DueEntry d = DueFromRow(row);
      ++result.checked;
      const ExpiryStatus st = ComputeExpiryStatus(d.facts, d.windows, now);
      const std::string status(kb::EntryStatusName(st.status));
      const auto next = NextTransitionAt(d.facts, d.windows, now);
      storage::TenantSession tenant(session, d.tenant_id);
      if (d.materialized != status) {
        const bool first_time =
            tenant.Run(kInsertTransition, {NewId(), d.id, d.materialized, status, d.facts.expiry_at, now}).affected() ==
            1;
        if (first_time) {
          ++result.transitions;
          if (Notifies(st.status)) {
            tenant.Run(kInsertNotification, {NewId(), d.owner_id, d.id, status, d.facts.expiry_at, now});
            ++result.notifications;
            notify::OutboundMessage message;
            message.event = EventOf(st.status);
            message.subject = SubjectOf(d.title, st);
            message.text = message.subject + ".\nHub: " + d.hub_key + "\nEntry: " + d.id +
                           "\nExpiry date: " + FormatTimestamp(d.facts.expiry_at) +
                           "\nRenew it or review it to keep it in use.";
            message.data_json = json::serialize(json::object{
                {"entryId", d.id},
                {"title", d.title},
                {"hubKey", d.hub_key},
                {"ownerId", d.owner_id},
                {"status", status},
                {"previousStatus", d.materialized ? json::value(*d.materialized) : json::value(nullptr)},
                {"expiryDate", FormatTimestamp(d.facts.expiry_at)},
                {"daysUntilExpiry", st.days_until_expiry},
            });
            if (d.owner_email) message.owner_emails.push_back(*d.owner_email);
            notify::QueueForChannels(tenant, message, now);
            // Webhooks: entry.expiring for both warning windows.
            const bool expired = st.status == kb::EntryStatus::kExpired;
            json::object data{
                {"entryId", d.id}, {"hubId", d.hub_id}, {"expiresAt", FormatTimestamp(d.facts.expiry_at)}};
            if (!expired) data["status"] = status;
            events_.Emit(tenant, expired ? "entry.expired" : "entry.expiring", data);
          }
        }
      }
      tenant.Run(kMarkChecked, {d.id, status, next, d.next_check_at});
    }
    session.Commit();
    if (static_cast<int64_t>(rows.size()) < kBatchSize) break;
  }
  storage::Session session(db_);
  session.Run(kReleaseLease, {kLeaseName, node_id_});
  return result;
}

}  // namespace credence::lifecycle
