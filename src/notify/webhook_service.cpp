#include "notify/webhook_service.h"

#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <stdexcept>

#include "core/ids.h"
#include "core/json_text.h"
#include "identity/authorization.h"
#include "notify/channel.h"
#include "notify/internal/webhook_queries.h"
#include "notify/webhook.h"
#include "storage/session.h"

namespace credence::notify {
namespace {

namespace json = boost::json;

Error WebhookNotFound() { return Error::NotFound("Webhook not found."); }

Webhook WebhookFromRow(const storage::Row& r) {
  Webhook w;
  w.id = r.Text(0);
  w.url = r.Text(1);
  w.description = r.Text(2);
  w.event_types = StringListFromJson(r.TextView(3));
  w.is_enabled = r.Bool(4);
  w.disabled_reason = r.OptText(5);
  w.previous_secret_until = r.OptInt(6);
  w.created_at = r.Int(7);
  w.updated_at = r.Int(8);
  return w;
}

// The fields given, checked; event types deduplicated in catalog order.
Status Validate(WebhookInput& in, bool creating, const outbound::Policy& policy) {
  std::vector<FieldError> errors;
  if (creating && !in.url) errors.push_back({"url", "is required"});
  if (in.url) {
    if (in.url->size() > kMaxWebhookUrlLength || !IsHttpUrl(*in.url))
      errors.push_back({"url", "must be an absolute http or https URL with a host, at most 2000 characters"});
  }
  if (creating && !in.event_types) errors.push_back({"eventTypes", "is required"});
  if (in.event_types) {
    if (in.event_types->empty()) errors.push_back({"eventTypes", "must name at least one event type"});
    for (size_t i = 0; i < in.event_types->size(); ++i)
      if (!IsWebhookEventType((*in.event_types)[i]))
        errors.push_back({"eventTypes[" + std::to_string(i) + "]", "unknown event type '" + (*in.event_types)[i] +
                                                                       "' (see the webhooks section of "
                                                                       "/openapi.json)"});
    std::vector<std::string> canonical;
    for (const auto& t : WebhookEventTypes())
      if (std::find(in.event_types->begin(), in.event_types->end(), t) != in.event_types->end()) canonical.push_back(t);
    if (errors.empty()) *in.event_types = std::move(canonical);
  }
  if (in.description && in.description->size() > kMaxWebhookDescriptionLength)
    errors.push_back({"description", "must be at most 500 characters"});
  if (!errors.empty()) return Error::Validation(std::move(errors));
  if (in.url) CR_TRY(outbound::CheckUrl(*in.url, policy, "url"));
  return Ok();
}

json::object AuditDetails(const Webhook& w) {
  json::array types;
  for (const auto& t : w.event_types) types.emplace_back(t);
  return {{"url", w.url}, {"eventTypes", std::move(types)}, {"isEnabled", w.is_enabled}};
}

std::string InsertWebhookDelivery(storage::TenantSession& tx, const std::string& webhook_id, std::string_view type,
                                  const std::string& body, const std::string& data_json, TimeMs now) {
  std::string id = NewId();
  tx.Run(internal::kInsertWebhookDelivery, {id, webhook_id, type, body, data_json, now});
  return id;
}

}  // namespace

Result<std::vector<Webhook>> WebhookService::List(const identity::Principal& caller) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  std::vector<Webhook> out;
  for (const auto& row : tenant.Run(internal::kListWebhooks)) out.push_back(WebhookFromRow(row));
  return out;
}

Result<Webhook> WebhookService::Get(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  const auto rows = tenant.Run(internal::kFindWebhook, {id});
  if (rows.empty()) return WebhookNotFound();
  return WebhookFromRow(rows.front());
}

Result<std::pair<Webhook, std::string>> WebhookService::Create(const identity::Principal& caller,
                                                               const WebhookInput& request) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  WebhookInput in = request;
  CR_TRY(Validate(in, true, outbound_));
  Webhook w;
  w.id = NewId();
  w.url = *in.url;
  w.description = in.description.value_or("");
  w.event_types = *in.event_types;
  w.is_enabled = in.is_enabled.value_or(true);
  w.created_at = w.updated_at = clock_.Now();
  std::string secret = NewWebhookSecret();

  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (tenant.Run(internal::kCountWebhooks).front().Int(0) >= static_cast<int64_t>(kMaxWebhooksPerTenant))
    return Error::Conflict("webhook_limit_reached", "A tenant may register at most 50 webhooks.");
  tenant.Run(internal::kInsertWebhook,
             {w.id, w.url, w.description, StringListToJson(w.event_types), w.is_enabled, secret, w.created_at});
  audit_.Record(tenant, identity::AuditOf(caller, "webhook.created", {"webhook", w.id}, AuditDetails(w)));
  session.Commit();
  return std::make_pair(std::move(w), std::move(secret));
}

Result<Webhook> WebhookService::Update(const identity::Principal& caller, const std::string& id,
                                       const WebhookInput& request) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  WebhookInput in = request;
  CR_TRY(Validate(in, false, outbound_));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  const auto rows = tenant.Run(internal::kFindWebhook, {id});
  if (rows.empty()) return WebhookNotFound();
  Webhook w = WebhookFromRow(rows.front());
  const bool enabling = in.is_enabled.value_or(false);
  if (in.url) w.url = *in.url;
  if (in.description) w.description = *in.description;
  if (in.event_types) w.event_types = *in.event_types;
  if (in.is_enabled) w.is_enabled = *in.is_enabled;
  w.updated_at = clock_.Now();
  tenant.Run(internal::kUpdateWebhook,
             {w.id, w.url, w.description, StringListToJson(w.event_types), w.is_enabled, w.updated_at});
  if (enabling) {
    tenant.Run(internal::kClearWebhookFailure, {w.id});
    w.disabled_reason.reset();
  }
  audit_.Record(tenant, identity::AuditOf(caller, "webhook.updated", {"webhook", w.id}, AuditDetails(w)));
  session.Commit();
  return w;
}

Status WebhookService::Delete(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (tenant.Run(internal::kFindWebhook, {id}).empty()) return WebhookNotFound();
  tenant.Run(internal::kDeleteWebhookDeliveries, {id});
  tenant.Run(internal::kDeleteWebhook, {id});
  audit_.Record(tenant, identity::AuditOf(caller, "webhook.deleted", {"webhook", id}));
  session.Commit();
  return Ok();
}

Result<std::pair<Webhook, std::string>> WebhookService::RotateSecret(const identity::Principal& caller,
                                                                     const std::string& id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  const auto rows = tenant.Run(internal::kFindWebhook, {id});
  if (rows.empty()) return WebhookNotFound();
  Webhook w = WebhookFromRow(rows.front());
  const TimeMs now = clock_.Now();
  std::string secret = NewWebhookSecret();
  w.previous_secret_until = now + kWebhookSecretGraceMs;
  w.updated_at = now;
  tenant.Run(internal::kRotateWebhookSecret, {id, secret, *w.previous_secret_until, now});
  audit_.Record(tenant, identity::AuditOf(caller, "webhook.secret_rotated", {"webhook", id},
                                          {{"previousSecretUntil", FormatTimestamp(*w.previous_secret_until)}}));
  session.Commit();
  return std::make_pair(std::move(w), std::move(secret));
}

Result<std::string> WebhookService::SendTest(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (tenant.Run(internal::kFindWebhook, {id}).empty()) return WebhookNotFound();
  const TimeMs now = clock_.Now();
  const std::string data = json::serialize(json::object{{"webhookId", id}, {"requestedBy", caller.user_id}});
  std::string delivery =
      InsertWebhookDelivery(tenant, id, kWebhookTestEvent, WebhookPayload(kWebhookTestEvent, now, data), data, now);
  audit_.Record(tenant, identity::AuditOf(caller, "webhook.tested", {"webhook", id}, {{"deliveryId", delivery}}));
  session.Commit();
  return delivery;
}

Result<std::vector<WebhookDelivery>> WebhookService::Deliveries(const identity::Principal& caller,
                                                                const std::string& id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (tenant.Run(internal::kFindWebhook, {id}).empty()) return WebhookNotFound();
  std::vector<WebhookDelivery> out;
  for (const auto& r : tenant.Run(internal::kListWebhookDeliveries, {id})) {
    WebhookDelivery d;
    d.id = r.Text(0);
    d.event = r.Text(1);
    d.status = r.Text(2);
    d.attempts = r.Int(3);
    d.response_code = r.OptInt(4);
    d.last_error = r.OptText(5);
    if (d.status == "pending") d.next_attempt_at = r.Int(6);
    d.created_at = r.Int(7);
    d.delivered_at = r.OptInt(8);
    out.push_back(std::move(d));
  }
  return out;
}

Result<std::string> WebhookService::Redeliver(const identity::Principal& caller, const std::string& id,
                                              const std::string& delivery_id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (tenant.Run(internal::kFindWebhook, {id}).empty()) return WebhookNotFound();
  const auto rows = tenant.Run(internal::kFindWebhookDelivery, {id, delivery_id});
  if (rows.empty()) return Error::NotFound("Delivery not found.");
  const auto r = rows.front();
  std::string delivery = InsertWebhookDelivery(tenant, id, r.Text(0), r.Text(1), r.Text(2), clock_.Now());
  audit_.Record(tenant, identity::AuditOf(caller, "webhook.redelivered", {"webhook", id},
                                          {{"deliveryId", delivery_id}, {"newDeliveryId", delivery}}));
  session.Commit();
  return delivery;
}

void WebhookService::Emit(storage::TenantSession& tx, std::string_view type, const json::object& data) const {
  EmitLazy(tx, type, [&data] { return data; });
}

bool WebhookService::Wants(storage::TenantSession& tx, std::string_view type) const {
  for (const auto& row : tx.Run(internal::kEnabledWebhooks)) {
    const auto types = StringListFromJson(row.TextView(1));
    if (std::find(types.begin(), types.end(), type) != types.end()) return true;
  }
  return false;
}

void WebhookService::EmitLazy(storage::TenantSession& tx, std::string_view type,
                              const std::function<json::object()>& data) const {
  if (!IsWebhookEventType(type)) throw std::invalid_argument("unknown webhook event type: " + std::string(type));
  const auto hooks = tx.Run(internal::kEnabledWebhooks);
  if (hooks.empty()) return;
  const TimeMs now = clock_.Now();
  std::string data_json;
  std::string body;
  for (const auto& row : hooks) {
    const auto types = StringListFromJson(row.TextView(1));
    if (std::find(types.begin(), types.end(), type) == types.end()) continue;
    if (body.empty()) {
      data_json = json::serialize(data());
      body = WebhookPayload(type, now, data_json);
    }
    InsertWebhookDelivery(tx, row.Text(0), type, body, data_json, now);
  }
}

}  // namespace credence::notify
