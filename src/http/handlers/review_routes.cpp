// Reviews, review history, renewal eligibility, renewals (one entry and
// bulk), pausing and resuming expiry (docs/reviews-and-renewals.md).
#include <boost/json/parse.hpp>

#include "core/outside_transaction.h"
#include "core/ids.h"
#include "http/handlers/lifecycle_json.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"
#include "lifecycle/expiry_template_service.h"
#include "lifecycle/review_service.h"

namespace credence::http {
namespace json = boost::json;

namespace {


std::string EntryIdOf(const RequestContext& ctx) { return CanonicalUuid(ctx.PathParam("entryId")); }

const std::vector<std::pair<std::string, Schema>>& EntryIdParam() {
  static const std::vector<std::pair<std::string, Schema>> kParams = {{"entryId", Schema::Uuid()}};
  return kParams;
}

// Every field of these bodies is optional, so no body at all is read as {}.
Result<json::object> ParseOptionalBody(const HttpRequest& request, const Schema& schema) {
  if (request.body.find_first_not_of(" \t\r\n") == std::string::npos) return json::object{};
  return ParseBody(request, schema);
}

json::object ReviewJson(const lifecycle::EntryReview& r) {
  return {{"id", r.id},
          {"entryId", r.entry_id},
          {"reviewerId", r.reviewer_id},
          {"reviewType", r.review_type},
          {"timeSpentSeconds", r.time_spent_seconds},
          {"notes", OptJson(r.notes)},
          {"blocksChanged", r.blocks_changed},
          {"contentWasUpdated", r.content_was_updated},
          {"checklistJson", OptJson(r.checklist_json)},
          {"createdAt", FormatTimestamp(r.created_at)},
          {"renewed", r.renewed},
          {"expiryDate", FormatTimestamp(r.expiry_at)}};
}

Schema RankedReviewTypeSchema() {
  return Schema::String().Enum(lifecycle::ReviewTypes()).Describe("QuickReview < Attestation < FullReview");
}

Schema ReviewSchema() {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required("entryId", Schema::Uuid()),
      Required("reviewerId", Schema::Uuid()),
      Required("reviewType", RankedReviewTypeSchema()),
      Required("timeSpentSeconds", Schema::Integer().Min(0).Max(lifecycle::kMaxReviewSeconds)),
      Required("notes", Schema::String().Nullable()),
      Required("blocksChanged", Schema::Integer().Min(0).Max(lifecycle::kMaxBlocksChanged)),
      Required("contentWasUpdated", Schema::Boolean()),
      Required("checklistJson", Schema::String().Nullable().Describe("the checklist answers as submitted")),
      Required("createdAt", Schema::Timestamp()),
      Required("renewed", Schema::Boolean().Describe("the review renewed the entry's expiry")),
      Required("expiryDate", Schema::Timestamp().Describe("the entry's expiry date after the review")),
  });
}

Schema BlockersSchema() {
  return Schema::Array(Schema::String().Enum({lifecycle::kBlockerInsufficientPermission,
                                              lifecycle::kBlockerExpiryPaused, lifecycle::kBlockerReviewRequired}))
      .Describe("insufficient_permission: below Entry Editor; expiry_paused: resume first; review_required: the "
                "expiry template requires a review since the last renewal");
}

json::object RenewalJson(const lifecycle::Renewal& r) {
  json::object out = ExpiryStatusJson(r.status);
  out["renewalId"] = r.renewal_id;
  return out;
}

Schema RenewalSchema() {
  std::vector<Property> properties = ExpiryStatusSchema().properties();
  properties.push_back(Required("renewalId", Schema::Uuid()));
  return Schema::Object(std::move(properties));
}

// A per-entry failure of bulk-renew: the members of the problem the single
// renewal would have answered (with blockers for renewal_blocked).
json::object BulkErrorJson(const Error& e) {
  json::object out{{"status", StatusFor(e.kind)}, {"code", e.code}, {"detail", e.detail}};
  for (const auto& [key, value] : e.extensions) {
    boost::system::error_code ec;
    json::value v = json::parse(value, ec);
    if (!ec) out[key] = std::move(v);
  }
  return out;
}

Schema BulkResultSchema() {
  return Schema::Object({
      Required("results",
               Schema::Array(Schema::Object({
                   Required("entryId", Schema::Uuid()),
                   Required("renewed", Schema::Boolean()),
                   Optional("expiryDate", Schema::Timestamp().Describe("the new expiry date, when renewed")),
                   Required("error",
                            Schema::Object({
                                Required("status", Schema::Integer().Describe("403, 404, 409 or 422")),
                                Required("code", Schema::String()),
                                Required("detail", Schema::String()),
                                Optional("blockers", BlockersSchema().Describe("with renewal_blocked")),
                                Optional("reasonCode", Schema::String().Describe("with guard_denied")),
                                Optional("message", Schema::String().Describe("with guard_denied")),
                                Optional("metadata", Schema::FreeObject().Describe("with guard_denied")),
                                Optional("pluginId", Schema::String().Describe("with guard_denied")),
                            })
                                .Nullable()
                                .Describe("null when renewed")),
               })).Describe("one per requested entry, in request order")),
  });
}

lifecycle::RenewInput RenewInputOf(const json::object& body) {
  return {GetOptInt(body, "customExpiryDays"), GetOptString(body, "notes")};
}

}  // namespace

void AddReviewRoutes(Router& router, const Services& s) {
  const lifecycle::ReviewService& reviews = s.reviews;

  static const Schema kReviewRequest = Schema::Object({
      Required("reviewType", RankedReviewTypeSchema()),
      Required("timeSpentSeconds", Schema::Integer().Min(0).Max(lifecycle::kMaxReviewSeconds)),
      Optional("notes",
               Schema::String().MaxLength(static_cast<int64_t>(lifecycle::kMaxReviewNotesLength)).Nullable()),
      Optional("blocksChanged",
               Schema::Integer().Min(0).Max(lifecycle::kMaxBlocksChanged).Nullable().Describe("default 0")),
      Optional("contentWasUpdated", Schema::Boolean().Nullable().Describe("default false")),
      Optional("checklistJson",
               Schema::String().Nullable().Describe(
                   "a JSON object mapping checklist item id to true (checked) or false, as a string; required "
                   "when the expiry template has a checklist, whose required items must all be true")),
  });

  router.Add({Method::kPost,
              "/api/entries/{entryId}/review",
              Auth::kUser,
              "",
              [&reviews](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kReviewRequest);
                if (!body) return Problem(ctx, body.error());
                lifecycle::ReviewInput in;
                in.review_type = GetString(*body, "reviewType");
                in.time_spent_seconds = GetInt(*body, "timeSpentSeconds");
                in.notes = GetOptString(*body, "notes");
                in.blocks_changed = GetInt(*body, "blocksChanged", 0);
                in.content_was_updated = GetBool(*body, "contentWasUpdated", false);
                in.checklist_json = GetOptString(*body, "checklistJson");
                auto r = reviews.SubmitReview(ctx.Caller(), EntryIdOf(ctx), in);
                if (!r) return Problem(ctx, r.error());
                return JsonResponse(200, ReviewJson(*r));
              },
              {.summary = "Record a review of the entry (entry Editor+). It renews the expiry by the template's "
                          "expiryDays when the template requires a review and this one is strong enough, or when "
                          "the template auto-renews on attestation and this Attestation comes while the entry is "
                          "ExpiringSoon or in Warning; never while expiry is paused.",
               .tag = "reviews",
               .request = kReviewRequest,
               .response = ReviewSchema(),
               .errors = {403, 404},
               .path_params = EntryIdParam()}});

  router.Add({Method::kGet,
              "/api/entries/{entryId}/review-history",
              Auth::kUser,
              "",
              [&reviews](RequestContext& ctx) {
                auto list = reviews.ReviewHistory(ctx.Caller(), EntryIdOf(ctx));
                if (!list) return Problem(ctx, list.error());
                json::array out;
                for (const auto& r : *list) out.push_back(ReviewJson(r));
                return JsonResponse(200, out);
              },
              {.summary = "Every review of the entry, newest first (entry Viewer+).",
               .tag = "reviews",
               .response = Schema::Array(ReviewSchema()),
               .errors = {404},
               .path_params = EntryIdParam()}});

  router.Add({Method::kGet,
              "/api/entries/{entryId}/renewal-eligibility",
              Auth::kUser,
              "",
              [&reviews](RequestContext& ctx) {
                auto e = reviews.Eligibility(ctx.Caller(), EntryIdOf(ctx));
                if (!e) return Problem(ctx, e.error());
                return JsonResponse(200, json::object{{"canRenew", e->can_renew},
                                                      {"blockers", ToJsonArray(e->blockers)}});
              },
              {.summary = "Whether the caller could renew the entry now, and what stands in the way (entry "
                          "Viewer+).",
               .tag = "reviews",
               .response = Schema::Object({
                   Required("canRenew", Schema::Boolean().Describe("true when there are no blockers")),
                   Required("blockers", BlockersSchema()),
               }),
               .errors = {404},
               .path_params = EntryIdParam()}});

  static const Schema kRenewRequest = Schema::Object({
      Optional("customExpiryDays", Schema::Integer()
                                       .Min(1)
                                       .Max(lifecycle::kMaxRenewalDays)
                                       .Nullable()
                                       .Describe("default: the configured duration")),
      Optional("notes", Schema::String()
                            .MaxLength(static_cast<int64_t>(lifecycle::kMaxRenewalNotesLength))
                            .Nullable()
                            .Describe("recorded with the renewal")),
  });

  router.Add({Method::kPost,
              "/api/entries/{entryId}/renew",
              Auth::kUser,
              "",
              [&reviews](RequestContext& ctx) {
                auto body = ParseOptionalBody(ctx.request, kRenewRequest);
                if (!body) return Problem(ctx, body.error());
                auto r = reviews.Renew(ctx.Caller(), EntryIdOf(ctx), RenewInputOf(*body));
                if (!r) return Problem(ctx, r.error());
                return JsonResponse(200, RenewalJson(*r));
              },
              {.summary = "Renew the entry's expiry from now (entry Editor+) by customExpiryDays or the configured "
                          "duration; an empty body is {}. 409 renewal_blocked, with blockers, while expiry is "
                          "paused or the template's review requirement is not met.",
               .tag = "reviews",
               .request = kRenewRequest,
               .response = RenewalSchema(),
               .errors = {403, 404, 409, 422},
               .path_params = EntryIdParam()}});

  router.Add({Method::kPut,
              "/api/entries/{entryId}/renew",
              Auth::kUser,
              "",
              [&reviews](RequestContext& ctx) {
                auto r = reviews.Renew(ctx.Caller(), EntryIdOf(ctx), {});
                if (!r) return Problem(ctx, r.error());
                return JsonResponse(200, RenewalJson(*r));
              },
              {.summary = "Renew the entry's expiry from now by the configured duration (the template's "
                          "expiryDays, else the hub's defaultExpiryDays); entry Editor+. The same blockers as "
                          "POST apply (409 renewal_blocked).",
               .tag = "reviews",
               .response = RenewalSchema(),
               .errors = {403, 404, 409, 422},
               .path_params = EntryIdParam()}});

  static const Schema kPauseRequest = Schema::Object({
      Optional("reason", Schema::String()
                             .MaxLength(static_cast<int64_t>(lifecycle::kMaxPauseReasonLength))
                             .Nullable()
                             .Describe("recorded with the pause")),
  });

  router.Add({Method::kPost,
              "/api/entries/{entryId}/expiry/pause",
              Auth::kUser,
              "",
              [&reviews](RequestContext& ctx) {
                auto body = ParseOptionalBody(ctx.request, kPauseRequest);
                if (!body) return Problem(ctx, body.error());
                auto st = reviews.Pause(ctx.Caller(), EntryIdOf(ctx), GetOptString(*body, "reason"));
                if (!st) return Problem(ctx, st.error());
                return JsonResponse(200, ExpiryStatusJson(*st));
              },
              {.summary = "Pause the entry's expiry (entry Editor+): its status and daysUntilExpiry stand still "
                          "until resumed; an empty body is {}. 409 already_paused.",
               .tag = "reviews",
               .request = kPauseRequest,
               .response = ExpiryStatusSchema(),
               .errors = {403, 404, 409},
               .path_params = EntryIdParam()}});

  router.Add({Method::kPost,
              "/api/entries/{entryId}/expiry/resume",
              Auth::kUser,
              "",
              [&reviews](RequestContext& ctx) {
                auto st = reviews.Resume(ctx.Caller(), EntryIdOf(ctx));
                if (!st) return Problem(ctx, st.error());
                return JsonResponse(200, ExpiryStatusJson(*st));
              },
              {.summary = "Resume the entry's expiry (entry Editor+): the expiry date moves later by the paused "
                          "time, so the remaining time is kept. 409 not_paused.",
               .tag = "reviews",
               .response = ExpiryStatusSchema(),
               .errors = {403, 404, 409},
               .path_params = EntryIdParam()}});

  static const Schema kBulkRenewRequest = Schema::Object({
      Required("entryIds", Schema::Array(Schema::Uuid())
                               .MinItems(1)
                               .MaxItems(static_cast<int64_t>(lifecycle::kMaxBulkRenewEntries))
                               .Describe("distinct entry ids")),
      Optional("customExpiryDays", Schema::Integer()
                                       .Min(1)
                                       .Max(lifecycle::kMaxRenewalDays)
                                       .Nullable()
                                       .Describe("default: each entry's configured duration")),
      Optional("notes", Schema::String()
                            .MaxLength(static_cast<int64_t>(lifecycle::kMaxRenewalNotesLength))
                            .Nullable()),
  });

  router.Add({Method::kPost,
              "/api/notifications/bulk-renew",
              Auth::kUser,
              "",
              [&reviews](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kBulkRenewRequest);
                if (!body) return Problem(ctx, body.error());
                // Each renewal commits on its own: running the handler again for
                // a hook's verdict would renew the earlier ones twice.
                InlineWorkOnly hooks_inline;
                auto items = reviews.BulkRenew(ctx.Caller(), GetStringArray(*body, "entryIds"), RenewInputOf(*body));
                if (!items) return Problem(ctx, items.error());
                json::array results;
                for (const auto& item : *items) {
                  json::object r{{"entryId", item.entry_id}, {"renewed", item.outcome.ok()}};
                  if (item.outcome) {
                    r["expiryDate"] = FormatTimestamp(item.outcome->status.expiry_at);
                    r["error"] = nullptr;
                  } else {
                    r["error"] = BulkErrorJson(item.outcome.error());
                  }
                  results.push_back(std::move(r));
                }
                return JsonResponse(200, json::object{{"results", std::move(results)}});
              },
              {.summary = "Renew several entries (up to 100), each on its own as POST renew would (source bulk). "
                          "Always 200 once the request is valid: each result says whether its entry was renewed "
                          "or why not (404, 403, 409 renewal_blocked with blockers).",
               .tag = "reviews",
               .request = kBulkRenewRequest,
               .response = BulkResultSchema()}});
}

}  // namespace credence::http
