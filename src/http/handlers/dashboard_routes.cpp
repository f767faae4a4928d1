// Expiry dashboards (/api/expiry-dashboard/...) and the signed-in user's
// expiry notifications (/api/notifications/...). docs/lifecycle.md.
#include "core/ids.h"
#include "http/handlers/lifecycle_json.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"
#include "lifecycle/dashboard_service.h"
#include "lifecycle/notification_service.h"

namespace credence::http {
namespace json = boost::json;

namespace {

json::object CountsJson(const lifecycle::StatusCounts& c) {
  return {{"total", c.total},          {"draft", c.draft},     {"published", c.published},
          {"expiringSoon", c.expiring_soon}, {"warning", c.warning}, {"expired", c.expired},
          {"paused", c.paused}};
}

Schema CountsSchema() {
  return Schema::Object({
      Required("total", Schema::Integer().Min(0)),
      Required("draft", Schema::Integer().Min(0)),
      Required("published", Schema::Integer().Min(0)),
      Required("expiringSoon", Schema::Integer().Min(0)),
      Required("warning", Schema::Integer().Min(0)),
      Required("expired", Schema::Integer().Min(0)),
      Required("paused", Schema::Integer().Min(0).Describe("also counted under their (frozen) status")),
  });
}

json::object RowJson(const lifecycle::EntryExpiryRow& r) {
  json::object out = ExpiryStatusJson(r.status);
  out["entryId"] = r.entry_id;
  out["title"] = r.title;
  out["key"] = r.key;
  out["hubId"] = r.hub_id;
  out["hubKey"] = r.hub_key;
  out["ownerId"] = r.owner_id;
  return out;
}

Schema RowSchema() {
  return Schema::Object({
      Required("entryId", Schema::Uuid()),
      Required("title", Schema::String()),
      Required("key", Schema::String()),
      Required("hubId", Schema::Uuid()),
      Required("hubKey", Schema::String()),
      Required("ownerId", Schema::Uuid()),
      Required("expiryDate", Schema::Timestamp()),
      Required("daysUntilExpiry", Schema::Integer()),
      Required("isInWarningPeriod", Schema::Boolean()),
      Required("isPaused", Schema::Boolean()),
      Required("status", Schema::String().Enum({"Draft", "Published", "ExpiringSoon", "Warning", "Expired"})),
  });
}

json::array RowsJson(const std::vector<lifecycle::EntryExpiryRow>& rows) {
  json::array out;
  for (const auto& r : rows) out.push_back(RowJson(r));
  return out;
}

json::object NotificationJson(const lifecycle::ExpiryNotification& n) {
  return {{"id", n.id},
          {"entryId", n.entry_id},
          {"entryTitle", n.entry_title},
          {"hubKey", n.hub_key},
          {"kind", n.kind},
          {"expiryDate", FormatTimestamp(n.expiry_at)},
          {"createdAt", FormatTimestamp(n.created_at)},
          {"isAcknowledged", n.acknowledged_at.has_value()},
          {"acknowledgedAt", n.acknowledged_at ? json::value(FormatTimestamp(*n.acknowledged_at)) : nullptr}};
}

Schema NotificationSchema() {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required("entryId", Schema::Uuid()),
      Required("entryTitle", Schema::String()),
      Required("hubKey", Schema::String()),
      Required("kind", Schema::String()
                           .Enum({"ExpiringSoon", "Warning", "Expired"})
                           .Describe("the status the entry entered")),
      Required("expiryDate", Schema::Timestamp().Describe("the entry's expiry date at that time")),
      Required("createdAt", Schema::Timestamp()),
      Required("isAcknowledged", Schema::Boolean()),
      Required("acknowledgedAt", Schema::Timestamp().Nullable()),
  });
}

}  // namespace

void AddDashboardRoutes(Router& router, const Services& s) {
  const lifecycle::DashboardService& dashboards = s.dashboards;
  const lifecycle::NotificationService& notifications = s.notifications;

  router.Add({Method::kGet, "/api/expiry-dashboard/me", Auth::kUser, "",
              [&dashboards](RequestContext& ctx) {
                auto d = dashboards.Me(ctx.Caller());
                if (!d) return Problem(ctx, d.error());
                return JsonResponse(200, {{"counts", CountsJson(d->counts)}, {"upcoming", RowsJson(d->upcoming)}});
              },
              {.summary = "Expiry counts of the entries the signed-in user owns, and their upcoming deadlines "
                          "(published, not yet expired, soonest first, at most 20).",
               .tag = "expiry-dashboard",
               .response = Schema::Object({Required("counts", CountsSchema()),
                                           Required("upcoming", Schema::Array(RowSchema()))})}});

  router.Add({Method::kGet, "/api/expiry-dashboard/summary", Auth::kUser, "",
              [&dashboards](RequestContext& ctx) {
                auto d = dashboards.Summary(ctx.Caller());
                if (!d) return Problem(ctx, d.error());
                json::array hubs;
                for (const auto& h : d->hubs)
                  hubs.push_back(json::object{{"hubId", h.hub_id},
                                              {"hubKey", h.hub_key},
                                              {"hubName", h.hub_name},
                                              {"counts", CountsJson(h.counts)}});
                return JsonResponse(200, {{"totals", CountsJson(d->totals)}, {"hubs", std::move(hubs)}});
              },
              {.summary = "Per-hub expiry counts across the tenant, over the hubs and entries the caller may view.",
               .tag = "expiry-dashboard",
               .response = Schema::Object({Required("totals", CountsSchema()),
                                           Required("hubs", Schema::Array(Schema::Object({
                                                                Required("hubId", Schema::Uuid()),
                                                                Required("hubKey", Schema::String()),
                                                                Required("hubName", Schema::String()),
                                                                Required("counts", CountsSchema()),
                                                            })))})}});

  router.Add({Method::kGet, "/api/expiry-dashboard/hubs/{hubKey}/entries", Auth::kUser, "",
              [&dashboards](RequestContext& ctx) {
                auto rows = dashboards.HubEntries(ctx.Caller(), ctx.PathParam("hubKey"));
                if (!rows) return Problem(ctx, rows.error());
                return JsonResponse(200, RowsJson(*rows));
              },
              {.summary = "The expiry status of every entry of the hub the caller may view (hub Viewer+), soonest "
                          "expiry date first.",
               .tag = "expiry-dashboard",
               .response = Schema::Array(RowSchema()),
               .errors = {404}}});

  router.Add({Method::kGet, "/api/notifications/expiry-warnings", Auth::kUser, "",
              [&notifications](RequestContext& ctx) {
                auto list = notifications.ExpiryWarnings(ctx.Caller());
                if (!list) return Problem(ctx, list.error());
                json::array out;
                for (const auto& n : *list) out.push_back(NotificationJson(n));
                return JsonResponse(200, out);
              },
              {.summary = "The signed-in user's unacknowledged expiry notifications, newest first (at most 200): "
                          "one each time an entry they own entered ExpiringSoon, Warning or Expired.",
               .tag = "notifications",
               .response = Schema::Array(NotificationSchema())}});

  router.Add({Method::kPost, "/api/notifications/acknowledge-all", Auth::kUser, "",
              [&notifications](RequestContext& ctx) {
                auto n = notifications.AcknowledgeAll(ctx.Caller());
                if (!n) return Problem(ctx, n.error());
                return JsonResponse(200, json::object{{"acknowledged", *n}});
              },
              {.summary = "Acknowledge every unacknowledged notification of the caller at once; answers how many.",
               .tag = "notifications",
               .response = Schema::Object({Required("acknowledged", Schema::Integer().Min(0))})}});

  router.Add({Method::kPost, "/api/notifications/{id}/acknowledge", Auth::kUser, "",
              [&notifications](RequestContext& ctx) {
                auto n = notifications.Acknowledge(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                if (!n) return Problem(ctx, n.error());
                return JsonResponse(200, NotificationJson(*n));
              },
              {.summary = "Acknowledge one of the caller's notifications (404 for anyone else's); it leaves the "
                          "expiry-warnings list. Acknowledging again changes nothing.",
               .tag = "notifications",
               .response = NotificationSchema(),
               .errors = {404},
               .path_params = {{"id", Schema::Uuid()}}}});
}

}  // namespace credence::http
