#include "lifecycle/notification_service.h"

#include "identity/authorization.h"
#include "storage/session.h"

namespace credence::lifecycle {
namespace {

using storage::TenantQuery;

#define CREDENCE_NOTIFICATION_SELECT                                                                    \
  "SELECT n.id, n.entry_id, e.title, h.hub_key, n.kind, n.expiry_at, n.created_at, n.acknowledged_at"  \
  " FROM notifications n JOIN entries e ON e.tenant_id = n.tenant_id AND e.id = n.entry_id"            \
  " JOIN hubs h ON h.tenant_id = e.tenant_id AND h.id = e.hub_id"

constexpr TenantQuery kOpenNotifications{
    "lifecycle.open_notifications",
    CREDENCE_NOTIFICATION_SELECT " WHERE n.tenant_id = $1 AND n.user_id = $2 AND n.acknowledged_at IS NULL"
                                 " ORDER BY n.created_at DESC, n.id DESC LIMIT $3"};

constexpr TenantQuery kOwnNotification{
    "lifecycle.own_notification",
    CREDENCE_NOTIFICATION_SELECT " WHERE n.tenant_id = $1 AND n.id = $2 AND n.user_id = $3"};

constexpr TenantQuery kAcknowledge{
    "lifecycle.acknowledge_notification",
    "UPDATE notifications SET acknowledged_at = $3 WHERE tenant_id = $1 AND id = $2 AND acknowledged_at IS NULL"};

constexpr TenantQuery kAcknowledgeAll{
    "lifecycle.acknowledge_all_notifications",
    "UPDATE notifications SET acknowledged_at = $3 WHERE tenant_id = $1 AND user_id = $2 AND acknowledged_at IS NULL"};

ExpiryNotification FromRow(const storage::Row& r) {
  return {r.Text(0), r.Text(1), r.Text(2), r.Text(3), r.Text(4), r.Int(5), r.Int(6), r.OptInt(7)};
}

}  // namespace

Result<std::vector<ExpiryNotification>> NotificationService::ExpiryWarnings(const identity::Principal& caller) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  std::vector<ExpiryNotification> out;
  for (const auto& r :
       tenant.Run(kOpenNotifications, {caller.user_id, static_cast<int64_t>(kMaxListedNotifications)}))
    out.push_back(FromRow(r));
  return out;
}

Result<ExpiryNotification> NotificationService::Acknowledge(const identity::Principal& caller,
                                                            const std::string& id) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto rows = tenant.Run(kOwnNotification, {id, caller.user_id});
  if (rows.empty()) return Error::NotFound("Notification not found.");
  ExpiryNotification n = FromRow(rows.front());
  if (!n.acknowledged_at) {
    n.acknowledged_at = clock_.Now();
    tenant.Run(kAcknowledge, {id, *n.acknowledged_at});
  }
  session.Commit();
  return n;
}

Result<int64_t> NotificationService::AcknowledgeAll(const identity::Principal& caller) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  const int64_t n = tenant.Run(kAcknowledgeAll, {caller.user_id, clock_.Now()}).affected();
  session.Commit();
  return n;
}

}  // namespace credence::lifecycle
