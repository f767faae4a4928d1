#pragma once
// The outbox's steps against the store, separate from OutboxWorker so that
// each can be tested on its own (claims racing, expiring, being retaken).
#include <functional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "notify/delivery.h"
#include "notify/outbox.h"

namespace credence::storage {
class Database;
class TenantSession;
}  // namespace credence::storage

namespace credence::notify::internal {

// Inserts one pending delivery, due at `now`, in the caller's transaction;
// an empty `channel_id` makes a direct email to `recipients` (the row's
// channel_id is NULL). Returns its id.
std::string InsertDelivery(storage::TenantSession& tx, const std::string& channel_id, const OutboundMessage& message,
                           const std::vector<std::string>& recipients, TimeMs now);

// In one short write transaction, claims up to `limit` deliveries of every
// tenant that are due at `now` and not claimed by a live claim, for the pass
// named `claim` until `claim_until`.
std::vector<Delivery> ClaimDue(storage::Database& db, const std::string& claim, TimeMs now, TimeMs claim_until,
                               int limit);

// Records an attempt's outcome if `claim` still holds the delivery: the
// delivery becomes delivered, pending again at now + RetryDelay, or dead
// after `max_attempts`; the channel's counters and last use move with it.
// Returns false when the claim was lost (nothing recorded).
// `status`: the HTTP status answered (0: none). `also` runs in the same
// transaction once the outcome is recorded (webhooks' failure bookkeeping).
// `retry_delay` overrides RetryDelay when positive.
using AlsoInTransaction = std::function<void(storage::TenantSession&, bool dead)>;
bool RecordSuccess(storage::Database& db, const Delivery& d, const std::string& claim, TimeMs now, long status = 0,
                   const AlsoInTransaction& also = {});
enum class FailureOutcome { kRetry, kDead, kClaimLost };
FailureOutcome RecordFailure(storage::Database& db, const Delivery& d, const std::string& claim,
                             const std::string& error, int max_attempts, TimeMs now, long status = 0,
                             TimeMs retry_delay = 0, const AlsoInTransaction& also = {});

}  // namespace credence::notify::internal
