// The audit log for tenant admins on a signed-in session: GET /admin/audit
// (and /api/admin/audit) with filters and cursor pagination, as JSON or
// CSV; /export as a file; /verify walks the tenant's hash chain.
// docs/audit.md.
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>

#include <limits>

#include "core/date_window.h"

#include "http/handlers/chain_json.h"
#include "http/handlers/retention_json.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"
#include "platform/audit_log.h"
#include "reports/csv.h"

namespace credence::http {
namespace json = boost::json;

namespace {

json::value OrNull(const std::string& s) { return s.empty() ? json::value(nullptr) : json::value(s); }

json::object EntryJson(const platform::AuditEntry& e) {
  boost::system::error_code ec;
  json::value details = json::parse(e.details_json, ec);
  if (ec || !details.is_object()) details = json::object();
  return {{"id", e.id},
          {"sequence", e.seq},
          {"at", FormatTimestamp(e.at)},
          {"actor", json::object{{"type", e.actor.type}, {"id", OrNull(e.actor.id)}, {"label", e.actor.label}}},
          {"action", e.action},
          {"target", json::object{{"type", e.target.type}, {"id", OrNull(e.target.id)}}},
          {"outcome", e.outcome},
          {"requestId", OrNull(e.request_id)},
          {"clientAddress", OrNull(e.client_address)},
          {"userAgent", OrNull(e.user_agent)},
          {"details", std::move(details)},
          {"hash", e.hash}};
}

Schema EntrySchema() {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required("sequence", Schema::Integer().Min(1).Describe("the entry's place in the tenant's chain")),
      Required("at", Schema::Timestamp()),
      Required("actor", Schema::Object({
                            Required("type", Schema::String().Enum({"user", "key", "system"})),
                            Required("id", Schema::String().Nullable().Describe("user id or API key id")),
                            Required("label", Schema::String().Describe("email, client id, or the job")),
                        })),
      Required("action", Schema::String().Describe("dotted lowercase, e.g. apikey.created (docs/audit.md)")),
      Required("target", Schema::Object({
                             Required("type", Schema::String()),
                             Required("id", Schema::String().Nullable()),
                         })),
      Required("outcome", Schema::String().Enum({"success", "failure", "denied"})),
      Required("requestId", Schema::String().Nullable()),
      Required("clientAddress", Schema::String().Nullable()),
      Required("userAgent", Schema::String().Nullable()),
      Required("details", Schema::FreeObject().Describe("a few facts about the action; never a secret")),
      Required("hash", Schema::String().Describe("SHA-256 (hex) of the entry, chained to the one before")),
  });
}

Schema PageSchema() {
  return Schema::Object({
      Required("entries", Schema::Array(EntrySchema()).Describe("newest first")),
      Required("nextCursor", Schema::String().Nullable().Describe("pass as ?cursor= for the next page; null: last")),
      Required("archived", ArchivedWindowSchema()),
  });
}

Schema AuditCsvSchema() {
  return Schema::String().Describe(
      "RFC 4180 as the reports' CSV (docs/reports.md): columns id, sequence, at, actorType, actorId, actorLabel, "
      "action, targetType, targetId, outcome, requestId, clientAddress, userAgent, details (JSON), hash");
}

std::vector<QueryParamDoc> FilterQuery(const char* format_default, int64_t max_limit) {
  return {
      {"actor", Schema::String(), false, "only entries by this actor id (a user id or an API key id)"},
      {"action", Schema::String(), false, "an action name (exact) or a prefix ending in '.' (e.g. apikey.)"},
      {"targetType", Schema::String(), false, "only entries on targets of this type (e.g. apikey)"},
      {"targetId", Schema::String(), false, "only entries on this target id"},
      {"from", Schema::String(), false, "YYYY-MM-DD (UTC, from the start of the day) or an RFC 3339 timestamp"},
      {"to", Schema::String(), false, "YYYY-MM-DD (UTC, the whole day) or an RFC 3339 timestamp; inclusive"},
      {"cursor", Schema::String(), false, "nextCursor of the previous page"},
      {"limit", Schema::Integer().Min(1).Max(max_limit), false,
       max_limit == platform::kMaxAuditPageSize ? "default 50" : "default and most: 10000"},
      {"format", Schema::String().Enum({"json", "csv"}), false,
       std::string("json (application/json) or csv (text/csv); default ") + format_default},
  };
}

const std::vector<reports::Column>& CsvColumns() {
  using reports::ColumnType;
  static const std::vector<reports::Column> kColumns = {
      {"id", ColumnType::kString},        {"sequence", ColumnType::kInteger},  {"at", ColumnType::kTimestamp},
      {"actorType", ColumnType::kString}, {"actorId", ColumnType::kString},    {"actorLabel", ColumnType::kString},
      {"action", ColumnType::kString},    {"targetType", ColumnType::kString}, {"targetId", ColumnType::kString},
      {"outcome", ColumnType::kString},   {"requestId", ColumnType::kString},  {"clientAddress", ColumnType::kString},
      {"userAgent", ColumnType::kString}, {"details", ColumnType::kString},    {"hash", ColumnType::kString},
  };
  return kColumns;
}

reports::Cell TextCell(const std::string& s) { return s.empty() ? reports::Cell(std::monostate{}) : reports::Cell(s); }

std::string ToCsv(const std::vector<platform::AuditEntry>& entries) {
  std::vector<reports::ReportRow> rows;
  rows.reserve(entries.size());
  for (const auto& e : entries)
    rows.push_back({e.id, e.seq, e.at, e.actor.type, TextCell(e.actor.id), e.actor.label, e.action, e.target.type,
                    TextCell(e.target.id), e.outcome, TextCell(e.request_id), TextCell(e.client_address),
                    TextCell(e.user_agent), e.details_json, e.hash});
  return reports::ToCsv(CsvColumns(), rows);
}

HttpResponse AuditAnswer(RequestContext& ctx, const Services& s, const std::string& fallback_format, bool attach) {
  const auto& q = ctx.request;
  const std::string format = q.QueryParam("format").value_or(fallback_format);
  if (format != "json" && format != "csv") return Problem(ctx, Error::Validation({{"format", "must be json or csv"}}));
  platform::AuditFilter filter{q.QueryParam("actor"),    q.QueryParam("action"), q.QueryParam("targetType"),
                               q.QueryParam("targetId"), q.QueryParam("from"),   q.QueryParam("to"),
                               q.QueryParam("cursor"),   q.QueryParam("limit")};
  auto page = s.audit.List(ctx.Caller(), filter, attach ? platform::kMaxAuditExportSize : platform::kMaxAuditPageSize);
  if (!page) return Problem(ctx, page.error());
  // Entries past the tenant's retention are in archive files: say so when
  // the window reaches them (docs/retention.md).
  TimeMs from = 0, to = std::numeric_limits<TimeMs>::max();
  if (filter.from) from = ParseTimeBound(*filter.from, false, 0).value_or(0);
  if (filter.to) to = ParseTimeBound(*filter.to, true, 0).value_or(to);
  json::value archived = ArchivedWindowJson(s, ctx.Caller().tenant_id, "audit", from, to);
  HttpResponse r;
  if (format == "csv") {
    r.status = 200;
    r.content_type = "text/csv; charset=utf-8; header=present";
    r.body = ToCsv(page->entries);
  } else {
    json::array entries;
    entries.reserve(page->entries.size());
    for (const auto& e : page->entries) entries.push_back(EntryJson(e));
    r = JsonResponse(200, {{"entries", std::move(entries)},
                           {"nextCursor", page->next_cursor ? json::value(*page->next_cursor) : json::value(nullptr)},
                           {"archived", archived}});
  }
  // The cursor of the next page, also for CSV (which has no place for it).
  if (page->next_cursor) r.WithHeader("X-Next-Cursor", *page->next_cursor);
  if (archived.is_object())
    r.WithHeader("X-Archived-Before", std::string(archived.as_object().at("before").as_string()));
  if (attach)
    r.WithHeader("Content-Disposition", std::string("attachment; filename=\"credence-audit.") + format + "\"");
  return r;
}

}  // namespace

void AddAuditRoutes(Router& router, const Services& s) {
  const std::string path = "/admin/audit";
  const std::string alias = "/api/admin/audit";

  router.Add(Aliased({alias},
                     {Method::kGet,
                      path,
                      Auth::kTenantAdmin,
                      "",
                      [&s](RequestContext& ctx) { return AuditAnswer(ctx, s, "json", false); },
                      {.summary = "The tenant's audit log (tenant admins), newest first, filtered and paged by cursor; "
                                  "?format=csv answers the page as CSV.",
                       .tag = "audit",
                       .response = PageSchema(),
                       .alternate_responses = {{"text/csv", AuditCsvSchema()}},
                       .query = FilterQuery("json", platform::kMaxAuditPageSize),
                       .errors = {400, 403}}}));
  router.Add(
      Aliased({alias + "/export"},
              {Method::kGet,
               path + "/export",
               Auth::kTenantAdmin,
               "",
               [&s](RequestContext& ctx) { return AuditAnswer(ctx, s, "csv", true); },
               {.summary = "Export the audit log as a file (Content-Disposition: attachment): up to 10,000 entries "
                           "per call (X-Next-Cursor names the rest), CSV by default, or JSON.",
                .tag = "audit",
                .response = AuditCsvSchema(),
                .response_content_type = "text/csv",
                .alternate_responses = {{"application/json", PageSchema()}},
                .query = FilterQuery("csv", platform::kMaxAuditExportSize),
                .errors = {400, 403}}}));
  router.Add(
      Aliased({alias + "/verify"},
              {Method::kGet,
               path + "/verify",
               Auth::kTenantAdmin,
               "",
               [&s](RequestContext& ctx) {
                 auto outside = OutsideHeadParams(ctx.request);
                 if (!outside) return Problem(ctx, outside.error());
                 auto v = s.audit.Verify(ctx.Caller(), *outside);
                 if (!v) return Problem(ctx, v.error());
                 const auto& r = v->records;
                 json::object out{{"ok", v->ok()}, {"checked", r.checked}};
                 out["firstInvalid"] =
                     r.ok ? json::value(nullptr)
                          : json::value(json::object{
                                {"id", r.first_invalid_id ? json::value(*r.first_invalid_id) : json::value(nullptr)},
                                {"sequence", *r.first_invalid_seq},
                                {"problem", r.problem}});
                 out["heads"] = HeadCheckJson(v->heads);
                 return JsonResponse(200, out);
               },
               {.summary = "Verify the tenant's audit log (tenant admins): recompute every entry's hash and link, "
                           "check the chain head, and check the chain against its signed heads (and an outside "
                           "head, when given); names the first entry or head that does not verify.",
                .tag = "audit",
                .response = Schema::Object({
                    Required("ok", Schema::Boolean().Describe("the entries and the heads verify")),
                    Required("checked", Schema::Integer().Min(0)),
                    Required("firstInvalid", Schema::Object({
                                                                Required("id", Schema::Uuid().Nullable().Describe(
                                                                                   "null when the entry is missing")),
                                                                Required("sequence", Schema::Integer()),
                                                                Required("problem", Schema::String()),
                                                            })
                                                 .Nullable()),
                    Required("heads", HeadCheckSchema()),
                }),
                .query = WithOutsideHeadQuery({}),
                .errors = {400, 403}}}));
  router.Add(Aliased({alias + "/heads"},
                     {Method::kGet,
                      path + "/heads",
                      Auth::kTenantAdmin,
                      "",
                      [&s](RequestContext& ctx) {
                        auto limit = IntParam(ctx.request, "limit", 50);
                        if (!limit || *limit < 1 || *limit > 500)
                          return Problem(ctx, Error::Validation({{"limit", "must be an integer from 1 to 500"}}));
                        auto before = IntParam(ctx.request, "cursor", 0);
                        if (!before)
                          return Problem(ctx, Error::Validation({{"cursor", "must be a non-negative integer"}}));
                        auto heads = s.audit.Heads(ctx.Caller(), *before, *limit);
                        if (!heads) return Problem(ctx, heads.error());
                        return JsonResponse(200, SignedHeadsJson(*heads, *limit));
                      },
                      {.summary = "The audit log's signed heads (tenant admins), newest first, for an outside party to "
                                  "store; signed like the ledger's (/trust-admin/ledger/heads), with chain \"audit\".",
                       .tag = "audit",
                       .response = SignedHeadsSchema(),
                       .query = {{"limit", Schema::Integer().Min(1).Max(500), false, "default 50"},
                                 {"cursor", Schema::String(), false, "nextCursor of the previous page"}},
                       .errors = {400, 403}}}));
}

}  // namespace credence::http
