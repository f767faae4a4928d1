#include "kb/template_service.h"

#include <boost/json/array.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <cctype>
#include <cmath>

#include "core/ids.h"
#include "core/text.h"
#include "identity/authorization.h"
#include "kb/document.h"
#include "kb/internal/template_queries.h"
#include "storage/session.h"

namespace credence::kb {
namespace json = boost::json;
namespace {

Error TemplateNotFound() { return Error::NotFound("Template not found."); }

Error OfficialNeedsAdmin() {
  return Error::PermissionDenied("Only a global admin can mark a template official or change that mark.");
}

bool IsLanguageTag(std::string_view s) {
  if (s.size() < 2 || s.size() > 16 || s.front() == '-' || s.back() == '-') return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-') return false;
  return true;
}

std::string_view FilterName(TemplateFilter f) {
  switch (f) {
    case TemplateFilter::kMine: return "mine";
    case TemplateFilter::kOfficial: return "official";
    case TemplateFilter::kCommunity: return "community";
    case TemplateFilter::kAll: break;
  }
  return "all";
}

// A LIKE pattern matching names that contain `search` (ASCII case ignored);
// '!' escapes the wildcards.
std::string ContainsPattern(const std::string& search) {
  std::string out = "%";
  for (char c : NameKey(search)) {
    if (c == '%' || c == '_' || c == '!') out.push_back('!');
    out.push_back(c);
  }
  out.push_back('%');
  return out;
}

std::vector<std::string> NodesOf(const std::string& blocks_json) {
  std::vector<std::string> out;
  boost::system::error_code ec;
  json::value v = json::parse(blocks_json, ec);
  if (ec || !v.is_array()) return out;  // written by this service: always an array
  for (const auto& node : v.get_array()) out.push_back(json::serialize(node));
  return out;
}

std::string BlocksJson(const std::vector<std::string>& nodes) {
  json::array out;
  for (const auto& n : nodes) out.push_back(json::parse(n));
  return json::serialize(out);
}

EntryTemplate TemplateFromRow(const storage::Row& r, bool with_blocks) {
  EntryTemplate t;
  t.id = r.Text(0);
  t.name = r.Text(1);
  t.description = r.OptText(2);
  t.category = r.OptText(3);
  t.language = r.Text(4);
  if (with_blocks) t.blocks = NodesOf(r.Text(5));
  t.is_official = r.Bool(6);
  t.owner_id = r.Text(7);
  t.usage_count = r.Int(8);
  t.rating_count = r.Int(9);
  const int64_t sum = r.Int(10);
  t.average_rating =
      t.rating_count == 0 ? 0.0 : std::round(static_cast<double>(sum) * 100.0 / static_cast<double>(t.rating_count)) / 100.0;
  t.created_at = r.Int(11);
  t.updated_at = r.Int(12);
  return t;
}

// Trims and checks the fields; parses the blocks as an editor document,
// which assigns missing and duplicate block ids (decisions.md 5).
Status Validate(TemplateInput& in) {
  std::vector<FieldError> errors;
  in.name = Trim(in.name);
  if (in.name.empty())
    errors.push_back({"name", "must not be blank"});
  else if (Utf8Length(in.name) > kMaxTemplateNameLength)
    errors.push_back({"name", "must be at most " + std::to_string(kMaxTemplateNameLength) + " characters"});
  if (in.description && Utf8Length(*in.description) > kMaxTemplateDescriptionLength)
    errors.push_back(
        {"description", "must be at most " + std::to_string(kMaxTemplateDescriptionLength) + " characters"});
  if (in.category) {
    in.category = Trim(*in.category);
    if (in.category->empty())
      in.category.reset();
    else if (Utf8Length(*in.category) > kMaxTemplateCategoryLength)
      errors.push_back({"category", "must be at most " + std::to_string(kMaxTemplateCategoryLength) + " characters"});
  }
  if (!IsLanguageTag(in.language)) errors.push_back({"language", "must be a language code such as en or pt-BR"});
  if (in.blocks.empty())
    errors.push_back({"blocks", "must hold at least one block"});
  else if (in.blocks.size() > kMaxTemplateBlocks)
    errors.push_back({"blocks", "must hold at most " + std::to_string(kMaxTemplateBlocks) + " blocks"});
  if (!errors.empty()) return Error::Validation(std::move(errors));
  auto parsed = ParseOriginal(AssembleDocument(in.blocks), "blocks");
  if (!parsed) return parsed.error();
  in.blocks.clear();
  for (const auto& b : parsed->blocks) in.blocks.push_back(b.node_json);
  return Ok();
}

// The nodes with a fresh attrs.blockId each.
std::vector<std::string> WithFreshBlockIds(const std::vector<std::string>& nodes) {
  std::vector<std::string> out;
  out.reserve(nodes.size());
  for (const auto& text : nodes) {
    json::value node = json::parse(text);
    auto& o = node.as_object();
    json::value& attrs = o["attrs"];
    if (!attrs.is_object()) attrs = json::object();
    attrs.as_object()["blockId"] = NewId();
    out.push_back(json::serialize(node));
  }
  return out;
}

Result<EntryTemplate> FindIn(storage::TenantSession& tenant, const std::string& id, bool with_blocks) {
  auto rows = tenant.Run(internal::kFindTemplate, {id});
  if (rows.empty()) return TemplateNotFound();
  return TemplateFromRow(rows.front(), with_blocks);
}

bool MayChange(const identity::Principal& caller, const EntryTemplate& t) {
  return caller.is_global_admin() || caller.user_id == t.owner_id;
}

}  // namespace

std::optional<TemplateFilter> ParseTemplateFilter(std::string_view name) {
  if (name == "all") return TemplateFilter::kAll;
  if (name == "mine") return TemplateFilter::kMine;
  if (name == "official") return TemplateFilter::kOfficial;
  if (name == "community") return TemplateFilter::kCommunity;
  return std::nullopt;
}

Result<TemplatePage> TemplateService::List(const identity::Principal& caller, const TemplateQuery& query) const {
  CR_TRY(identity::RequireUser(caller));
  std::vector<FieldError> errors;
  if (query.page < 1 || query.page > kMaxTemplatePage)
    errors.push_back({"page", "must be an integer from 1 to " + std::to_string(kMaxTemplatePage)});
  if (query.page_size < 1 || query.page_size > kMaxTemplatePageSize)
    errors.push_back({"pageSize", "must be an integer from 1 to " + std::to_string(kMaxTemplatePageSize)});
  if (Utf8Length(query.search) > kMaxTemplateNameLength)
    errors.push_back({"search", "must be at most " + std::to_string(kMaxTemplateNameLength) + " characters"});
  if (!errors.empty()) return Error::Validation(std::move(errors));
  const std::string search = Trim(query.search);
  const std::string pattern = search.empty() ? "" : ContainsPattern(search);
  const std::string category = query.category ? Trim(*query.category) : "";
  const std::string filter(FilterName(query.filter));

  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  TemplatePage page;
  page.total = tenant.Run(internal::kCountTemplates, {pattern, category, filter, caller.user_id}).front().Int(0);
  for (const auto& row : tenant.Run(internal::kListTemplates, {pattern, category, filter, caller.user_id,
                                                              query.page_size, (query.page - 1) * query.page_size}))
    page.items.push_back(TemplateFromRow(row, /*with_blocks=*/false));
  return page;
}

Result<EntryTemplate> TemplateService::Get(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  return FindIn(tenant, id, /*with_blocks=*/true);
}

Result<AppliedTemplate> TemplateService::Preview(const identity::Principal& caller, const std::string& id) const {
  CR_TRY_ASSIGN(auto t, Get(caller, id));
  return AppliedTemplate{t.id, t.language, t.blocks, AssembleDocument(t.blocks)};
}

Result<AppliedTemplate> TemplateService::Apply(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  CR_TRY_ASSIGN(auto t, FindIn(tenant, id, /*with_blocks=*/true));
  tenant.Run(internal::kCountTemplateUse, {id});
  tenant.Run(internal::kInsertTemplateUse, {NewId(), id, caller.user_id, clock_.Now()});
  session.Commit();
  auto blocks = WithFreshBlockIds(t.blocks);
  std::string content = AssembleDocument(blocks);
  return AppliedTemplate{t.id, t.language, std::move(blocks), std::move(content)};
}

Result<std::vector<std::string>> TemplateService::Categories(const identity::Principal& caller) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  std::vector<std::string> out;
  for (const auto& row : tenant.Run(internal::kTemplateCategories)) out.push_back(row.Text(0));
  return out;
}

Result<EntryTemplate> TemplateService::Insert(const identity::Principal& caller, TemplateInput input,
                                              const std::string& action, json::object details) const {
  CR_TRY(Validate(input));
  EntryTemplate t;
  t.id = NewId();
  t.name = input.name;
  t.description = input.description;
  t.category = input.category;
  t.language = input.language;
  t.blocks = input.blocks;
  t.is_official = input.is_official.value_or(false);
  t.owner_id = caller.user_id;
  t.created_at = t.updated_at = clock_.Now();

  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  tenant.Run(internal::kInsertTemplate, {t.id, t.name, NameKey(t.name), t.description, t.category, t.language,
                                         BlocksJson(t.blocks), t.is_official, t.owner_id, t.created_at});
  details["name"] = t.name;
  details["isOfficial"] = t.is_official;
  details["blockCount"] = static_cast<int64_t>(t.blocks.size());
  audit_.Record(tenant, identity::AuditOf(caller, action, {"template", t.id}, std::move(details)));
  session.Commit();
  return t;
}

Result<EntryTemplate> TemplateService::Create(const identity::Principal& caller, const TemplateInput& input) const {
  CR_TRY(identity::RequireUser(caller));
  if (input.is_official.value_or(false) && !caller.is_global_admin()) return OfficialNeedsAdmin();
  return Insert(caller, input, "template.created", {});
}

Result<EntryTemplate> TemplateService::Update(const identity::Principal& caller, const std::string& id,
                                              const TemplateInput& request) const {
  CR_TRY(identity::RequireUser(caller));
  TemplateInput input = request;
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  CR_TRY_ASSIGN(auto t, FindIn(tenant, id, /*with_blocks=*/false));
  if (!MayChange(caller, t)) return Error::PermissionDenied("Only the template's owner or a global admin can change it.");
  const bool official = input.is_official.value_or(t.is_official);
  if (official != t.is_official && !caller.is_global_admin()) return OfficialNeedsAdmin();
  CR_TRY(Validate(input));
  const bool official_changed = official != t.is_official;
  t.name = input.name;
  t.description = input.description;
  t.category = input.category;
  t.language = input.language;
  t.blocks = input.blocks;
  t.is_official = official;
  t.updated_at = clock_.Now();
  tenant.Run(internal::kUpdateTemplate, {id, t.name, NameKey(t.name), t.description, t.category, t.language,
                                         BlocksJson(t.blocks), t.is_official, t.updated_at});
  audit_.Record(tenant, identity::AuditOf(caller, "template.updated", {"template", id},
                                          {{"name", t.name}, {"blockCount", static_cast<int64_t>(t.blocks.size())}}));
  if (official_changed)
    audit_.Record(tenant, identity::AuditOf(caller, "template.official_changed", {"template", id},
                                            {{"isOfficial", t.is_official}}));
  session.Commit();
  return t;
}

Status TemplateService::Delete(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  CR_TRY_ASSIGN(auto t, FindIn(tenant, id, /*with_blocks=*/false));
  if (!MayChange(caller, t)) return Error::PermissionDenied("Only the template's owner or a global admin can delete it.");
  tenant.Run(internal::kDeleteTemplateRatings, {id});
  tenant.Run(internal::kDeleteTemplateUses, {id});
  tenant.Run(internal::kDeleteTemplate, {id});
  audit_.Record(tenant, identity::AuditOf(caller, "template.deleted", {"template", id}, {{"name", t.name}}));
  session.Commit();
  return Ok();
}

Result<EntryTemplate> TemplateService::Rate(const identity::Principal& caller, const std::string& id,
                                            int64_t stars) const {
  CR_TRY(identity::RequireUser(caller));
  if (stars < 1 || stars > 5) return Error::Validation({{"stars", "must be an integer from 1 to 5"}});
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (tenant.Run(internal::kLockTemplate, {id}).affected() == 0) return TemplateNotFound();
  tenant.Run(internal::kUpsertTemplateRating, {id, caller.user_id, stars, clock_.Now()});
  tenant.Run(internal::kRefreshTemplateRating, {id});
  CR_TRY_ASSIGN(auto t, FindIn(tenant, id, /*with_blocks=*/true));
  session.Commit();
  return t;
}

Result<std::string> TemplateService::Export(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  CR_TRY_ASSIGN(auto t, Get(caller, id));
  json::array blocks;
  for (const auto& n : t.blocks) blocks.push_back(json::parse(n));
  json::object tmpl{{"name", t.name},
                    {"description", t.description ? json::value(*t.description) : json::value(nullptr)},
                    {"category", t.category ? json::value(*t.category) : json::value(nullptr)},
                    {"language", t.language},
                    {"isOfficial", t.is_official},
                    {"blocks", std::move(blocks)}};
  json::object doc{{"format", kTemplateExportFormat},
                   {"version", kTemplateExportVersion},
                   {"sourceTemplateId", t.id},
                   {"template", std::move(tmpl)}};
  return json::serialize(doc);
}

Result<EntryTemplate> TemplateService::Import(const identity::Principal& caller, const std::string& document_json) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  boost::system::error_code ec;
  json::value v = json::parse(document_json, ec);
  if (ec || !v.is_object()) return Error::Validation({{"", "must be a portable template document (a JSON object)"}});
  const auto& doc = v.get_object();
  const auto* format = doc.if_contains("format");
  if (format == nullptr || !format->is_string() || format->get_string() != kTemplateExportFormat)
    return Error::Validation({{"format", std::string("must be \"") + kTemplateExportFormat + "\""}});
  const auto* version = doc.if_contains("version");
  if (version == nullptr || !version->is_int64() || version->get_int64() != kTemplateExportVersion)
    return Error::InvalidArgument(
        "unsupported_template_version",
        "This server reads portable template documents of version " + std::to_string(kTemplateExportVersion) +
            " only; export the template again from a server of the same version.",
        {{"version", "must be " + std::to_string(kTemplateExportVersion)}});
  const auto* tv = doc.if_contains("template");
  if (tv == nullptr || !tv->is_object()) return Error::Validation({{"template", "must be an object"}});
  const auto& t = tv->get_object();
  const auto str = [&t](const char* key) -> std::optional<std::string> {
    const auto* f = t.if_contains(key);
    if (f == nullptr || !f->is_string()) return std::nullopt;
    return std::string(f->get_string());
  };
  TemplateInput input;
  std::vector<FieldError> errors;
  if (auto name = str("name")) input.name = *name; else errors.push_back({"template.name", "must be a string"});
  input.description = str("description");
  input.category = str("category");
  if (auto language = str("language")) input.language = *language;
  if (const auto* off = t.if_contains("isOfficial"); off && off->is_bool()) input.is_official = off->get_bool();
  const auto* blocks = t.if_contains("blocks");
  if (blocks == nullptr || !blocks->is_array()) {
    errors.push_back({"template.blocks", "must be an array of editor nodes"});
  } else {
    for (const auto& node : blocks->get_array()) {
      json::value copy = node;
      // Ids are remapped: the importing tenant's blocks get ids of their own.
      if (auto* o = copy.if_object())
        if (auto* attrs = o->if_contains("attrs"); attrs && attrs->is_object()) attrs->as_object().erase("blockId");
      input.blocks.push_back(json::serialize(copy));
    }
  }
  if (!errors.empty()) return Error::Validation(std::move(errors));
  json::object details;
  if (const auto* source = doc.if_contains("sourceTemplateId"); source && source->is_string())
    details["sourceTemplateId"] = source->get_string();
  return Insert(caller, std::move(input), "template.imported", std::move(details));
}

}  // namespace credence::kb
