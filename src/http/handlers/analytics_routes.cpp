// Reading analytics of entries (/api/analytics/..., docs/analytics.md):
// summaries, raw events, time-spent reports, inactive entries, and the
// tenant's raw-event retention.
#include <string>

#include "analytics/analytics_service.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"

namespace credence::http {
namespace json = boost::json;

namespace {

// A non-negative integer query parameter from `min` to `max`; absent or
// empty: `fallback`.
Result<int> IntParam(const RequestContext& ctx, const char* name, int fallback, int min, int max) {
  auto text = ctx.request.QueryParam(name);
  if (!text || text->empty()) return fallback;
  const std::string message = "must be an integer from " + std::to_string(min) + " to " + std::to_string(max);
  int64_t value = 0;
  for (char c : *text) {
    if (c < '0' || c > '9' || value > max) return Error::Validation({{name, message}});
    value = value * 10 + (c - '0');
  }
  if (value < min || value > max) return Error::Validation({{name, message}});
  return static_cast<int>(value);
}

const std::vector<std::pair<std::string, Schema>>& EntryIdParam() {
  static const std::vector<std::pair<std::string, Schema>> kParams = {{"id", Schema::Uuid()}};
  return kParams;
}

Schema EventTypeSchema() { return Schema::String().Enum({"DocumentRead", "DocumentEdited", "TimeSpent"}); }

Schema AnalyticsSummarySchema() {
  return Schema::Object({
      Required("entryId", Schema::Uuid()),
      Required("totalReads", Schema::Integer().Min(0).Describe("reads by signed-in users, all time (aggregates)")),
      Required("uniqueEditors", Schema::Integer().Min(0).Describe("distinct users who changed the content")),
      Required("totalEdits", Schema::Integer().Min(0)),
      Required("timeSpentReports", Schema::Integer().Min(0)),
      Required("totalTimeSpentSeconds", Schema::Integer().Min(0)),
      Required("averageTimeSpentSeconds",
               Schema::Integer().Describe("per time-spent report, rounded to the nearest second (halves up); 0 "
                                          "without reports")),
      Required("lastReadAt", Schema::Timestamp().Nullable()),
  });
}

json::object SummaryJson(const analytics::Summary& s) {
  return {{"entryId", s.entry_id},
          {"totalReads", s.total_reads},
          {"uniqueEditors", s.unique_editors},
          {"totalEdits", s.total_edits},
          {"timeSpentReports", s.time_spent_reports},
          {"totalTimeSpentSeconds", s.total_time_spent_seconds},
          {"averageTimeSpentSeconds", s.average_time_spent_seconds},
          {"lastReadAt", OptTime(s.last_read_at)}};
}

Schema EventSchema() {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required("entryId", Schema::Uuid()),
      Required("eventType", EventTypeSchema()),
      Required("userId", Schema::Uuid().Nullable()),
      Required("language", Schema::String().Nullable().Describe(
                               "DocumentRead: the language served; DocumentEdited: the translation edited (null: the "
                               "original); TimeSpent: as reported")),
      Required("seconds", Schema::Integer().Nullable().Describe("TimeSpent only")),
      Required("occurredAt", Schema::Timestamp()),
  });
}

json::object EventJson(const analytics::Event& e) {
  return {{"id", e.id},
          {"entryId", e.entry_id},
          {"eventType", e.event_type},
          {"userId", OptJson(e.user_id)},
          {"language", OptJson(e.language)},
          {"seconds", e.seconds ? json::value(*e.seconds) : json::value(nullptr)},
          {"occurredAt", FormatTimestamp(e.occurred_at)}};
}

Schema SettingsSchema() {
  return Schema::Object({
      Required(
          "rawEventRetentionDays",
          Schema::Integer()
              .Min(analytics::kMinRetentionDays)
              .Max(analytics::kMaxRetentionDays)
              .Describe("raw events older than this are pruned by the background jobs; the per-day aggregates (and so "
                        "the summary) stay. Default 365")),
      Required("updatedBy", Schema::Uuid().Nullable()),
      Required("updatedAt", Schema::Timestamp().Nullable()),
  });
}

json::object SettingsJson(const analytics::Settings& s) {
  return {{"rawEventRetentionDays", s.retention_days},
          {"updatedBy", OptJson(s.updated_by)},
          {"updatedAt", OptTime(s.updated_at)}};
}

}  // namespace

void AddAnalyticsRoutes(Router& router, const Services& services) {
  const analytics::AnalyticsService& analytics = services.analytics;

  router.Add({Method::kGet,
              "/api/analytics/entries/{id}/summary",
              Auth::kUser,
              "",
              [&analytics](RequestContext& ctx) {
                auto s = analytics.GetSummary(ctx.Caller(), ctx.PathParam("id"));
                if (!s) return Problem(ctx, s.error());
                return JsonResponse(200, SummaryJson(*s));
              },
              {.summary = "An entry's activity summary (Entry Viewer+): reads, editors, time spent, last read. From "
                          "aggregates, so it survives the pruning of raw events; reads are written within a second.",
               .tag = "analytics",
               .response = AnalyticsSummarySchema(),
               .errors = {400, 403, 404},
               .path_params = EntryIdParam()}});

  router.Add({Method::kGet,
              "/api/analytics/entries/{id}/events",
              Auth::kUser,
              "",
              [&analytics](RequestContext& ctx) {
                auto skip = IntParam(ctx, "skip", 0, 0, 1'000'000'000);
                if (!skip) return Problem(ctx, skip.error());
                auto take = IntParam(ctx, "take", analytics::kDefaultTake, 1, analytics::kMaxTake);
                if (!take) return Problem(ctx, take.error());
                const std::string type = ctx.request.QueryParam("eventType").value_or("");
                auto page = analytics.ListEvents(ctx.Caller(), ctx.PathParam("id"), type, *skip, *take);
                if (!page) return Problem(ctx, page.error());
                json::array events;
                for (const auto& e : page->events) events.push_back(EventJson(e));
                return JsonResponse(
                    200, json::object{
                             {"events", std::move(events)}, {"total", page->total}, {"skip", *skip}, {"take", *take}});
              },
              {.summary = "An entry's raw activity events (Entry Viewer+), newest first, within the tenant's "
                          "retention.",
               .tag = "analytics",
               .response = Schema::Object({
                   Required("events", Schema::Array(EventSchema())),
                   Required("total", Schema::Integer().Min(0).Describe("events matching the filter")),
                   Required("skip", Schema::Integer().Min(0)),
                   Required("take", Schema::Integer().Min(1).Max(analytics::kMaxTake)),
               }),
               .query = {{"eventType", EventTypeSchema(), false, "only events of this type"},
                         {"skip", Schema::Integer().Min(0).Max(1'000'000'000), false, "default 0"},
                         {"take", Schema::Integer().Min(1).Max(analytics::kMaxTake), false, "default 50"}},
               .errors = {400, 403, 404},
               .path_params = EntryIdParam()}});

  static const Schema kTimeSpentRequest = Schema::Object({
      Required("seconds", Schema::Integer()
                              .Min(analytics::kMinTimeSpentSeconds)
                              .Max(analytics::kMaxTimeSpentSeconds)
                              .Describe("time the user spent on the entry, 5 to 86400")),
      Optional("language", Schema::String().MaxLength(35).Nullable().Describe("the language read, a known code")),
  });

  router.Add({Method::kPost,
              "/api/analytics/entries/{id}/time-spent",
              Auth::kUser,
              "",
              [&analytics](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kTimeSpentRequest);
                if (!body) return Problem(ctx, body.error());
                auto e = analytics.RecordTimeSpent(ctx.Caller(), ctx.PathParam("id"), GetInt(*body, "seconds"),
                                                   GetOptString(*body, "language"));
                if (!e) return Problem(ctx, e.error());
                return JsonResponse(201, EventJson(*e));
              },
              {.summary = "Record time the signed-in user spent on an entry they can view (a TimeSpent event).",
               .tag = "analytics",
               .request = kTimeSpentRequest,
               .response = EventSchema(),
               .success_status = 201,
               .errors = {400, 403, 404},
               .path_params = EntryIdParam()}});

  router.Add({Method::kGet,
              "/api/analytics/top",
              Auth::kUser,
              "",
              [&analytics](RequestContext& ctx) {
                auto days = IntParam(ctx, "days", analytics::kDefaultTopDays, 1, analytics::kMaxInactiveDays);
                if (!days) return Problem(ctx, days.error());
                auto limit = IntParam(ctx, "limit", 20, 1, analytics::kMaxTopLimit);
                if (!limit) return Problem(ctx, limit.error());
                auto list = analytics.Top(ctx.Caller(), *days, *limit);
                if (!list) return Problem(ctx, list.error());
                json::array entries;
                for (const auto& e : *list)
                  entries.push_back(json::object{{"id", e.id},
                                                 {"hubKey", e.hub_key},
                                                 {"key", e.key},
                                                 {"title", e.title},
                                                 {"reads", e.reads},
                                                 {"timeSpentSeconds", e.time_spent_seconds}});
                return JsonResponse(200, json::object{{"days", *days}, {"entries", std::move(entries)}});
              },
              {.summary = "The entries the caller can view, most read in the last `days` days (today included) "
                          "first; entries nobody read are left out.",
               .tag = "analytics",
               .response = Schema::Object({
                   Required("days", Schema::Integer().Min(1).Max(analytics::kMaxInactiveDays)),
                   Required("entries", Schema::Array(Schema::Object({
                                           Required("id", Schema::Uuid()),
                                           Required("hubKey", Schema::String()),
                                           Required("key", Schema::String()),
                                           Required("title", Schema::String()),
                                           Required("reads", Schema::Integer().Min(1)),
                                           Required("timeSpentSeconds", Schema::Integer().Min(0)),
                                       }))),
               }),
               .query = {{"days", Schema::Integer().Min(1).Max(analytics::kMaxInactiveDays), false, "default 30"},
                         {"limit", Schema::Integer().Min(1).Max(analytics::kMaxTopLimit), false, "default 20"}},
               .errors = {400}}});

  router.Add({Method::kGet,
              "/api/analytics/inactive",
              Auth::kUser,
              "",
              [&analytics](RequestContext& ctx) {
                auto days = IntParam(ctx, "days", analytics::kDefaultInactiveDays, 1, analytics::kMaxInactiveDays);
                if (!days) return Problem(ctx, days.error());
                auto list = analytics.Inactive(ctx.Caller(), *days);
                if (!list) return Problem(ctx, list.error());
                json::array entries;
                for (const auto& e : *list)
                  entries.push_back(json::object{{"id", e.id},
                                                 {"hubId", e.hub_id},
                                                 {"hubKey", e.hub_key},
                                                 {"key", e.key},
                                                 {"title", e.title},
                                                 {"ownerId", e.owner_id},
                                                 {"createdAt", FormatTimestamp(e.created_at)},
                                                 {"lastReadAt", OptTime(e.last_read_at)}});
                return JsonResponse(200, json::object{{"days", *days}, {"entries", std::move(entries)}});
              },
              {.summary = "Entries the caller can view that nobody read within `days` days (entries younger than "
                          "that are not listed); never-read first, then least recently read.",
               .tag = "analytics",
               .response = Schema::Object({
                   Required("days", Schema::Integer().Min(1).Max(analytics::kMaxInactiveDays)),
                   Required("entries", Schema::Array(Schema::Object({
                                           Required("id", Schema::Uuid()),
                                           Required("hubId", Schema::Uuid()),
                                           Required("hubKey", Schema::String()),
                                           Required("key", Schema::String()),
                                           Required("title", Schema::String()),
                                           Required("ownerId", Schema::Uuid()),
                                           Required("createdAt", Schema::Timestamp()),
                                           Required("lastReadAt", Schema::Timestamp().Nullable()),
                                       }))),
               }),
               .query = {{"days", Schema::Integer().Min(1).Max(analytics::kMaxInactiveDays), false, "default 90"}},
               .errors = {400, 403}}});

  router.Add({Method::kGet,
              "/api/analytics/settings",
              Auth::kTenantAdmin,
              "",
              [&analytics](RequestContext& ctx) {
                auto s = analytics.GetSettings(ctx.Caller());
                if (!s) return Problem(ctx, s.error());
                return JsonResponse(200, SettingsJson(*s));
              },
              {.summary = "The tenant's analytics settings (global admins): the raw events' retention.",
               .tag = "analytics",
               .response = SettingsSchema(),
               .errors = {403}}});

  static const Schema kSettingsRequest = Schema::Object({Required(
      "rawEventRetentionDays", Schema::Integer().Min(analytics::kMinRetentionDays).Max(analytics::kMaxRetentionDays))});

  router.Add({Method::kPut,
              "/api/analytics/settings",
              Auth::kTenantAdmin,
              "",
              [&analytics](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kSettingsRequest);
                if (!body) return Problem(ctx, body.error());
                auto s = analytics.SetSettings(ctx.Caller(), static_cast<int>(GetInt(*body, "rawEventRetentionDays")));
                if (!s) return Problem(ctx, s.error());
                return JsonResponse(200, SettingsJson(*s));
              },
              {.summary = "Set how long raw analytics events are kept (global admins; audited as "
                          "analytics.settings_updated). Pruning keeps the per-day aggregates.",
               .tag = "analytics",
               .request = kSettingsRequest,
               .response = SettingsSchema(),
               .errors = {400, 403}}});
}

}  // namespace credence::http
