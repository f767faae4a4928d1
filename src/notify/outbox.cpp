#include "notify/outbox.h"

#include <algorithm>

#include "core/ids.h"
#include "core/json_text.h"
#include "core/logging.h"
#include "notify/channel.h"
#include "notify/delivery.h"
#include "notify/internal/outbox_store.h"
#include "notify/internal/queries.h"
#include "storage/session.h"

namespace credence::notify {
namespace {

std::string LowerAscii(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

// The channel's recipients, then the event's, each address once (ignoring
// case).
std::vector<std::string> MergeRecipients(const std::vector<std::string>& configured,
                                         const std::vector<std::string>& from_event) {
  std::vector<std::string> out;
  std::vector<std::string> seen;
  for (const auto* list : {&configured, &from_event}) {
    for (const auto& r : *list) {
      std::string key = LowerAscii(r);
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

OutboxWorker::OutboxWorker(storage::Database& db, const Clock& clock, DeliverySettings settings)
    : db_(db), clock_(clock), settings_(std::move(settings)) {
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
      const std::string error = Send(d, clock_.Now());
      const TimeMs done = clock_.Now();
      if (error.empty()) {
        if (internal::RecordSuccess(db_, d, claim, done)) ++result.delivered;
        continue;
      }
      const auto outcome = internal::RecordFailure(db_, d, claim, error, settings_.max_attempts, done);
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
          .Str("channel", d.channel_id)
          .Str("delivery", d.id)
          .Int("attempt", d.attempts + 1)
          .Str("error", error);
    }
    // Failed deliveries are due again only later, so this ends.
    if (static_cast<int>(batch.size()) < settings_.batch_size) break;
  }
  return result;
}

std::string OutboxWorker::Send(const Delivery& d, TimeMs now) const {
  std::string type(kTypeEmail);
  ChannelConfig config;
  if (!d.channel_id.empty()) {
    // The connection goes back to the pool before any network I/O.
    storage::Session session(db_);
    storage::TenantSession tenant(session, d.tenant_id);
    const auto rows = tenant.Run(internal::kChannelTarget, {d.channel_id});
    if (rows.empty()) return "the channel no longer exists";
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
    sent = PostJson(config.url, SlackBody(d.subject, d.text), {}, settings_.timeout_ms, settings_.outbound);
  } else if (type == kTypeTeams) {
    sent = PostJson(config.url, TeamsBody(d.subject, d.text), {}, settings_.timeout_ms, settings_.outbound);
  } else if (type == kTypeWebhook) {
    const std::string body = WebhookBody(d);
    std::vector<std::pair<std::string, std::string>> headers = {{"X-Credence-Event", d.event},
                                                                {"X-Credence-Delivery", d.id}};
    if (config.secret) headers.emplace_back("X-Credence-Signature", WebhookSignature(*config.secret, body));
    sent = PostJson(config.url, body, headers, settings_.timeout_ms, settings_.outbound);
  } else {
    sent = {false, "unknown channel type '" + type + "'"};
  }
  return sent.ok ? "" : (sent.error.empty() ? "failed" : sent.error);
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
