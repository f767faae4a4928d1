#include "notify/channel_service.h"

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include "core/ids.h"
#include "core/json_text.h"
#include "core/text.h"
#include "identity/authorization.h"
#include "notify/internal/outbox_store.h"
#include "notify/internal/queries.h"
#include "notify/outbox.h"
#include "storage/session.h"

namespace credence::notify {
namespace {

namespace json = boost::json;

Error ChannelNotFound() { return Error::NotFound("Notification channel not found."); }

Error NameTaken(const std::string& name) {
  return Error::Conflict("channel_name_taken",
                         "A notification channel named '" + name + "' already exists in this tenant.");
}

// Columns of kListChannels and kFindChannel. Only global admins see the
// configuration; everyone else gets its summary.
Channel ChannelFromRow(const storage::Row& r, const identity::Principal& caller) {
  Channel c;
  c.id = r.Text(0);
  c.name = r.Text(1);
  c.type = r.Text(2);
  c.is_enabled = r.Bool(3);
  c.events = StringListFromJson(r.TextView(4));
  c.config = ConfigFromJson(c.type, r.TextView(5));
  c.created_at = r.Int(6);
  c.updated_at = r.Int(7);
  if (!caller.is_global_admin()) {
    c.summary = Summarize(c.type, c.config);
    c.config = {};
  }
  return c;
}

// Inserts or updates (by `statement`, which takes the same parameters) a
// channel. Checked for the name first, because on PostgreSQL a failed
// statement aborts the transaction; the unique index is the last word when
// two admins race.
Status WriteChannel(storage::TenantSession& tenant, const storage::TenantQuery& statement, const Channel& c,
                    TimeMs at) {
  const std::string key = NameKey(c.name);
  if (!tenant.Run(internal::kFindOtherChannelByNameKey, {key, c.id}).empty()) return NameTaken(c.name);
  try {
    tenant.Run(statement, {c.id, c.name, key, c.type, c.is_enabled, StringListToJson(c.events),
                           ConfigToJson(c.type, c.config), at});
  } catch (const storage::StorageError& e) {
    if (e.kind() == storage::StorageError::Kind::kUniqueViolation) return NameTaken(c.name);
    throw;
  }
  return Ok();
}

}  // namespace

Result<std::vector<Channel>> ChannelService::List(const identity::Principal& caller) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  std::vector<Channel> out;
  for (const auto& row : tenant.Run(internal::kListChannels)) out.push_back(ChannelFromRow(row, caller));
  return out;
}

Result<Channel> ChannelService::Get(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  const auto rows = tenant.Run(internal::kFindChannel, {id});
  if (rows.empty()) return ChannelNotFound();
  return ChannelFromRow(rows.front(), caller);
}

namespace {

// A channel that calls a URL: its URL may not point where the policy
// forbids (a literal address is checked now, a host name at delivery).
Status CheckOutboundUrl(const ChannelInput& input, const outbound::Policy& policy) {
  if (input.type == kTypeEmail) return Ok();
  return outbound::CheckUrl(input.config.url, policy, input.type == kTypeWebhook ? "config.url" : "config.webhookUrl");
}

}  // namespace

Result<Channel> ChannelService::Create(const identity::Principal& caller, const ChannelInput& request) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  ChannelInput input = request;
  CR_TRY(ValidateChannelInput(input));
  CR_TRY(CheckOutboundUrl(input, outbound_));
  Channel c;
  c.id = NewId();
  c.name = input.name;
  c.type = input.type;
  c.is_enabled = input.is_enabled;
  c.events = *input.events;
  c.config = input.config;
  c.created_at = c.updated_at = clock_.Now();

  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  CR_TRY(WriteChannel(tenant, internal::kInsertChannel, c, c.created_at));
  session.Commit();
  return c;
}

Result<Channel> ChannelService::Update(const identity::Principal& caller, const std::string& id,
                                       const ChannelInput& request) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  ChannelInput input = request;
  CR_TRY(ValidateChannelInput(input));
  CR_TRY(CheckOutboundUrl(input, outbound_));

  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  const auto rows = tenant.Run(internal::kFindChannel, {id});
  if (rows.empty()) return ChannelNotFound();
  Channel c = ChannelFromRow(rows.front(), caller);
  c.name = input.name;
  c.type = input.type;
  c.is_enabled = input.is_enabled;
  c.events = *input.events;
  c.config = input.config;
  c.updated_at = clock_.Now();
  CR_TRY(WriteChannel(tenant, internal::kUpdateChannel, c, c.updated_at));
  session.Commit();
  return c;
}

Status ChannelService::Delete(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (tenant.Run(internal::kFindChannel, {id}).empty()) return ChannelNotFound();
  tenant.Run(internal::kDeleteChannelDeliveries, {id});
  tenant.Run(internal::kDeleteChannel, {id});
  session.Commit();
  return Ok();
}

Result<ChannelStats> ChannelService::Stats(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  const auto rows = tenant.Run(internal::kChannelStats, {id});
  if (rows.empty()) return ChannelNotFound();
  const auto r = rows.front();
  return ChannelStats{r.Int(0), r.Int(1), r.OptInt(2), r.Int(3)};
}

Result<std::string> ChannelService::SendTest(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  const auto rows = tenant.Run(internal::kFindChannel, {id});
  if (rows.empty()) return ChannelNotFound();
  const Channel c = ChannelFromRow(rows.front(), caller);
  OutboundMessage m;
  m.event = std::string(kEventChannelTest);
  m.subject = "Credence test notification: " + c.name;
  m.text = "This is a test message for the notification channel '" + c.name + "' (" + c.type +
           ").\nIf you can read it, the channel works.";
  m.data_json = json::serialize(json::object{
      {"channelId", c.id}, {"channelName", c.name}, {"channelType", c.type}, {"requestedBy", caller.user_id}});
  std::string delivery_id = internal::InsertDelivery(tenant, c.id, m, {}, clock_.Now());
  session.Commit();
  return delivery_id;
}

Result<std::vector<DeliveryRecord>> ChannelService::Deliveries(const identity::Principal& caller,
                                                               const std::string& id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (tenant.Run(internal::kFindChannel, {id}).empty()) return ChannelNotFound();
  std::vector<DeliveryRecord> out;
  for (const auto& r : tenant.Run(internal::kListDeliveries, {id})) {
    DeliveryRecord d;
    d.id = r.Text(0);
    d.event = r.Text(1);
    d.status = r.Text(2);
    d.attempts = r.Int(3);
    d.last_error = r.OptText(4);
    if (d.status == "pending") d.next_attempt_at = r.Int(5);
    d.created_at = r.Int(6);
    d.delivered_at = r.OptInt(7);
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace credence::notify
