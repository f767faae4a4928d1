// Tenant configuration (docs/configuration.md): languages (/admin/languages
// and /api/admin/languages), categories (/categories, /api/categories),
// tags (/tags, /api/tags), block-type heuristics (/block-type-heuristics,
// /api/blocktypeheuristics), style rules (/admin/style-rules,
// /api/admin/style-rules) and the category and tags of entries. Every route
// is declared once with its alias path (decisions.md 9).
#include "core/ids.h"
#include "http/handlers/routes.h"
#include "http/json_io.h"
#include "http/problem.h"
#include "http/router.h"
#include "kb/document.h"
#include "kb/entry_service.h"
#include "platform/block_heuristics.h"
#include "platform/glossaries.h"
#include "platform/languages.h"
#include "platform/style_rules.h"
#include "platform/taxonomy.h"
#include "translation/document_translation.h"

namespace credence::http {
namespace json = boost::json;

namespace {

using platform::BlockHeuristic;
using platform::Language;
using platform::StyleRule;
using platform::TaxonomyItem;
using platform::TaxonomyKind;

template <typename T, typename F>
HttpResponse ListResponse(const RequestContext& ctx, const Result<std::vector<T>>& list, F to_json) {
  if (!list) return Problem(ctx, list.error());
  json::array out;
  for (const auto& item : *list) out.push_back(to_json(item));
  return JsonResponse(200, out);
}

// ---- languages ----

json::object LanguageJson(const Language& l) {
  return {{"code", l.code},
          {"displayName", l.display_name},
          {"isEnabled", l.is_enabled},
          {"isDefault", l.is_default},
          {"trigger", platform::TranslationTriggerName(l.trigger)},
          {"provider", OptJson(l.provider)},
          {"sortOrder", l.sort_order}};
}

Schema LanguageSchema() {
  return Schema::Object({
      Required("code", Schema::String().Describe("BCP 47, as spelled in /api/tenant/known-languages")),
      Required("displayName", Schema::String()),
      Required("isEnabled", Schema::Boolean()),
      Required("isDefault", Schema::Boolean().Describe("exactly one language of a tenant is the default")),
      Required("trigger", Schema::String().Enum(platform::TranslationTriggerNames())),
      Required("provider", Schema::String().Nullable().Describe("the machine-translation provider, when set")),
      Required("sortOrder", Schema::Integer()),
  });
}

std::vector<Property> LanguageFields() {
  return {
      Optional("displayName", Schema::String().MinLength(1).MaxLength(100)),
      Optional("trigger", Schema::String().Enum(platform::TranslationTriggerNames())),
      Optional("provider", Schema::String().MaxLength(100).Nullable()),
      Optional("sortOrder", Schema::Integer().Min(-1000000).Max(1000000)),
      Optional("isEnabled", Schema::Boolean()),
  };
}

platform::LanguageInput LanguageInputOf(const json::object& body) {
  platform::LanguageInput in;
  in.code = GetString(body, "code");
  in.display_name = GetOptString(body, "displayName");
  if (auto t = GetOptString(body, "trigger")) in.trigger = platform::ParseTranslationTrigger(*t);
  if (const auto* p = body.if_contains("provider"))
    in.provider = p->is_string() ? std::optional<std::string>(std::string(p->as_string())) : std::nullopt;
  in.sort_order = GetOptInt(body, "sortOrder");
  in.is_enabled = GetOptBool(body, "isEnabled");
  return in;
}

// ---- categories and tags ----

json::object TaxonomyJson(const TaxonomyItem& t) {
  return {{"id", t.id},
          {"name", t.name},
          {"description", OptJson(t.description)},
          {"usageCount", t.usage_count},
          {"createdAt", FormatTimestamp(t.created_at)},
          {"updatedAt", FormatTimestamp(t.updated_at)}};
}

Schema TaxonomySchema() {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required("name", Schema::String()),
      Required("description", Schema::String().Nullable()),
      Required("usageCount", Schema::Integer().Min(0).Describe("hubs and entries that use it")),
      Required("createdAt", Schema::Timestamp()),
      Required("updatedAt", Schema::Timestamp()),
  });
}

const Schema& TaxonomyRequest() {
  static const Schema kSchema = Schema::Object({
      Required("name", Schema::String().MinLength(1).MaxLength(100).Describe(
                           "unique per tenant ignoring case; surrounding blanks are trimmed")),
      Optional("description", Schema::String().MaxLength(1000).Nullable()),
  });
  return kSchema;
}

json::object ClassificationJson(const std::string& entry_id, const platform::Classification& c) {
  return {{"entryId", entry_id}, {"categoryId", OptJson(c.category_id)}, {"tagIds", ToJsonArray(c.tag_ids)}};
}

Schema ClassificationSchema() {
  return Schema::Object({
      Required("entryId", Schema::Uuid()),
      Required("categoryId", Schema::Uuid().Nullable()),
      Required("tagIds", Schema::Array(Schema::Uuid()).Describe("by tag name")),
  });
}

void AddTaxonomyRoutes(Router& router, const platform::TaxonomyService& taxonomy, TaxonomyKind kind,
                       const std::string& path, const std::string& alias) {
  const std::string noun(platform::TaxonomyKindName(kind));
  const std::string tag = noun == "category" ? "categories" : "tags";
  router.Add(Aliased({alias}, {Method::kGet,
                               path,
                               Auth::kUser,
                               "",
                               [&taxonomy, kind](RequestContext& ctx) {
                                 return ListResponse(ctx, taxonomy.List(ctx.Caller(), kind), TaxonomyJson);
                               },
                               {.summary = "Every " + noun + " of the tenant with its usage count, by name.",
                                .tag = tag,
                                .response = Schema::Array(TaxonomySchema())}}));
  router.Add(Aliased({alias}, {Method::kPost,
                               path,
                               Auth::kTenantAdmin,
                               "",
                               [&taxonomy, kind](RequestContext& ctx) {
                                 auto body = ParseBody(ctx.request, TaxonomyRequest());
                                 if (!body) return Problem(ctx, body.error());
                                 auto item =
                                     taxonomy.Create(ctx.Caller(), kind,
                                                     {GetString(*body, "name"), GetOptString(*body, "description")});
                                 if (!item) return Problem(ctx, item.error());
                                 return JsonResponse(201, TaxonomyJson(*item));
                               },
                               {.summary = "Create a " + noun + " (global admin). 409 " + noun +
                                           "_name_taken when the tenant has one of that name, ignoring case.",
                                .tag = tag,
                                .request = TaxonomyRequest(),
                                .response = TaxonomySchema(),
                                .success_status = 201,
                                .errors = {409}}}));
  router.Add(Aliased({alias + "/{id}"}, {Method::kGet,
                                         path + "/{id}",
                                         Auth::kUser,
                                         "",
                                         [&taxonomy, kind](RequestContext& ctx) {
                                           auto item =
                                               taxonomy.Get(ctx.Caller(), kind, CanonicalUuid(ctx.PathParam("id")));
                                           if (!item) return Problem(ctx, item.error());
                                           return JsonResponse(200, TaxonomyJson(*item));
                                         },
                                         {.summary = "One " + noun + ".",
                                          .tag = tag,
                                          .response = TaxonomySchema(),
                                          .errors = {404},
                                          .path_params = {{"id", Schema::Uuid()}}}}));
  router.Add(Aliased({alias + "/{id}"},
                     {Method::kPut,
                      path + "/{id}",
                      Auth::kTenantAdmin,
                      "",
                      [&taxonomy, kind](RequestContext& ctx) {
                        auto body = ParseBody(ctx.request, TaxonomyRequest());
                        if (!body) return Problem(ctx, body.error());
                        auto item = taxonomy.Update(ctx.Caller(), kind, CanonicalUuid(ctx.PathParam("id")),
                                                    {GetString(*body, "name"), GetOptString(*body, "description")});
                        if (!item) return Problem(ctx, item.error());
                        return JsonResponse(200, TaxonomyJson(*item));
                      },
                      {.summary = "Rename or describe a " + noun + " (global admin); replaces both fields.",
                       .tag = tag,
                       .request = TaxonomyRequest(),
                       .response = TaxonomySchema(),
                       .errors = {404, 409},
                       .path_params = {{"id", Schema::Uuid()}}}}));
  router.Add(Aliased({alias + "/{id}"},
                     {Method::kDelete,
                      path + "/{id}",
                      Auth::kTenantAdmin,
                      "",
                      [&taxonomy, kind](RequestContext& ctx) {
                        const auto detach = ctx.request.QueryParam("detach");
                        if (detach && *detach != "true" && *detach != "false")
                          return Problem(ctx, Error::Validation({{"detach", "must be true or false"}}));
                        auto removed = taxonomy.Delete(ctx.Caller(), kind, CanonicalUuid(ctx.PathParam("id")),
                                                       detach && *detach == "true");
                        if (!removed) return Problem(ctx, removed.error());
                        return NoContent();
                      },
                      {.summary = "Delete a " + noun + " (global admin). In use by hubs or entries: 409 " + noun +
                                  "_in_use with usageCount, unless ?detach=true removes it from them.",
                       .tag = tag,
                       .success_status = 204,
                       .query = {{"detach", Schema::Boolean(), false,
                                  "remove it from the hubs and entries that use it (default false)"}},
                       .errors = {400, 404, 409},
                       .path_params = {{"id", Schema::Uuid()}}}}));
}

// ---- block-type heuristics ----

json::object HeuristicJson(const BlockHeuristic& h) {
  json::object pattern;
  if (h.text_pattern)
    pattern = {{"match", platform::TextMatchName(h.text_pattern->match)},
               {"text", h.text_pattern->text},
               {"caseSensitive", h.text_pattern->case_sensitive}};
  return {{"id", h.id},
          {"name", h.name},
          {"blockClass", h.block_class},
          {"nodeTypes", ToJsonArray(h.node_types)},
          {"textPattern", h.text_pattern ? json::value(std::move(pattern)) : json::value(nullptr)},
          {"priority", h.priority},
          {"translation", platform::BlockTranslationName(h.translation)},
          {"isEnabled", h.is_enabled},
          {"createdAt", FormatTimestamp(h.created_at)},
          {"updatedAt", FormatTimestamp(h.updated_at)}};
}

Schema TextPatternSchema() {
  return Schema::Object({
      Required("match", Schema::String().Enum({"Prefix", "Contains", "Exact"})),
      Required("text", Schema::String().MinLength(1).MaxLength(200).Describe("literal text, not a regular expression")),
      Optional("caseSensitive", Schema::Boolean().Describe("default false: ASCII letters compared ignoring case")),
  });
}

Schema HeuristicSchema() {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required("name", Schema::String()),
      Required("blockClass", Schema::String()),
      Required("nodeTypes", Schema::Array(Schema::String())),
      Required("textPattern",
               Schema::Object({
                                  Required("match", Schema::String().Enum({"Prefix", "Contains", "Exact"})),
                                  Required("text", Schema::String()),
                                  Required("caseSensitive", Schema::Boolean()),
                              })
                   .Nullable()),
      Required("priority", Schema::Integer()),
      Required("translation", Schema::String().Enum({"Translate", "Protect", "Skip"})),
      Required("isEnabled", Schema::Boolean()),
      Required("createdAt", Schema::Timestamp()),
      Required("updatedAt", Schema::Timestamp()),
  });
}

const Schema& HeuristicRequest() {
  static const Schema kSchema = Schema::Object({
      Required("name", Schema::String().MinLength(1).MaxLength(100)),
      Required("blockClass", Schema::String().MinLength(1).MaxLength(50).Describe(
                                 "a-z, 0-9 and '-', e.g. code, warning, procedure-step, table")),
      Optional("nodeTypes",
               Schema::Array(Schema::String().MinLength(1).MaxLength(50))
                   .MaxItems(20)
                   .Describe("ProseMirror node types (e.g. codeBlock, table, orderedList); empty or absent: any")),
      Optional("textPattern", TextPatternSchema().Nullable()),
      Optional("priority", Schema::Integer().Min(0).Max(10000).Describe("lower is tried first; default 100")),
      Optional("translation", Schema::String()
                                  .Enum({"Translate", "Protect", "Skip"})
                                  .Describe("what translation does with such blocks; default Translate")),
      Optional("isEnabled", Schema::Boolean()),
  });
  return kSchema;
}

BlockHeuristic HeuristicOf(const json::object& body) {
  BlockHeuristic h;
  h.name = GetString(body, "name");
  h.block_class = GetString(body, "blockClass");
  h.node_types = GetStringArray(body, "nodeTypes");
  if (const auto* p = body.if_contains("textPattern"); p && p->is_object()) {
    platform::TextPattern pattern;
    pattern.match =
        platform::ParseTextMatch(GetString(p->as_object(), "match")).value_or(platform::TextMatch::kContains);
    pattern.text = GetString(p->as_object(), "text");
    pattern.case_sensitive = GetBool(p->as_object(), "caseSensitive");
    h.text_pattern = std::move(pattern);
  }
  h.priority = GetInt(body, "priority", 100);
  h.translation = platform::ParseBlockTranslation(GetString(body, "translation", "Translate"))
                      .value_or(platform::BlockTranslation::kTranslate);
  h.is_enabled = GetBool(body, "isEnabled", true);
  return h;
}

json::object ClassificationJson(const platform::BlockClassification& c) {
  return {{"blockId", c.block_id},
          {"position", c.position},
          {"nodeType", c.node_type},
          {"blockClass", OptJson(c.block_class)},
          {"heuristicId", OptJson(c.heuristic_id)},
          {"translation", platform::BlockTranslationName(c.translation)}};
}

// ---- style rules ----

json::object StyleRuleJson(const StyleRule& r) {
  return {{"id", r.id},
          {"name", r.name},
          {"language", r.language},
          {"type", platform::StyleRuleTypeName(r.type)},
          {"term", r.term},
          {"alternatives", ToJsonArray(r.alternatives)},
          {"suggestion", OptJson(r.suggestion)},
          {"caseSensitive", r.case_sensitive},
          {"wholeWord", r.whole_word},
          {"severity", platform::SeverityName(r.severity)},
          {"message", OptJson(r.message)},
          {"isEnabled", r.is_enabled},
          {"createdAt", FormatTimestamp(r.created_at)},
          {"updatedAt", FormatTimestamp(r.updated_at)}};
}

Schema SeveritySchema() { return Schema::String().Enum({"Info", "Warning", "Error"}); }

Schema StyleRuleSchema() {
  return Schema::Object({
      Required("id", Schema::Uuid()),
      Required("name", Schema::String()),
      Required("language", Schema::String()),
      Required("type", Schema::String().Enum({"Avoid", "Prefer"})),
      Required("term", Schema::String()),
      Required("alternatives", Schema::Array(Schema::String())),
      Required("suggestion", Schema::String().Nullable()),
      Required("caseSensitive", Schema::Boolean()),
      Required("wholeWord", Schema::Boolean()),
      Required("severity", SeveritySchema()),
      Required("message", Schema::String().Nullable()),
      Required("isEnabled", Schema::Boolean()),
      Required("createdAt", Schema::Timestamp()),
      Required("updatedAt", Schema::Timestamp()),
  });
}

const Schema& StyleRuleRequest() {
  static const Schema kSchema = Schema::Object({
      Required("name", Schema::String().MinLength(1).MaxLength(100)),
      Required("language", Schema::String().MinLength(2).MaxLength(16).Describe("a known language code")),
      Required("type", Schema::String()
                           .Enum({"Avoid", "Prefer"})
                           .Describe("Avoid: flags `term`; Prefer: flags each of `alternatives` and suggests `term`")),
      Required("term", Schema::String().MinLength(1).MaxLength(100).Describe("literal text, not a regular expression")),
      Optional("alternatives", Schema::Array(Schema::String().MinLength(1).MaxLength(100)).MaxItems(20)),
      Optional("suggestion", Schema::String().MaxLength(100).Nullable()),
      Optional("caseSensitive", Schema::Boolean().Describe("default false")),
      Optional("wholeWord", Schema::Boolean().Describe("default true")),
      Optional("severity", SeveritySchema().Describe("default Warning")),
      Optional("message", Schema::String().MaxLength(500).Nullable()),
      Optional("isEnabled", Schema::Boolean()),
  });
  return kSchema;
}

StyleRule StyleRuleOf(const json::object& body) {
  StyleRule r;
  r.name = GetString(body, "name");
  r.language = GetString(body, "language");
  r.type = platform::ParseStyleRuleType(GetString(body, "type")).value_or(platform::StyleRuleType::kAvoid);
  r.term = GetString(body, "term");
  r.alternatives = GetStringArray(body, "alternatives");
  r.suggestion = GetOptString(body, "suggestion");
  r.case_sensitive = GetBool(body, "caseSensitive", false);
  r.whole_word = GetBool(body, "wholeWord", true);
  r.severity = platform::ParseSeverity(GetString(body, "severity", "Warning")).value_or(platform::Severity::kWarning);
  r.message = GetOptString(body, "message");
  r.is_enabled = GetBool(body, "isEnabled", true);
  return r;
}

json::object MatchJson(const platform::StyleMatch& m) {
  return {{"ruleId", m.rule_id},
          {"ruleName", m.rule_name},
          {"blockId", OptJson(m.block_id)},
          {"offset", m.offset},
          {"length", m.length},
          {"matchedText", m.matched_text},
          {"severity", platform::SeverityName(m.severity)},
          {"message", m.message},
          {"suggestion", OptJson(m.suggestion)}};
}

Schema MatchSchema() {
  return Schema::Object({
      Required("ruleId", Schema::Uuid()),
      Required("ruleName", Schema::String()),
      Required("blockId", Schema::String().Nullable().Describe("the block of the entry; null for a text")),
      Required("offset", Schema::Integer().Min(0).Describe("UTF-16 code units (JavaScript string index) into the "
                                                           "text, or into the block's plain text")),
      Required("length", Schema::Integer().Min(0).Describe("UTF-16 code units")),
      Required("matchedText", Schema::String()),
      Required("severity", SeveritySchema()),
      Required("message", Schema::String()),
      Required("suggestion", Schema::String().Nullable()),
  });
}

// ---- glossaries ----

json::object GlossaryJson(const platform::Glossary& g, bool with_terms) {
  json::object out{{"id", g.id},
                   {"name", g.name},
                   {"sourceLanguage", g.source_language},
                   {"targetLanguage", g.target_language},
                   {"description", OptJson(g.description)},
                   {"termCount", g.term_count},
                   {"createdAt", FormatTimestamp(g.created_at)},
                   {"updatedAt", FormatTimestamp(g.updated_at)}};
  if (with_terms) {
    json::array terms;
    for (const auto& t : g.terms)
      terms.push_back(json::object{{"source", t.source},
                                   {"target", t.target},
                                   {"caseSensitive", t.case_sensitive},
                                   {"notes", OptJson(t.notes)}});
    out["terms"] = std::move(terms);
  }
  return out;
}

Schema GlossaryTermSchema() {
  return Schema::Object({
      Required("source", Schema::String()),
      Required("target", Schema::String()),
      Required("caseSensitive", Schema::Boolean()),
      Required("notes", Schema::String().Nullable()),
  });
}

Schema GlossarySchema(bool with_terms) {
  std::vector<Property> fields = {
      Required("id", Schema::Uuid()),
      Required("name", Schema::String()),
      Required("sourceLanguage", Schema::String()),
      Required("targetLanguage", Schema::String()),
      Required("description", Schema::String().Nullable()),
      Required("termCount", Schema::Integer().Min(0)),
      Required("createdAt", Schema::Timestamp()),
      Required("updatedAt", Schema::Timestamp()),
  };
  if (with_terms) fields.push_back(Required("terms", Schema::Array(GlossaryTermSchema())));
  return Schema::Object(std::move(fields));
}

const Schema& GlossaryRequest() {
  static const Schema kSchema = Schema::Object({
      Required("name", Schema::String().MinLength(1).MaxLength(100)),
      Required("sourceLanguage", Schema::String().MinLength(2).MaxLength(16)),
      Required("targetLanguage", Schema::String().MinLength(2).MaxLength(16)),
      Optional("description", Schema::String().MaxLength(1000).Nullable()),
      Optional("terms", Schema::Array(Schema::Object({
                                          Required("source", Schema::String().MinLength(1).MaxLength(200)),
                                          Required("target", Schema::String().MinLength(1).MaxLength(200)),
                                          Optional("caseSensitive", Schema::Boolean()),
                                          Optional("notes", Schema::String().MaxLength(1000).Nullable()),
                                      }))
                            .MaxItems(static_cast<int64_t>(platform::kMaxGlossaryTerms))),
  });
  return kSchema;
}

platform::Glossary GlossaryOf(const json::object& body) {
  platform::Glossary g;
  g.name = GetString(body, "name");
  g.source_language = GetString(body, "sourceLanguage");
  g.target_language = GetString(body, "targetLanguage");
  g.description = GetOptString(body, "description");
  if (const auto* terms = body.if_contains("terms"); terms && terms->is_array())
    for (const auto& t : terms->as_array())
      g.terms.push_back({GetString(t.as_object(), "source"), GetString(t.as_object(), "target"),
                         GetBool(t.as_object(), "caseSensitive"), GetOptString(t.as_object(), "notes")});
  return g;
}

// What the item routes of a configuration resource say of themselves.
struct ItemRouteDocs {
  std::string create_summary;
  std::string tag;
  std::string get_summary, replace_summary, delete_summary;
  Schema request, response;
};

// The routes every configuration item shares, each also at the alias:
// create at `base` (global admin), and at `base/{id}` get (any member),
// replace and delete (global admin).
template <typename Service, typename FromBody, typename ToJson>
void AddItemRoutes(Router& router, const std::string& base, const std::string& alias, const Service& service,
                   const ItemRouteDocs& docs, FromBody from_body, ToJson to_json) {
  router.Add(Aliased({alias}, {Method::kPost,
                               base,
                               Auth::kTenantAdmin,
                               "",
                               [&service, request = docs.request, from_body, to_json](RequestContext& ctx) {
                                 auto body = ParseBody(ctx.request, request);
                                 if (!body) return Problem(ctx, body.error());
                                 auto created = service.Create(ctx.Caller(), from_body(*body));
                                 if (!created) return Problem(ctx, created.error());
                                 return JsonResponse(201, to_json(*created));
                               },
                               {.summary = docs.create_summary,
                                .tag = docs.tag,
                                .request = docs.request,
                                .response = docs.response,
                                .success_status = 201,
                                .errors = {409}}}));
  const std::string item = base + "/{id}";
  const std::string item_alias = alias + "/{id}";
  router.Add(Aliased({item_alias}, {Method::kGet,
                                    item,
                                    Auth::kUser,
                                    "",
                                    [&service, to_json](RequestContext& ctx) {
                                      auto found = service.Get(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                                      if (!found) return Problem(ctx, found.error());
                                      return JsonResponse(200, to_json(*found));
                                    },
                                    {.summary = docs.get_summary,
                                     .tag = docs.tag,
                                     .response = docs.response,
                                     .errors = {404},
                                     .path_params = {{"id", Schema::Uuid()}}}}));
  router.Add(Aliased({item_alias}, {Method::kPut,
                                    item,
                                    Auth::kTenantAdmin,
                                    "",
                                    [&service, request = docs.request, from_body, to_json](RequestContext& ctx) {
                                      auto body = ParseBody(ctx.request, request);
                                      if (!body) return Problem(ctx, body.error());
                                      auto replaced = service.Update(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")),
                                                                     from_body(*body));
                                      if (!replaced) return Problem(ctx, replaced.error());
                                      return JsonResponse(200, to_json(*replaced));
                                    },
                                    {.summary = docs.replace_summary,
                                     .tag = docs.tag,
                                     .request = docs.request,
                                     .response = docs.response,
                                     .errors = {404, 409},
                                     .path_params = {{"id", Schema::Uuid()}}}}));
  router.Add(Aliased({item_alias}, {Method::kDelete,
                                    item,
                                    Auth::kTenantAdmin,
                                    "",
                                    [&service](RequestContext& ctx) {
                                      auto removed = service.Delete(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                                      if (!removed) return Problem(ctx, removed.error());
                                      return NoContent();
                                    },
                                    {.summary = docs.delete_summary,
                                     .tag = docs.tag,
                                     .success_status = 204,
                                     .errors = {404},
                                     .path_params = {{"id", Schema::Uuid()}}}}));
}

}  // namespace

void AddConfigurationRoutes(Router& router, const Services& s) {
  // ---- languages ----
  const platform::LanguageService& languages = s.languages;
  const std::string lang = "/admin/languages";
  const std::string lang_alias = "/api/admin/languages";
  const Schema code_param = Schema::String().MinLength(2).MaxLength(16);
  router.Add(Aliased({lang_alias}, {Method::kGet,
                                    lang,
                                    Auth::kUser,
                                    "",
                                    [&languages](RequestContext& ctx) {
                                      return ListResponse(ctx, languages.List(ctx.Caller()), LanguageJson);
                                    },
                                    {.summary = "The tenant's languages, enabled or not, by sortOrder then code.",
                                     .tag = "languages",
                                     .response = Schema::Array(LanguageSchema())}}));
  router.Add(Aliased(
      {lang_alias + "/enabled"},
      {Method::kGet,
       lang + "/enabled",
       Auth::kUser,
       "",
       [&languages](RequestContext& ctx) { return ListResponse(ctx, languages.Enabled(ctx.Caller()), LanguageJson); },
       {.summary = "The tenant's enabled languages.",
        .tag = "languages",
        .response = Schema::Array(LanguageSchema())}}));
  router.Add(Aliased({lang_alias + "/default"}, {Method::kGet,
                                                 lang + "/default",
                                                 Auth::kUser,
                                                 "",
                                                 [&languages](RequestContext& ctx) {
                                                   auto l = languages.Default(ctx.Caller());
                                                   if (!l) return Problem(ctx, l.error());
                                                   return JsonResponse(200, LanguageJson(*l));
                                                 },
                                                 {.summary = "The tenant's default language.",
                                                  .tag = "languages",
                                                  .response = LanguageSchema(),
                                                  .errors = {404}}}));
  static const Schema kAddLanguage = [] {
    auto fields = LanguageFields();
    fields.insert(fields.begin(), Required("code", Schema::String().MinLength(2).MaxLength(16).Describe(
                                                       "BCP 47, one of /api/tenant/known-languages (any case)")));
    fields[1] = Required("displayName", Schema::String().MinLength(1).MaxLength(100));
    return Schema::Object(std::move(fields));
  }();
  router.Add(Aliased({lang_alias}, {Method::kPost,
                                    lang,
                                    Auth::kTenantAdmin,
                                    "",
                                    [&languages](RequestContext& ctx) {
                                      auto body = ParseBody(ctx.request, kAddLanguage);
                                      if (!body) return Problem(ctx, body.error());
                                      auto l = languages.Add(ctx.Caller(), LanguageInputOf(*body));
                                      if (!l) return Problem(ctx, l.error());
                                      return JsonResponse(201, LanguageJson(*l));
                                    },
                                    {.summary = "Add a language to the tenant (global admin), enabled unless "
                                                "isEnabled is false. 400 for a code not in the known list; 409 "
                                                "language_exists.",
                                     .tag = "languages",
                                     .request = kAddLanguage,
                                     .response = LanguageSchema(),
                                     .success_status = 201,
                                     .errors = {409}}}));
  static const Schema kUpdateLanguage = Schema::Object(LanguageFields());
  router.Add(Aliased({lang_alias + "/{languageCode}"},
                     {Method::kPut,
                      lang + "/{languageCode}",
                      Auth::kTenantAdmin,
                      "",
                      [&languages](RequestContext& ctx) {
                        auto body = ParseBody(ctx.request, kUpdateLanguage);
                        if (!body) return Problem(ctx, body.error());
                        auto l = languages.Update(ctx.Caller(), ctx.PathParam("languageCode"), LanguageInputOf(*body));
                        if (!l) return Problem(ctx, l.error());
                        return JsonResponse(200, LanguageJson(*l));
                      },
                      {.summary = "Change a language's settings (global admin); absent fields keep their value. "
                                  "409 default_language when disabling the default.",
                       .tag = "languages",
                       .request = kUpdateLanguage,
                       .response = LanguageSchema(),
                       .errors = {404, 409},
                       .path_params = {{"languageCode", code_param}}}}));
  router.Add(Aliased({lang_alias + "/{languageCode}/set-default"},
                     {Method::kPut,
                      lang + "/{languageCode}/set-default",
                      Auth::kTenantAdmin,
                      "",
                      [&languages](RequestContext& ctx) {
                        auto l = languages.SetDefault(ctx.Caller(), ctx.PathParam("languageCode"));
                        if (!l) return Problem(ctx, l.error());
                        return JsonResponse(200, LanguageJson(*l));
                      },
                      {.summary = "Make a language the tenant's one default (global admin), enabling it.",
                       .tag = "languages",
                       .response = LanguageSchema(),
                       .errors = {404},
                       .path_params = {{"languageCode", code_param}}}}));
  router.Add(Aliased({lang_alias + "/{languageCode}"},
                     {Method::kDelete,
                      lang + "/{languageCode}",
                      Auth::kTenantAdmin,
                      "",
                      [&languages](RequestContext& ctx) {
                        auto removed = languages.Delete(ctx.Caller(), ctx.PathParam("languageCode"));
                        if (!removed) return Problem(ctx, removed.error());
                        return NoContent();
                      },
                      {.summary = "Remove a language from the tenant (global admin). 409 default_language for the "
                                  "default. Translations in it are kept, and come back if it is added again.",
                       .tag = "languages",
                       .success_status = 204,
                       .errors = {404, 409},
                       .path_params = {{"languageCode", code_param}}}}));

  // ---- categories and tags ----
  const platform::TaxonomyService& taxonomy = s.taxonomy;
  // Before /tags/{id}: literal segments win anyway, declared first for reading.
  router.Add(Aliased({"/api/tags/search"},
                     {Method::kGet,
                      "/tags/search",
                      Auth::kUser,
                      "",
                      [&taxonomy](RequestContext& ctx) {
                        int64_t limit = 20;
                        if (auto l = ctx.request.QueryParam("limit")) {
                          try {
                            size_t used = 0;
                            limit = std::stoll(*l, &used);
                            if (used != l->size()) throw std::invalid_argument("limit");
                          } catch (const std::exception&) {
                            return Problem(ctx, Error::Validation({{"limit", "must be an integer"}}));
                          }
                        }
                        return ListResponse(
                            ctx, taxonomy.SearchTags(ctx.Caller(), ctx.request.QueryParam("q").value_or(""), limit),
                            TaxonomyJson);
                      },
                      {.summary = "Tags whose name starts with q, ignoring case, by name.",
                       .tag = "tags",
                       .response = Schema::Array(TaxonomySchema()),
                       .query = {{"q", Schema::String().MaxLength(100), false, "the name prefix; empty: every tag"},
                                 {"limit", Schema::Integer().Min(1).Max(50), false, "at most this many (default 20)"}},
                       .errors = {400}}}));
  AddTaxonomyRoutes(router, taxonomy, TaxonomyKind::kCategory, "/categories", "/api/categories");
  AddTaxonomyRoutes(router, taxonomy, TaxonomyKind::kTag, "/tags", "/api/tags");

  static const Schema kClassifyEntry = Schema::Object({
      Optional("categoryId", Schema::Uuid().Nullable().Describe("null clears; absent keeps")),
      Optional("tagIds", Schema::Array(Schema::Uuid()).MaxItems(50).Describe("replaces the tags; absent keeps")),
  });
  router.Add({Method::kGet,
              "/api/entries/{id}/classification",
              Auth::kUser,
              "",
              [&taxonomy](RequestContext& ctx) {
                const std::string id = CanonicalUuid(ctx.PathParam("id"));
                auto c = taxonomy.EntryClassification(ctx.Caller(), id);
                if (!c) return Problem(ctx, c.error());
                return JsonResponse(200, ClassificationJson(id, *c));
              },
              {.summary = "The entry's category and tags (entry Viewer+).",
               .tag = "entries",
               .response = ClassificationSchema(),
               .errors = {404},
               .path_params = {{"id", Schema::Uuid()}}}});
  router.Add({Method::kPut,
              "/api/entries/{id}/classification",
              Auth::kUser,
              "",
              [&taxonomy](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kClassifyEntry);
                if (!body) return Problem(ctx, body.error());
                std::optional<std::optional<std::string>> category;
                if (const auto* v = body->if_contains("categoryId"))
                  category = v->is_string() ? std::optional<std::string>(CanonicalUuid(v->as_string())) : std::nullopt;
                std::optional<std::vector<std::string>> tags;
                if (body->contains("tagIds")) {
                  tags.emplace();
                  for (const auto& t : GetStringArray(*body, "tagIds")) tags->push_back(CanonicalUuid(t));
                }
                const std::string id = CanonicalUuid(ctx.PathParam("id"));
                auto c = taxonomy.ClassifyEntry(ctx.Caller(), id, category, tags);
                if (!c) return Problem(ctx, c.error());
                return JsonResponse(200, ClassificationJson(id, *c));
              },
              {.summary = "Set the entry's category and/or tags (entry Editor+). 400 for an id that is not one of "
                          "the tenant's categories or tags.",
               .tag = "entries",
               .request = kClassifyEntry,
               .response = ClassificationSchema(),
               .errors = {404},
               .path_params = {{"id", Schema::Uuid()}}}});

  auto classification_args = [](const json::object& body) {
    std::optional<std::optional<std::string>> category;
    if (const auto* v = body.if_contains("categoryId"))
      category = v->is_string() ? std::optional<std::string>(CanonicalUuid(v->as_string())) : std::nullopt;
    std::optional<std::vector<std::string>> tags;
    if (body.contains("tagIds")) {
      tags.emplace();
      for (const auto& t : GetStringArray(body, "tagIds")) tags->push_back(CanonicalUuid(t));
    }
    return std::make_pair(category, tags);
  };
  auto hub_json = [](const std::string& key, const std::string& id, const platform::Classification& c) {
    return json::object{
        {"hubKey", key}, {"hubId", id}, {"categoryId", OptJson(c.category_id)}, {"tagIds", ToJsonArray(c.tag_ids)}};
  };
  const Schema hub_classification = Schema::Object({
      Required("hubKey", Schema::String()),
      Required("hubId", Schema::Uuid()),
      Required("categoryId", Schema::Uuid().Nullable()),
      Required("tagIds", Schema::Array(Schema::Uuid())),
  });
  router.Add({Method::kGet,
              "/api/hubs/{key}/classification",
              Auth::kUser,
              "",
              [&taxonomy, hub_json](RequestContext& ctx) {
                std::string id;
                auto c = taxonomy.HubClassification(ctx.Caller(), ctx.PathParam("key"), id);
                if (!c) return Problem(ctx, c.error());
                return JsonResponse(200, hub_json(ctx.PathParam("key"), id, *c));
              },
              {.summary = "The hub's category and tags (hub Viewer+).",
               .tag = "hubs",
               .response = hub_classification,
               .errors = {404}}});
  router.Add({Method::kPut,
              "/api/hubs/{key}/classification",
              Auth::kUser,
              "",
              [&taxonomy, hub_json, classification_args](RequestContext& ctx) {
                auto body = ParseBody(ctx.request, kClassifyEntry);
                if (!body) return Problem(ctx, body.error());
                auto [category, tags] = classification_args(*body);
                std::string id;
                auto c = taxonomy.ClassifyHub(ctx.Caller(), ctx.PathParam("key"), category, tags, id);
                if (!c) return Problem(ctx, c.error());
                return JsonResponse(200, hub_json(ctx.PathParam("key"), id, *c));
              },
              {.summary = "Set the hub's category and/or tags (hub Admin+): categoryId null clears, absent keeps; "
                          "tagIds replaces. 400 for an id that is not one of the tenant's.",
               .tag = "hubs",
               .request = kClassifyEntry,
               .response = hub_classification,
               .errors = {404}}});

  // ---- block-type heuristics ----
  const platform::BlockHeuristicService& heuristics = s.block_heuristics;
  const std::string bh = "/block-type-heuristics";
  const std::string bh_alias = "/api/blocktypeheuristics";
  router.Add(Aliased({bh_alias}, {Method::kGet,
                                  bh,
                                  Auth::kUser,
                                  "",
                                  [&heuristics](RequestContext& ctx) {
                                    return ListResponse(ctx, heuristics.List(ctx.Caller()), HeuristicJson);
                                  },
                                  {.summary = "The tenant's block-type heuristics, by priority then name.",
                                   .tag = "block-type-heuristics",
                                   .response = Schema::Array(HeuristicSchema())}}));
  static const Schema kTestRequest = Schema::Object(
      {Required("content",
                Schema::String().MinLength(1).Describe("an editor document serialized as a string (decisions.md 5)"))});
  router.Add(Aliased({bh_alias + "/test"},
                     {Method::kPost,
                      bh + "/test",
                      Auth::kUser,
                      "",
                      [&heuristics](RequestContext& ctx) {
                        auto body = ParseBody(ctx.request, kTestRequest);
                        if (!body) return Problem(ctx, body.error());
                        return ListResponse(
                            ctx, heuristics.Test(ctx.Caller(), GetString(*body, "content")),
                            [](const platform::BlockClassification& c) { return ClassificationJson(c); });
                      },
                      {.summary = "Classify every top-level block of a sample document with the tenant's "
                                  "heuristics; blockClass is null where none matched.",
                       .tag = "block-type-heuristics",
                       .request = kTestRequest,
                       .response = Schema::Array(Schema::Object({
                           Required("blockId", Schema::String()),
                           Required("position", Schema::Integer().Min(0)),
                           Required("nodeType", Schema::String()),
                           Required("blockClass", Schema::String().Nullable()),
                           Required("heuristicId", Schema::Uuid().Nullable()),
                           Required("translation", Schema::String().Enum({"Translate", "Protect", "Skip"})),
                       }))}}));
  AddItemRoutes(router, bh, bh_alias, heuristics,
                {"Create a block-type heuristic (global admin): a block of one of "
                 "nodeTypes whose text meets textPattern is of blockClass. 409 "
                 "heuristic_name_taken.",
                 "block-type-heuristics", "One block-type heuristic.", "Replace a block-type heuristic (global admin).",
                 "Delete a block-type heuristic (global admin).", HeuristicRequest(), HeuristicSchema()},
                HeuristicOf, HeuristicJson);

  // ---- style rules ----
  const platform::StyleRuleService& rules = s.style_rules;
  const kb::EntryService& entries = s.entries;
  const std::string sr = "/admin/style-rules";
  const std::string sr_alias = "/api/admin/style-rules";
  router.Add(Aliased({sr_alias}, {Method::kGet,
                                  sr,
                                  Auth::kUser,
                                  "",
                                  [&rules](RequestContext& ctx) {
                                    return ListResponse(ctx,
                                                        rules.List(ctx.Caller(), ctx.request.QueryParam("language")),
                                                        StyleRuleJson);
                                  },
                                  {.summary = "The tenant's style rules, by language then name.",
                                   .tag = "style-rules",
                                   .response = Schema::Array(StyleRuleSchema()),
                                   .query = {{"language", Schema::String(), false, "only this language's rules"}},
                                   .errors = {400}}}));
  static const Schema kCheckRequest = Schema::Object({
      Optional("text", Schema::String()
                           .MaxLength(static_cast<int64_t>(platform::kMaxCheckedTextBytes))
                           .Describe("a text to check; give text or entryId")),
      Optional("entryId", Schema::Uuid().Describe("check this entry's blocks (entry Viewer+)")),
      Optional("language", Schema::String().MinLength(2).MaxLength(16).Describe(
                               "the rules' language; with entryId, the translation to check (default: the "
                               "original). Required with text.")),
  });
  router.Add(
      Aliased({sr_alias + "/check"},
              {Method::kPost,
               sr + "/check",
               Auth::kUser,
               "",
               [&rules, &entries](RequestContext& ctx) {
                 auto body = ParseBody(ctx.request, kCheckRequest);
                 if (!body) return Problem(ctx, body.error());
                 const auto text = GetOptString(*body, "text");
                 const auto entry_id = GetOptString(*body, "entryId");
                 auto language = GetOptString(*body, "language");
                 if (text.has_value() == entry_id.has_value())
                   return Problem(ctx, Error::Validation({{"text", "give either text or entryId"}}));
                 std::vector<platform::TextSegment> segments;
                 if (text) {
                   if (!language) return Problem(ctx, Error::Validation({{"language", "required with text"}}));
                   segments.push_back({std::nullopt, *text});
                 } else {
                   auto view = entries.Get(ctx.Caller(), CanonicalUuid(*entry_id), language.value_or(""));
                   if (!view) return Problem(ctx, view.error());
                   // Get falls back to the original when there is no translation in the language asked.
                   if (language && platform::CanonicalLanguageCode(*language).value_or(*language) != view->language)
                     return Problem(ctx, Error::NotFound("The entry has no translation in '" + *language + "'."));
                   language = view->language;
                   auto doc = kb::ParseOriginal(view->entry.content, "content");
                   if (!doc) return Problem(ctx, doc.error());
                   for (auto& b : doc->blocks) segments.push_back({b.block_id, std::move(b.text)});
                 }
                 auto matches = rules.Check(ctx.Caller(), *language, segments);
                 return ListResponse(ctx, matches, MatchJson);
               },
               {.summary = "Check a text, or an entry's blocks (its original, or its translation in language), against "
                           "the tenant's style rules of the language: every match with rule, offset, length, severity "
                           "and message.",
                .tag = "style-rules",
                .request = kCheckRequest,
                .response = Schema::Array(MatchSchema()),
                .errors = {404}}}));
  AddItemRoutes(router, sr, sr_alias, rules,
                {"Create a style rule (global admin). 409 style_rule_name_taken.", "style-rules", "One style rule.",
                 "Replace a style rule (global admin).", "Delete a style rule (global admin).", StyleRuleRequest(),
                 StyleRuleSchema()},
                StyleRuleOf, StyleRuleJson);

  // ---- glossaries ----
  const platform::GlossaryService& glossaries = s.glossaries;
  const translation::MachineTranslationService& machine = s.machine_translation;
  const std::string gl = "/admin/glossaries";
  const std::string gl_alias = "/api/admin/glossaries";
  router.Add(Aliased({gl_alias}, {Method::kGet,
                                  gl,
                                  Auth::kUser,
                                  "",
                                  [&glossaries](RequestContext& ctx) {
                                    return ListResponse(
                                        ctx, glossaries.List(ctx.Caller()),
                                        [](const platform::Glossary& g) { return GlossaryJson(g, false); });
                                  },
                                  {.summary = "The tenant's glossaries, by name, without their terms.",
                                   .tag = "glossaries",
                                   .response = Schema::Array(GlossarySchema(false))}}));
  AddItemRoutes(router, gl, gl_alias, glossaries,
                {"Create a glossary for a language pair (global admin). 409 "
                 "glossary_name_taken.",
                 "glossaries", "One glossary with its terms.", "Replace a glossary and its terms (global admin).",
                 "Delete a glossary (global admin).", GlossaryRequest(), GlossarySchema(true)},
                GlossaryOf, [](const platform::Glossary& g) { return GlossaryJson(g, true); });
  const QueryParamDoc mode_param{"mode", Schema::String().Enum({"merge", "replace"}), false,
                                 "merge (default): add, replacing terms of the same source ignoring case; replace: "
                                 "the file becomes the terms"};
  auto import_route = [&glossaries](const std::string& format) {
    return [&glossaries, format](RequestContext& ctx) {
      const auto mode = ctx.request.QueryParam("mode").value_or("merge");
      if (mode != "merge" && mode != "replace")
        return Problem(ctx, Error::Validation({{"mode", "must be merge or replace"}}));
      const std::string id = CanonicalUuid(ctx.PathParam("id"));
      std::vector<platform::GlossaryTerm> terms;
      size_t skipped = 0;
      if (format == "csv") {
        auto parsed = platform::ParseGlossaryCsv(ctx.request.body);
        if (!parsed) return Problem(ctx, parsed.error());
        terms = std::move(*parsed);
      } else {
        // The languages come from the glossary (404 before parsing for an unknown one).
        auto g = glossaries.Get(ctx.Caller(), id);
        if (!g) return Problem(ctx, g.error());
        auto parsed = platform::ParseGlossaryTbx(ctx.request.body, g->source_language, g->target_language);
        if (!parsed) return Problem(ctx, parsed.error());
        terms = std::move(parsed->terms);
        skipped = parsed->skipped;
      }
      auto g = glossaries.Import(ctx.Caller(), id, terms, mode == "replace", format);
      if (!g) return Problem(ctx, g.error());
      json::object out = GlossaryJson(*g, true);
      out["imported"] = terms.size();
      out["skipped"] = skipped;
      return JsonResponse(200, out);
    };
  };
  const Schema import_result = [] {
    return Schema::Object({
        Required("id", Schema::Uuid()),
        Required("name", Schema::String()),
        Required("sourceLanguage", Schema::String()),
        Required("targetLanguage", Schema::String()),
        Required("description", Schema::String().Nullable()),
        Required("termCount", Schema::Integer().Min(0)),
        Required("createdAt", Schema::Timestamp()),
        Required("updatedAt", Schema::Timestamp()),
        Required("terms", Schema::Array(GlossaryTermSchema())),
        Required("imported", Schema::Integer().Min(0).Describe("terms read from the file")),
        Required("skipped", Schema::Integer().Min(0).Describe("TBX entries lacking either language")),
    });
  }();
  router.Add(Aliased({gl_alias + "/{id}/import/csv"},
                     {Method::kPost,
                      gl + "/{id}/import/csv",
                      Auth::kTenantAdmin,
                      "",
                      import_route("csv"),
                      {.summary = "Import terms from CSV (global admin): a header row naming source, target and "
                                  "optionally caseSensitive and notes. 400 invalid_csv names the line.",
                       .tag = "glossaries",
                       .request = Schema::String().Describe("RFC 4180 CSV, UTF-8, at most 2 MiB"),
                       .request_content_type = "text/csv",
                       .response = import_result,
                       .query = {mode_param},
                       .errors = {404},
                       .path_params = {{"id", Schema::Uuid()}}}}));
  router.Add(Aliased({gl_alias + "/{id}/import/tbx"},
                     {Method::kPost,
                      gl + "/{id}/import/tbx",
                      Auth::kTenantAdmin,
                      "",
                      import_route("tbx"),
                      {.summary = "Import terms from TBX (ISO 30042; TBX-Basic, v3 or 2008) (global admin): per "
                                  "entry, the terms of the glossary's two languages. No DTDs or entities; 400 "
                                  "invalid_xml or invalid_tbx.",
                       .tag = "glossaries",
                       .request = Schema::String().Describe("a TBX document, at most 2 MiB"),
                       .request_content_type = "application/x-tbx+xml",
                       .response = import_result,
                       .query = {mode_param},
                       .errors = {404},
                       .path_params = {{"id", Schema::Uuid()}}}}));
  router.Add(Aliased({gl_alias + "/{id}/export/csv"},
                     {Method::kGet,
                      gl + "/{id}/export/csv",
                      Auth::kUser,
                      "",
                      [&glossaries](RequestContext& ctx) {
                        auto g = glossaries.Get(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")));
                        if (!g) return Problem(ctx, g.error());
                        HttpResponse r;
                        r.status = 200;
                        r.content_type = "text/csv; charset=utf-8";
                        r.body = platform::WriteGlossaryCsv(g->terms);
                        return r;
                      },
                      {.summary = "The glossary's terms as CSV (source, target, caseSensitive, notes).",
                       .tag = "glossaries",
                       .response = Schema::String(),
                       .response_content_type = "text/csv",
                       .errors = {404},
                       .path_params = {{"id", Schema::Uuid()}}}}));
  router.Add(Aliased({gl_alias + "/{id}/export/tbx"}, {Method::kGet,
                                                       gl + "/{id}/export/tbx",
                                                       Auth::kUser,
                                                       "",
                                                       [&glossaries](RequestContext& ctx) {
                                                         auto g = glossaries.Get(ctx.Caller(),
                                                                                 CanonicalUuid(ctx.PathParam("id")));
                                                         if (!g) return Problem(ctx, g.error());
                                                         HttpResponse r;
                                                         r.status = 200;
                                                         r.content_type = "application/x-tbx+xml";
                                                         r.body = platform::WriteGlossaryTbx(*g);
                                                         return r;
                                                       },
                                                       {.summary = "The glossary as a TBX-Basic document (TBX v3).",
                                                        .tag = "glossaries",
                                                        .response = Schema::String(),
                                                        .response_content_type = "application/x-tbx+xml",
                                                        .errors = {404},
                                                        .path_params = {{"id", Schema::Uuid()}}}}));
  router.Add(Aliased({gl_alias + "/{id}/sync"},
                     {Method::kPost,
                      gl + "/{id}/sync",
                      Auth::kTenantAdmin,
                      "",
                      [&machine](RequestContext& ctx) {
                        std::optional<std::string> provider = ctx.request.QueryParam("provider");
                        auto synced = machine.SyncGlossary(ctx.Caller(), CanonicalUuid(ctx.PathParam("id")), provider);
                        if (!synced) return Problem(ctx, synced.error());
                        return JsonResponse(200, json::object{{"provider", synced->provider},
                                                              {"providerGlossaryId", synced->provider_glossary_id}});
                      },
                      {.summary = "Push the glossary to a machine-translation provider that stores glossaries "
                                  "(DeepL; global admin); later translations in its language pair use it. 409 "
                                  "no_translation_provider when none is configured, 409 glossary_sync_unsupported "
                                  "for apertium and libretranslate (they apply glossary terms by placeholders, "
                                  "docs/machine-translation.md), 502 when the provider fails.",
                       .tag = "glossaries",
                       .response = Schema::Object(
                           {Required("provider", Schema::String()),
                            Required("providerGlossaryId", Schema::String().Describe("the provider's glossary id"))}),
                       .query = {{"provider", Schema::String().MaxLength(64), false,
                                  "default: a configured provider that stores glossaries, else the default one"}},
                       .errors = {404, 409, 502},
                       .path_params = {{"id", Schema::Uuid()}}}}));
}

}  // namespace credence::http
