// Trust administration for tenant admins on a signed-in session
// (/trust-admin/...): policies per level, the context vocabulary,
// sensitivity facts, connected documents and entries' source links.
// docs/trust-admin.md.
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value_from.hpp>

#include "core/ids.h"
#include "http/handlers/routes.h"
#include "http/handlers/trust_json.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"
#include "trust/admin_service.h"
#include "trust/source_id.h"

namespace credence::http {
namespace json = boost::json;

namespace {

// The trust codecs answer JSON text; it is embedded as a value.
json::value Embed(const std::string& text) { return json::parse(text); }

const std::vector<std::string>& ReviewTypeNames() {
  static const std::vector<std::string> kNames = {"QuickReview", "FullReview", "Attestation"};
  return kNames;
}

Schema EffectivePolicySchema() {
  return Schema::Object({
      Required("aiRetrievable", Schema::Boolean()),
      Required("customerFacingAllowed", Schema::Boolean()),
      Required("internalOnly", Schema::Boolean()),
      Required("externalModelAllowed", Schema::Boolean()),
      Required("maxSensitivityForAi", Schema::String().Enum(SensitivityNames())),
      Required("warnBeforeExpiryDays", Days()),
      Required("maxReviewAgeDays", Days()),
      Required("customerFacingRequiresReview", Schema::Boolean()),
      Required("citationRequired", Schema::Boolean()),
      Required("warnOnPersonalData", Schema::Boolean()),
      Required("disclaimerText", Schema::String().Nullable()),
  });
}

Schema PolicySettingSchema(trust::PolicyLevel level) {
  std::vector<Property> p = {Required("level", Schema::String().Enum({std::string(trust::PolicyLevelName(level))}))};
  if (level == trust::PolicyLevel::kHub) {
    p.push_back(Required("hubKey", Schema::String()));
    p.push_back(Required("hubId", Schema::Uuid()));
  }
  if (level == trust::PolicyLevel::kEntry)
    p.push_back(Required("sourceId", Schema::String().Describe("entry:<id> or <connector_key>:<external_id>")));
  p.push_back(Required("policy", PolicyOverrideSchema().Describe("the level's override as stored; {} when none")));
  p.push_back(Required("effective", EffectivePolicySchema().Describe(
                                        "the built-in defaults with every level from the tenant down to this one "
                                        "applied (for an entry, its hub in between)")));
  p.push_back(Required("updatedBy", Schema::Uuid().Nullable().Describe("null when the level sets nothing")));
  p.push_back(Required("updatedAt", Schema::Timestamp().Nullable()));
  return Schema::Object(std::move(p));
}

json::object PolicySettingJson(const trust::PolicySetting& s) {
  json::object out{{"level", trust::PolicyLevelName(s.level)}};
  if (s.level == trust::PolicyLevel::kHub) {
    out["hubKey"] = s.hub_key;
    out["hubId"] = s.hub_id;
  }
  if (s.level == trust::PolicyLevel::kEntry) out["sourceId"] = s.source_id;
  out["policy"] = Embed(trust::PolicyOverrideToJson(s.policy));
  out["effective"] = Embed(trust::PolicyToJson(s.effective));
  out["updatedBy"] = OptJson(s.updated_by);
  out["updatedAt"] = OptTime(s.updated_at);
  return out;
}

Schema ContextConfigSchema(bool request) {
  auto names = [] { return Schema::Array(Schema::String().MinLength(1).MaxLength(64)).MaxItems(100); };
  // A request's field left out or null takes its built-in default
  // (docs/trust-admin.md, "Context vocabulary").
  auto field = [request](std::string name, Schema s) {
    return request ? Optional(std::move(name), std::move(s).Nullable()) : Required(std::move(name), std::move(s));
  };
  return Schema::Object({
      field("customerFacingChannels",
            names().Describe("channels whose audience is outside the tenant; the customer-facing rules apply")),
      field("internalChannels", names().Describe("channels known to be internal; none may also be customer-facing")),
      field("actionRequiresReview",
            Schema::FreeObject().Describe("action name -> QuickReview | Attestation | FullReview: the weakest last "
                                          "review the action accepts (action_needs_stronger_review)")),
  });
}

Schema SensitivitySchema() {
  return Schema::Object({
      Required("sourceId", Schema::String()),
      Required("classification", Schema::String().Enum(SensitivityNames())),
      Required("hasSecrets", Schema::Boolean()),
      Required("hasPersonalData", Schema::Boolean()),
      Required("setBy", Schema::String()
                            .Enum({"human", "scanner"})
                            .Nullable()
                            .Describe("null: nothing stored; the values shown are the defaults")),
      Required("setByUser", Schema::Uuid().Nullable().Describe("the admin who set a human fact")),
      Required("updatedAt", Schema::Timestamp().Nullable()),
      Required(
          "scanner",
          Schema::Object({
                             Required("secretFindings", Schema::Integer().Min(0).Describe("occurrences of secrets")),
                             Required("personalDataFindings", Schema::Integer().Min(0)),
                             Required("detectors", Schema::Array(Schema::String())),
                         })
              .Nullable()
              .Describe("set by the scanner: what its active findings count (GET /trust-admin/findings)")),
  });
}

json::object SensitivityJson(const trust::SensitivitySetting& s) {
  return {{"sourceId", s.source_id},
          {"classification", trust::SensitivityName(s.facts.classification)},
          {"hasSecrets", s.facts.has_secrets},
          {"hasPersonalData", s.facts.has_personal_data},
          {"setBy", OptJson(s.set_by)},
          {"setByUser", OptJson(s.set_by_user)},
          {"updatedAt", OptTime(s.updated_at)},
          {"scanner", s.scanner ? json::value(json::object{{"secretFindings", s.scanner->secret_findings},
                                                           {"personalDataFindings", s.scanner->personal_data_findings},
                                                           {"detectors", json::value_from(s.scanner->detectors)}})
                                : json::value(nullptr)}};
}

Schema DocumentSchema() {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required("sourceId", Schema::String().Describe("<connectorKey>:<externalId>, as evaluation takes it")),
      Required("connectorKey", Schema::String()),
      Required("externalId", Schema::String()),
      Required("url", Schema::String().Nullable()),
      Required("title", Schema::String()),
      Required("contentHash", Schema::String().Nullable()),
      Required("contentUpdatedAt", Schema::Timestamp()),
      Required("lastSyncedAt", Schema::Timestamp()),
      Required("ownerId", Schema::Uuid().Nullable()),
      Required("lastReviewedAt", Schema::Timestamp().Nullable()),
      Required("lastReviewType", Schema::String().Enum(ReviewTypeNames()).Nullable()),
      Required("status", Schema::String()
                             .Enum({trust::kDocumentPublished, trust::kDocumentDraft, trust::kDocumentRemoved})
                             .Describe("Removed: gone from its connector's source (source_removed blocks)")),
      Required("version", Schema::Integer().Min(1).Describe("goes up when contentHash or contentUpdatedAt changes")),
      Required("createdAt", Schema::Timestamp()),
      Required("updatedAt", Schema::Timestamp()),
  });
}

json::object DocumentJson(const trust::ConnectedDocument& d) {
  return {{"id", d.id},
          {"sourceId", d.source_id()},
          {"connectorKey", d.connector_key},
          {"externalId", d.external_id},
          {"url", OptJson(d.url)},
          {"title", d.title},
          {"contentHash", OptJson(d.content_hash)},
          {"contentUpdatedAt", FormatTimestamp(d.content_updated_at)},
          {"lastSyncedAt", FormatTimestamp(d.last_synced_at)},
          {"ownerId", OptJson(d.owner_id)},
          {"lastReviewedAt", OptTime(d.last_reviewed_at)},
          {"lastReviewType", OptJson(d.last_review_type)},
          {"status", d.status},
          {"version", d.version},
          {"createdAt", FormatTimestamp(d.created_at)},
          {"updatedAt", FormatTimestamp(d.updated_at)}};
}

std::optional<TimeMs> OptTimeOf(const json::object& body, std::string_view key) {
  auto v = GetOptString(body, key);
  return v ? ParseTimestamp(*v) : std::nullopt;
}

trust::ConnectedDocumentInput DocumentInputOf(const json::object& body) {
  trust::ConnectedDocumentInput in;
  in.connector_key = GetString(body, "connectorKey");
  in.external_id = GetString(body, "externalId");
  in.url = GetOptString(body, "url");
  in.title = GetString(body, "title");
  in.content_hash = GetOptString(body, "contentHash");
  in.content_updated_at = OptTimeOf(body, "contentUpdatedAt").value_or(0);
  in.last_synced_at = OptTimeOf(body, "lastSyncedAt");
  in.owner_id = GetOptString(body, "ownerId");
  in.last_reviewed_at = OptTimeOf(body, "lastReviewedAt");
  in.last_review_type = GetOptString(body, "lastReviewType");
  in.status = GetString(body, "status", trust::kDocumentPublished);
  return in;
}

Schema SourceLinksSchema() {
  return Schema::Object({
      Required("entryId", Schema::Uuid()),
      Required("urls", Schema::Array(Schema::String()).Describe("sorted")),
  });
}

json::object SourceLinksJson(const trust::SourceLinks& l) {
  return {{"entryId", l.entry_id}, {"urls", ToJsonArray(l.urls)}};
}

QueryParamDoc SourceIdQuery() {
  return {"sourceId", Schema::String().MinLength(1).MaxLength(static_cast<int64_t>(trust::kMaxSourceIdLength)), true,
          "entry:<id> or <connector_key>:<external_id> (URL-encoded); an entry or registered connected document "
          "of the tenant"};
}

Result<std::string> SourceIdOf(const RequestContext& ctx) {
  auto id = ctx.request.QueryParam("sourceId");
  if (!id) return Error::Validation({{"sourceId", "is required"}});
  return std::move(*id);
}

}  // namespace

void AddTrustAdminRoutes(Router& router, const Services& s) {
  const trust::TrustAdminService& admin = s.trust_admin;

  static const Schema kPolicyRequest = PolicyOverrideSchema(Schema::Use::kRequest).Describe(
      "a partial override: fields left out (or null) inherit from the level below; unknown fields are refused");

  // ---- Policies: tenant.

  router.Add({Method::kGet,
              "/trust-admin/policies/tenant",
              Auth::kTenantAdmin,
              "",
              [&admin](RequestContext& ctx) {
                auto p = admin.GetTenantPolicy(ctx.Caller());
                if (!p) return Problem(ctx, p.error());
                return JsonResponse(200, PolicySettingJson(*p));
              },
              {.summary = "The tenant's default policy override and the effective tenant default (tenant admins).",
               .tag = "trust-admin",
               .response = PolicySettingSchema(trust::PolicyLevel::kTenant),
               .errors = {403}}});

  router.Add({Method::kPut,
              "/trust-admin/policies/tenant",
              Auth::kTenantAdmin,
              "",
              [&admin](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kPolicyRequest);
                if (!body) return Problem(ctx, body.error());
                auto policy = trust::PolicyOverrideFromRequest(json::serialize(*body));
                if (!policy) return Problem(ctx, policy.error());
                auto p = admin.SetTenantPolicy(ctx.Caller(), *policy);
                if (!p) return Problem(ctx, p.error());
                return JsonResponse(200, PolicySettingJson(*p));
              },
              {.summary = "Replace the tenant's default policy override (tenant admins); {} clears it.",
               .tag = "trust-admin",
               .request = kPolicyRequest,
               .response = PolicySettingSchema(trust::PolicyLevel::kTenant),
               .errors = {400, 403}}});

  // ---- Policies: hubs.

  router.Add({Method::kGet,
              "/trust-admin/policies/hubs/{hubKey}",
              Auth::kTenantAdmin,
              "",
              [&admin](RequestContext& ctx) {
                auto p = admin.GetHubPolicy(ctx.Caller(), ctx.PathParam("hubKey"));
                if (!p) return Problem(ctx, p.error());
                return JsonResponse(200, PolicySettingJson(*p));
              },
              {.summary = "A hub's policy override and the policy its entries get before their own overrides "
                          "(tenant admins).",
               .tag = "trust-admin",
               .response = PolicySettingSchema(trust::PolicyLevel::kHub),
               .errors = {403, 404}}});

  router.Add({Method::kPut,
              "/trust-admin/policies/hubs/{hubKey}",
              Auth::kTenantAdmin,
              "",
              [&admin](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kPolicyRequest);
                if (!body) return Problem(ctx, body.error());
                auto policy = trust::PolicyOverrideFromRequest(json::serialize(*body));
                if (!policy) return Problem(ctx, policy.error());
                auto p = admin.SetHubPolicy(ctx.Caller(), ctx.PathParam("hubKey"), *policy);
                if (!p) return Problem(ctx, p.error());
                return JsonResponse(200, PolicySettingJson(*p));
              },
              {.summary = "Replace a hub's policy override (tenant admins); {} removes it. Its entries then "
                          "report policySource hub.",
               .tag = "trust-admin",
               .request = kPolicyRequest,
               .response = PolicySettingSchema(trust::PolicyLevel::kHub),
               .errors = {400, 403, 404}}});

  router.Add({Method::kDelete,
              "/trust-admin/policies/hubs/{hubKey}",
              Auth::kTenantAdmin,
              "",
              [&admin](RequestContext& ctx) {
                auto done = admin.DeleteHubPolicy(ctx.Caller(), ctx.PathParam("hubKey"));
                if (!done) return Problem(ctx, done.error());
                return NoContent();
              },
              {.summary = "Remove a hub's policy override (tenant admins); 204 also when it had none.",
               .tag = "trust-admin",
               .success_status = 204,
               .errors = {403, 404}}});

  // ---- Policies: entries and connected documents.

  router.Add({Method::kGet,
              "/trust-admin/policies/sources",
              Auth::kTenantAdmin,
              "",
              [&admin](RequestContext& ctx) {
                auto id = SourceIdOf(ctx);
                if (!id) return Problem(ctx, id.error());
                auto p = admin.GetSourcePolicy(ctx.Caller(), *id);
                if (!p) return Problem(ctx, p.error());
                return JsonResponse(200, PolicySettingJson(*p));
              },
              {.summary = "A source's own policy override and the policy evaluation applies to it (tenant admins).",
               .tag = "trust-admin",
               .response = PolicySettingSchema(trust::PolicyLevel::kEntry),
               .query = {SourceIdQuery()},
               .errors = {400, 403, 404}}});

  router.Add({Method::kPut,
              "/trust-admin/policies/sources",
              Auth::kTenantAdmin,
              "",
              [&admin](RequestContext& ctx) {
                auto id = SourceIdOf(ctx);
                if (!id) return Problem(ctx, id.error());
                auto body = ParseBody(ctx.request, kPolicyRequest);
                if (!body) return Problem(ctx, body.error());
                auto policy = trust::PolicyOverrideFromRequest(json::serialize(*body));
                if (!policy) return Problem(ctx, policy.error());
                auto p = admin.SetSourcePolicy(ctx.Caller(), *id, *policy);
                if (!p) return Problem(ctx, p.error());
                return JsonResponse(200, PolicySettingJson(*p));
              },
              {.summary = "Replace a source's policy override (tenant admins); {} removes it. The source then "
                          "reports policySource entry.",
               .tag = "trust-admin",
               .request = kPolicyRequest,
               .response = PolicySettingSchema(trust::PolicyLevel::kEntry),
               .query = {SourceIdQuery()},
               .errors = {400, 403, 404}}});

  router.Add({Method::kDelete,
              "/trust-admin/policies/sources",
              Auth::kTenantAdmin,
              "",
              [&admin](RequestContext& ctx) {
                auto id = SourceIdOf(ctx);
                if (!id) return Problem(ctx, id.error());
                auto done = admin.DeleteSourcePolicy(ctx.Caller(), *id);
                if (!done) return Problem(ctx, done.error());
                return NoContent();
              },
              {.summary = "Remove a source's policy override (tenant admins); 204 also when it had none.",
               .tag = "trust-admin",
               .success_status = 204,
               .query = {SourceIdQuery()},
               .errors = {400, 403, 404}}});

  // ---- Context vocabulary.

  static const Schema kContextRequest = ContextConfigSchema(true).Describe(
      "the whole configuration; a field left out (or null) takes its built-in default; unknown fields are refused");

  router.Add({Method::kGet,
              "/trust-admin/context",
              Auth::kTenantAdmin,
              "",
              [&admin](RequestContext& ctx) {
                auto c = admin.GetContext(ctx.Caller());
                if (!c) return Problem(ctx, c.error());
                return JsonResponse(200, Embed(trust::ContextConfigToJson(*c)));
              },
              {.summary = "The tenant's context vocabulary (tenant admins): customer-facing and internal channels, "
                          "review types actions need. The built-in defaults until one is set.",
               .tag = "trust-admin",
               .response = ContextConfigSchema(false),
               .errors = {403}}});

  router.Add({Method::kPut,
              "/trust-admin/context",
              Auth::kTenantAdmin,
              "",
              [&admin](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kContextRequest);
                if (!body) return Problem(ctx, body.error());
                auto config = trust::ContextConfigFromRequest(json::serialize(*body));
                if (!config) return Problem(ctx, config.error());
                auto c = admin.SetContext(ctx.Caller(), *config);
                if (!c) return Problem(ctx, c.error());
                return JsonResponse(200, Embed(trust::ContextConfigToJson(*c)));
              },
              {.summary = "Replace the tenant's context vocabulary (tenant admins). Channels in neither list stay "
                          "unknown: evaluated as customer-facing, with the unknown_channel reason.",
               .tag = "trust-admin",
               .request = kContextRequest,
               .response = ContextConfigSchema(false),
               .errors = {400, 403}}});

  // ---- Sensitivity facts.

  static const Schema kSensitivityRequest = Schema::Object({
      Required("classification", Schema::String().Enum(SensitivityNames())),
      Required("hasSecrets", Schema::Boolean().Describe("true: secrets_present blocks and escalates")),
      Required("hasPersonalData",
               Schema::Boolean().Describe("true: personal_data_customer_facing blocks on customer-facing channels")),
  });

  router.Add({Method::kGet,
              "/trust-admin/sensitivity",
              Auth::kTenantAdmin,
              "",
              [&admin](RequestContext& ctx) {
                auto id = SourceIdOf(ctx);
                if (!id) return Problem(ctx, id.error());
                auto f = admin.GetSensitivity(ctx.Caller(), *id);
                if (!f) return Problem(ctx, f.error());
                return JsonResponse(200, SensitivityJson(*f));
              },
              {.summary = "A source's sensitivity facts and who set them (tenant admins); the defaults (Internal, "
                          "no secrets, no personal data, setBy null) when none are stored.",
               .tag = "trust-admin",
               .response = SensitivitySchema(),
               .query = {SourceIdQuery()},
               .errors = {400, 403, 404}}});

  router.Add({Method::kPut,
              "/trust-admin/sensitivity",
              Auth::kTenantAdmin,
              "",
              [&admin](RequestContext& ctx) {
                auto id = SourceIdOf(ctx);
                if (!id) return Problem(ctx, id.error());
                auto body = ParseBody(ctx.request, kSensitivityRequest);
                if (!body) return Problem(ctx, body.error());
                trust::SensitivityFacts facts;
                facts.classification =
                    trust::ParseSensitivity(GetString(*body, "classification")).value_or(trust::Sensitivity::kInternal);
                facts.has_secrets = GetBool(*body, "hasSecrets");
                facts.has_personal_data = GetBool(*body, "hasPersonalData");
                auto f = admin.SetSensitivity(ctx.Caller(), *id, facts);
                if (!f) return Problem(ctx, f.error());
                return JsonResponse(200, SensitivityJson(*f));
              },
              {.summary = "Set a source's sensitivity facts as a human (tenant admins). The content scanner never "
                          "overrides a human's facts.",
               .tag = "trust-admin",
               .request = kSensitivityRequest,
               .response = SensitivitySchema(),
               .query = {SourceIdQuery()},
               .errors = {400, 403, 404}}});

  router.Add({Method::kDelete,
              "/trust-admin/sensitivity",
              Auth::kTenantAdmin,
              "",
              [&admin](RequestContext& ctx) {
                auto id = SourceIdOf(ctx);
                if (!id) return Problem(ctx, id.error());
                auto done = admin.DeleteSensitivity(ctx.Caller(), *id);
                if (!done) return Problem(ctx, done.error());
                return NoContent();
              },
              {.summary = "Remove a source's sensitivity facts, whoever set them (tenant admins): the defaults "
                          "apply until the scanner or an admin sets them again. 204 also when none were stored.",
               .tag = "trust-admin",
               .success_status = 204,
               .query = {SourceIdQuery()},
               .errors = {400, 403, 404}}});

  // ---- Connected documents.

  static const Schema kDocumentRequest = Schema::Object({
      Required("connectorKey", Schema::String().MinLength(1).MaxLength(64).Check(
                                   trust::IsConnectorKey,
                                   "must be 1 to 64 of a-z, 0-9, _ and -, starting with a letter or digit, "
                                   "and not entry, http or https")),
      Required("externalId", Schema::String()
                                 .MinLength(1)
                                 .MaxLength(static_cast<int64_t>(trust::kMaxExternalIdLength))
                                 .Describe("the connector's id of the document; may contain colons")),
      Optional("url", Schema::String()
                          .Format("uri")
                          .MaxLength(static_cast<int64_t>(trust::kMaxUrlLength))
                          .Nullable()
                          .Describe("evaluation resolves this URL to the document; unique in the tenant")),
      Required("title", Schema::String().MinLength(1).MaxLength(static_cast<int64_t>(trust::kMaxDocumentTitleLength))),
      Optional("contentHash",
               Schema::String().MinLength(1).MaxLength(static_cast<int64_t>(trust::kMaxContentHashLength)).Nullable()),
      Required("contentUpdatedAt", Schema::Timestamp()),
      Optional("lastSyncedAt", Schema::Timestamp().Describe("default: now")),
      Optional("ownerId", Schema::Uuid().Nullable().Describe("a member of the tenant (active or not)")),
      Optional("lastReviewedAt",
               Schema::Timestamp().Nullable().Describe("null: never reviewed (connected_never_reviewed)")),
      Optional("lastReviewType", Schema::String().Enum(ReviewTypeNames()).Nullable().Describe("needs lastReviewedAt")),
      Optional("status", Schema::String()
                             .Enum({trust::kDocumentPublished, trust::kDocumentDraft})
                             .Describe("default Published; Draft is blocked (not_published)")),
  });

  router.Add({Method::kPut,
              "/trust-admin/connected-documents",
              Auth::kTenantAdmin,
              "",
              [&admin](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kDocumentRequest);
                if (!body) return Problem(ctx, body.error());
                auto r = admin.RegisterDocument(ctx.Caller(), DocumentInputOf(*body));
                if (!r) return Problem(ctx, r.error());
                return JsonResponse(r->created ? 201 : 200, DocumentJson(r->document));
              },
              {.summary = "Register or update a connected document by connectorKey and externalId (tenant admins): "
                          "201 when created, 200 when updated. Every field is replaced; the version goes up when "
                          "contentHash or contentUpdatedAt changes. 409 url_taken when another document has the URL.",
               .tag = "trust-admin",
               .request = kDocumentRequest,
               .response = DocumentSchema(),
               .success_status = 201,
               .other_success = {200},
               .errors = {400, 403, 409}}});

  router.Add({Method::kGet,
              "/trust-admin/connected-documents",
              Auth::kTenantAdmin,
              "",
              [&admin](RequestContext& ctx) {
                auto list = admin.ListDocuments(ctx.Caller(), ctx.request.QueryParam("connectorKey"));
                if (!list) return Problem(ctx, list.error());
                json::array out;
                for (const auto& d : *list) out.push_back(DocumentJson(d));
                return JsonResponse(200, out);
              },
              {.summary = "Connected documents of the tenant by connector key, then external id; at most 500 "
                          "(tenant admins).",
               .tag = "trust-admin",
               .response = Schema::Array(DocumentSchema()),
               .query = {{"connectorKey", Schema::String().MaxLength(64), false, "only this connector's documents"}},
               .errors = {400, 403}}});

  router.Add({Method::kGet,
              "/trust-admin/connected-documents/{id}",
              Auth::kTenantAdmin,
              "",
              [&admin](RequestContext& ctx) {
                auto d = admin.GetDocument(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                if (!d) return Problem(ctx, d.error());
                return JsonResponse(200, DocumentJson(*d));
              },
              {.summary = "One connected document (tenant admins).",
               .tag = "trust-admin",
               .response = DocumentSchema(),
               .errors = {403, 404},
               .path_params = {{"id", Schema::Uuid()}}}});

  router.Add({Method::kDelete,
              "/trust-admin/connected-documents/{id}",
              Auth::kTenantAdmin,
              "",
              [&admin](RequestContext& ctx) {
                auto done = admin.DeleteDocument(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                if (!done) return Problem(ctx, done.error());
                return NoContent();
              },
              {.summary = "Delete a connected document with its policy override and sensitivity facts (tenant "
                          "admins); it no longer resolves. Recorded decisions keep their evidence.",
               .tag = "trust-admin",
               .success_status = 204,
               .errors = {403, 404},
               .path_params = {{"id", Schema::Uuid()}}}});

  // ---- Entries' source links.

  static const Schema kSourceLinksRequest = Schema::Object({
      Required("urls",
               Schema::Array(Schema::String().Format("uri").MaxLength(static_cast<int64_t>(trust::kMaxUrlLength)))
                   .MaxItems(static_cast<int64_t>(trust::kMaxSourceLinks))
                   .Describe("the whole set; duplicates count once; [] removes every link")),
  });

  router.Add({Method::kGet,
              "/trust-admin/entries/{entryId}/source-links",
              Auth::kTenantAdmin,
              "",
              [&admin](RequestContext& ctx) {
                auto l = admin.GetSourceLinks(ctx.Caller(), CanonicalUuid(ctx.PathParam("entryId")));
                if (!l) return Problem(ctx, l.error());
                return JsonResponse(200, SourceLinksJson(*l));
              },
              {.summary = "The URLs that name the entry at evaluation, after connected documents' URLs (tenant "
                          "admins).",
               .tag = "trust-admin",
               .response = SourceLinksSchema(),
               .errors = {403, 404},
               .path_params = {{"entryId", Schema::Uuid()}}}});

  router.Add({Method::kPut,
              "/trust-admin/entries/{entryId}/source-links",
              Auth::kTenantAdmin,
              "",
              [&admin](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kSourceLinksRequest);
                if (!body) return Problem(ctx, body.error());
                auto l = admin.SetSourceLinks(ctx.Caller(), CanonicalUuid(ctx.PathParam("entryId")),
                                              GetStringArray(*body, "urls"));
                if (!l) return Problem(ctx, l.error());
                return JsonResponse(200, SourceLinksJson(*l));
              },
              {.summary = "Replace the entry's source links (tenant admins): 0 to 20 http(s) URLs, matched as "
                          "written.",
               .tag = "trust-admin",
               .request = kSourceLinksRequest,
               .response = SourceLinksSchema(),
               .errors = {400, 403, 404},
               .path_params = {{"entryId", Schema::Uuid()}}}});
}

}  // namespace credence::http
