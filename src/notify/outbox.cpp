#include "notify/outbox.h"

#include <algorithm>
#include <random>

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include "core/ids.h"
#include "core/json_text.h"
#include "core/logging.h"
#include "core/text.h"
#include "notify/channel.h"
#include "notify/delivery.h"
#include "notify/internal/outbox_store.h"
#include "notify/internal/queries.h"
#include "notify/internal/webhook_queries.h"
#include "notify/webhook.h"
#include "storage/session.h"
#include "telemetry/span.h"

namespace credence::notify {
namespace {

// The channel's recipients, then the event's, each address once (ignoring
// case).
std::vector<std::string> MergeRecipients(const std::vector<std::string>& configured,
                                         const std::vector<std::string>& from_event) {
  std::vector<std::string> out;
  std::vector<std::string> seen;
  for (const auto* list : {&configured, &from_event}) {
    for (const auto& r : *list) {
      std::string key = AsciiLower(r);
      if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
      seen.push_back(std::move(key));
      out.push_back(r);
    }
  }
  return out;
}

std::string MailDomain(const std::string& address) {
  const auto at = address.rfind('@');
  return at == std::string::npos || at + 1 == address.size() ? "localhost" : address.substr(at + 1);
}

}  // namespace

int64_t ClaimDurationMs(const DeliverySettings& settings) {
  return static_cast<int64_t>(std::max(settings.batch_size, 1)) * settings.timeout_ms + 60'000;
}

int QueueForChannels(storage::TenantSession& tx, const OutboundMessage& message, TimeMs now) {
  int queued = 0;
  const auto channels = tx.Run(internal::kEnabledChannels);
  for (const auto& row : channels) {
    const auto events = StringListFromJson(row.TextView(2));
    if (std::find(events.begin(), events.end(), message.event) == events.end()) continue;
    const std::string type = row.Text(1);
    std::vector<std::string> recipients;
    if (type == kTypeEmail && ConfigFromJson(type, row.TextView(3)).notify_owners)
      for (const auto& e : message.owner_emails)
        if (IsPlainEmail(e)) recipients.push_back(e);
    internal::InsertDelivery(tx, row.Text(0), message, recipients, now);
    ++queued;
  }
  return queued;
}

std::string QueueEmail(storage::TenantSession& tx, const std::vector<std::string>& recipients,
                       const OutboundMessage& message, TimeMs now) {
  return internal::InsertDelivery(tx, "", message, recipients, now);
}

OutboxWorker::OutboxWorker(storage::Database& db, const Clock& clock, DeliverySettings settings,
                           const identity::AuditRecorder* audit)
    : db_(db), clock_(clock), settings_(std::move(settings)), audit_(audit) {
  InitCurl();
}

OutboxRunResult OutboxWorker::RunOnce() const {
  OutboxRunResult result;
  for (;;) {
    // A fresh claim name per batch: two passes of one node (the background
    // job and POST /dev/jobs/run) never mistake each other's claims.
    const std::string claim = NewId();
    const TimeMs now = clock_.Now();
    const auto batch = internal::ClaimDue(db_, claim, now, now + ClaimDurationMs(settings_), settings_.batch_size);
    for (const auto& d : batch) {
      const SendResult sent = Send(d, clock_.Now());
      const TimeMs done = clock_.Now();
      const bool webhook = !d.webhook_id.empty();
      if (sent.ok) {
        internal::AlsoInTransaction healthy;
        if (webhook)
          healthy = [&d](storage::TenantSession& tx, bool) { tx.Run(internal::kWebhookSucceeded, {d.webhook_id}); };
        if (internal::RecordSuccess(db_, d, claim, done, sent.status, healthy)) ++result.delivered;
        continue;
      }
      const std::string error = sent.error.empty() ? "failed" : sent.error;
      internal::FailureOutcome outcome;
      if (webhook) {
        // Standard Webhooks' schedule, with jitter so that many deliveries
        // failing together do not all come back at the same instant.
        thread_local std::mt19937_64 random{std::random_device{}()};
        const double jitter = std::uniform_real_distribution<double>(0.0, 1.0)(random);
        outcome = internal::RecordFailure(
            db_, d, claim, error, kWebhookMaxAttempts, done, sent.status, WebhookRetryDelay(d.attempts + 1, jitter),
            [this, &d, done](storage::TenantSession& tx, bool) { WebhookFailed(tx, d, done); });
      } else {
        outcome = internal::RecordFailure(db_, d, claim, error, settings_.max_attempts, done);
      }
      if (outcome == internal::FailureOutcome::kClaimLost) continue;
      const bool dead = outcome == internal::FailureOutcome::kDead;
      if (dead)
        ++result.dead;
      else
        ++result.failed;
      // Operators see each failed attempt; a delivery given up is an error.
      LogLine(dead ? LogLevel::kError : LogLevel::kWarn,
              dead ? "notification delivery given up" : "notification delivery failed")
          .Str("tenant", d.tenant_id)
          .Str(webhook ? "webhook" : "channel", webhook ? d.webhook_id : d.channel_id)
          .Str("delivery", d.id)
          .Int("attempt", d.attempts + 1)
          .Str("error", error);
    }
    // Failed deliveries are due again only later, so this ends.
    if (static_cast<int>(batch.size()) < settings_.batch_size) break;
  }
  return result;
}

SendResult OutboxWorker::SendWebhook(const Delivery& d, TimeMs now) const {
  std::string url;
  std::vector<std::string> secrets;
  {
    // The connection goes back to the pool before any network I/O.
    storage::Session session(db_);
    storage::TenantSession tenant(session, d.tenant_id);
    const auto rows = tenant.Run(internal::kWebhookTarget, {d.webhook_id});
    if (rows.empty()) return {false, "the webhook no longer exists"};
    const auto r = rows.front();
    url = r.Text(0);
    secrets.push_back(r.Text(1));
    const auto previous = r.OptText(2);
    const auto until = r.OptInt(3);
    if (previous && until && now < *until) secrets.push_back(*previous);
  }
  const int64_t timestamp = now / 1000;
  std::string signatures;
  for (const auto& s : secrets) {
    if (!WebhookSecretKey(s)) continue;
    if (!signatures.empty()) signatures += ' ';
    signatures += StandardWebhookSignature(s, d.id, timestamp, d.text);
  }
  return PostJson(
      url, d.text,
      {{"webhook-id", d.id}, {"webhook-timestamp", std::to_string(timestamp)}, {"webhook-signature", signatures}},
      settings_.timeout_ms, settings_.outbound, "webhook");
}

void OutboxWorker::WebhookFailed(storage::TenantSession& tx, const Delivery& d, TimeMs now) const {
  const auto rows = tx.Run(internal::kWebhookFailed, {d.webhook_id, now});
  if (rows.empty()) return;
  const auto r = rows.front();
  const TimeMs failing_since = r.Int(0);
  if (!r.Bool(1) || now - failing_since < kWebhookDisableAfterMs) return;
  const std::string url = r.Text(2);
  const std::string reason = "every delivery attempt failed since " + FormatTimestamp(failing_since);
  tx.Run(internal::kDisableWebhook, {d.webhook_id, reason, now});
  LogLine(LogLevel::kError, "webhook disabled after failing for a day")
      .Str("tenant", d.tenant_id)
      .Str("webhook", d.webhook_id);
  std::vector<std::string> owners;
  for (const auto& o : tx.Run(internal::kOwnerEmails))
    if (IsPlainEmail(o.TextView(0))) owners.push_back(o.Text(0));
  if (!owners.empty()) {
    OutboundMessage m;
    m.event = "webhook.disabled";
    m.subject = "Credence webhook disabled: " + url;
    m.text = "The webhook " + d.webhook_id + " (" + url + ") was disabled: " + reason +
             ".\nFix the receiver, then enable the webhook again (PATCH /webhooks/" + d.webhook_id +
             " with {\"enabled\": true}); its failed deliveries can be redelivered.";
    m.data_json = boost::json::serialize(boost::json::object{{"webhookId", d.webhook_id}, {"url", url}});
    QueueEmail(tx, owners, m, now);
  }
  // Last, just before the commit (it takes the tenant's chain head lock).
  if (audit_ != nullptr) {
    identity::AuditEvent e;
    e.actor = identity::SystemActor("webhook-delivery");
    e.action = "webhook.disabled";
    e.target = {"webhook", d.webhook_id};
    e.details = {{"reason", reason}, {"failingSince", FormatTimestamp(failing_since)}};
    audit_->Record(tx, e);
  }
}

SendResult OutboxWorker::Send(const Delivery& d, TimeMs now) const {
  // A delivery runs on the jobs' thread, long after the request that queued
  // it: a trace of its own (docs/tracing.md), so its outbound call carries a
  // traceparent all the same.
  telemetry::Span span = telemetry::Span::Root("notify deliver");
  if (span.recording())
    span.SetString("credence.notify.event", d.event)
        .SetString("credence.notify.delivery_id", d.id)
        .SetString("credence.tenant_id", d.tenant_id);
  SendResult sent = SendOne(d, now);
  if (!sent.ok) span.SetError(sent.error);
  return sent;
}

SendResult OutboxWorker::SendOne(const Delivery& d, TimeMs now) const {
  if (!d.webhook_id.empty()) return SendWebhook(d, now);
  std::string type(kTypeEmail);
  ChannelConfig config;
  if (!d.channel_id.empty()) {
    // The connection goes back to the pool before any network I/O.
    storage::Session session(db_);
    storage::TenantSession tenant(session, d.tenant_id);
    const auto rows = tenant.Run(internal::kChannelTarget, {d.channel_id});
    if (rows.empty()) return {false, "the channel no longer exists"};
    type = rows.front().Text(0);
    config = ConfigFromJson(type, rows.front().TextView(1));
  }
  SendResult sent;
  if (type == kTypeEmail) {
    EmailMessage m;
    m.from = settings_.smtp_from;
    m.to = MergeRecipients(config.recipients, d.recipients);
    m.subject = d.subject;
    m.text = d.text;
    m.message_id = d.id + "@" + MailDomain(settings_.smtp_from);
    m.date = now;
    m.extra_headers = {{"X-Credence-Event", d.event}, {"X-Credence-Delivery", d.id}};
    sent = SendMail(settings_.smtp_url, settings_.smtp_from, m.to, FormatEmail(m), settings_.timeout_ms);
  } else if (type == kTypeSlack) {
    sent = PostJson(config.url, SlackBody(d.subject, d.text), {}, settings_.timeout_ms, settings_.outbound, "slack");
  } else if (type == kTypeTeams) {
    sent = PostJson(config.url, TeamsBody(d.subject, d.text), {}, settings_.timeout_ms, settings_.outbound, "teams");
  } else if (type == kTypeWebhook) {
    const std::string body = WebhookBody(d);
    std::vector<std::pair<std::string, std::string>> headers = {{"X-Credence-Event", d.event},
                                                                {"X-Credence-Delivery", d.id}};
    if (config.secret) headers.emplace_back("X-Credence-Signature", WebhookSignature(*config.secret, body));
    sent = PostJson(config.url, body, headers, settings_.timeout_ms, settings_.outbound, "webhook channel");
  } else {
    sent = {false, "unknown channel type '" + type + "'"};
  }
  return sent;
}

identity::InvitationMailer InvitationEmailsThroughOutbox() {
  return [](storage::TenantSession& tx, const identity::InvitationEmail& mail, TimeMs now) {
    OutboundMessage message;
    message.event = "user.invitation";
    message.subject = mail.subject;
    message.text = mail.text;
    message.data_json = mail.data_json;
    return QueueEmail(tx, {mail.to}, message, now);
  };
}

}  // namespace credence::notify
