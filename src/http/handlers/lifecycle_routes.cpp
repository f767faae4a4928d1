// Expiry templates (/api/expiry-templates) and review checklists
// (/api/review-checklists and /review-checklists, decisions.md 9).
#include "core/ids.h"
#include "http/handlers/lifecycle_json.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"
#include "kb/model.h"
#include "lifecycle/expiry_service.h"
#include "lifecycle/expiry_template_service.h"
#include "lifecycle/review_checklist_service.h"

namespace credence::http {
namespace json = boost::json;

namespace {


std::optional<std::string> OptUuidOf(const json::object& body, std::string_view key) {
  auto v = GetOptString(body, key);
  if (v) v = CanonicalUuid(*v);
  return v;
}

Schema ReviewTypeSchema() { return Schema::String().Enum(lifecycle::ReviewTypes()); }

json::object TemplateJson(const lifecycle::ExpiryTemplate& t) {
  return {{"id", t.id},
          {"name", t.name},
          {"description", OptJson(t.description)},
          {"expiryDays", t.expiry_days},
          {"warningDays", t.warning_days},
          {"graceDays", t.grace_days},
          {"reviewRequired", t.review_required},
          {"reviewType", OptJson(t.review_type)},
          {"checklistId", OptJson(t.checklist_id)},
          {"autoRenewOnAttestation", t.auto_renew_on_attestation},
          {"isActive", t.is_active},
          {"isDefault", t.is_default},
          {"createdAt", FormatTimestamp(t.created_at)},
          {"updatedAt", FormatTimestamp(t.updated_at)}};
}

Schema TemplateSchema() {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required("name", Schema::String()),
      Required("description", Schema::String().Nullable()),
      Required("expiryDays", Schema::Integer().Min(1).Max(lifecycle::kMaxExpiryDays)),
      Required("warningDays", Schema::Integer().Min(0).Max(lifecycle::kMaxWarningDays)),
      Required("graceDays", Schema::Integer().Min(0).Max(lifecycle::kMaxGraceDays)),
      Required("reviewRequired", Schema::Boolean()),
      Required("reviewType", ReviewTypeSchema().Nullable()),
      Required("checklistId", Schema::Uuid().Nullable()),
      Required("autoRenewOnAttestation", Schema::Boolean()),
      Required("isActive", Schema::Boolean()),
      Required("isDefault", Schema::Boolean().Describe("at most one template of a tenant is the default")),
      Required("createdAt", Schema::Timestamp()),
      Required("updatedAt", Schema::Timestamp()),
  });
}

Schema UsageSchema() {
  return Schema::Object({
      Required("templateId", Schema::Uuid()),
      Required("entryCount", Schema::Integer().Min(0).Describe("entries with the template as their custom one")),
      Required("hubCount", Schema::Integer().Min(0).Describe("hubs with the template as their default")),
      Required("entriesViaHubDefault",
               Schema::Integer().Min(0).Describe("entries without a custom template in those hubs")),
  });
}

json::object ResolvedJson(const lifecycle::ResolvedTemplate& r) {
  return {{"source", r.source}, {"template", r.tmpl ? json::value(TemplateJson(*r.tmpl)) : json::value(nullptr)}};
}

Schema SourceSchema() {
  return Schema::String()
      .Enum({lifecycle::kSourceEntry, lifecycle::kSourceHub, lifecycle::kSourceTenant, lifecycle::kSourceNone})
      .Describe("entry: its custom template; hub: its hub's default; tenant: the tenant's default; none");
}

Schema ResolvedSchema() {
  return Schema::Object({
      Required("source", SourceSchema()),
      Required("template", TemplateSchema().Nullable().Describe("null when no template applies")),
  });
}

Schema ExpiryConfigSchema() {
  return Schema::Object({
      Required("source", SourceSchema()),
      Required("template", TemplateSchema().Nullable().Describe("null when no template applies")),
      Required("warningDays", Schema::Integer().Min(0).Describe("the template's; 0 without one")),
      Required("graceDays", Schema::Integer().Min(0).Describe("the template's; 0 without one")),
      Required("expiryDays", Schema::Integer().Min(0).Describe("the template's; the hub's defaultExpiryDays without one")),
  });
}

json::object ChecklistJson(const lifecycle::ReviewChecklist& c) {
  json::array items;
  for (const auto& i : c.items) items.push_back(json::object{{"id", i.id}, {"text", i.text}, {"required", i.required}});
  return {{"id", c.id},
          {"name", c.name},
          {"hubId", OptJson(c.hub_id)},
          {"items", std::move(items)},
          {"createdAt", FormatTimestamp(c.created_at)},
          {"updatedAt", FormatTimestamp(c.updated_at)}};
}

Schema ChecklistSchema() {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required("name", Schema::String()),
      Required("hubId", Schema::Uuid().Nullable().Describe("null: tenant-wide")),
      Required("items", Schema::Array(Schema::Object({
                            Required("id", Schema::Uuid()),
                            Required("text", Schema::String()),
                            Required("required", Schema::Boolean()),
                        }))),
      Required("createdAt", Schema::Timestamp()),
      Required("updatedAt", Schema::Timestamp()),
  });
}

lifecycle::ExpiryTemplateInput TemplateInputOf(const json::object& body) {
  lifecycle::ExpiryTemplateInput in;
  in.name = GetString(body, "name");
  in.description = GetOptString(body, "description");
  in.expiry_days = GetInt(body, "expiryDays");
  in.warning_days = GetInt(body, "warningDays", 0);
  in.grace_days = GetInt(body, "graceDays", 0);
  in.review_required = GetBool(body, "reviewRequired", false);
  in.review_type = GetOptString(body, "reviewType");
  in.checklist_id = OptUuidOf(body, "checklistId");
  in.auto_renew_on_attestation = GetBool(body, "autoRenewOnAttestation", false);
  in.is_active = GetBool(body, "isActive", true);
  return in;
}

lifecycle::ReviewChecklistInput ChecklistInputOf(const json::object& body) {
  lifecycle::ReviewChecklistInput in;
  in.name = GetString(body, "name");
  in.hub_id = OptUuidOf(body, "hubId");
  if (const auto* items = body.if_contains("items"); items && items->is_array()) {
    for (const auto& v : items->as_array()) {
      const auto& o = v.as_object();
      lifecycle::ChecklistItemInput item;
      item.id = GetOptString(o, "id");
      item.text = GetString(o, "text");
      item.required = GetBool(o, "required", true);
      in.items.push_back(std::move(item));
    }
  }
  return in;
}

}  // namespace

void AddLifecycleRoutes(Router& router, const Services& s) {
  const lifecycle::ExpiryTemplateService& templates = s.expiry_templates;
  const lifecycle::ReviewChecklistService& checklists = s.review_checklists;

  router.Add({Method::kGet,
              "/api/expiry-templates",
              Auth::kUser,
              "",
              [&templates](RequestContext& ctx) {
                const auto active = ctx.request.QueryParam("activeOnly");
                if (active && *active != "true" && *active != "false")
                  return Problem(ctx, Error::Validation({{"activeOnly", "must be true or false"}}));
                auto list = templates.List(ctx.Caller(), active && *active == "true");
                if (!list) return Problem(ctx, list.error());
                json::array out;
                for (const auto& t : *list) out.push_back(TemplateJson(t));
                return JsonResponse(200, out);
              },
              {.summary = "Expiry templates of the tenant, by name ignoring case.",
               .tag = "expiry-templates",
               .response = Schema::Array(TemplateSchema()),
               .query = {{"activeOnly", Schema::Boolean(), false, "only active templates (default false)"}},
               .errors = {400}}});

  router.Add({Method::kGet,
              "/api/expiry-templates/default",
              Auth::kUser,
              "",
              [&templates](RequestContext& ctx) {
                auto t = templates.GetDefault(ctx.Caller());
                if (!t) return Problem(ctx, t.error());
                return JsonResponse(200, TemplateJson(*t));
              },
              {.summary = "The tenant's default expiry template; 404 when there is none.",
               .tag = "expiry-templates",
               .response = TemplateSchema(),
               .errors = {404}}});

  router.Add({Method::kGet,
              "/api/expiry-templates/{id}",
              Auth::kUser,
              "",
              [&templates](RequestContext& ctx) {
                auto t = templates.Get(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                if (!t) return Problem(ctx, t.error());
                return JsonResponse(200, TemplateJson(*t));
              },
              {.summary = "One expiry template.",
               .tag = "expiry-templates",
               .response = TemplateSchema(),
               .errors = {404},
               .path_params = {{"id", Schema::Uuid()}}}});

  router.Add({Method::kGet,
              "/api/expiry-templates/{id}/usage-stats",
              Auth::kUser,
              "",
              [&templates](RequestContext& ctx) {
                auto u = templates.UsageStats(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                if (!u) return Problem(ctx, u.error());
                return JsonResponse(200, json::object{{"templateId", u->template_id},
                                                      {"entryCount", u->entry_count},
                                                      {"hubCount", u->hub_count},
                                                      {"entriesViaHubDefault", u->entries_via_hub_default}});
              },
              {.summary = "How many entries and hubs use the template.",
               .tag = "expiry-templates",
               .response = UsageSchema(),
               .errors = {404},
               .path_params = {{"id", Schema::Uuid()}}}});

  static const Schema kTemplateRequest = Schema::Object({
      Required("name", Schema::String()
                           .MinLength(1)
                           .MaxLength(static_cast<int64_t>(lifecycle::kMaxTemplateNameLength))
                           .Describe("unique in the tenant, ignoring case; surrounding blanks are trimmed")),
      Optional("description", Schema::String().MaxLength(2000).Nullable()),
      Required("expiryDays", Schema::Integer().Min(1).Max(lifecycle::kMaxExpiryDays)),
      Optional("warningDays",
               Schema::Integer().Min(0).Max(lifecycle::kMaxWarningDays).Describe("below expiryDays; default 0")),
      Optional("graceDays", Schema::Integer().Min(0).Max(lifecycle::kMaxGraceDays).Describe("default 0")),
      Optional("reviewRequired", Schema::Boolean().Describe("default false")),
      Optional("reviewType", ReviewTypeSchema().Nullable().Describe("required when reviewRequired")),
      Optional("checklistId", Schema::Uuid().Nullable().Describe("a review checklist of the tenant")),
      Optional("autoRenewOnAttestation", Schema::Boolean().Describe("default false")),
      Optional("isActive", Schema::Boolean().Describe("default true")),
  });

  router.Add({Method::kPost,
              "/api/expiry-templates",
              Auth::kTenantAdmin,
              "",
              [&templates](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kTemplateRequest);
                if (!body) return Problem(ctx, body.error());
                auto t = templates.Create(ctx.Caller(), TemplateInputOf(*body));
                if (!t) return Problem(ctx, t.error());
                return JsonResponse(201, TemplateJson(*t));
              },
              {.summary = "Create an expiry template (global admin). 409 template_name_taken when the tenant has "
                          "a template of that name, ignoring case.",
               .tag = "expiry-templates",
               .request = kTemplateRequest,
               .response = TemplateSchema(),
               .success_status = 201,
               .errors = {409}}});

  router.Add({Method::kPut,
              "/api/expiry-templates/{id}",
              Auth::kTenantAdmin,
              "",
              [&templates](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kTemplateRequest);
                if (!body) return Problem(ctx, body.error());
                auto t = templates.Update(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")), TemplateInputOf(*body));
                if (!t) return Problem(ctx, t.error());
                return JsonResponse(200, TemplateJson(*t));
              },
              {.summary = "Replace an expiry template (global admin); optional fields left out take their "
                          "defaults. isDefault is changed only by set-default.",
               .tag = "expiry-templates",
               .request = kTemplateRequest,
               .response = TemplateSchema(),
               .errors = {404, 409},
               .path_params = {{"id", Schema::Uuid()}}}});

  router.Add({Method::kDelete,
              "/api/expiry-templates/{id}",
              Auth::kUser,
              "",
              [&templates](RequestContext& ctx) {
                auto done = templates.Delete(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                if (!done) return Problem(ctx, done.error());
                return NoContent();
              },
              {.summary = "Delete an expiry template (global admin). 409 template_in_use while an entry or a "
                          "hub uses it.",
               .tag = "expiry-templates",
               .success_status = 204,
               .errors = {404, 409},
               .path_params = {{"id", Schema::Uuid()}}}});

  router.Add({Method::kPost,
              "/api/expiry-templates/{id}/set-default",
              Auth::kUser,
              "",
              [&templates](RequestContext& ctx) {
                auto t = templates.SetDefault(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                if (!t) return Problem(ctx, t.error());
                return JsonResponse(200, TemplateJson(*t));
              },
              {.summary = "Make the template the tenant's only default (global admin).",
               .tag = "expiry-templates",
               .response = TemplateSchema(),
               .errors = {404},
               .path_params = {{"id", Schema::Uuid()}}}});

  router.Add(Aliased({"/review-checklists"},
                     {Method::kGet,
                      "/api/review-checklists",
                      Auth::kUser,
                      "",
                      [&checklists](RequestContext& ctx) {
                        auto hub = ctx.request.QueryParam("hubId");
                        if (hub && !IsUuid(*hub)) return Problem(ctx, Error::Validation({{"hubId", "must be a UUID"}}));
                        if (hub) hub = CanonicalUuid(*hub);
                        auto list = checklists.List(ctx.Caller(), hub);
                        if (!list) return Problem(ctx, list.error());
                        json::array out;
                        for (const auto& c : *list) out.push_back(ChecklistJson(c));
                        return JsonResponse(200, out);
                      },
                      {.summary = "Review checklists of the tenant, by name; with hubId, that hub's and the "
                                  "tenant-wide ones.",
                       .tag = "review-checklists",
                       .response = Schema::Array(ChecklistSchema()),
                       .query = {{"hubId", Schema::Uuid(), false, "only this hub's and tenant-wide checklists"}},
                       .errors = {400}}}));

  static const Schema kChecklistRequest = Schema::Object({
      Required("name",
               Schema::String().MinLength(1).MaxLength(static_cast<int64_t>(lifecycle::kMaxChecklistNameLength))),
      Optional("hubId", Schema::Uuid().Nullable().Describe("a hub of the tenant; absent or null: tenant-wide")),
      Required("items",
               Schema::Array(Schema::Object({
                                 Optional("id", Schema::Uuid().Describe("on update: keeps an existing item's id")),
                                 Required("text", Schema::String().MinLength(1).MaxLength(
                                                      static_cast<int64_t>(lifecycle::kMaxChecklistItemLength))),
                                 Optional("required", Schema::Boolean().Describe("default true")),
                             }))
                   .MinItems(1)
                   .MaxItems(static_cast<int64_t>(lifecycle::kMaxChecklistItems))),
  });

  router.Add(Aliased({"/review-checklists"},
                     {Method::kPost,
                      "/api/review-checklists",
                      Auth::kTenantAdmin,
                      "",
                      [&checklists](RequestContext& ctx) {
                        auto body = ParseBody(ctx.request, kChecklistRequest);
                        if (!body) return Problem(ctx, body.error());
                        auto c = checklists.Create(ctx.Caller(), ChecklistInputOf(*body));
                        if (!c) return Problem(ctx, c.error());
                        return JsonResponse(201, ChecklistJson(*c));
                      },
                      {.summary = "Create a review checklist (global admin); item ids are assigned by the server.",
                       .tag = "review-checklists",
                       .request = kChecklistRequest,
                       .response = ChecklistSchema(),
                       .success_status = 201}}));

  router.Add(Aliased({"/review-checklists/{id}"},
                     {Method::kPut,
                      "/api/review-checklists/{id}",
                      Auth::kTenantAdmin,
                      "",
                      [&checklists](RequestContext& ctx) {
                        auto body = ParseBody(ctx.request, kChecklistRequest);
                        if (!body) return Problem(ctx, body.error());
                        auto c = checklists.Update(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")),
                                                   ChecklistInputOf(*body));
                        if (!c) return Problem(ctx, c.error());
                        return JsonResponse(200, ChecklistJson(*c));
                      },
                      {.summary = "Replace a review checklist (global admin). Items sent with the id of one of its "
                                  "items keep that id; items without an id get a new one.",
                       .tag = "review-checklists",
                       .request = kChecklistRequest,
                       .response = ChecklistSchema(),
                       .errors = {404},
                       .path_params = {{"id", Schema::Uuid()}}}}));
  router.Add(Aliased({"/review-checklists/{id}"},
                     {Method::kDelete,
                      "/api/review-checklists/{id}",
                      Auth::kUser,
                      "",
                      [&checklists](RequestContext& ctx) {
                        auto done = checklists.Delete(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                        if (!done) return Problem(ctx, done.error());
                        return NoContent();
                      },
                      {.summary = "Delete a review checklist (global admin). 409 checklist_in_use while an expiry "
                                  "template refers to it.",
                       .tag = "review-checklists",
                       .success_status = 204,
                       .errors = {404, 409},
                       .path_params = {{"id", Schema::Uuid()}}}}));

  const lifecycle::ExpiryService& expiry = s.expiry;

  router.Add({Method::kGet,
              "/api/entries/{entryId}/expiry-status",
              Auth::kUser,
              "",
              [&expiry](RequestContext& ctx) {
                auto st = expiry.ExpiryStatus(ctx.Caller(), CanonicalUuid(ctx.PathParam("entryId")));
                if (!st) return Problem(ctx, st.error());
                return JsonResponse(200, ExpiryStatusJson(*st));
              },
              {.summary = "The entry's expiry status now (entry Viewer+), from its expiry date and the windows of "
                          "the template that applies.",
               .tag = "expiry",
               .response = ExpiryStatusSchema(),
               .errors = {404},
               .path_params = {{"entryId", Schema::Uuid()}}}});

  router.Add({Method::kGet,
              "/api/entries/{entryId}/expiry-config",
              Auth::kUser,
              "",
              [&expiry](RequestContext& ctx) {
                auto c = expiry.ExpiryConfig(ctx.Caller(), CanonicalUuid(ctx.PathParam("entryId")));
                if (!c) return Problem(ctx, c.error());
                json::object out = ResolvedJson(c->resolved);
                out["warningDays"] = c->warning_days;
                out["graceDays"] = c->grace_days;
                out["expiryDays"] = c->expiry_days;
                return JsonResponse(200, out);
              },
              {.summary = "The resolved expiry template of the entry (entry Viewer+) and its windows; "
                          "may be inherited from the hub or the tenant.",
               .tag = "expiry",
               .response = ExpiryConfigSchema(),
               .errors = {404},
               .path_params = {{"entryId", Schema::Uuid()}}}});

  router.Add({Method::kGet,
              "/api/entries/{entryId}/effective-template",
              Auth::kUser,
              "",
              [&expiry](RequestContext& ctx) {
                auto r = expiry.EffectiveTemplate(ctx.Caller(), CanonicalUuid(ctx.PathParam("entryId")));
                if (!r) return Problem(ctx, r.error());
                return JsonResponse(200, ResolvedJson(*r));
              },
              {.summary = "The expiry template that applies to the entry (entry Viewer+): its custom one, else "
                          "its hub's default, else the tenant's default, else none.",
               .tag = "expiry",
               .response = ResolvedSchema(),
               .errors = {404},
               .path_params = {{"entryId", Schema::Uuid()}}}});

  static const Schema kChangeTemplateRequest = Schema::Object({
      Required("templateId", Schema::Uuid().Describe("an expiry template of the tenant")),
      Optional("reason", Schema::String()
                             .MaxLength(static_cast<int64_t>(lifecycle::kMaxTemplateChangeReasonLength))
                             .Nullable()
                             .Describe("recorded with the change")),
  });

  router.Add({Method::kPost,
              "/api/entries/{entryId}/change-template",
              Auth::kUser,
              "",
              [&expiry](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kChangeTemplateRequest);
                if (!body) return Problem(ctx, body.error());
                auto r = expiry.ChangeTemplate(ctx.Caller(), CanonicalUuid(ctx.PathParam("entryId")),
                                               GetString(*body, "templateId"), GetOptString(*body, "reason"));
                if (!r) return Problem(ctx, r.error());
                return JsonResponse(200, ResolvedJson(*r));
              },
              {.summary = "Give the entry a custom expiry template (entry Editor+); returns the new effective "
                          "template (source entry). 400 when templateId is not a template of the tenant.",
               .tag = "expiry",
               .request = kChangeTemplateRequest,
               .response = ResolvedSchema(),
               .errors = {403, 404},
               .path_params = {{"entryId", Schema::Uuid()}}}});
}

}  // namespace credence::http
