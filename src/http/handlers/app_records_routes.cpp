// An AI application's record-keeping export for the EU AI Act
// (/trust-admin/apps/{id}/records, docs/ai-act.md): JSON Lines or CSV of
// what compliance::AppRecordsExporter read. Thin: it only lays the lines
// out in the format asked for.
#include "compliance/app_records.h"
#include "http/handlers/routes.h"
#include "http/problem.h"
#include "http/router.h"
#include "reports/csv.h"

namespace credence::http {

namespace {

std::string Jsonl(const compliance::AppRecords& records) {
  size_t size = records.cover_json.size() + 2 + (records.checkpoint_json ? records.checkpoint_json->size() + 1 : 0);
  for (const auto& line : records.lines) size += line.json.size() + 1;
  std::string out;
  out.reserve(size);
  out += records.cover_json;
  out += '\n';
  for (const auto& line : records.lines) {
    out += line.json;
    out += '\n';
  }
  if (records.checkpoint_json) {
    out += *records.checkpoint_json;
    out += '\n';
  }
  return out;
}

void AppendCsvRow(std::string& out, std::string_view type, std::string_view at, std::string_view id,
                  std::string_view decision_id, std::string_view record) {
  reports::AppendCsvField(out, type);
  out += ',';
  reports::AppendCsvField(out, at);
  out += ',';
  reports::AppendCsvField(out, id);
  out += ',';
  reports::AppendCsvField(out, decision_id);
  out += ',';
  reports::AppendCsvField(out, record);
  out += "\r\n";
}

// The same lines as JSON Lines, one row each: the columns a spreadsheet
// sorts and filters by, and the whole line as JSON in `record`.
std::string Csv(const compliance::AppRecords& records) {
  std::string out = "type,at,id,decisionId,record\r\n";
  AppendCsvRow(out, "cover", FormatTimestamp(records.generated_at), records.app_id, "", records.cover_json);
  for (const auto& line : records.lines)
    AppendCsvRow(out, line.type, FormatTimestamp(line.at), line.id,
                 line.type == "decision" ? line.id : line.decision_id.value_or(""), line.json);
  if (records.checkpoint_json) AppendCsvRow(out, "checkpoint", "", "", "", *records.checkpoint_json);
  return out;
}

}  // namespace

void AddAppRecordsRoutes(Router& router, const Services& s) {
  const compliance::AppRecordsExporter& exporter = s.app_records;
  router.Add(
      {Method::kGet,
       "/trust-admin/apps/{id}/records",
       Auth::kTenantAdmin,
       "",
       [&exporter](RequestContext& ctx) {
         const std::string format = ctx.request.QueryParam("format").value_or("jsonl");
         if (format != "jsonl" && format != "csv")
           return Problem(ctx, Error::Validation({{"format", "must be jsonl or csv"}}));
         auto records = exporter.Export(ctx.Caller(), std::string(ctx.PathParam("id")), ctx.request.QueryParam("from"),
                                        ctx.request.QueryParam("to"));
         if (!records) return Problem(ctx, records.error());
         HttpResponse r;
         r.status = 200;
         if (format == "csv") {
           r.content_type = "text/csv; charset=utf-8; header=present";
           r.body = Csv(*records);
         } else {
           r.content_type = "application/jsonl; charset=utf-8";
           r.body = Jsonl(*records);
         }
         r.WithHeader("Content-Disposition", "attachment; filename=\"credence-app-" + records->app_id + "-records-" +
                                                 records->window.from + "-to-" + records->window.to + "." + format +
                                                 "\"");
         return r;
       },
       {.summary =
            "The app's records for EU AI Act record-keeping (docs/ai-act.md), as a file: a cover line (the app, its "
            "risk level and owner, the period, counts, the retention in force), then in time order every decision "
            "of the app with its evidence, the usage records it logged and the human oversight around them "
            "(reviews and renewals of the entries used; policy, sensitivity, approval, app and app-key changes "
            "from the audit log), and last the signed checkpoint of the tenant's log covering the last decision. "
            "409 window_archived when records of the window were archived (the archives are named); 409 "
            "records_not_ready (Retry-After) until a checkpoint covers the last decision.",
        .tag = "apps",
        .response = Schema::String().Describe(
            "JSON Lines: one JSON object a line, each with `type`: cover (first), evidence (once, before the first "
            "decision that references it), decision, usage, oversight (`kind`: audit, review, renewal), checkpoint "
            "(last, when the log has one)"),
        .response_content_type = "application/jsonl",
        .alternate_responses = {{"text/csv", Schema::String().Describe(
                                                 "RFC 4180 with a header row: type, at, id, decisionId, record "
                                                 "(the JSON Lines line)")}},
        .query = {{"from", Schema::String(), false,
                   "first day, YYYY-MM-DD (UTC), inclusive; default 29 days before to"},
                  {"to", Schema::String(), false, "last day, YYYY-MM-DD (UTC), inclusive; default today"},
                  {"format", Schema::String().Enum({"jsonl", "csv"}), false, "jsonl (default) or csv"}},
        .errors = {400, 403, 404, 409},
        .path_params = {{"id", Schema::Uuid()}}}});
}

}  // namespace credence::http
