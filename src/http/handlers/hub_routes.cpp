#include "core/ids.h"
#include "http/handlers/kb_json.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"
#include "kb/hub_service.h"
#include "platform/taxonomy.h"

namespace credence::http {
namespace json = boost::json;

namespace {

std::optional<std::string> OptUuid(const json::object& body, std::string_view key) {
  auto v = GetOptString(body, key);
  if (v) return CanonicalUuid(*v);
  return v;
}

const Schema& HubKeySchema() {
  static const Schema kSchema = Schema::String().MinLength(1).MaxLength(63).Check(
      IsSlug, "must be URL-safe: lowercase letters, digits and inner hyphens");
  return kSchema;
}

}  // namespace

void AddHubRoutes(Router& router, const Services& s) {
  const kb::HubService& hubs = s.hubs;

  router.Add({Method::kGet, "/api/hubs", Auth::kUser, "",
              [&hubs](RequestContext& ctx) {
                json::array out;
                for (const auto& hub : hubs.List(ctx.Caller())) out.push_back(HubJson(hub));
                return JsonResponse(200, out);
              },
              {.summary = "Hubs the caller can view.", .tag = "hubs", .response = Schema::Array(HubSchema())}});

  router.Add({Method::kGet, "/api/hubs/{key}", Auth::kUser, "",
              [&hubs](RequestContext& ctx) {
                auto hub = hubs.Get(ctx.Caller(), ctx.PathParam("key"));
                if (!hub) return Problem(ctx, hub.error());
                return JsonResponse(200, HubJson(*hub));
              },
              {.summary = "A hub (Hub Viewer+; 404 for a hub the caller cannot view).",
               .tag = "hubs",
               .response = HubSchema(),
               .errors = {404}}});

  router.Add({Method::kGet, "/api/hubs/{key}/permissions", Auth::kUser, "",
              [&hubs](RequestContext& ctx) {
                auto p = hubs.Permissions(ctx.Caller(), ctx.PathParam("key"));
                if (!p) return Problem(ctx, p.error());
                return JsonResponse(200, {{"role", identity::AccessLevelName(p->level)},
                                          {"isGlobalAdmin", p->is_global_admin}});
              },
              {.summary = "The caller's role in the hub.",
               .tag = "hubs",
               .response = Schema::Object({Required("role", Schema::String().Enum({"Viewer", "Editor", "Admin"})),
                                           Required("isGlobalAdmin", Schema::Boolean())}),
               .errors = {404}}});

  static const Schema kCreateHub = Schema::Object({
      Required("key", HubKeySchema()),
      Required("name", Schema::String().MinLength(1).MaxLength(200)),
      Required("defaultExpiryDays", Schema::Integer().Min(1).Max(3650)),
      Optional("categoryId", Schema::Uuid().Nullable().Describe("null or left out: none")),
      Optional("tagIds", Schema::Array(Schema::Uuid()).MaxItems(100)),
      Optional("previewImage", Schema::String().MaxLength(2048).Format("uri").Nullable().Describe("null: none")),
      Optional("defaultOrgRole", Schema::String().Enum({"Viewer", "Editor"}).Nullable().Describe("null: none")),
      Optional("defaultExpiryTemplateId", Schema::Uuid().Nullable().Describe("null: none")),
  });
  const platform::TaxonomyService& taxonomy = s.taxonomy;
  router.Add({Method::kPost,
              "/api/hubs",
              Auth::kUser,
              "",
              [&hubs, &taxonomy](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kCreateHub);
                if (!body) return Problem(ctx, body.error());
                kb::NewHub request;
                request.key = GetString(*body, "key");
                request.name = GetString(*body, "name");
                request.default_expiry_days = static_cast<int>(GetInt(*body, "defaultExpiryDays"));
                request.category_id = OptUuid(*body, "categoryId");
                for (auto& id : GetStringArray(*body, "tagIds")) request.tag_ids.push_back(CanonicalUuid(id));
                request.preview_image = GetOptString(*body, "previewImage");
                request.default_org_role = GetOptString(*body, "defaultOrgRole");
                request.default_expiry_template_id = OptUuid(*body, "defaultExpiryTemplateId");
                // The category and tags must be the tenant's (docs/configuration.md).
                if (auto refs = taxonomy.CheckReferences(ctx.Caller(), request.category_id, request.tag_ids); !refs)
                  return Problem(ctx, refs.error());
                auto hub = hubs.Create(ctx.Caller(), request);
                if (!hub) return Problem(ctx, hub.error());
                return JsonResponse(201, HubJson(*hub));
              },
              {.summary = "Create a hub (global admin). The creator owns it. categoryId and tagIds must name the "
                          "tenant's categories and tags (400 otherwise).",
               .tag = "hubs",
               .request = kCreateHub,
               .response = HubSchema(),
               .success_status = 201,
               .errors = {409}}});

  static const Schema kUpdateHub = Schema::Object({
      Required("name", Schema::String().MinLength(1).MaxLength(200)),
      Required("defaultExpiryDays", Schema::Integer().Min(1).Max(3650)),
      // PUT replaces: a field left out or null (as GET answers it) is none.
      Optional("previewImage", Schema::String().MaxLength(2048).Format("uri").Nullable().Describe("null: none")),
      Optional("defaultOrgRole", Schema::String().Enum({"Viewer", "Editor"}).Nullable().Describe("null: none")),
      Optional("defaultExpiryTemplateId", Schema::Uuid().Nullable().Describe("null: none")),
  });
  router.Add({Method::kPut, "/api/hubs/{key}", Auth::kUser, "",
              [&hubs](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kUpdateHub);
                if (!body) return Problem(ctx, body.error());
                kb::HubUpdate update;
                update.name = GetString(*body, "name");
                update.default_expiry_days = static_cast<int>(GetInt(*body, "defaultExpiryDays"));
                update.preview_image = GetOptString(*body, "previewImage");
                update.default_org_role = GetOptString(*body, "defaultOrgRole");
                update.default_expiry_template_id = OptUuid(*body, "defaultExpiryTemplateId");
                auto hub = hubs.Update(ctx.Caller(), ctx.PathParam("key"), update);
                if (!hub) return Problem(ctx, hub.error());
                return JsonResponse(200, HubJson(*hub));
              },
              {.summary = "Update a hub (Hub Admin). Optional fields left out are cleared.",
               .tag = "hubs",
               .request = kUpdateHub,
               .response = HubSchema(),
               .errors = {404}}});

  router.Add({Method::kDelete, "/api/hubs/{key}", Auth::kUser, "",
              [&hubs](RequestContext& ctx) {
                if (auto deleted = hubs.Delete(ctx.Caller(), ctx.PathParam("key")); !deleted)
                  return Problem(ctx, deleted.error());
                return NoContent();
              },
              {.summary = "Delete a hub with all its entries (the owner or a global admin); 422 guard_denied when a "
                          "plugin action guard (Hub.Delete) denies it (nothing is deleted).",
               .tag = "hubs",
               .success_status = 204,
               .errors = {404, 422}}});

  static const Schema kTransfer = Schema::Object({Required("newOwnerId", Schema::Uuid())});
  router.Add({Method::kPost, "/api/hubs/{key}/transfer-ownership", Auth::kUser, "",
              [&hubs](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kTransfer);
                if (!body) return Problem(ctx, body.error());
                auto hub = hubs.TransferOwnership(ctx.Caller(), ctx.PathParam("key"),
                                                  CanonicalUuid(GetString(*body, "newOwnerId")));
                if (!hub) return Problem(ctx, hub.error());
                return JsonResponse(200, HubJson(*hub));
              },
              {.summary = "Give the hub to another user of the tenant (Hub Admin).",
               .tag = "hubs",
               .request = kTransfer,
               .response = HubSchema(),
               .errors = {404}}});
}

}  // namespace credence::http
