#include "platform/style_rules.h"

#include <algorithm>

#include "core/ids.h"
#include "core/text.h"
#include "identity/authorization.h"
#include "platform/internal/config_store.h"
#include "platform/internal/text_match.h"
#include "platform/languages.h"
#include "storage/session.h"

namespace credence::platform {
namespace json = boost::json;
namespace {

constexpr std::string_view kStyleRulesKind = "stylerule";

json::object BodyOf(const StyleRule& r) {
  json::array alternatives;
  for (const auto& a : r.alternatives) alternatives.push_back(json::value(a));
  json::object body{{"type", StyleRuleTypeName(r.type)},
                    {"term", r.term},
                    {"alternatives", std::move(alternatives)},
                    {"caseSensitive", r.case_sensitive},
                    {"wholeWord", r.whole_word},
                    {"severity", SeverityName(r.severity)},
                    {"isEnabled", r.is_enabled}};
  if (r.suggestion) body["suggestion"] = *r.suggestion;
  if (r.message) body["message"] = *r.message;
  return body;
}

StyleRule StyleRulesFromItem(const internal::ConfigItem& item) {
  StyleRule r;
  r.id = item.id;
  r.name = item.name;
  r.language = item.language;
  const auto& b = item.body;
  auto str = [&](const char* key) -> std::optional<std::string> {
    if (const auto* v = b.if_contains(key); v && v->is_string()) return std::string(v->as_string());
    return std::nullopt;
  };
  auto flag = [&](const char* key, bool fallback) {
    if (const auto* v = b.if_contains(key); v && v->is_bool()) return v->as_bool();
    return fallback;
  };
  r.type = ParseStyleRuleType(str("type").value_or("Avoid")).value_or(StyleRuleType::kAvoid);
  r.term = str("term").value_or("");
  if (const auto* v = b.if_contains("alternatives"); v && v->is_array())
    for (const auto& a : v->as_array())
      if (a.is_string()) r.alternatives.emplace_back(a.as_string());
  r.suggestion = str("suggestion");
  r.message = str("message");
  r.case_sensitive = flag("caseSensitive", false);
  r.whole_word = flag("wholeWord", true);
  r.is_enabled = flag("isEnabled", true);
  r.severity = ParseSeverity(str("severity").value_or("Warning")).value_or(Severity::kWarning);
  r.created_at = item.created_at;
  r.updated_at = item.updated_at;
  return r;
}

void CheckTerm(std::vector<FieldError>& errors, const std::string& field, const std::string& term) {
  if (Trim(term).empty())
    errors.push_back({field, "must not be blank"});
  else if (Utf8Length(term) > kMaxStyleTermLength)
    errors.push_back({field, "must be at most 100 characters"});
}

Result<StyleRule> Validated(const StyleRule& input) {
  StyleRule r = input;
  r.name = Trim(r.name);
  r.term = Trim(r.term);
  for (auto& a : r.alternatives) a = Trim(a);
  std::vector<FieldError> errors;
  if (r.name.empty()) errors.push_back({"name", "must not be blank"});
  if (Utf8Length(r.name) > 100) errors.push_back({"name", "must be at most 100 characters"});
  if (auto code = CanonicalLanguageCode(r.language))
    r.language = *code;
  else
    errors.push_back({"language", "unknown language '" + r.language + "' (see /api/tenant/known-languages)"});
  CheckTerm(errors, "term", r.term);
  if (r.type == StyleRuleType::kPrefer) {
    if (r.alternatives.empty() || r.alternatives.size() > 20)
      errors.push_back({"alternatives", "a Prefer rule lists 1..20 terms it replaces"});
    for (size_t i = 0; i < r.alternatives.size(); ++i)
      CheckTerm(errors, "alternatives[" + std::to_string(i) + "]", r.alternatives[i]);
    if (r.suggestion)
      errors.push_back({"suggestion", "only Avoid rules take a suggestion (a Prefer rule suggests its term)"});
  } else if (!r.alternatives.empty()) {
    errors.push_back({"alternatives", "only Prefer rules take alternatives"});
  }
  if (r.suggestion && Utf8Length(*r.suggestion) > kMaxStyleTermLength)
    errors.push_back({"suggestion", "must be at most 100 characters"});
  if (r.message && Utf8Length(*r.message) > 500) errors.push_back({"message", "must be at most 500 characters"});
  if (!errors.empty()) return Error::Validation(std::move(errors));
  return r;
}

Error StyleRulesNotFound() { return Error::NotFound("Style rule not found."); }
Error StyleRulesNameTaken(const std::string& name) {
  return Error::Conflict("style_rule_name_taken", "A style rule named '" + name + "' already exists.");
}

json::object Summary(const StyleRule& r) {
  return {{"name", r.name}, {"language", r.language}, {"type", StyleRuleTypeName(r.type)}, {"term", r.term}};
}

}  // namespace

std::string_view StyleRuleTypeName(StyleRuleType t) { return t == StyleRuleType::kPrefer ? "Prefer" : "Avoid"; }
std::optional<StyleRuleType> ParseStyleRuleType(std::string_view name) {
  if (name == "Avoid") return StyleRuleType::kAvoid;
  if (name == "Prefer") return StyleRuleType::kPrefer;
  return std::nullopt;
}
std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kInfo:
      return "Info";
    case Severity::kWarning:
      return "Warning";
    case Severity::kError:
      return "Error";
  }
  return "Warning";
}
std::optional<Severity> ParseSeverity(std::string_view name) {
  for (auto s : {Severity::kInfo, Severity::kWarning, Severity::kError})
    if (SeverityName(s) == name) return s;
  return std::nullopt;
}

std::vector<StyleMatch> CheckStyle(const std::vector<StyleRule>& rules, const std::vector<TextSegment>& segments) {
  std::vector<StyleMatch> out;
  for (const auto& segment : segments) {
    const std::string folded = internal::FoldAscii(segment.text);
    std::vector<StyleMatch> here;
    for (const auto& rule : rules) {
      if (!rule.is_enabled) continue;
      const std::vector<std::string> flagged =
          rule.type == StyleRuleType::kPrefer ? rule.alternatives : std::vector<std::string>{rule.term};
      for (const auto& term : flagged) {
        const std::string needle = rule.case_sensitive ? term : internal::FoldAscii(term);
        const std::string_view haystack =
            rule.case_sensitive ? std::string_view(segment.text) : std::string_view(folded);
        for (size_t at : internal::FindAll(haystack, needle, rule.whole_word, kMaxStyleMatches)) {
          StyleMatch m;
          m.rule_id = rule.id;
          m.rule_name = rule.name;
          m.block_id = segment.block_id;
          m.offset = internal::Utf16Length(segment.text, at);
          m.matched_text = segment.text.substr(at, needle.size());
          m.length = internal::Utf16Length(m.matched_text);
          m.severity = rule.severity;
          m.suggestion = rule.type == StyleRuleType::kPrefer ? std::optional<std::string>(rule.term) : rule.suggestion;
          if (rule.message)
            m.message = *rule.message;
          else if (m.suggestion)
            m.message = "Use '" + *m.suggestion + "' instead of '" + m.matched_text + "'.";
          else
            m.message = "Avoid '" + m.matched_text + "'.";
          here.push_back(std::move(m));
        }
      }
    }
    std::stable_sort(here.begin(), here.end(), [](const StyleMatch& a, const StyleMatch& b) {
      return a.offset != b.offset ? a.offset < b.offset : a.rule_name < b.rule_name;
    });
    for (auto& m : here) {
      if (out.size() >= kMaxStyleMatches) return out;
      out.push_back(std::move(m));
    }
  }
  return out;
}

std::vector<StyleRule> StyleRulesIn(storage::TenantSession& tx, const std::string& language) {
  std::vector<StyleRule> out;
  for (const auto& item : internal::ListItems(tx, kStyleRulesKind))
    if (item.language == language) out.push_back(StyleRulesFromItem(item));
  return out;
}

Result<std::vector<StyleRule>> StyleRuleService::List(const identity::Principal& caller,
                                                      const std::optional<std::string>& language) const {
  CR_TRY(identity::RequireUser(caller));
  std::optional<std::string> code;
  if (language) {
    code = CanonicalLanguageCode(*language);
    if (!code) return Error::Validation({{"language", "unknown language '" + *language + "'"}});
  }
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  std::vector<StyleRule> out;
  for (const auto& item : internal::ListItems(tenant, kStyleRulesKind))
    if (!code || item.language == *code) out.push_back(StyleRulesFromItem(item));
  std::stable_sort(out.begin(), out.end(),
                   [](const StyleRule& a, const StyleRule& b) { return a.language < b.language; });
  return out;
}

Result<StyleRule> StyleRuleService::Get(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto item = internal::GetItem(tenant, kStyleRulesKind, id);
  if (!item) return StyleRulesNotFound();
  return StyleRulesFromItem(*item);
}

Result<StyleRule> StyleRuleService::Create(const identity::Principal& caller, const StyleRule& input) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  CR_TRY_ASSIGN(auto r, Validated(input));
  r.id = NewId();
  r.created_at = r.updated_at = clock_.Now();
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (internal::FindItemByName(tenant, kStyleRulesKind, r.name)) return StyleRulesNameTaken(r.name);
  if (internal::ListItems(tenant, kStyleRulesKind).size() >= kMaxStyleRulesPerTenant)
    return Error::Conflict("too_many_style_rules", "A tenant has at most 1000 style rules.");
  internal::InsertItem(tenant, kStyleRulesKind, {r.id, r.name, r.language, BodyOf(r), r.created_at, r.updated_at});
  audit_.Record(tenant, identity::AuditOf(caller, "stylerule.created", {"stylerule", r.id}, Summary(r)));
  session.Commit();
  return r;
}

Result<StyleRule> StyleRuleService::Update(const identity::Principal& caller, const std::string& id,
                                           const StyleRule& input) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  CR_TRY_ASSIGN(auto r, Validated(input));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto existing = internal::GetItem(tenant, kStyleRulesKind, id);
  if (!existing) return StyleRulesNotFound();
  if (auto other = internal::FindItemByName(tenant, kStyleRulesKind, r.name); other && *other != id)
    return StyleRulesNameTaken(r.name);
  r.id = id;
  r.created_at = existing->created_at;
  r.updated_at = clock_.Now();
  internal::UpdateItem(tenant, kStyleRulesKind, {r.id, r.name, r.language, BodyOf(r), r.created_at, r.updated_at});
  audit_.Record(tenant, identity::AuditOf(caller, "stylerule.updated", {"stylerule", r.id}, Summary(r)));
  session.Commit();
  return r;
}

Status StyleRuleService::Delete(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto existing = internal::GetItem(tenant, kStyleRulesKind, id);
  if (!existing) return StyleRulesNotFound();
  internal::DeleteItem(tenant, kStyleRulesKind, id);
  audit_.Record(tenant, identity::AuditOf(caller, "stylerule.deleted", {"stylerule", id}, {{"name", existing->name}}));
  session.Commit();
  return Ok();
}

Result<std::vector<StyleMatch>> StyleRuleService::Check(const identity::Principal& caller, const std::string& language,
                                                        const std::vector<TextSegment>& segments) const {
  size_t bytes = 0;
  for (const auto& s : segments) bytes += s.text.size();
  if (bytes > kMaxCheckedTextBytes) return Error::Validation({{"text", "at most 256 KiB of text per check"}});
  CR_TRY_ASSIGN(auto rules, List(caller, language));
  return CheckStyle(rules, segments);
}

}  // namespace credence::platform
