// Retention (docs/retention.md): the tenant's settings and archives
// (/trust-admin/retention), the pointer answers over archived windows
// (retention_json.h), and, in development mode, an archiving pass on demand.
#include <boost/json/serialize.hpp>

#include <string>

#include "http/handlers/retention_json.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"
#include "retention/archive_json.h"
#include "retention/archiver.h"
#include "retention/periods.h"
#include "retention/retention_service.h"

namespace credence::http {
namespace json = boost::json;

namespace {

json::value OptTime(const std::optional<TimeMs>& t) {
  return t ? json::value(FormatTimestamp(*t)) : json::value(nullptr);
}

json::object SettingsJson(const retention::RetentionService::View& v) {
  json::object archived;
  for (size_t i = 0; i < std::size(retention::kKinds); ++i)
    archived[retention::kKinds[i]] = OptTime(v.archived_before[i]);
  return {{"decisionsMonths", v.settings.decisions_months},
          {"usageMonths", v.settings.usage_months},
          {"auditMonths", v.settings.audit_months},
          {"minimumMonths", retention::kMinRetentionMonths},
          {"maximumMonths", retention::kMaxRetentionMonths},
          {"archiving", v.archiving},
          {"archivedBefore", std::move(archived)},
          {"updatedBy", v.settings.updated_by ? json::value(*v.settings.updated_by) : json::value(nullptr)},
          {"updatedAt", OptTime(v.settings.updated_at)}};
}

Schema MonthsSchema() {
  return Schema::Integer().Min(retention::kMinRetentionMonths).Max(retention::kMaxRetentionMonths);
}

Schema RetentionSettingsSchema() {
  return Schema::Object({
      Required("decisionsMonths", MonthsSchema().Describe("months decisions stay in the database")),
      Required("usageMonths", MonthsSchema()),
      Required("auditMonths", MonthsSchema()),
      Required("minimumMonths", Schema::Integer()),
      Required("maximumMonths", Schema::Integer()),
      Required("archiving", Schema::Boolean().Describe(
                                "whether this server archives (it has an archive directory); without one nothing "
                                "is archived or deleted")),
      Required("archivedBefore", Schema::Object({
                                                    Required("decisions", Schema::Timestamp().Nullable()),
                                                    Required("usage", Schema::Timestamp().Nullable()),
                                                    Required("audit", Schema::Timestamp().Nullable()),
                                                })
                                     .Describe("per kind, the time before which records left the database")),
      Required("updatedBy", Schema::String().Nullable()),
      Required("updatedAt", Schema::Timestamp().Nullable()),
  });
}

Schema ArchiveSchema() {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required("kind", Schema::String().Enum({"decisions", "usage", "audit"})),
      Required("period", Schema::String().Describe("YYYY-MM")),
      Required("file", Schema::String().Describe("the file's name under <archive-dir>/<tenant id>/")),
      Required("sha256", Schema::String()),
      Required("bytes", Schema::Integer()),
      Required("records", Schema::Integer()),
      Required("fromSequence", Schema::Integer().Nullable()),
      Required("toSequence", Schema::Integer().Nullable()),
      Required("lastHash", Schema::String().Nullable()),
      Required("firstDecisionId", Schema::Uuid().Nullable().Describe("decisions: the smallest id archived")),
      Required("lastDecisionId", Schema::Uuid().Nullable().Describe("decisions: the largest id archived")),
      Required("from", Schema::Timestamp()),
      Required("to", Schema::Timestamp()),
      Required("createdAt", Schema::Timestamp()),
  });
}

}  // namespace

json::value ArchivedWindowJson(const Services& s, const std::string& tenant_id, std::string_view kind, TimeMs from,
                               TimeMs to) {
  auto window = s.retention.Archived(tenant_id, kind, from, to);
  if (!window) return nullptr;
  return retention::ArchivedWindowJson(*window);
}

std::optional<Error> ArchivedDecision(const Services& s, const std::string& tenant_id, const std::string& decision_id) {
  const auto archives = s.retention.DecisionArchivesHolding(tenant_id, decision_id);
  if (archives.empty()) return std::nullopt;
  json::array files;
  for (const auto& a : archives) files.push_back(retention::ArchiveJson(a));
  return Error{ErrorKind::kGone,
               "decision_archived",
               "This decision is no longer in the database: it falls among the decisions archived past the "
               "tenant's retention. The archive files named in `archives` hold them (docs/retention.md).",
               {},
               {}}
      .With("archives", json::serialize(files));
}

Schema ArchivedWindowSchema() {
  return Schema::Object({
                            Required("before", Schema::Timestamp()),
                            Required("archives", Schema::Array(ArchiveSchema())),
                        })
      .Nullable()
      .Describe(
          "set when the window reaches before `before`: records older than that were archived out of the database "
          "(docs/retention.md), and this answer covers only what the database holds; `archives` are the files "
          "that hold the rest");
}

void AddRetentionRoutes(Router& router, const Services& services) {
  const auto& retention = services.retention;

  router.Add({Method::kGet,
              "/trust-admin/retention",
              Auth::kTenantAdmin,
              "",
              [&retention](RequestContext& ctx) {
                auto v = retention.Get(ctx.Caller());
                if (!v) return Problem(ctx, v.error());
                return JsonResponse(200, SettingsJson(*v));
              },
              {.summary = "The tenant's retention (tenant admins): months each kind of record stays in the "
                          "database before it is archived, and how far archiving has gone.",
               .tag = "trust-admin",
               .response = RetentionSettingsSchema(),
               .errors = {403}}});

  static const Schema kSettingsRequest = Schema::Object({
      Optional("decisionsMonths", MonthsSchema()),
      Optional("usageMonths", MonthsSchema()),
      Optional("auditMonths", MonthsSchema()),
  });
  router.Add({Method::kPut,
              "/trust-admin/retention",
              Auth::kTenantAdmin,
              "",
              [&retention](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kSettingsRequest);
                if (!body) return Problem(ctx, body.error());
                // null is not "leave as it is" (that is leaving the field out):
                // the schema refuses it, as every non-nullable optional field.
                retention::SettingsChange change;
                auto months = [&](const char* key) -> std::optional<int> {
                  auto v = GetOptInt(*body, key);
                  return v ? std::optional<int>(static_cast<int>(*v)) : std::nullopt;
                };
                change.decisions_months = months("decisionsMonths");
                change.usage_months = months("usageMonths");
                change.audit_months = months("auditMonths");
                auto v = retention.Set(ctx.Caller(), change);
                if (!v) return Problem(ctx, v.error());
                return JsonResponse(200, SettingsJson(*v));
              },
              {.summary = "Set how many months decisions, usage records and audit entries stay in the database "
                          "(tenant admins; 6 to 120, default 13; audited as retention.settings_updated). Fields "
                          "left out keep their value.",
               .tag = "trust-admin",
               .request = kSettingsRequest,
               .response = RetentionSettingsSchema(),
               .errors = {400, 403}}});

  router.Add({Method::kGet,
              "/trust-admin/retention/archives",
              Auth::kTenantAdmin,
              "",
              [&retention](RequestContext& ctx) {
                std::string kind = ctx.request.QueryParam("kind").value_or("");
                if (!kind.empty() && kind != "decisions" && kind != "usage" && kind != "audit")
                  return Problem(ctx, Error::Validation({{"kind", "must be decisions, usage or audit"}}));
                auto list = retention.Archives(ctx.Caller(), kind);
                if (!list) return Problem(ctx, list.error());
                json::array out;
                for (const auto& a : *list) out.push_back(retention::ArchiveJson(a));
                return JsonResponse(200, json::object{{"archives", std::move(out)}});
              },
              {.summary = "The tenant's archive files (tenant admins), newest first: each holds one month of one "
                          "kind of record; `credence admin verify-archive` checks one offline.",
               .tag = "trust-admin",
               .response = Schema::Object({Required("archives", Schema::Array(ArchiveSchema()))}),
               .query = {{"kind", Schema::String().Enum({"decisions", "usage", "audit"}), false, "only this kind"}},
               .errors = {400, 403}}});

  const retention::Archiver* archiver = services.archiver;
  router.Add({Method::kPost,
              "/dev/retention/run",
              Auth::kDevOnly,
              "",
              [archiver](RequestContext& ctx) {
                if (archiver == nullptr)
                  return Problem(ctx, Error::NotFound("This server archives nothing: start it with --archive-dir."));
                const auto run = archiver->RunOnce();
                json::array files;
                for (const auto& f : run.files) files.push_back(json::value(f));
                return JsonResponse(200, json::object{{"tenants", run.tenants},
                                                      {"archives", run.archives},
                                                      {"decisions", run.decisions},
                                                      {"usage", run.usage},
                                                      {"audit", run.audit},
                                                      {"failed", run.failed},
                                                      {"files", std::move(files)}});
              },
              {.summary = "Development mode: run an archiving pass now (docs/retention.md).",
               .tag = "dev",
               .response = Schema::FreeObject(),
               .errors = {404}}});
}

}  // namespace credence::http
