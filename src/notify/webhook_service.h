#pragma once
// A tenant's webhooks (docs/webhooks.md): registration, the whsec_ secret
// (shown once; rotated with a grace period), test events, recent deliveries
// and redelivery; and the EventSink that queues catalog events for them in
// the emitting service's own transaction. Sending is the outbox's
// (outbox.h), never done here: a slow receiver never slows an API call.
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/audit.h"
#include "identity/events.h"
#include "identity/principal.h"
#include "outbound/outbound.h"

namespace credence::storage {
class Database;
}

namespace credence::notify {

struct Webhook {
  std::string id;
  std::string url;
  std::string description;
  std::vector<std::string> event_types;
  bool is_enabled = true;
  std::optional<std::string> disabled_reason;   // set when the outbox disabled it
  std::optional<TimeMs> previous_secret_until;  // a rotated-out secret still signs until then
  TimeMs created_at = 0;
  TimeMs updated_at = 0;
};

struct WebhookInput {
  std::optional<std::string> url;
  std::optional<std::vector<std::string>> event_types;
  std::optional<std::string> description;
  std::optional<bool> is_enabled;
};

struct WebhookDelivery {
  std::string id;  // also the webhook-id header
  std::string event;
  std::string status;  // pending, delivered, dead
  int64_t attempts = 0;
  std::optional<int64_t> response_code;  // of the last attempt that got an answer
  std::optional<std::string> last_error;
  std::optional<TimeMs> next_attempt_at;
  TimeMs created_at = 0;
  std::optional<TimeMs> delivered_at;
};

inline constexpr size_t kMaxWebhookUrlLength = 2000;
inline constexpr size_t kMaxWebhookDescriptionLength = 500;
inline constexpr size_t kMaxWebhooksPerTenant = 50;

class WebhookService final : public identity::EventSink {
 public:
  WebhookService(storage::Database& db, const Clock& clock, const identity::AuditRecorder& audit,
                 outbound::Policy outbound = {})
      : db_(db), clock_(clock), audit_(audit), outbound_(outbound) {}

  // All: global admins only (403 otherwise); another tenant's webhook is
  // 404. Every change is audited in its own transaction.
  Result<std::vector<Webhook>> List(const identity::Principal& caller) const;
  Result<Webhook> Get(const identity::Principal& caller, const std::string& id) const;
  // Requires url and event_types. Returns the webhook and its secret, which
  // is never shown again. 400 validation_failed (url, eventTypes,
  // description), 400 url_not_allowed for a literal address the outbound
  // policy refuses.
  Result<std::pair<Webhook, std::string>> Create(const identity::Principal& caller, const WebhookInput& input) const;
  // Changes the fields given. Enabling a webhook clears its failure state.
  Result<Webhook> Update(const identity::Principal& caller, const std::string& id, const WebhookInput& input) const;
  // The webhook and all its deliveries.
  Status Delete(const identity::Principal& caller, const std::string& id) const;
  // A new secret (returned once); the old one keeps signing alongside for
  // kWebhookSecretGraceMs (a second rotation ends that grace at once).
  Result<std::pair<Webhook, std::string>> RotateSecret(const identity::Principal& caller, const std::string& id) const;
  // Queues a webhook.test event to this webhook, enabled or not.
  Result<std::string> SendTest(const identity::Principal& caller, const std::string& id) const;
  // The newest 50 deliveries, newest first.
  Result<std::vector<WebhookDelivery>> Deliveries(const identity::Principal& caller, const std::string& id) const;
  // Queues the same body again as a new delivery (a new webhook-id);
  // returns its id.
  Result<std::string> Redeliver(const identity::Principal& caller, const std::string& id,
                                const std::string& delivery_id) const;

  // identity::EventSink.
  void Emit(storage::TenantSession& tx, std::string_view type, const boost::json::object& data) const override;
  bool Wants(storage::TenantSession& tx, std::string_view type) const override;
  void EmitLazy(storage::TenantSession& tx, std::string_view type,
                const std::function<boost::json::object()>& data) const override;

 private:
  storage::Database& db_;
  const Clock& clock_;
  const identity::AuditRecorder& audit_;
  outbound::Policy outbound_;
};

}  // namespace credence::notify
