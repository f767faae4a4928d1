// Notification channels (/api/notification-channels, and the platform's
// /notification-channels, served by the same handlers; docs/notifications.md).
#include "core/ids.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"
#include "notify/channel_service.h"

namespace credence::http {
namespace json = boost::json;

namespace {


json::object ConfigJson(const notify::Channel& c) {
  if (c.summary) {
    if (c.type == notify::kTypeEmail)
      return {{"recipientCount", c.summary->recipient_count}, {"notifyOwners", c.summary->notify_owners}};
    if (c.type == notify::kTypeWebhook) return {{"host", c.summary->host}, {"signed", c.summary->is_signed}};
    return {{"host", c.summary->host}};
  }
  if (c.type == notify::kTypeEmail)
    return {{"recipients", ToJsonArray(c.config.recipients)}, {"notifyOwners", c.config.notify_owners}};
  if (c.type == notify::kTypeWebhook)
    return {{"url", c.config.url}, {"secret", c.config.secret ? json::value(*c.config.secret) : json::value(nullptr)}};
  return {{"webhookUrl", c.config.url}};
}

json::object ChannelJson(const notify::Channel& c) {
  return {{"id", c.id},
          {"name", c.name},
          {"type", c.type},
          {"isEnabled", c.is_enabled},
          {"events", ToJsonArray(c.events)},
          {"config", ConfigJson(c)},
          {"createdAt", FormatTimestamp(c.created_at)},
          {"updatedAt", FormatTimestamp(c.updated_at)}};
}

Schema EventsSchema() { return Schema::Array(Schema::String().Enum(notify::ChannelEvents())); }

Schema ChannelSchema() {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required("name", Schema::String()),
      Required("type", Schema::String().Enum(notify::ChannelTypes())),
      Required("isEnabled", Schema::Boolean()),
      Required("events", EventsSchema()),
      Required(
          "config",
          Schema::Object(
              {
                  Optional("recipients",
                           Schema::Array(Schema::String().Format("email")).Describe("email; global admins only")),
                  Optional("notifyOwners", Schema::Boolean().Describe("email")),
                  Optional("webhookUrl", Schema::String().Format("uri").Describe("slack, teams; global admins only")),
                  Optional("url", Schema::String().Format("uri").Describe("webhook; global admins only")),
                  Optional("secret", Schema::String().Nullable().Describe("webhook; global admins only")),
                  Optional("recipientCount", Schema::Integer().Min(0).Describe("email; instead of recipients for "
                                                                               "callers who are not global admins")),
                  Optional("host", Schema::String().Describe("slack, teams, webhook; the URL's host name instead of "
                                                             "the URL for callers who are not global admins")),
                  Optional("signed", Schema::Boolean().Describe("webhook; whether a secret is set, instead of the "
                                                                "secret for callers who are not global admins")),
              })
              .Describe("by type (docs/notifications.md); URLs and secrets are credentials, shown to global "
                        "admins only")),
      Required("createdAt", Schema::Timestamp()),
      Required("updatedAt", Schema::Timestamp()),
  });
}

Schema StatsSchema() {
  return Schema::Object({
      Required("successCount", Schema::Integer().Min(0)),
      Required("failureCount", Schema::Integer().Min(0).Describe("failed attempts, retries included")),
      Required("lastUsedAt", Schema::Timestamp().Nullable().Describe("the last attempt; null until the first")),
      Required("pendingCount", Schema::Integer().Min(0).Describe("deliveries queued or waiting for a retry")),
  });
}

Schema DeliverySchema() {
  return Schema::Object({
      Required("id", Schema::Uuid().Describe("also sent as X-Credence-Delivery (webhooks) and in the email's "
                                             "Message-ID")),
      Required("event", Schema::String()),
      Required("status", Schema::String().Enum({"pending", "delivered", "dead"})),
      Required("attempts", Schema::Integer().Min(0)),
      Required("lastError", Schema::String().Nullable()),
      Required("nextAttemptAt", Schema::Timestamp().Nullable().Describe("pending deliveries only")),
      Required("createdAt", Schema::Timestamp()),
      Required("deliveredAt", Schema::Timestamp().Nullable()),
  });
}

json::object DeliveryJson(const notify::DeliveryRecord& d) {
  return {{"id", d.id},
          {"event", d.event},
          {"status", d.status},
          {"attempts", d.attempts},
          {"lastError", d.last_error ? json::value(*d.last_error) : json::value(nullptr)},
          {"nextAttemptAt", OptTime(d.next_attempt_at)},
          {"createdAt", FormatTimestamp(d.created_at)},
          {"deliveredAt", OptTime(d.delivered_at)}};
}

notify::ChannelInput ChannelInputOf(const json::object& body) {
  notify::ChannelInput in;
  in.name = GetString(body, "name");
  in.type = GetString(body, "type");
  in.is_enabled = GetBool(body, "isEnabled", true);
  if (const auto* events = body.if_contains("events"); events && events->is_array())
    in.events = GetStringArray(body, "events");
  if (const auto* config = body.if_contains("config"); config && config->is_object()) {
    const auto& c = config->get_object();
    in.config.recipients = GetStringArray(c, "recipients");
    in.config.notify_owners = GetBool(c, "notifyOwners", false);
    in.config.url = GetString(c, in.type == notify::kTypeWebhook ? "url" : "webhookUrl");
    in.config.secret = GetOptString(c, "secret");
  }
  return in;
}

}  // namespace

void AddChannelRoutes(Router& router, const Services& s) {
  const notify::ChannelService& channels = s.channels;

  static const Schema kChannelRequest = Schema::Object({
      Required("name", Schema::String()
                           .MinLength(1)
                           .MaxLength(static_cast<int64_t>(notify::kMaxChannelNameLength))
                           .Describe("unique in the tenant, ignoring case; surrounding blanks are trimmed")),
      Required("type", Schema::String().Enum(notify::ChannelTypes())),
      Optional("isEnabled", Schema::Boolean().Describe("default true; a disabled channel gets no events (test sends "
                                                       "still go)")),
      Optional("events", EventsSchema().MinItems(1).Describe("the events the channel receives; default all")),
      Required("config",
               Schema::Object(
                   {
                       Optional("recipients", Schema::Array(Schema::String().Format("email"))
                                                  .MinItems(1)
                                                  .MaxItems(static_cast<int64_t>(notify::kMaxRecipients))
                                                  .Describe("email: required")),
                       Optional("notifyOwners", Schema::Boolean().Describe(
                                                    "email: also send to the owners of the entry the event is about; "
                                                    "default false")),
                       Optional("webhookUrl", Schema::String()
                                                  .Format("uri")
                                                  .MaxLength(static_cast<int64_t>(notify::kMaxUrlLength))
                                                  .Describe("slack, teams: required; the incoming-webhook URL")),
                       Optional("url", Schema::String()
                                           .Format("uri")
                                           .MaxLength(static_cast<int64_t>(notify::kMaxUrlLength))
                                           .Describe("webhook: required")),
                       Optional("secret", Schema::String()
                                              .MinLength(static_cast<int64_t>(notify::kMinSecretLength))
                                              .MaxLength(static_cast<int64_t>(notify::kMaxSecretLength))
                                              .Nullable()
                                              .Describe("webhook: signs each body (X-Credence-Signature: sha256=<hex "
                                                        "HMAC-SHA256>)")),
                   })
                   .Describe("fields by type; the others are ignored")),
  });

  const std::string base = "/api/notification-channels";
  const std::string alias = "/notification-channels";

  router.Add(
      Aliased({alias}, {Method::kGet,
                        base,
                        Auth::kUser,
                        "",
                        [&channels](RequestContext& ctx) {
                          auto list = channels.List(ctx.Caller());
                          if (!list) return Problem(ctx, list.error());
                          json::array out;
                          for (const auto& c : *list) out.push_back(ChannelJson(c));
                          return JsonResponse(200, out);
                        },
                        {.summary = "Notification channels of the tenant, by name ignoring case. Callers who are not "
                                    "global admins get each configuration without its credentials.",
                         .tag = "notification-channels",
                         .response = Schema::Array(ChannelSchema())}}));
  router.Add(Aliased(
      {alias}, {Method::kPost,
                base,
                Auth::kTenantAdmin,
                "",
                [&channels](RequestContext& ctx) {
                  auto body = ParseBody(ctx.request, kChannelRequest);
                  if (!body) return Problem(ctx, body.error());
                  auto c = channels.Create(ctx.Caller(), ChannelInputOf(*body));
                  if (!c) return Problem(ctx, c.error());
                  return JsonResponse(201, ChannelJson(*c));
                },
                {.summary = "Create a notification channel (global admin). 409 channel_name_taken when the tenant "
                            "has a channel of that name, ignoring case.",
                 .tag = "notification-channels",
                 .request = kChannelRequest,
                 .response = ChannelSchema(),
                 .success_status = 201,
                 .errors = {409}}}));
  router.Add(
      Aliased({alias + "/{id}"}, {Method::kGet,
                                  base + "/{id}",
                                  Auth::kUser,
                                  "",
                                  [&channels](RequestContext& ctx) {
                                    auto c = channels.Get(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                                    if (!c) return Problem(ctx, c.error());
                                    return JsonResponse(200, ChannelJson(*c));
                                  },
                                  {.summary = "One notification channel; its credentials for global admins only.",
                                   .tag = "notification-channels",
                                   .response = ChannelSchema(),
                                   .errors = {404},
                                   .path_params = {{"id", Schema::Uuid()}}}}));
  router.Add(Aliased({alias + "/{id}"},
                     {Method::kPut,
                      base + "/{id}",
                      Auth::kTenantAdmin,
                      "",
                      [&channels](RequestContext& ctx) {
                        auto body = ParseBody(ctx.request, kChannelRequest);
                        if (!body) return Problem(ctx, body.error());
                        auto c =
                            channels.Update(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")), ChannelInputOf(*body));
                        if (!c) return Problem(ctx, c.error());
                        return JsonResponse(200, ChannelJson(*c));
                      },
                      {.summary = "Replace a notification channel (global admin); optional fields left out take their "
                                  "defaults (a webhook secret left out is removed). Queued deliveries go to the new "
                                  "configuration.",
                       .tag = "notification-channels",
                       .request = kChannelRequest,
                       .response = ChannelSchema(),
                       .errors = {404, 409},
                       .path_params = {{"id", Schema::Uuid()}}}}));
  router.Add(Aliased({alias + "/{id}"},
                     {Method::kDelete,
                      base + "/{id}",
                      Auth::kUser,
                      "",
                      [&channels](RequestContext& ctx) {
                        auto done = channels.Delete(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                        if (!done) return Problem(ctx, done.error());
                        return NoContent();
                      },
                      {.summary = "Delete a notification channel and its deliveries, sent or not (global admin).",
                       .tag = "notification-channels",
                       .success_status = 204,
                       .errors = {404},
                       .path_params = {{"id", Schema::Uuid()}}}}));
  router.Add(Aliased({alias + "/{id}/test"},
                     {Method::kPost,
                      base + "/{id}/test",
                      Auth::kUser,
                      "",
                      [&channels](RequestContext& ctx) {
                        auto id = channels.SendTest(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                        if (!id) return Problem(ctx, id.error());
                        return JsonResponse(202, json::object{{"deliveryId", *id}, {"status", "queued"}});
                      },
                      {.summary = "Queue a test message (event channel.test) to this channel only, also when it is "
                                  "disabled (global admin). Sent by the outbox like any delivery: the answer does not "
                                  "wait for the receiver; see .../deliveries and .../stats for the outcome.",
                       .tag = "notification-channels",
                       .response = Schema::Object({
                           Required("deliveryId", Schema::Uuid()),
                           Required("status", Schema::String().Enum({"queued"})),
                       }),
                       .success_status = 202,
                       .errors = {404},
                       .path_params = {{"id", Schema::Uuid()}}}}));
  router.Add(Aliased({alias + "/{id}/stats"},
                     {Method::kGet,
                      base + "/{id}/stats",
                      Auth::kUser,
                      "",
                      [&channels](RequestContext& ctx) {
                        auto st = channels.Stats(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                        if (!st) return Problem(ctx, st.error());
                        return JsonResponse(200, json::object{{"successCount", st->success_count},
                                                              {"failureCount", st->failure_count},
                                                              {"lastUsedAt", OptTime(st->last_used_at)},
                                                              {"pendingCount", st->pending_count}});
                      },
                      {.summary = "Delivery statistics of the channel: successful and failed attempts, the last "
                                  "attempt, deliveries still pending.",
                       .tag = "notification-channels",
                       .response = StatsSchema(),
                       .errors = {404},
                       .path_params = {{"id", Schema::Uuid()}}}}));
  router.Add(Aliased({alias + "/{id}/deliveries"},
                     {Method::kGet,
                      base + "/{id}/deliveries",
                      Auth::kUser,
                      "",
                      [&channels](RequestContext& ctx) {
                        auto list = channels.Deliveries(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                        if (!list) return Problem(ctx, list.error());
                        json::array out;
                        for (const auto& d : *list) out.push_back(DeliveryJson(d));
                        return JsonResponse(200, out);
                      },
                      {.summary = "The channel's newest 50 deliveries, newest first (global admin): status, attempts, "
                                  "the last error and the next attempt.",
                       .tag = "notification-channels",
                       .response = Schema::Array(DeliverySchema()),
                       .errors = {404},
                       .path_params = {{"id", Schema::Uuid()}}}}));
}

}  // namespace credence::http
