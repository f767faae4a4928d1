// Content scanning for tenant admins (/trust-admin/scanning,
// /trust-admin/findings): the auto-scan setting, a rescan of the knowledge
// base, and the findings with their dismissal. docs/scanning.md.
#include <boost/json/value_from.hpp>

#include <charconv>

#include "core/ids.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"
#include "trust/content_scanning.h"

namespace credence::http {
namespace json = boost::json;

namespace {

Schema SettingsSchema() {
  return Schema::Object({
      Required("autoScan", Schema::Boolean().Describe(
                               "true (the default): entry saves and connector syncs are scanned for secrets and "
                               "personal data")),
      Required("updatedBy", Schema::Uuid().Nullable()),
      Required("updatedAt", Schema::Timestamp().Nullable()),
  });
}

json::object SettingsJson(const trust::ScanSettings& s) {
  return {{"autoScan", s.auto_scan}, {"updatedBy", OptJson(s.updated_by)}, {"updatedAt", OptTime(s.updated_at)}};
}

Schema FindingSchema() {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required("sourceId", Schema::String().Describe("entry:<id> or <connectorKey>:<externalId>")),
      Required("sourceKind", Schema::String().Enum({"entry", "connected"})),
      Required("language", Schema::String().Nullable().Describe("the translation it was found in; null: the original")),
      Required("blockId", Schema::String().Nullable().Describe("the first block it was found in; null: the title, "
                                                               "or a connected document")),
      Required("detector", Schema::String().Describe("a detector id of docs/scanning.md")),
      Required("kind", Schema::String().Enum({"secret", "personal_data"})),
      Required("subType", Schema::String()),
      Required("count", Schema::Integer().Min(1).Describe("occurrences of this value in the text when last seen")),
      Required("fingerprint",
               Schema::String().Describe("HMAC-SHA256 of the value with the tenant's key: the same value has the same "
                                         "fingerprint in every source of the tenant; never the value itself")),
      Required("firstSeenAt", Schema::Timestamp()),
      Required("lastSeenAt", Schema::Timestamp()),
      Required("status",
               Schema::String()
                   .Enum({"active", "dismissed", "resolved"})
                   .Describe("active counts towards the source's facts; dismissed (a false positive) does not until "
                             "the text changes; resolved: gone from the text")),
      Required("resolvedAt", Schema::Timestamp().Nullable()),
      Required("dismissedBy", Schema::Uuid().Nullable()),
      Required("dismissedAt", Schema::Timestamp().Nullable()),
      Required("dismissReason", Schema::String().Nullable()),
  });
}

json::object FindingJson(const trust::FindingRecord& f) {
  return {{"id", f.id},
          {"sourceId", f.source_id},
          {"sourceKind", f.source_kind},
          {"language", f.part.empty() ? json::value(nullptr) : json::value(f.part)},
          {"blockId", OptJson(f.block_id)},
          {"detector", f.detector},
          {"kind", f.kind},
          {"subType", f.sub_type},
          {"count", f.count},
          {"fingerprint", f.fingerprint},
          {"firstSeenAt", FormatTimestamp(f.first_seen_at)},
          {"lastSeenAt", FormatTimestamp(f.last_seen_at)},
          {"status", f.status},
          {"resolvedAt", OptTime(f.resolved_at)},
          {"dismissedBy", OptJson(f.dismissed_by)},
          {"dismissedAt", OptTime(f.dismissed_at)},
          {"dismissReason", OptJson(f.dismiss_reason)}};
}

Schema FindingPageSchema() {
  return Schema::Object({
      Required("findings", Schema::Array(FindingSchema()).Describe("newest first")),
      Required("nextCursor", Schema::String().Nullable().Describe("pass as ?after= for the next page; null: last")),
  });
}

}  // namespace

void AddScanningRoutes(Router& router, const Services& services) {
  const trust::ContentScanning& scanning = services.scanning;

  static const Schema kSettingsRequest = Schema::Object({Required("autoScan", Schema::Boolean())});

  router.Add({Method::kGet,
              "/trust-admin/scanning",
              Auth::kTenantAdmin,
              "",
              [&scanning](RequestContext& ctx) {
                auto s = scanning.GetSettings(ctx.Caller());
                if (!s) return Problem(ctx, s.error());
                return JsonResponse(200, SettingsJson(*s));
              },
              {.summary = "The tenant's content-scanning setting (tenant admins): on by default.",
               .tag = "trust-admin",
               .response = SettingsSchema(),
               .errors = {403}}});

  router.Add({Method::kPut,
              "/trust-admin/scanning",
              Auth::kTenantAdmin,
              "",
              [&scanning](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kSettingsRequest);
                if (!body) return Problem(ctx, body.error());
                auto s = scanning.SetSettings(ctx.Caller(), GetBool(*body, "autoScan"));
                if (!s) return Problem(ctx, s.error());
                return JsonResponse(200, SettingsJson(*s));
              },
              {.summary = "Turn auto-scanning on or off (tenant admins; audited). Off: saves and syncs are not "
                          "scanned, and findings and facts stay as they were until the next scan.",
               .tag = "trust-admin",
               .request = kSettingsRequest,
               .response = SettingsSchema(),
               .errors = {400, 403}}});

  router.Add({Method::kPost,
              "/trust-admin/scanning/rescan",
              Auth::kTenantAdmin,
              "",
              [&scanning](RequestContext& ctx) {
                auto n = scanning.RescanEntries(ctx.Caller());
                if (!n) return Problem(ctx, n.error());
                return JsonResponse(200, json::object{{"entriesScanned", *n}});
              },
              {.summary = "Scan every entry of the tenant again, every language (tenant admins; audited): after "
                          "turning auto-scanning on, or after the detectors changed. Nothing is scanned while "
                          "auto-scanning is off.",
               .tag = "trust-admin",
               .response = Schema::Object({Required("entriesScanned", Schema::Integer().Min(0))}),
               .errors = {403}}});

  router.Add({Method::kGet,
              "/trust-admin/findings",
              Auth::kTenantAdmin,
              "",
              [&scanning](RequestContext& ctx) {
                const auto& q = ctx.request;
                trust::FindingFilter filter{q.QueryParam("sourceId"), q.QueryParam("connectorKey"),
                                            q.QueryParam("detector"), q.QueryParam("kind"),
                                            q.QueryParam("status"),   q.QueryParam("after")};
                if (auto limit = q.QueryParam("limit")) {
                  int value = 0;
                  const auto [end, ec] = std::from_chars(limit->data(), limit->data() + limit->size(), value);
                  if (ec != std::errc() || end != limit->data() + limit->size())
                    return Problem(ctx, Error::Validation({{"limit", "must be an integer from 1 to 500"}}));
                  filter.limit = value;
                }
                auto list = scanning.ListFindings(ctx.Caller(), filter);
                if (!list) return Problem(ctx, list.error());
                json::array findings;
                for (const auto& f : *list) findings.push_back(FindingJson(f));
                json::value next = nullptr;
                if (static_cast<int>(list->size()) == filter.limit) next = json::value(list->back().id);
                return JsonResponse(200, json::object{{"findings", std::move(findings)}, {"nextCursor", next}});
              },
              {.summary = "The scanner's findings in the tenant's entries and connected documents (tenant admins), "
                          "newest first. Never the matched text: detector, kind, where, how often, a keyed "
                          "fingerprint.",
               .tag = "trust-admin",
               .response = FindingPageSchema(),
               .query = {{"sourceId", Schema::String(), false, "entry:<id> or <connectorKey>:<externalId>"},
                         {"connectorKey", Schema::String(), false, "only this connector's documents"},
                         {"detector", Schema::String(), false, "a detector id (docs/scanning.md)"},
                         {"kind", Schema::String().Enum({"secret", "personal_data"}), false, ""},
                         {"status", Schema::String().Enum({"active", "dismissed", "resolved"}), false, ""},
                         {"after", Schema::Uuid(), false, "nextCursor of the previous page"},
                         {"limit", Schema::Integer().Min(1).Max(500), false, "default 100"}},
               .errors = {400, 403}}});

  router.Add({Method::kGet,
              "/trust-admin/findings/{id}",
              Auth::kTenantAdmin,
              "",
              [&scanning](RequestContext& ctx) {
                auto f = scanning.GetFinding(ctx.Caller(), ctx.PathParam("id"));
                if (!f) return Problem(ctx, f.error());
                return JsonResponse(200, FindingJson(*f));
              },
              {.summary = "One finding (tenant admins).",
               .tag = "trust-admin",
               .response = FindingSchema(),
               .errors = {403, 404},
               .path_params = {{"id", Schema::Uuid()}}}});

  static const Schema kDismissRequest =
      Schema::Object({Optional("reason", Schema::String().MaxLength(1000).Nullable().Describe(
                                             "why it is a false positive, for the audit log and the listing"))});

  router.Add({Method::kPost,
              "/trust-admin/findings/{id}/dismiss",
              Auth::kTenantAdmin,
              "",
              [&scanning](RequestContext& ctx) {
                std::optional<std::string> reason;
                if (!ctx.request.body.empty()) {
                  auto body = ParseBody(ctx.request, kDismissRequest);
                  if (!body) return Problem(ctx, body.error());
                  if (const auto* r = body->if_contains("reason"); r != nullptr && r->is_string())
                    reason = std::string(r->as_string());
                }
                auto f = scanning.DismissFinding(ctx.Caller(), ctx.PathParam("id"), reason);
                if (!f) return Problem(ctx, f.error());
                return JsonResponse(200, FindingJson(*f));
              },
              {.summary = "Dismiss a finding as a false positive (tenant admins; audited): it stops counting "
                          "towards the source's facts until the text it was found in changes. 409 "
                          "finding_resolved when it is no longer in the text.",
               .tag = "trust-admin",
               .request = kDismissRequest,
               .response = FindingSchema(),
               .errors = {400, 403, 404, 409},
               .path_params = {{"id", Schema::Uuid()}}}});

  router.Add({Method::kPost,
              "/trust-admin/findings/{id}/restore",
              Auth::kTenantAdmin,
              "",
              [&scanning](RequestContext& ctx) {
                auto f = scanning.RestoreFinding(ctx.Caller(), ctx.PathParam("id"));
                if (!f) return Problem(ctx, f.error());
                return JsonResponse(200, FindingJson(*f));
              },
              {.summary = "Take a dismissal back (tenant admins; audited): the finding counts again.",
               .tag = "trust-admin",
               .response = FindingSchema(),
               .errors = {403, 404},
               .path_params = {{"id", Schema::Uuid()}}}});
}

}  // namespace credence::http
