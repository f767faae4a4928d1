// Entry templates (/api/templates, docs/templates.md): list with search,
// category, filter and page; detail; preview; apply; create, update,
// delete; rate; categories; export and import between tenants.
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "core/ids.h"
#include "http/handlers/chain_json.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"
#include "kb/template_service.h"

namespace credence::http {
namespace json = boost::json;

namespace {

constexpr char kTag[] = "templates";

json::array NodesJson(const std::vector<std::string>& nodes) {
  json::array out;
  for (const auto& n : nodes) out.push_back(json::parse(n));
  return out;
}

json::object TemplateJson(const kb::EntryTemplate& t, bool with_blocks) {
  json::object o{{"id", t.id},
                 {"name", t.name},
                 {"description", OptJson(t.description)},
                 {"category", OptJson(t.category)},
                 {"language", t.language},
                 {"isOfficial", t.is_official},
                 {"ownerId", t.owner_id},
                 {"usageCount", t.usage_count},
                 {"averageRating", t.average_rating},
                 {"ratingCount", t.rating_count},
                 {"blockCount", static_cast<int64_t>(t.blocks.size())},
                 {"createdAt", FormatTimestamp(t.created_at)},
                 {"updatedAt", FormatTimestamp(t.updated_at)}};
  if (with_blocks) {
    o["blocks"] = NodesJson(t.blocks);
  } else {
    o.erase("blockCount");
  }
  return o;
}

Schema NodeSchema() {
  return Schema::FreeObject().Describe("a top-level editor node (ProseMirror/TipTap) with attrs.blockId");
}

std::vector<Property> SummaryProperties() {
  return {
      Required("id", Schema::Uuid()),
      Required("name", Schema::String()),
      Required("description", Schema::String().Nullable()),
      Required("category", Schema::String().Nullable()),
      Required("language", Schema::String()),
      Required("isOfficial", Schema::Boolean().Describe("set by global admins")),
      Required("ownerId", Schema::Uuid()),
      Required("usageCount", Schema::Integer().Min(0).Describe("how many times it was applied")),
      Required("averageRating", Schema::Number().Describe("1 to 5, two decimals; 0 without ratings")),
      Required("ratingCount", Schema::Integer().Min(0)),
      Required("createdAt", Schema::Timestamp()),
      Required("updatedAt", Schema::Timestamp()),
  };
}

Schema SummarySchema() { return Schema::Object(SummaryProperties()); }

Schema DetailSchema() {
  auto p = SummaryProperties();
  p.push_back(Required("blockCount", Schema::Integer().Min(1)));
  p.push_back(Required("blocks", Schema::Array(NodeSchema())));
  return Schema::Object(std::move(p));
}

Schema AppliedSchema(const char* block_ids) {
  return Schema::Object({
      Required("templateId", Schema::Uuid()),
      Required("language", Schema::String()),
      Required("blocks", Schema::Array(NodeSchema()).Describe(block_ids)),
      Required("content", Schema::String().Describe("the editor document {\"type\":\"doc\",\"content\":[blocks]} "
                                                    "serialized, as entries take it")),
  });
}

json::object AppliedJson(const kb::AppliedTemplate& a) {
  return {{"templateId", a.template_id},
          {"language", a.language},
          {"blocks", NodesJson(a.blocks)},
          {"content", a.content}};
}

Schema TemplateRequestSchema() {
  return Schema::Object({
      Required("name", Schema::String().MinLength(1).MaxLength(static_cast<int64_t>(kb::kMaxTemplateNameLength))),
      Optional("description",
               Schema::String().MaxLength(static_cast<int64_t>(kb::kMaxTemplateDescriptionLength)).Nullable()),
      Optional("category", Schema::String()
                               .MaxLength(static_cast<int64_t>(kb::kMaxTemplateCategoryLength))
                               .Nullable()
                               .Describe("free text; blank or null: none")),
      Optional("language", Schema::String().MinLength(2).MaxLength(16).Describe("default en")),
      Required("blocks", Schema::Array(NodeSchema())
                             .MinItems(1)
                             .MaxItems(static_cast<int64_t>(kb::kMaxTemplateBlocks))
                             .Describe("top-level editor nodes; missing or repeated attrs.blockId are assigned")),
      Optional("isOfficial", Schema::Boolean().Describe("global admins only; on update, absent keeps it")),
  });
}

kb::TemplateInput InputOf(const json::object& body) {
  kb::TemplateInput in;
  in.name = GetString(body, "name");
  in.description = GetOptString(body, "description");
  in.category = GetOptString(body, "category");
  in.language = GetString(body, "language", "en");
  if (const auto* blocks = body.if_contains("blocks"); blocks && blocks->is_array())
    for (const auto& node : blocks->get_array()) in.blocks.push_back(json::serialize(node));
  in.is_official = GetOptBool(body, "isOfficial");
  return in;
}

Schema PortableSchema() {
  return Schema::Object({
      Required("format", Schema::String().Enum({kb::kTemplateExportFormat})),
      Required("version", Schema::Integer().Describe("1; other versions are refused (unsupported_template_version)")),
      Optional("sourceTemplateId", Schema::String().Describe("the template's id where it was exported; not kept")),
      Required("template",
               Schema::Object({
                   Required("name", Schema::String()),
                   Optional("description", Schema::String().Nullable()),
                   Optional("category", Schema::String().Nullable()),
                   Optional("language", Schema::String()),
                   Optional("isOfficial", Schema::Boolean()),
                   Required("blocks", Schema::Array(NodeSchema()).Describe("block ids are replaced on import")),
               })),
  });
}

Result<kb::TemplateQuery> QueryOf(const HttpRequest& request) {
  kb::TemplateQuery q;
  std::vector<FieldError> errors;
  q.search = request.QueryParam("search").value_or("");
  q.category = request.QueryParam("category");
  if (q.category && q.category->empty()) q.category.reset();
  if (auto f = request.QueryParam("filter")) {
    auto parsed = kb::ParseTemplateFilter(*f);
    if (parsed)
      q.filter = *parsed;
    else
      errors.push_back({"filter", "must be all, mine, official or community"});
  }
  auto page = IntParam(request, "page", 1);
  if (!page || *page < 1 || *page > kb::kMaxTemplatePage)
    errors.push_back({"page", "must be an integer from 1 to " + std::to_string(kb::kMaxTemplatePage)});
  else
    q.page = *page;
  auto size = IntParam(request, "pageSize", kb::kDefaultTemplatePageSize);
  if (!size || *size < 1 || *size > kb::kMaxTemplatePageSize)
    errors.push_back({"pageSize", "must be an integer from 1 to " + std::to_string(kb::kMaxTemplatePageSize)});
  else
    q.page_size = *size;
  if (!errors.empty()) return Error::Validation(std::move(errors));
  return q;
}

std::string IdOf(const RequestContext& ctx) { return CanonicalUuid(ctx.PathParam("id")); }

}  // namespace

void AddTemplateRoutes(Router& router, const Services& s) {
  const kb::TemplateService& templates = s.templates;
  const std::vector<std::pair<std::string, Schema>> id_param = {{"id", Schema::Uuid()}};

  router.Add({Method::kGet,
              "/api/templates",
              Auth::kUser,
              "",
              [&templates](RequestContext& ctx) {
                auto q = QueryOf(ctx.request);
                if (!q) return Problem(ctx, q.error());
                auto page = templates.List(ctx.Caller(), *q);
                if (!page) return Problem(ctx, page.error());
                json::array out;
                for (const auto& t : page->items) out.push_back(TemplateJson(t, false));
                return JsonResponse(200, out).WithHeader("X-Total-Count", std::to_string(page->total));
              },
              {.summary = "Templates of the tenant, by name ignoring case, one page at a time; the header "
                          "X-Total-Count holds the number of every match.",
               .tag = kTag,
               .response = Schema::Array(SummarySchema()),
               .query = {{"search", Schema::String().MaxLength(static_cast<int64_t>(kb::kMaxTemplateNameLength)),
                          false, "a part of the name, ignoring case"},
                         {"category", Schema::String(), false, "only this category (exact)"},
                         {"filter", Schema::String().Enum({"all", "mine", "official", "community"}), false,
                          "all (default), mine (owned by the caller), official, community (not official)"},
                         {"page", Schema::Integer().Min(1).Max(kb::kMaxTemplatePage), false, "default 1"},
                         {"pageSize", Schema::Integer().Min(1).Max(kb::kMaxTemplatePageSize), false,
                          "default 30, at most 100"}},
               .errors = {400, 403}}});

  router.Add({Method::kGet,
              "/api/templates/categories",
              Auth::kUser,
              "",
              [&templates](RequestContext& ctx) {
                auto list = templates.Categories(ctx.Caller());
                if (!list) return Problem(ctx, list.error());
                return JsonResponse(200, ToJsonArray(*list));
              },
              {.summary = "The distinct categories the tenant's templates use, sorted.",
               .tag = kTag,
               .response = Schema::Array(Schema::String()),
               .errors = {403}}});

  router.Add({Method::kGet,
              "/api/templates/{id}",
              Auth::kUser,
              "",
              [&templates](RequestContext& ctx) {
                auto t = templates.Get(ctx.Caller(), IdOf(ctx));
                if (!t) return Problem(ctx, t.error());
                return JsonResponse(200, TemplateJson(*t, true));
              },
              {.summary = "One template with its blocks.",
               .tag = kTag,
               .response = DetailSchema(),
               .errors = {403, 404},
               .path_params = id_param}});

  router.Add({Method::kGet,
              "/api/templates/{id}/preview",
              Auth::kUser,
              "",
              [&templates](RequestContext& ctx) {
                auto a = templates.Preview(ctx.Caller(), IdOf(ctx));
                if (!a) return Problem(ctx, a.error());
                return JsonResponse(200, AppliedJson(*a));
              },
              {.summary = "The editor document the template's blocks make (their own block ids); counts no use.",
               .tag = kTag,
               .response = AppliedSchema("the template's blocks with their own block ids"),
               .errors = {403, 404},
               .path_params = id_param}});

  router.Add({Method::kPost,
              "/api/templates/{id}/apply",
              Auth::kUser,
              "",
              [&templates](RequestContext& ctx) {
                auto a = templates.Apply(ctx.Caller(), IdOf(ctx));
                if (!a) return Problem(ctx, a.error());
                return JsonResponse(200, AppliedJson(*a));
              },
              {.summary = "The template's blocks ready for the editor, each with a fresh block id; counts one use "
                          "(usageCount) and records a usage event. No body.",
               .tag = kTag,
               .response = AppliedSchema("fresh block ids, unique on every apply"),
               .errors = {403, 404},
               .path_params = id_param}});

  const Schema request = TemplateRequestSchema();
  router.Add({Method::kPost,
              "/api/templates",
              Auth::kUser,
              "",
              [&templates, request](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, request);
                if (!body) return Problem(ctx, body.error());
                auto t = templates.Create(ctx.Caller(), InputOf(*body));
                if (!t) return Problem(ctx, t.error());
                return JsonResponse(201, TemplateJson(*t, true));
              },
              {.summary = "Create a template; the caller owns it. isOfficial true needs a global admin (403).",
               .tag = kTag,
               .request = request,
               .response = DetailSchema(),
               .success_status = 201,
               .errors = {400, 403}}});

  router.Add({Method::kPut,
              "/api/templates/{id}",
              Auth::kUser,
              "",
              [&templates, request](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, request);
                if (!body) return Problem(ctx, body.error());
                auto t = templates.Update(ctx.Caller(), IdOf(ctx), InputOf(*body));
                if (!t) return Problem(ctx, t.error());
                return JsonResponse(200, TemplateJson(*t, true));
              },
              {.summary = "Replace a template (its owner or a global admin); fields left out take their defaults, "
                          "but an absent isOfficial keeps the flag. Changing isOfficial needs a global admin.",
               .tag = kTag,
               .request = request,
               .response = DetailSchema(),
               .errors = {400, 403, 404},
               .path_params = id_param}});

  router.Add({Method::kDelete,
              "/api/templates/{id}",
              Auth::kUser,
              "",
              [&templates](RequestContext& ctx) {
                auto done = templates.Delete(ctx.Caller(), IdOf(ctx));
                if (!done) return Problem(ctx, done.error());
                return NoContent();
              },
              {.summary = "Delete a template (its owner or a global admin), with its ratings and usage events.",
               .tag = kTag,
               .success_status = 204,
               .errors = {403, 404},
               .path_params = id_param}});

  static const Schema kRateRequest = Schema::Object({
      Required("stars", Schema::Integer().Min(1).Max(5).Describe("1 to 5; a second rating replaces the first")),
  });
  router.Add({Method::kPost,
              "/api/templates/{id}/rate",
              Auth::kUser,
              "",
              [&templates](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kRateRequest);
                if (!body) return Problem(ctx, body.error());
                auto t = templates.Rate(ctx.Caller(), IdOf(ctx), GetInt(*body, "stars"));
                if (!t) return Problem(ctx, t.error());
                return JsonResponse(200, TemplateJson(*t, true));
              },
              {.summary = "Rate a template: one rating per user, which a later one changes. Answers the template "
                          "with its new averageRating and ratingCount.",
               .tag = kTag,
               .request = kRateRequest,
               .response = DetailSchema(),
               .errors = {400, 403, 404},
               .path_params = id_param}});

  router.Add({Method::kGet,
              "/api/templates/{id}/export",
              Auth::kTenantAdmin,
              "",
              [&templates](RequestContext& ctx) {
                auto doc = templates.Export(ctx.Caller(), IdOf(ctx));
                if (!doc) return Problem(ctx, doc.error());
                return JsonResponse(200, json::parse(*doc));
              },
              {.summary = "The template as a portable, versioned document (global admin), for import into another "
                          "tenant: format, version 1, the template's fields and blocks; no owner, uses or ratings.",
               .tag = kTag,
               .response = PortableSchema(),
               .errors = {403, 404},
               .path_params = id_param}});

  static const Schema kPortable = PortableSchema();
  router.Add({Method::kPost,
              "/api/templates/import",
              Auth::kTenantAdmin,
              "",
              [&templates](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kPortable);
                if (!body) return Problem(ctx, body.error());
                auto t = templates.Import(ctx.Caller(), json::serialize(*body));
                if (!t) return Problem(ctx, t.error());
                return JsonResponse(201, TemplateJson(*t, true));
              },
              {.summary = "Import a portable template document (global admin): a new template of the caller's "
                          "tenant with a new id and new block ids, owned by the caller, with no uses or ratings. "
                          "400 unsupported_template_version for a version other than 1.",
               .tag = kTag,
               .request = kPortable,
               .response = DetailSchema(),
               .success_status = 201,
               .errors = {400, 403}}});
}

}  // namespace credence::http
