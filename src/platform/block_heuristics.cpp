#include "platform/block_heuristics.h"

#include <algorithm>

#include <boost/json/parse.hpp>

#include "core/ids.h"
#include "core/text.h"
#include "identity/authorization.h"
#include "kb/document.h"
#include "platform/internal/config_store.h"
#include "platform/internal/text_match.h"
#include "storage/session.h"

namespace credence::platform {
namespace json = boost::json;
namespace {

constexpr std::string_view kBlockHeuristicsKind = "blockheuristic";

bool IsClassName(std::string_view s) {
  if (s.empty() || s.size() > 50 || s.front() < 'a' || s.front() > 'z') return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; });
}

bool IsNodeType(std::string_view s) {
  if (s.empty() || s.size() > 50) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

json::object BodyOf(const BlockHeuristic& h) {
  json::array types;
  for (const auto& t : h.node_types) types.push_back(json::value(t));
  json::object body{{"blockClass", h.block_class},
                    {"nodeTypes", std::move(types)},
                    {"priority", h.priority},
                    {"translation", BlockTranslationName(h.translation)},
                    {"isEnabled", h.is_enabled}};
  if (h.text_pattern)
    body["textPattern"] = json::object{{"match", TextMatchName(h.text_pattern->match)},
                                       {"text", h.text_pattern->text},
                                       {"caseSensitive", h.text_pattern->case_sensitive}};
  return body;
}

BlockHeuristic FromItem(const internal::ConfigItem& item) {
  BlockHeuristic h;
  h.id = item.id;
  h.name = item.name;
  const auto& b = item.body;
  if (const auto* v = b.if_contains("blockClass"); v && v->is_string()) h.block_class = std::string(v->as_string());
  if (const auto* v = b.if_contains("nodeTypes"); v && v->is_array())
    for (const auto& t : v->as_array())
      if (t.is_string()) h.node_types.emplace_back(t.as_string());
  if (const auto* v = b.if_contains("priority"); v && v->is_int64()) h.priority = v->as_int64();
  if (const auto* v = b.if_contains("translation"); v && v->is_string())
    h.translation = ParseBlockTranslation(v->as_string()).value_or(BlockTranslation::kTranslate);
  if (const auto* v = b.if_contains("isEnabled"); v && v->is_bool()) h.is_enabled = v->as_bool();
  if (const auto* v = b.if_contains("textPattern"); v && v->is_object()) {
    TextPattern p;
    const auto& o = v->as_object();
    if (const auto* m = o.if_contains("match"); m && m->is_string())
      p.match = ParseTextMatch(m->as_string()).value_or(TextMatch::kContains);
    if (const auto* t = o.if_contains("text"); t && t->is_string()) p.text = std::string(t->as_string());
    if (const auto* c = o.if_contains("caseSensitive"); c && c->is_bool()) p.case_sensitive = c->as_bool();
    h.text_pattern = std::move(p);
  }
  h.created_at = item.created_at;
  h.updated_at = item.updated_at;
  return h;
}

Result<BlockHeuristic> Validated(const BlockHeuristic& input) {
  BlockHeuristic h = input;
  h.name = Trim(h.name);
  std::vector<FieldError> errors;
  if (h.name.empty()) errors.push_back({"name", "must not be blank"});
  if (Utf8Length(h.name) > 100) errors.push_back({"name", "must be at most 100 characters"});
  if (!IsClassName(h.block_class))
    errors.push_back({"blockClass",
                      "must be 1..50 of a-z, 0-9 and '-', starting with a letter (e.g. code, "
                      "warning, procedure-step, table)"});
  if (h.node_types.size() > 20) errors.push_back({"nodeTypes", "at most 20 node types"});
  for (size_t i = 0; i < h.node_types.size(); ++i)
    if (!IsNodeType(h.node_types[i]))
      errors.push_back({"nodeTypes[" + std::to_string(i) + "]", "must be a node type name (letters, digits, _ and -)"});
  if (h.text_pattern) {
    if (h.text_pattern->text.empty()) errors.push_back({"textPattern.text", "must not be empty"});
    if (Utf8Length(h.text_pattern->text) > kMaxPatternLength)
      errors.push_back({"textPattern.text", "must be at most 200 characters"});
  }
  if (h.node_types.empty() && !h.text_pattern)
    errors.push_back({"nodeTypes", "give node types, a text pattern, or both"});
  if (h.priority < 0 || h.priority > 10000) errors.push_back({"priority", "must be between 0 and 10000"});
  if (!errors.empty()) return Error::Validation(std::move(errors));
  return h;
}

Error NotFound() { return Error::NotFound("Block-type heuristic not found."); }
Error NameTaken(const std::string& name) {
  return Error::Conflict("heuristic_name_taken", "A block-type heuristic named '" + name + "' already exists.");
}

void Sort(std::vector<BlockHeuristic>& rules) {
  std::stable_sort(rules.begin(), rules.end(), [](const BlockHeuristic& a, const BlockHeuristic& b) {
    if (a.priority != b.priority) return a.priority < b.priority;
    return NameKey(a.name) < NameKey(b.name);
  });
}

json::object Summary(const BlockHeuristic& h) { return {{"name", h.name}, {"blockClass", h.block_class}}; }

}  // namespace

std::string_view TextMatchName(TextMatch match) {
  switch (match) {
    case TextMatch::kPrefix:
      return "Prefix";
    case TextMatch::kContains:
      return "Contains";
    case TextMatch::kExact:
      return "Exact";
  }
  return "Contains";
}

std::optional<TextMatch> ParseTextMatch(std::string_view name) {
  for (auto m : {TextMatch::kPrefix, TextMatch::kContains, TextMatch::kExact})
    if (TextMatchName(m) == name) return m;
  return std::nullopt;
}

std::string_view BlockTranslationName(BlockTranslation t) {
  switch (t) {
    case BlockTranslation::kTranslate:
      return "Translate";
    case BlockTranslation::kProtect:
      return "Protect";
    case BlockTranslation::kSkip:
      return "Skip";
  }
  return "Translate";
}

std::optional<BlockTranslation> ParseBlockTranslation(std::string_view name) {
  for (auto t : {BlockTranslation::kTranslate, BlockTranslation::kProtect, BlockTranslation::kSkip})
    if (BlockTranslationName(t) == name) return t;
  return std::nullopt;
}

bool HeuristicMatches(const BlockHeuristic& rule, std::string_view node_type, std::string_view text) {
  if (!rule.node_types.empty() &&
      std::find(rule.node_types.begin(), rule.node_types.end(), node_type) == rule.node_types.end())
    return false;
  if (!rule.text_pattern) return true;
  const auto& p = *rule.text_pattern;
  const std::string_view trimmed = [&] {
    std::string_view t = text;
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.front()))) t.remove_prefix(1);
    while (!t.empty() && std::isspace(static_cast<unsigned char>(t.back()))) t.remove_suffix(1);
    return t;
  }();
  switch (p.match) {
    case TextMatch::kPrefix:
      return internal::EqualsAt(trimmed, 0, p.text, p.case_sensitive);
    case TextMatch::kExact:
      return trimmed.size() == p.text.size() && internal::EqualsAt(trimmed, 0, p.text, p.case_sensitive);
    case TextMatch::kContains:
      if (p.case_sensitive) return trimmed.find(p.text) != std::string_view::npos;
      return internal::FoldAscii(trimmed).find(internal::FoldAscii(p.text)) != std::string::npos;
  }
  return false;
}

Result<std::vector<BlockClassification>> ClassifyBlocks(const std::vector<BlockHeuristic>& rules,
                                                        std::string_view content, const std::string& field) {
  CR_TRY_ASSIGN(auto doc, kb::ParseOriginal(content, field));
  std::vector<BlockHeuristic> ordered;
  for (const auto& r : rules)
    if (r.is_enabled) ordered.push_back(r);
  Sort(ordered);
  std::vector<BlockClassification> out;
  for (const auto& block : doc.blocks) {
    BlockClassification c;
    c.block_id = block.block_id;
    c.position = block.position;
    boost::system::error_code ec;
    const json::value node = json::parse(block.node_json, ec);
    if (!ec && node.is_object())
      if (const auto* t = node.as_object().if_contains("type"); t && t->is_string())
        c.node_type = std::string(t->as_string());
    for (const auto& rule : ordered) {
      if (!HeuristicMatches(rule, c.node_type, block.text)) continue;
      c.block_class = rule.block_class;
      c.heuristic_id = rule.id;
      c.translation = rule.translation;
      break;
    }
    out.push_back(std::move(c));
  }
  return out;
}

Result<std::vector<BlockHeuristic>> BlockHeuristicService::List(const identity::Principal& caller) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  std::vector<BlockHeuristic> out;
  for (const auto& item : internal::ListItems(tenant, kBlockHeuristicsKind)) out.push_back(FromItem(item));
  Sort(out);
  return out;
}

Result<BlockHeuristic> BlockHeuristicService::Get(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto item = internal::GetItem(tenant, kBlockHeuristicsKind, id);
  if (!item) return NotFound();
  return FromItem(*item);
}

Result<BlockHeuristic> BlockHeuristicService::Create(const identity::Principal& caller,
                                                     const BlockHeuristic& input) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  CR_TRY_ASSIGN(auto h, Validated(input));
  h.id = NewId();
  h.created_at = h.updated_at = clock_.Now();
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (internal::FindItemByName(tenant, kBlockHeuristicsKind, h.name)) return NameTaken(h.name);
  if (internal::ListItems(tenant, kBlockHeuristicsKind).size() >= kMaxHeuristicsPerTenant)
    return Error::Conflict("too_many_heuristics", "A tenant has at most 200 block-type heuristics.");
  internal::InsertItem(tenant, kBlockHeuristicsKind, {h.id, h.name, "", BodyOf(h), h.created_at, h.updated_at});
  audit_.Record(tenant, identity::AuditOf(caller, "blockheuristic.created", {"blockheuristic", h.id}, Summary(h)));
  session.Commit();
  return h;
}

Result<BlockHeuristic> BlockHeuristicService::Update(const identity::Principal& caller, const std::string& id,
                                                     const BlockHeuristic& input) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  CR_TRY_ASSIGN(auto h, Validated(input));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto existing = internal::GetItem(tenant, kBlockHeuristicsKind, id);
  if (!existing) return NotFound();
  if (auto other = internal::FindItemByName(tenant, kBlockHeuristicsKind, h.name); other && *other != id)
    return NameTaken(h.name);
  h.id = id;
  h.created_at = existing->created_at;
  h.updated_at = clock_.Now();
  internal::UpdateItem(tenant, kBlockHeuristicsKind, {h.id, h.name, "", BodyOf(h), h.created_at, h.updated_at});
  audit_.Record(tenant, identity::AuditOf(caller, "blockheuristic.updated", {"blockheuristic", h.id}, Summary(h)));
  session.Commit();
  return h;
}

Status BlockHeuristicService::Delete(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto existing = internal::GetItem(tenant, kBlockHeuristicsKind, id);
  if (!existing) return NotFound();
  internal::DeleteItem(tenant, kBlockHeuristicsKind, id);
  audit_.Record(
      tenant, identity::AuditOf(caller, "blockheuristic.deleted", {"blockheuristic", id}, {{"name", existing->name}}));
  session.Commit();
  return Ok();
}

Result<std::vector<BlockClassification>> BlockHeuristicService::Test(const identity::Principal& caller,
                                                                     std::string_view content) const {
  CR_TRY_ASSIGN(auto rules, List(caller));
  return ClassifyBlocks(rules, content, "content");
}

}  // namespace credence::platform
