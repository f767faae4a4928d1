// Webhooks (/webhooks...; docs/webhooks.md) and the event catalog's
// payload schemas, which /openapi.json publishes in its `webhooks` section.
// Served once, at /webhooks: the platform document lists webhooks under one
// path only, so decisions.md 9 gives them no /api alias.
#include <stdexcept>

#include "core/ids.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/openapi.h"
#include "http/problem.h"
#include "http/router.h"
#include "notify/webhook.h"
#include "notify/webhook_service.h"

namespace credence::http {
namespace json = boost::json;

namespace {

Schema EventTypesSchema() { return Schema::Array(Schema::String().Enum(notify::WebhookEventTypes())); }

Schema WebhookSchema() {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required("url", Schema::String().Format("uri")),
      Required("description", Schema::String()),
      Required("eventTypes", EventTypesSchema()),
      Required("enabled", Schema::Boolean()),
      Required("disabledReason", Schema::String().Nullable().Describe(
                                     "why the outbox disabled the webhook (it failed for a day); null otherwise")),
      Required("previousSecretUntil",
               Schema::Timestamp().Nullable().Describe("after a rotation: until when the previous secret still "
                                                       "signs alongside the new one")),
      Required("createdAt", Schema::Timestamp()),
      Required("updatedAt", Schema::Timestamp()),
  });
}

Schema WebhookWithSecretSchema() {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required("url", Schema::String().Format("uri")),
      Required("description", Schema::String()),
      Required("eventTypes", EventTypesSchema()),
      Required("enabled", Schema::Boolean()),
      Required("disabledReason", Schema::String().Nullable()),
      Required("previousSecretUntil", Schema::Timestamp().Nullable()),
      Required("createdAt", Schema::Timestamp()),
      Required("updatedAt", Schema::Timestamp()),
      Required("secret", Schema::String().Describe("whsec_ + base64 of 24 random bytes; shown only in this answer")),
  });
}

json::object WebhookJson(const notify::Webhook& w) {
  return {{"id", w.id},
          {"url", w.url},
          {"description", w.description},
          {"eventTypes", ToJsonArray(w.event_types)},
          {"enabled", w.is_enabled},
          {"disabledReason", OptJson(w.disabled_reason)},
          {"previousSecretUntil", OptTime(w.previous_secret_until)},
          {"createdAt", FormatTimestamp(w.created_at)},
          {"updatedAt", FormatTimestamp(w.updated_at)}};
}

Schema DeliverySchema() {
  return Schema::Object({
      Required("id", Schema::Uuid().Describe("the webhook-id header; the same on every retry")),
      Required("eventType", Schema::String()),
      Required("status", Schema::String().Enum({"pending", "delivered", "dead"})),
      Required("attempts", Schema::Integer().Min(0)),
      Required("responseCode", Schema::Integer().Nullable().Describe("HTTP status of the last answered attempt")),
      Required("lastError", Schema::String().Nullable()),
      Required("nextAttemptAt", Schema::Timestamp().Nullable().Describe("pending deliveries only")),
      Required("createdAt", Schema::Timestamp()),
      Required("deliveredAt", Schema::Timestamp().Nullable()),
  });
}

json::object DeliveryJson(const notify::WebhookDelivery& d) {
  return {{"id", d.id},
          {"eventType", d.event},
          {"status", d.status},
          {"attempts", d.attempts},
          {"responseCode", d.response_code ? json::value(*d.response_code) : json::value(nullptr)},
          {"lastError", OptJson(d.last_error)},
          {"nextAttemptAt", OptTime(d.next_attempt_at)},
          {"createdAt", FormatTimestamp(d.created_at)},
          {"deliveredAt", OptTime(d.delivered_at)}};
}

notify::WebhookInput WebhookInputOf(const json::object& body) {
  notify::WebhookInput in;
  in.url = GetOptString(body, "url");
  if (body.contains("eventTypes")) in.event_types = GetStringArray(body, "eventTypes");
  in.description = GetOptString(body, "description");
  in.is_enabled = GetOptBool(body, "enabled");
  return in;
}

Schema Queued() {
  return Schema::Object(
      {Required("deliveryId", Schema::Uuid()), Required("status", Schema::String().Enum({"queued"}))});
}

// The data of each event type: ids and codes, never text or secrets.
Schema EventData(std::string_view type) {
  const auto entry = [](std::vector<Property> extra) {
    std::vector<Property> p = {Required("entryId", Schema::Uuid()), Required("hubId", Schema::Uuid())};
    for (auto& e : extra) p.push_back(std::move(e));
    return Schema::Object(std::move(p));
  };
  const auto actor = [] { return Optional("actorId", Schema::String().Describe("the user or key that acted")); };
  if (type == "entry.published") return entry({actor(), Required("status", Schema::String().Enum({"Published"}))});
  if (type == "entry.updated")
    return entry({actor(), Required("status", Schema::String().Enum({"Draft", "Published"}))});
  if (type == "entry.deleted") return entry({actor()});
  if (type == "entry.expiring")
    return entry({Required("status", Schema::String().Enum({"ExpiringSoon", "Warning"})),
                  Required("expiresAt", Schema::Timestamp())});
  if (type == "entry.expired") return entry({Required("expiresAt", Schema::Timestamp())});
  if (type == "entry.renewed") return entry({actor(), Required("expiresAt", Schema::Timestamp())});
  if (type == "review.submitted")
    return entry({actor(), Required("reviewId", Schema::Uuid()), Required("reviewType", Schema::String()),
                  Required("renewed", Schema::Boolean().Describe("the review renewed the entry's expiry"))});
  if (type == "translation.stale" || type == "translation.updated")
    return entry({Required("language", Schema::String().Describe("BCP 47 tag"))});
  if (type == "trust.decision.blocked")
    return Schema::Object({
        Required("decisionId", Schema::String()),
        Optional("appId", Schema::String().Nullable()),
        Required("sources", Schema::Array(Schema::Object({
                                              Required("sourceId", Schema::String()),
                                              Required("decision", Schema::String().Enum({"block", "escalate"})),
                                              Required("reasonCodes", Schema::Array(Schema::String())),
                                          }))
                                .Describe("the blocked or escalated sources only")),
    });
  if (type == "apikey.created" || type == "apikey.revoked")
    return Schema::Object({Required("keyId", Schema::String()), Optional("name", Schema::String()), actor()});
  if (type == "app.key.disabled")
    return Schema::Object({Required("appId", Schema::String()), Required("keyId", Schema::String()), actor()});
  if (type == "connector.sync.failed")
    return Schema::Object(
        {Required("connectorId", Schema::String()), Required("connectorKey", Schema::String()),
         Required("runId", Schema::String().Describe("GET /trust-admin/connectors/{id}/runs/{runId}")),
         Required("errorCode", Schema::String().Describe("sync_failed; the run holds the message"))});
  if (type == "scanning.secret.detected")
    return Schema::Object({
        Required("sourceKind", Schema::String().Enum({"entry", "connected"})),
        Required("sourceId", Schema::String().Describe("the entry id, or the connected document's id")),
        Required("detector", Schema::String().Describe("the detector that matched, e.g. aws_access_key")),
        Required("kind", Schema::String().Enum({"secret"})),
    });
  if (type == notify::kWebhookTestEvent)
    return Schema::Object({Required("webhookId", Schema::Uuid()), Required("requestedBy", Schema::String())});
  throw std::logic_error("webhook event type without a data schema: " + std::string(type));
}

}  // namespace

std::vector<WebhookDoc> WebhookEventDocs() {
  std::vector<WebhookDoc> out;
  auto add = [&](std::string_view type, std::string_view description) {
    out.push_back({std::string(type), std::string(description),
                   Schema::Object({
                       Required("type", Schema::String().Enum({std::string(type)})),
                       Required("timestamp", Schema::Timestamp().Describe("when the event happened")),
                       Required("data", EventData(type)),
                   })});
  };
  for (const auto& e : notify::WebhookCatalog()) add(e.type, e.description);
  add(notify::kWebhookTestEvent, "Sent by POST /webhooks/{id}/test only; cannot be subscribed to.");
  return out;
}

void AddWebhookRoutes(Router& router, const Services& s) {
  const notify::WebhookService& hooks = s.webhooks;

  static const Schema kCreate = Schema::Object({
      Required("url", Schema::String()
                          .Format("uri")
                          .MaxLength(static_cast<int64_t>(notify::kMaxWebhookUrlLength))
                          .Describe("http or https; literal private, loopback and metadata addresses are refused "
                                    "(400 url_not_allowed), host names are checked at delivery")),
      Required("eventTypes", EventTypesSchema().MinItems(1).Describe("one or more types of the catalog")),
      Optional("description", Schema::String().MaxLength(static_cast<int64_t>(notify::kMaxWebhookDescriptionLength))),
      Optional("enabled", Schema::Boolean().Describe("default true")),
  });
  static const Schema kUpdate = Schema::Object({
      Optional("url", Schema::String().Format("uri").MaxLength(static_cast<int64_t>(notify::kMaxWebhookUrlLength))),
      Optional("eventTypes", EventTypesSchema().MinItems(1)),
      Optional("description", Schema::String().MaxLength(static_cast<int64_t>(notify::kMaxWebhookDescriptionLength))),
      Optional("enabled", Schema::Boolean().Describe("true also clears a disabled webhook's failure state")),
  });
  const std::vector<std::pair<std::string, Schema>> id_param = {{"id", Schema::Uuid()}};

  router.Add({Method::kGet,
              "/webhooks",
              Auth::kTenantAdmin,
              "",
              [&hooks](RequestContext& ctx) {
                auto list = hooks.List(ctx.Caller());
                if (!list) return Problem(ctx, list.error());
                json::array out;
                for (const auto& w : *list) out.push_back(WebhookJson(w));
                return JsonResponse(200, out);
              },
              {.summary = "The tenant's webhooks, oldest first (global admin); never their secrets.",
               .tag = "webhooks",
               .response = Schema::Array(WebhookSchema())}});

  router.Add({Method::kPost,
              "/webhooks",
              Auth::kTenantAdmin,
              "",
              [&hooks](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kCreate);
                if (!body) return Problem(ctx, body.error());
                auto created = hooks.Create(ctx.Caller(), WebhookInputOf(*body));
                if (!created) return Problem(ctx, created.error());
                json::object out = WebhookJson(created->first);
                out["secret"] = created->second;
                return JsonResponse(201, out);
              },
              {.summary = "Register a webhook (global admin). The answer holds its signing secret, shown only "
                          "once. Deliveries are signed per Standard Webhooks (docs/webhooks.md).",
               .tag = "webhooks",
               .request = kCreate,
               .response = WebhookWithSecretSchema(),
               .success_status = 201,
               .errors = {409}}});

  router.Add({Method::kGet,
              "/webhooks/{id}",
              Auth::kTenantAdmin,
              "",
              [&hooks](RequestContext& ctx) {
                auto w = hooks.Get(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                if (!w) return Problem(ctx, w.error());
                return JsonResponse(200, WebhookJson(*w));
              },
              {.summary = "One webhook (global admin), without its secret.",
               .tag = "webhooks",
               .response = WebhookSchema(),
               .errors = {404},
               .path_params = id_param}});

  router.Add({Method::kPatch,
              "/webhooks/{id}",
              Auth::kTenantAdmin,
              "",
              [&hooks](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kUpdate);
                if (!body) return Problem(ctx, body.error());
                auto w = hooks.Update(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")), WebhookInputOf(*body));
                if (!w) return Problem(ctx, w.error());
                return JsonResponse(200, WebhookJson(*w));
              },
              {.summary = "Change a webhook's URL, event types, description or enabled state (global admin); "
                          "fields left out keep their value.",
               .tag = "webhooks",
               .request = kUpdate,
               .response = WebhookSchema(),
               .errors = {404},
               .path_params = id_param}});

  router.Add({Method::kDelete,
              "/webhooks/{id}",
              Auth::kTenantAdmin,
              "",
              [&hooks](RequestContext& ctx) {
                auto done = hooks.Delete(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                if (!done) return Problem(ctx, done.error());
                return NoContent();
              },
              {.summary = "Delete a webhook and its deliveries, sent or not (global admin).",
               .tag = "webhooks",
               .success_status = 204,
               .errors = {404},
               .path_params = id_param}});

  router.Add({Method::kPost,
              "/webhooks/{id}/rotate-secret",
              Auth::kTenantAdmin,
              "",
              [&hooks](RequestContext& ctx) {
                auto rotated = hooks.RotateSecret(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                if (!rotated) return Problem(ctx, rotated.error());
                json::object out = WebhookJson(rotated->first);
                out["secret"] = rotated->second;
                return JsonResponse(200, out);
              },
              {.summary = "Issue a new signing secret, shown once (global admin). For 24 hours every delivery "
                          "carries a signature with each secret (webhook-signature holds both), so receivers "
                          "can switch without losing a delivery.",
               .tag = "webhooks",
               .response = WebhookWithSecretSchema(),
               .errors = {404},
               .path_params = id_param}});

  router.Add({Method::kPost,
              "/webhooks/{id}/test",
              Auth::kTenantAdmin,
              "",
              [&hooks](RequestContext& ctx) {
                auto id = hooks.SendTest(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                if (!id) return Problem(ctx, id.error());
                return JsonResponse(202, json::object{{"deliveryId", *id}, {"status", "queued"}});
              },
              {.summary = "Queue a webhook.test event to this webhook, enabled or not (global admin). The outbox "
                          "sends it; see .../deliveries for the outcome.",
               .tag = "webhooks",
               .response = Queued(),
               .success_status = 202,
               .errors = {404},
               .path_params = id_param}});

  router.Add({Method::kGet,
              "/webhooks/{id}/deliveries",
              Auth::kTenantAdmin,
              "",
              [&hooks](RequestContext& ctx) {
                auto list = hooks.Deliveries(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                if (!list) return Problem(ctx, list.error());
                json::array out;
                for (const auto& d : *list) out.push_back(DeliveryJson(d));
                return JsonResponse(200, out);
              },
              {.summary = "The webhook's newest 50 deliveries, newest first (global admin): status, attempts, "
                          "the last response code and error, the next attempt.",
               .tag = "webhooks",
               .response = Schema::Array(DeliverySchema()),
               .errors = {404},
               .path_params = id_param}});

  router.Add({Method::kPost,
              "/webhooks/{id}/deliveries/{deliveryId}/redeliver",
              Auth::kTenantAdmin,
              "",
              [&hooks](RequestContext& ctx) {
                auto id = hooks.Redeliver(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")),
                                          CanonicalUuid(ctx.PathParam("deliveryId")));
                if (!id) return Problem(ctx, id.error());
                return JsonResponse(202, json::object{{"deliveryId", *id}, {"status", "queued"}});
              },
              {.summary = "Queue one delivery's body again, as a new delivery with a new webhook-id (global "
                          "admin).",
               .tag = "webhooks",
               .response = Queued(),
               .success_status = 202,
               .errors = {404},
               .path_params = {{"id", Schema::Uuid()}, {"deliveryId", Schema::Uuid()}}}});
}

}  // namespace credence::http
