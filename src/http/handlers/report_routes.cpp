// Compliance reports for tenant admins on a signed-in session
// (/trust-admin/reports/...): the list of reports, and each report as JSON
// or CSV. docs/reports.md.
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/language.h"
#include "http/problem.h"
#include "http/router.h"
#include "reports/csv.h"
#include "reports/report_service.h"

namespace credence::http {
namespace json = boost::json;

namespace {

std::vector<std::string> TypeNames() {
  return {"string", "integer", "number", "boolean", "timestamp"};
}

Schema ColumnsSchema() {
  return Schema::Array(Schema::Object({
      Required("name", Schema::String()),
      Required("type", Schema::String().Enum(TypeNames()).Describe(
                           "timestamp: RFC 3339 UTC; any column may be null where docs/reports.md says so")),
  }));
}

Schema ReportSchema() {
  return Schema::Object({
      Required("key", Schema::String()),
      Required("title", Schema::String()),
      Required("from", Schema::String().Describe("first day of the window, YYYY-MM-DD (UTC), inclusive")),
      Required("to", Schema::String().Describe("last day of the window, YYYY-MM-DD (UTC), inclusive")),
      Required("appId", Schema::Uuid().Nullable().Describe("the app filter; null: every caller")),
      Required("generatedAt", Schema::Timestamp()),
      Required("columns", ColumnsSchema()),
      Required("rows", Schema::Array(Schema::Array(Schema::Any()))
                           .Describe("one array per row, its cells in the order of columns")),
  });
}

Schema CsvSchema() {
  return Schema::String().Describe(
      "RFC 4180: a header row of the column names, CRLF line ends, fields quoted when they hold a comma, a quote "
      "or a line break; null is an empty field; string cells starting with = + - @ are prefixed with '");
}

json::array ColumnsJson(const std::vector<reports::Column>& columns) {
  json::array out;
  for (const auto& c : columns) out.push_back(json::object{{"name", c.name}, {"type", reports::ColumnTypeName(c.type)}});
  return out;
}

json::value CellJson(const reports::Cell& cell, reports::ColumnType type) {
  if (const auto* s = std::get_if<std::string>(&cell)) return json::value(*s);
  if (const auto* i = std::get_if<int64_t>(&cell))
    return type == reports::ColumnType::kTimestamp ? json::value(FormatTimestamp(*i)) : json::value(*i);
  if (const auto* d = std::get_if<double>(&cell)) return json::value(*d);
  if (const auto* b = std::get_if<bool>(&cell)) return json::value(*b);
  return nullptr;
}

json::object ReportJson(const reports::Report& r, std::string_view language) {
  const auto& columns = r.info->columns;
  json::array rows;
  rows.reserve(r.rows.size());
  for (const auto& row : r.rows) {
    json::array cells;
    cells.reserve(columns.size());
    for (size_t i = 0; i < columns.size(); ++i)
      cells.push_back(i < row.size() ? CellJson(row[i], columns[i].type) : json::value(nullptr));
    rows.push_back(std::move(cells));
  }
  return {{"key", r.info->key},
          {"title", reports::LocalizedText(*r.info, language).title},
          {"from", r.window.from},
          {"to", r.window.to},
          {"appId", r.app_id ? json::value(*r.app_id) : json::value(nullptr)},
          {"generatedAt", FormatTimestamp(r.generated_at)},
          {"columns", ColumnsJson(columns)},
          {"rows", std::move(rows)}};
}

// credence-<key>-<from>-to-<to>[-app-<id>].<ext>: only [a-z0-9-], so the
// header needs no quoting rules beyond the quotes.
std::string FileName(const reports::Report& r, const char* ext) {
  std::string name = "credence-" + r.info->key + "-" + r.window.from + "-to-" + r.window.to;
  if (r.app_id) name += "-app-" + *r.app_id;
  return name + "." + ext;
}

QueryParamDoc FormatQuery(const char* fallback) {
  return {"format", Schema::String().Enum({"json", "csv"}), false,
          std::string("json (application/json) or csv (text/csv); default ") + fallback};
}

std::vector<QueryParamDoc> WindowQuery() {
  return {{"from", Schema::String(), false,
           "first day, YYYY-MM-DD (UTC), inclusive; default 29 days before `to`"},
          {"to", Schema::String(), false, "last day, YYYY-MM-DD (UTC), inclusive; default today"},
          {"appId", Schema::Uuid(), false, "only what this app did (an app of the tenant)"}};
}

HttpResponse Answer(RequestContext& ctx, const Services& s, const std::string& fallback_format, bool attach) {
  const std::string format = ctx.request.QueryParam("format").value_or(fallback_format);
  if (format != "json" && format != "csv")
    return Problem(ctx, Error::Validation({{"format", "must be json or csv"}}));
  reports::ReportParams params{ctx.request.QueryParam("from"), ctx.request.QueryParam("to"),
                               ctx.request.QueryParam("appId")};
  auto report = s.reports.Run(ctx.Caller(), ctx.PathParam("key"), params);
  if (!report) return Problem(ctx, report.error());
  if (format == "csv") {
    HttpResponse r;
    r.status = 200;
    r.content_type = "text/csv; charset=utf-8; header=present";
    r.body = reports::ToCsv(report->info->columns, report->rows);
    r.WithHeader("Content-Disposition", "attachment; filename=\"" + FileName(*report, "csv") + "\"");
    return r;
  }
  const std::string_view language = TextLanguage(ctx);
  HttpResponse r = JsonResponse(200, ReportJson(*report, language));
  AddContentLanguage(r, language);
  if (attach) r.WithHeader("Content-Disposition", "attachment; filename=\"" + FileName(*report, "json") + "\"");
  return r;
}

}  // namespace

void AddReportRoutes(Router& router, const Services& s) {
  router.Add({Method::kGet, "/trust-admin/reports", Auth::kTenantAdmin, "",
              [](RequestContext& ctx) {
                const std::string_view language = TextLanguage(ctx);
                json::array list;
                for (const auto& info : reports::Catalog()) {
                  const auto text = reports::LocalizedText(info, language);
                  list.push_back(json::object{{"key", info.key},
                                              {"title", text.title},
                                              {"description", text.description},
                                              {"columns", ColumnsJson(info.columns)}});
                }
                HttpResponse r = JsonResponse(200, {{"reports", std::move(list)}});
                AddContentLanguage(r, language);
                return r;
              },
              {.summary = "The compliance reports: key, title, the question each answers and its columns. Titles "
                          "and descriptions follow the caller's preferred language, else Accept-Language "
                          "(English and Spanish).",
               .tag = "reports",
               .response = Schema::Object({Required(
                   "reports", Schema::Array(Schema::Object({
                                  Required("key", Schema::String()),
                                  Required("title", Schema::String()),
                                  Required("description", Schema::String()),
                                  Required("columns", ColumnsSchema()),
                              })))}),
               .errors = {403}}});

  auto query = WindowQuery();
  query.push_back(FormatQuery("json"));
  router.Add({Method::kGet, "/trust-admin/reports/{key}", Auth::kTenantAdmin, "",
              [&s](RequestContext& ctx) { return Answer(ctx, s, "json", false); },
              {.summary = "Run a report over a window of UTC days (both ends inclusive), optionally for one app; "
                          "?format=csv answers it as CSV.",
               .tag = "reports",
               .response = ReportSchema(),
               .alternate_responses = {{"text/csv", CsvSchema()}},
               .query = query,
               .errors = {400, 403, 404}}});

  auto export_query = WindowQuery();
  export_query.push_back(FormatQuery("csv"));
  router.Add({Method::kGet, "/trust-admin/reports/{key}/export", Auth::kTenantAdmin, "",
              [&s](RequestContext& ctx) { return Answer(ctx, s, "csv", true); },
              {.summary = "Export a report as a file (Content-Disposition: attachment): CSV by default, or JSON.",
               .tag = "reports",
               .response = CsvSchema(),
               .response_content_type = "text/csv",
               .alternate_responses = {{"application/json", ReportSchema()}},
               .query = export_query,
               .errors = {400, 403, 404}}});
}

}  // namespace credence::http
