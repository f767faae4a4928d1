#pragma once
// The persistent outbox: deliveries to notification channels are queued in
// the same transaction as the change that causes them, and sent later by
// OutboxWorker with retries and back-off. A channel that is down never slows
// or fails an API call, and nothing queued is lost across a restart.
#include "outbound/outbound.h"
#include <cstdint>
#include <string>
#include <vector>

#include "core/clock.h"
#include "identity/audit.h"
#include "identity/invitation_service.h"

namespace credence::storage {
class Database;
class TenantSession;
}  // namespace credence::storage

namespace credence::notify {

struct Delivery;
struct SendResult;

struct OutboundMessage {
  std::string event;                      // "entry.expiring_soon", "entry.warning", "entry.expired", "channel.test"
  std::string subject;                    // one line: email subject, chat title
  std::string text;                       // plain-text body
  std::string data_json;                  // the event's data, a JSON object (webhook payloads carry it)
  std::vector<std::string> owner_emails;  // added as recipients by email channels that notify owners
};

// Queues `message` for every enabled channel of the session's tenant, inside
// the caller's transaction: it is queued if and only if the caller commits.
// Returns how many deliveries were queued.
int QueueForChannels(storage::TenantSession& tx, const OutboundMessage& message, TimeMs now);

// Queues `message` as one direct email to `recipients` (no channel: an
// invitation, say), inside the caller's transaction: it is queued if and
// only if the caller commits. `message.owner_emails` is ignored. Returns the
// delivery id. docs/notifications.md, "Direct emails".
std::string QueueEmail(storage::TenantSession& tx, const std::vector<std::string>& recipients,
                       const OutboundMessage& message, TimeMs now);

// Invitation emails as direct emails through this outbox, queued in the
// inviting transaction (identity does not depend on notify, so the
// invitation service takes this as its mailer).
identity::InvitationMailer InvitationEmailsThroughOutbox();

struct DeliverySettings {
  std::string smtp_url;  // smtp://host:port; empty: email deliveries fail
  std::string smtp_from = "credence@localhost";
  int64_t timeout_ms = 5'000;  // per attempt
  int max_attempts = 8;        // then the delivery is given up (dead)
  int batch_size = 10;         // deliveries claimed at a time
  // Where Slack, Teams and webhook deliveries may connect (docs/outbound.md).
  outbound::Policy outbound;
};

// How long a pass's claim lasts: long enough to send a whole batch, each
// attempt at its timeout, with a minute to spare. A node that crashed
// mid-batch has its deliveries retaken after this.
int64_t ClaimDurationMs(const DeliverySettings& settings);

struct OutboxRunResult {
  int delivered = 0;
  int failed = 0;  // attempts that failed and will be retried
  int dead = 0;    // deliveries given up after max_attempts
};

class OutboxWorker {
 public:
  // `audit` records webhooks the worker disables (docs/webhooks.md); null:
  // nothing recorded (unit tests of channels).
  OutboxWorker(storage::Database& db, const Clock& clock, DeliverySettings settings,
               const identity::AuditRecorder* audit = nullptr);
  // Claims the deliveries due now (across tenants) and sends them. Safe to
  // run on several nodes at once: a claim has an expiry, and a delivery is
  // only marked by the node holding its claim.
  OutboxRunResult RunOnce() const;

 private:
  // One attempt, outside any transaction: the error text, or "" on success.
  SendResult Send(const Delivery& d, TimeMs now) const;  // in a span of its own
  SendResult SendOne(const Delivery& d, TimeMs now) const;
  SendResult SendWebhook(const Delivery& d, TimeMs now) const;
  // In the transaction recording a webhook delivery's failed attempt: starts
  // the webhook's failure clock, and disables it (audited, its owners told
  // by email) once it has failed for kWebhookDisableAfterMs.
  void WebhookFailed(storage::TenantSession& tx, const Delivery& d, TimeMs now) const;

  storage::Database& db_;
  const Clock& clock_;
  DeliverySettings settings_;
  const identity::AuditRecorder* audit_;
};

}  // namespace credence::notify
