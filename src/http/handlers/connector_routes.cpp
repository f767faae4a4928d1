// Connectors (docs/connectors.md): administration under
// /trust-admin/connectors (tenant admins on a session; audited) and the
// push API under /api/connectors/{key}/documents (a tenant API key with
// connector:push bound to that connector).
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "connectors/connector_service.h"
#include "connectors/credential.h"
#include "core/ids.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"
#include "trust/admin_service.h"
#include "trust/source_id.h"

namespace credence::http {
namespace json = boost::json;

namespace {

Schema RunErrorSchema() {
  return Schema::Object({
      Required("externalId", Schema::String().Describe("the document that failed (git: its path; web: its URL)")),
      Required("message", Schema::String()),
      Required("at", Schema::Timestamp()),
  });
}

Schema RunSchema() {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required("connectorId", Schema::Uuid()),
      Required("trigger", Schema::String().Enum({"manual", "schedule"})),
      Required("status", Schema::String().Enum({"queued", "running", "succeeded", "failed"})),
      Required("queuedAt", Schema::Timestamp()),
      Required("startedAt", Schema::Timestamp().Nullable()),
      Required("finishedAt", Schema::Timestamp().Nullable()),
      Required("updatedAt", Schema::Timestamp().Describe("moves with every committed batch")),
      Required("target", Schema::String().Nullable().Describe("git: the commit this run syncs to")),
      Required("base", Schema::String().Nullable().Describe("git: the commit synced before (null: a full listing)")),
      Required("checkpoint", Schema::String().Nullable().Describe("the last document committed, in the run's order")),
      Required("attempts", Schema::Integer().Min(0).Describe("more than 1: the run was interrupted and resumed")),
      Required("documentsSeen", Schema::Integer().Min(0)),
      Required("documentsAdded", Schema::Integer().Min(0)),
      Required("documentsChanged", Schema::Integer().Min(0)),
      Required("documentsRemoved", Schema::Integer().Min(0)),
      Required("documentsUnchanged", Schema::Integer().Min(0)),
      Required("documentsFailed", Schema::Integer().Min(0)),
      Required("error", Schema::String().Nullable().Describe("why the run failed as a whole")),
      Optional("errors", Schema::Array(RunErrorSchema()).Describe("documents that failed (at most 100)")),
  });
}

json::object RunJson(const connectors::Run& r, bool with_errors) {
  json::object o{{"id", r.id},
                 {"connectorId", r.connector_id},
                 {"trigger", r.trigger},
                 {"status", r.status},
                 {"queuedAt", FormatTimestamp(r.queued_at)},
                 {"startedAt", OptTime(r.started_at)},
                 {"finishedAt", OptTime(r.finished_at)},
                 {"updatedAt", FormatTimestamp(r.updated_at)},
                 {"target", OptJson(r.target)},
                 {"base", OptJson(r.base)},
                 {"checkpoint", OptJson(r.checkpoint)},
                 {"attempts", r.attempts},
                 {"documentsSeen", r.seen},
                 {"documentsAdded", r.added},
                 {"documentsChanged", r.changed},
                 {"documentsRemoved", r.removed},
                 {"documentsUnchanged", r.unchanged},
                 {"documentsFailed", r.failed},
                 {"error", OptJson(r.error)}};
  if (with_errors) {
    json::array errors;
    for (const auto& e : r.errors)
      errors.push_back(
          json::object{{"externalId", e.external_id}, {"message", e.message}, {"at", FormatTimestamp(e.at)}});
    o["errors"] = std::move(errors);
  }
  return o;
}

// Write-only: what a request may carry (the kind says which fields count;
// the service checks them, naming credential.<field>).
Schema CredentialInputSchema() {
  return Schema::Object({
             Required("kind", Schema::String()
                                  .Enum({"basic", "bearer", "header", "sshKey"})
                                  .Describe("git over http(s): basic or bearer; git over ssh: sshKey; web: basic, "
                                            "bearer or header")),
             Optional("username", Schema::String().Describe("basic (e.g. x-access-token, oauth2, x-token-auth, a "
                                                            "deploy token's name); sshKey (default git)")),
             Optional("password", Schema::String().Describe("basic: the password or token")),
             Optional("token", Schema::String().Describe("bearer")),
             Optional("name", Schema::String().Describe("header: the header's name, e.g. X-Api-Key")),
             Optional("value", Schema::String().Describe("header: its value")),
             Optional("privateKey", Schema::String().Describe("sshKey: the deploy key, PEM or OpenSSH")),
             Optional("passphrase", Schema::String().Describe("sshKey: when the key is encrypted")),
         })
      .Nullable()
      .Describe("write-only, never answered: stored sealed (docs/connectors.md, \"Credentials\"). Absent keeps the "
                "stored one, null removes it");
}

Schema CredentialViewSchema() {
  return Schema::Object({
      Required("set", Schema::Boolean()),
      Required("kind", Schema::String().Enum({"basic", "bearer", "header", "sshKey"}).Nullable()),
      Required("username", Schema::String().Nullable().Describe("basic, sshKey")),
      Required("headerName", Schema::String().Nullable().Describe("header")),
  });
}

json::object CredentialJson(const connectors::Connector& c) {
  if (!c.credential_info) return {{"set", false}, {"kind", nullptr}, {"username", nullptr}, {"headerName", nullptr}};
  const auto info = connectors::InfoFromJson(*c.credential_info);
  auto opt = [](const std::string& s) { return s.empty() ? json::value(nullptr) : json::value(s); };
  return {{"set", true}, {"kind", info.kind}, {"username", opt(info.username)}, {"headerName", opt(info.header_name)}};
}

Schema ConnectorSchema() {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required("key", Schema::String().Describe("the <connector_key> of its documents' source ids")),
      Required("kind", Schema::String().Enum(connectors::ConnectorKinds())),
      Required("name", Schema::String()),
      Required("settings", Schema::Any().Describe("the kind's settings with their defaults (docs/connectors.md)")),
      Required("scheduleMinutes", Schema::Integer().Nullable().Describe("null: manual only")),
      Required("credential", CredentialViewSchema().Describe("whether a credential is set, and its kind; never "
                                                             "the secret")),
      Required("nextRunAt", Schema::Timestamp().Nullable()),
      Required("status", Schema::Object({
                             Required("state", Schema::String()
                                                   .Enum({"never_run", "queued", "running", "succeeded", "failed"})
                                                   .Describe("the last run's status")),
                             Required("lastRun", RunSchema().Nullable()),
                             Required("lastSuccessAt", Schema::Timestamp().Nullable()),
                             Required("documents", Schema::Integer().Min(0).Describe("live documents (not removed)")),
                         })),
      Required("createdBy", Schema::Uuid().Nullable()),
      Required("createdAt", Schema::Timestamp()),
      Required("updatedAt", Schema::Timestamp()),
  });
}

json::object ConnectorJson(const connectors::ConnectorView& v) {
  const auto& c = v.connector;
  json::object status{{"state", v.last_run ? json::value(v.last_run->status) : json::value("never_run")},
                      {"lastRun", v.last_run ? json::value(RunJson(*v.last_run, true)) : json::value(nullptr)},
                      {"lastSuccessAt", OptTime(v.last_success_at)},
                      {"documents", v.documents}};
  return {{"id", c.id},
          {"key", c.key},
          {"kind", c.kind},
          {"name", c.name},
          {"settings", json::parse(c.settings)},
          {"scheduleMinutes", c.schedule_minutes ? json::value(*c.schedule_minutes) : json::value(nullptr)},
          {"credential", CredentialJson(c)},
          {"nextRunAt", OptTime(c.next_run_at)},
          {"status", std::move(status)},
          {"createdBy", OptJson(c.created_by)},
          {"createdAt", FormatTimestamp(c.created_at)},
          {"updatedAt", FormatTimestamp(c.updated_at)}};
}

connectors::ConnectorInput InputOf(const json::object& body) {
  connectors::ConnectorInput in;
  in.key = GetString(body, "key");
  in.kind = GetString(body, "kind");
  in.name = GetString(body, "name");
  if (const auto* s = body.if_contains("settings"); s && !s->is_null()) in.settings = json::serialize(*s);
  in.schedule_minutes = GetOptInt(body, "scheduleMinutes");
  if (const auto* c = body.if_contains("credential")) {
    in.credential_given = true;
    if (!c->is_null()) in.credential = json::serialize(*c);
  }
  return in;
}

Schema PushedSchema() {
  return Schema::Object({
      Required("documentId", Schema::Uuid()),
      Required("sourceId", Schema::String().Describe("<connector_key>:<externalId>, for /api/trust/evaluate")),
      Required("outcome", Schema::String().Enum({"added", "changed", "unchanged"})),
      Required("version", Schema::Integer().Min(1)),
      Required("contentHash", Schema::String().Describe("SHA-256 of the content; the content is not stored")),
      Required("contentUpdatedAt", Schema::Timestamp()),
  });
}

Result<std::string> ExternalIdOf(const RequestContext& ctx) {
  auto id = ctx.request.QueryParam("externalId");
  if (!id || id->empty() || id->size() > trust::kMaxExternalIdLength)
    return Error::Validation({{"externalId", "is required (query parameter), 1 to " +
                                                 std::to_string(trust::kMaxExternalIdLength) + " characters"}});
  return *id;
}

}  // namespace

void AddConnectorRoutes(Router& router, const Services& s) {
  const auto& svc = s.connectors;

  static const Schema kCreate = Schema::Object({
      Required("key", Schema::String().MinLength(1).MaxLength(64).Describe(
                          "1..64 of a-z 0-9 _ -, starting with a letter or digit; not entry, http, https; unique "
                          "in the tenant; cannot change")),
      Required("kind", Schema::String().Enum(connectors::ConnectorKinds())),
      Optional("name", Schema::String().MaxLength(200).Describe("default: the key")),
      Optional("settings", Schema::Any().Describe("the kind's settings (docs/connectors.md); push: none")),
      Optional("scheduleMinutes",
               Schema::Integer()
                   .Min(1)
                   .Max(connectors::kMaxScheduleMinutes)
                   .Nullable()
                   .Describe("sync every so many minutes; null or absent: manual only (push: always null)")),
      Optional("credential", CredentialInputSchema()),
  });
  static const Schema kUpdate = Schema::Object({
      Optional("key", Schema::String().Describe("if given, must be the connector's")),
      Optional("kind", Schema::String().Describe("if given, must be the connector's")),
      Optional("name", Schema::String().MaxLength(200)),
      Optional("settings", Schema::Any()),
      Optional("scheduleMinutes", Schema::Integer().Min(1).Max(connectors::kMaxScheduleMinutes).Nullable()),
      Optional("credential", CredentialInputSchema()),
  });

  router.Add({Method::kPost,
              "/trust-admin/connectors",
              Auth::kTenantAdmin,
              "",
              [&svc](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kCreate);
                if (!body) return Problem(ctx, body.error());
                auto v = svc.Create(ctx.Caller(), InputOf(*body));
                if (!v) return Problem(ctx, v.error());
                return JsonResponse(201, ConnectorJson(*v));
              },
              {.summary = "Create a connector (tenant admins): a key, a kind (git, web, push), settings checked "
                          "by kind, and a schedule. 409 connector_key_taken.",
               .tag = "connectors",
               .request = kCreate,
               .response = ConnectorSchema(),
               .success_status = 201,
               .errors = {400, 403, 409}}});

  router.Add({Method::kGet,
              "/trust-admin/connectors",
              Auth::kTenantAdmin,
              "",
              [&svc](RequestContext& ctx) {
                auto list = svc.List(ctx.Caller());
                if (!list) return Problem(ctx, list.error());
                json::array out;
                for (const auto& v : *list) out.push_back(ConnectorJson(v));
                return JsonResponse(200, out);
              },
              {.summary = "The tenant's connectors with their status, by key (tenant admins).",
               .tag = "connectors",
               .response = Schema::Array(ConnectorSchema()),
               .errors = {403}}});

  router.Add({Method::kGet,
              "/trust-admin/connectors/{id}",
              Auth::kTenantAdmin,
              "",
              [&svc](RequestContext& ctx) {
                auto v = svc.Get(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                if (!v) return Problem(ctx, v.error());
                return JsonResponse(200, ConnectorJson(*v));
              },
              {.summary = "One connector with its status: the last run (with its document errors), the last "
                          "success, the live documents (tenant admins).",
               .tag = "connectors",
               .response = ConnectorSchema(),
               .errors = {403, 404},
               .path_params = {{"id", Schema::Uuid()}}}});

  router.Add({Method::kPut,
              "/trust-admin/connectors/{id}",
              Auth::kTenantAdmin,
              "",
              [&svc](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kUpdate);
                if (!body) return Problem(ctx, body.error());
                auto v = svc.Update(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")), InputOf(*body));
                if (!v) return Problem(ctx, v.error());
                return JsonResponse(200, ConnectorJson(*v));
              },
              {.summary = "Replace a connector's name, settings and schedule (tenant admins); key and kind cannot "
                          "change. Another git URL or branch makes the next sync start over.",
               .tag = "connectors",
               .request = kUpdate,
               .response = ConnectorSchema(),
               .errors = {400, 403, 404},
               .path_params = {{"id", Schema::Uuid()}}}});

  router.Add({Method::kDelete,
              "/trust-admin/connectors/{id}",
              Auth::kTenantAdmin,
              "",
              [&svc](RequestContext& ctx) {
                auto done = svc.Delete(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                if (!done) return Problem(ctx, done.error());
                return NoContent();
              },
              {.summary = "Delete a connector (tenant admins): its live documents become Removed (blocked with "
                          "source_removed); its runs go.",
               .tag = "connectors",
               .success_status = 204,
               .errors = {403, 404},
               .path_params = {{"id", Schema::Uuid()}}}});

  router.Add({Method::kPost,
              "/trust-admin/connectors/{id}/sync",
              Auth::kTenantAdmin,
              "",
              [&svc](RequestContext& ctx) {
                auto run = svc.SyncNow(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                if (!run) return Problem(ctx, run.error());
                return JsonResponse(202, RunJson(*run, false));
              },
              {.summary = "Sync now (tenant admins): queues a run and answers it (202); with the background jobs on, the "
                          "node that received the request starts it at once. A run already queued or running is "
                          "answered instead. GET the run to watch it. 409 connector_not_syncable for push "
                          "connectors.",
               .tag = "connectors",
               .response = RunSchema(),
               .success_status = 202,
               .errors = {403, 404, 409},
               .path_params = {{"id", Schema::Uuid()}}}});

  router.Add({Method::kGet,
              "/trust-admin/connectors/{id}/runs",
              Auth::kTenantAdmin,
              "",
              [&svc](RequestContext& ctx) {
                auto runs = svc.ListRuns(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                if (!runs) return Problem(ctx, runs.error());
                json::array out;
                for (const auto& r : *runs) out.push_back(RunJson(r, false));
                return JsonResponse(200, out);
              },
              {.summary = "The connector's runs, newest first, at most 50 (tenant admins).",
               .tag = "connectors",
               .response = Schema::Array(RunSchema()),
               .errors = {403, 404},
               .path_params = {{"id", Schema::Uuid()}}}});

  router.Add({Method::kGet,
              "/trust-admin/connectors/{id}/runs/{runId}",
              Auth::kTenantAdmin,
              "",
              [&svc](RequestContext& ctx) {
                auto run =
                    svc.GetRun(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")), CanonicalUuid(ctx.PathParam("runId")));
                if (!run) return Problem(ctx, run.error());
                return JsonResponse(200, RunJson(*run, true));
              },
              {.summary = "One run with its counters as committed so far and its document errors (tenant admins).",
               .tag = "connectors",
               .response = RunSchema(),
               .errors = {403, 404},
               .path_params = {{"id", Schema::Uuid()}, {"runId", Schema::Uuid()}}}});

  // ---- The push API.

  static const Schema kPush = Schema::Object({
      Required("title", Schema::String().MinLength(1).MaxLength(static_cast<int64_t>(trust::kMaxDocumentTitleLength))),
      Required("content", Schema::String().Describe("the document's text: scanned and hashed, never stored")),
      Optional("url", Schema::String()
                          .Format("uri")
                          .MaxLength(static_cast<int64_t>(trust::kMaxUrlLength))
                          .Nullable()
                          .Describe("resolves to the document at evaluation; unique in the tenant (409 url_taken)")),
      Optional("ownerEmail", Schema::String().MaxLength(320).Nullable().Describe(
                                 "a member of the tenant by email; an unknown email gives no owner")),
      Optional("updatedAt", Schema::Timestamp().Nullable().Describe(
                                "when the content changed at the source; used when the content hash changed "
                                "(default now)")),
      Optional("reviewedAt", Schema::Timestamp().Nullable()),
      Optional("reviewType", Schema::String()
                                 .Enum({"QuickReview", "FullReview", "Attestation"})
                                 .Nullable()
                                 .Describe("needs reviewedAt; default FullReview when reviewedAt is given")),
  });
  const std::vector<QueryParamDoc> external_id_query = {
      {"externalId", Schema::String().MinLength(1).MaxLength(static_cast<int64_t>(trust::kMaxExternalIdLength)), true,
       "the document's id in the pushing system (may contain slashes and colons)"}};

  router.Add({Method::kPut,
              "/api/connectors/{key}/documents",
              Auth::kUserOrMachine,
              "connector:push",
              [&svc](RequestContext& ctx) {
                auto external_id = ExternalIdOf(ctx);
                if (!external_id) return Problem(ctx, external_id.error());
                auto body = ParseBody(ctx.request, kPush);
                if (!body) return Problem(ctx, body.error());
                connectors::SourceDocument doc;
                doc.external_id = *external_id;
                doc.title = GetString(*body, "title");
                doc.text = GetString(*body, "content");
                doc.url = GetOptString(*body, "url");
                doc.owner_email = GetOptString(*body, "ownerEmail");
                if (auto t = GetOptString(*body, "updatedAt")) doc.modified_at = ParseTimestamp(*t);
                if (auto t = GetOptString(*body, "reviewedAt")) doc.reviewed_at = ParseTimestamp(*t);
                doc.review_type = GetOptString(*body, "reviewType");
                if (doc.reviewed_at && !doc.review_type) doc.review_type = "FullReview";
                if (doc.review_type && !doc.reviewed_at)
                  return Problem(ctx, Error::Validation({{"reviewType", "needs reviewedAt"}}));
                auto pushed = svc.Push(ctx.Caller(), ctx.PathParam("key"), doc);
                if (!pushed) return Problem(ctx, pushed.error());
                return JsonResponse(pushed->outcome == connectors::WriteOutcome::kAdded ? 201 : 200,
                                    json::object{{"documentId", pushed->document_id},
                                                 {"sourceId", pushed->source_id},
                                                 {"outcome", connectors::WriteOutcomeName(pushed->outcome)},
                                                 {"version", pushed->version},
                                                 {"contentHash", pushed->content_hash},
                                                 {"contentUpdatedAt", FormatTimestamp(pushed->content_updated_at)}});
              },
              {.summary = "Push a document to a push connector (an API key with connector:push bound to it): 201 "
                          "when new (or back after removal), 200 otherwise. The content is scanned and hashed, "
                          "never stored; a new hash bumps the version. 403 connector_not_bound; 409 "
                          "connector_not_push, url_taken.",
               .tag = "connectors",
               .request = kPush,
               .response = PushedSchema(),
               .success_status = 201,
               .other_success = {200},
               .query = external_id_query,
               .errors = {400, 403, 404, 409}}});

  router.Add({Method::kDelete,
              "/api/connectors/{key}/documents",
              Auth::kUserOrMachine,
              "connector:push",
              [&svc](RequestContext& ctx) {
                auto external_id = ExternalIdOf(ctx);
                if (!external_id) return Problem(ctx, external_id.error());
                auto done = svc.RemovePushed(ctx.Caller(), ctx.PathParam("key"), *external_id);
                if (!done) return Problem(ctx, done.error());
                return NoContent();
              },
              {.summary = "The document is gone from the pushing system: it becomes Removed (it still resolves "
                          "and is blocked with source_removed; a later push brings it back).",
               .tag = "connectors",
               .success_status = 204,
               .query = external_id_query,
               .errors = {400, 403, 404, 409}}});
}

}  // namespace credence::http
