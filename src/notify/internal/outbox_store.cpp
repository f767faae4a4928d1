#include "notify/internal/outbox_store.h"

#include <algorithm>
#include <tuple>

#include "core/ids.h"
#include "core/json_text.h"
#include "notify/internal/queries.h"
#include "storage/session.h"

namespace credence::notify::internal {

std::string InsertDelivery(storage::TenantSession& tx, const std::string& channel_id, const OutboundMessage& message,
                           const std::vector<std::string>& recipients, TimeMs now) {
  std::string id = NewId();
  tx.Run(kInsertDelivery, {id, channel_id.empty() ? storage::Param(nullptr) : storage::Param(channel_id), message.event, message.subject, message.text,
                           message.data_json.empty() ? std::string_view("{}") : std::string_view(message.data_json),
                           StringListToJson(recipients), now});
  return id;
}

std::vector<Delivery> ClaimDue(storage::Database& db, const std::string& claim, TimeMs now, TimeMs claim_until,
                               int limit) {
  {
    storage::Session read(db);
    if (read.Run(kAnyDue, {now}).empty()) return {};
  }
  storage::Session session(db, storage::TxMode::kWrite);
  const auto rows = session.Run(kClaimDue, {now, claim, claim_until, limit});
  session.Commit();
  std::vector<Delivery> out;
  out.reserve(rows.size());
  for (const auto& r : rows) {
    Delivery d;
    d.tenant_id = r.Text(0);
    d.id = r.Text(1);
    d.channel_id = r.Text(2);  // "" for a direct email
    d.event = r.Text(3);
    d.subject = r.Text(4);
    d.text = r.Text(5);
    d.data_json = r.Text(6);
    d.recipients = StringListFromJson(r.TextView(7));
    d.attempts = static_cast<int>(r.Int(8));
    d.created_at = r.Int(9);
    d.webhook_id = r.OptText(10).value_or("");
    out.push_back(std::move(d));
  }
  // RETURNING promises no order; oldest first keeps the send order fair.
  std::sort(out.begin(), out.end(), [](const Delivery& a, const Delivery& b) {
    return std::tie(a.created_at, a.id) < std::tie(b.created_at, b.id);
  });
  return out;
}

bool RecordSuccess(storage::Database& db, const Delivery& d, const std::string& claim, TimeMs now, long status,
                   const AlsoInTransaction& also) {
  storage::Session session(db, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, d.tenant_id);
  const storage::Param code = status > 0 ? storage::Param(static_cast<int64_t>(status)) : storage::Param(nullptr);
  if (tenant.Run(kMarkDelivered, {d.id, claim, now, code}).affected() != 1) return false;
  if (!d.channel_id.empty()) tenant.Run(kCountSuccess, {d.channel_id, now});
  if (also) also(tenant, false);
  session.Commit();
  return true;
}

FailureOutcome RecordFailure(storage::Database& db, const Delivery& d, const std::string& claim,
                             const std::string& error, int max_attempts, TimeMs now, long status,
                             TimeMs retry_delay, const AlsoInTransaction& also) {
  const int attempts = d.attempts + 1;
  const bool dead = attempts >= max_attempts;
  storage::Session session(db, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, d.tenant_id);
  const TimeMs delay = retry_delay > 0 ? retry_delay : RetryDelay(attempts);
  const storage::Param code = status > 0 ? storage::Param(static_cast<int64_t>(status)) : storage::Param(nullptr);
  const auto marked =
      tenant.Run(kMarkFailed, {d.id, claim, dead ? "dead" : "pending", dead ? now : now + delay, error, code});
  if (marked.affected() != 1) return FailureOutcome::kClaimLost;
  if (!d.channel_id.empty()) tenant.Run(kCountFailure, {d.channel_id, now});
  if (also) also(tenant, dead);
  session.Commit();
  return dead ? FailureOutcome::kDead : FailureOutcome::kRetry;
}

}  // namespace credence::notify::internal
