#include "plugins/content_rules.h"

#include <algorithm>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "core/text.h"
#include "identity/authorization.h"
#include "kb/access.h"
#include "kb/document.h"
#include "kb/translation_service.h"
#include "platform/style_rules.h"
#include "plugins/internal/guard_support.h"
#include "plugins/internal/modules.h"
#include "plugins/internal/queries.h"
#include "plugins/plugin_service.h"
#include "storage/session.h"
#include "trust/entry_usage.h"

namespace credence::plugins {
namespace json = boost::json;
using internal::Deny;
using internal::StringProperty;
namespace {

Status RequireEnabled(storage::TenantSession& tx) {
  for (const auto& i : ReadInstallations(tx, true))
    if (i.plugin_id == "content-rules") return Ok();
  return Error{ErrorKind::kNotFound,
               "plugin_not_enabled",
               "The content-rules plugin is not installed and enabled in this tenant.",
               {},
               {}};
}

json::object ParseObject(std::string_view text) {
  boost::system::error_code ec;
  json::value v = json::parse(text, ec);
  if (!ec && v.is_object()) return std::move(v.as_object());
  return {};
}

HubRules Read(storage::TenantSession& tx, const kb::Hub& hub) {
  HubRules out{hub.key, false, {}, std::nullopt};
  auto rows = tx.Run(internal::kHubRules, {hub.id});
  if (!rows.empty()) {
    out.is_enabled = rows.front().Bool(0);
    out.rules = ParseObject(rows.front().TextView(1));
    out.updated_at = rows.front().Int(2);
  }
  return out;
}

void Union(json::object& into, const json::object& from, std::string_view key) {
  const auto* add = from.if_contains(key);
  if (!add || !add->is_array()) return;
  json::array merged;
  if (const auto* have = into.if_contains(key); have && have->is_array()) merged = have->as_array();
  for (const auto& v : add->as_array())
    if (std::find(merged.begin(), merged.end(), v) == merged.end()) merged.push_back(v);
  into[key] = std::move(merged);
}

void Smaller(json::object& into, const json::object& from, std::string_view key) {
  const auto* add = from.if_contains(key);
  if (!add || !add->is_int64() || add->as_int64() <= 0) return;
  const auto* have = into.if_contains(key);
  if (!have || !have->is_int64() || have->as_int64() <= 0 || add->as_int64() < have->as_int64())
    into[key] = add->as_int64();
}

std::vector<std::string> Strings(const json::object& settings, std::string_view key) {
  std::vector<std::string> out;
  if (const auto* v = settings.if_contains(key); v && v->is_array())
    for (const auto& s : v->as_array())
      if (s.is_string()) out.emplace_back(s.as_string());
  return out;
}

int64_t Integer(const json::object& settings, std::string_view key) {
  if (const auto* v = settings.if_contains(key); v && v->is_int64()) return v->as_int64();
  return 0;
}

}  // namespace

std::optional<kb::GuardDenial> ContentRulesGuard(const json::object& rules, const kb::GuardContext& context) {
  const std::string title(StringProperty(context, "title"));
  std::vector<std::string> headings;  // lowercased heading texts
  std::string text = title;
  boost::system::error_code ec;
  const json::value doc = json::parse(StringProperty(context, "content"), ec);
  if (!ec && doc.is_object())
    if (const auto* nodes = doc.as_object().if_contains("content"); nodes && nodes->is_array())
      for (const auto& node : nodes->as_array()) {
        const std::string node_text = kb::NodeText(json::serialize(node));
        text += "\n" + node_text;
        if (node.is_object())
          if (const auto* type = node.as_object().if_contains("type");
              type && type->is_string() && type->as_string() == "heading")
            headings.push_back(AsciiLower(Trim(node_text)));
      }

  if (const int64_t max = Integer(rules, "maxTitleLength"); max > 0) {
    const auto n = static_cast<int64_t>(Utf8Length(title));
    if (n > max)
      return Deny(
          "title_too_long",
          "The title has " + std::to_string(n) + " characters; at most " + std::to_string(max) + " are allowed.",
          {{"length", n}, {"maxTitleLength", max}});
  }
  if (const int64_t max = Integer(rules, "maxTextLength"); max > 0) {
    const auto n = static_cast<int64_t>(Utf8Length(text));
    if (n > max)
      return Deny(
          "text_too_long",
          "The entry has " + std::to_string(n) + " characters; at most " + std::to_string(max) + " are allowed.",
          {{"length", n}, {"maxTextLength", max}});
  }
  const std::string lower = AsciiLower(text);
  json::array found;
  for (const auto& term : Strings(rules, "forbiddenTerms"))
    if (lower.find(AsciiLower(term)) != std::string::npos) found.push_back(json::string(term));
  if (!found.empty())
    return Deny("forbidden_term", "The entry uses a forbidden term: " + std::string(found.front().as_string()) + ".",
                {{"terms", found}});
  json::array missing;
  for (const auto& h : Strings(rules, "requiredHeadings"))
    if (std::find(headings.begin(), headings.end(), AsciiLower(Trim(h))) == headings.end())
      missing.push_back(json::string(h));
  if (!missing.empty())
    return Deny("required_heading_missing",
                "The entry lacks a required heading: " + std::string(missing.front().as_string()) + ".",
                {{"headings", missing}});
  return std::nullopt;
}

json::object MergeRules(const json::object& tenant_rules, const json::object& hub_rules) {
  json::object out = tenant_rules;
  Union(out, hub_rules, "requiredHeadings");
  Union(out, hub_rules, "forbiddenTerms");
  Smaller(out, hub_rules, "maxTitleLength");
  Smaller(out, hub_rules, "maxTextLength");
  Union(out, hub_rules, "requiredTranslations");
  for (const char* flag : {"noSecretFindings", "enforceStyleRules"})
    if (const auto* v = hub_rules.if_contains(flag); v && v->is_bool() && v->as_bool()) out[flag] = true;
  return out;
}

std::optional<kb::GuardDenial> ContentRulesStoredChecks(storage::TenantSession& tx, const json::object& rules,
                                                        const kb::GuardContext& context) {
  const std::string& entry_id = context.entity_id;
  if (const auto* langs = rules.if_contains("requiredTranslations"); langs && langs->is_array()) {
    json::array missing;
    for (const auto& l : langs->as_array()) {
      if (!l.is_string()) continue;
      const std::string language(l.as_string());
      auto summary = kb::TranslationService::Summary(tx, entry_id, language);
      if (!summary || summary->status != kb::TranslationStatus::kUpToDate)
        missing.push_back(
            json::object{{"language", language},
                         {"status", summary ? json::value(std::string(kb::TranslationStatusName(summary->status)))
                                            : json::value("Missing")}});
    }
    if (!missing.empty())
      return kb::GuardDenial{"",
                             "translation_not_up_to_date",
                             "A required translation is missing or not UpToDate: " +
                                 std::string(missing.front().as_object().at("language").as_string()) + ".",
                             {{"translations", std::move(missing)}}};
  }
  if (const auto* v = rules.if_contains("noSecretFindings"); v && v->is_bool() && v->as_bool()) {
    auto detectors = trust::ActiveSecretDetectors(tx, entry_id);
    if (!detectors.empty()) {
      json::array names;
      for (auto& d : detectors) names.push_back(json::string(d));
      return kb::GuardDenial{"",
                             "secret_findings",
                             "The entry has active secret findings; remove the secrets or dismiss the findings.",
                             {{"detectors", std::move(names)}}};
    }
  }
  if (const auto* v = rules.if_contains("enforceStyleRules"); v && v->is_bool() && v->as_bool()) {
    std::string language;
    if (const auto* l = context.properties.if_contains("originalLanguage"); l && l->is_string())
      language = std::string(l->as_string());
    auto style = platform::StyleRulesIn(tx, language);
    style.erase(std::remove_if(style.begin(), style.end(),
                               [](const platform::StyleRule& r) { return r.severity != platform::Severity::kError; }),
                style.end());
    if (!style.empty()) {
      std::vector<platform::TextSegment> segments;
      if (const auto* t = context.properties.if_contains("title"); t && t->is_string())
        segments.push_back({std::nullopt, std::string(t->as_string())});
      boost::system::error_code ec;
      const auto* content = context.properties.if_contains("content");
      const json::value doc = content && content->is_string() ? json::parse(content->as_string(), ec) : json::value();
      if (!ec && doc.is_object())
        if (const auto* nodes = doc.as_object().if_contains("content"); nodes && nodes->is_array())
          for (const auto& node : nodes->as_array()) {
            std::optional<std::string> block_id;
            if (node.is_object())
              if (const auto* attrs = node.as_object().if_contains("attrs"); attrs && attrs->is_object())
                if (const auto* id = attrs->as_object().if_contains("blockId"); id && id->is_string())
                  block_id = std::string(id->as_string());
            segments.push_back({block_id, kb::NodeText(json::serialize(node))});
          }
      const auto matches = platform::CheckStyle(style, segments);
      if (!matches.empty()) {
        json::array out;
        for (size_t i = 0; i < matches.size() && i < 20; ++i) {
          const auto& m = matches[i];
          out.push_back(json::object{{"ruleName", m.rule_name},
                                     {"matchedText", m.matched_text},
                                     {"blockId", m.block_id ? json::value(*m.block_id) : json::value(nullptr)},
                                     {"suggestion", m.suggestion ? json::value(*m.suggestion) : json::value(nullptr)}});
        }
        return kb::GuardDenial{"",
                               "style_rule_violation",
                               "The entry breaks a style rule: " + matches.front().message,
                               {{"matches", std::move(out)}, {"matchCount", static_cast<int64_t>(matches.size())}}};
      }
    }
  }
  return std::nullopt;
}

std::optional<json::object> EnabledHubRules(storage::TenantSession& tx, const std::string& hub_id) {
  auto rows = tx.Run(internal::kHubRules, {hub_id});
  if (rows.empty() || !rows.front().Bool(0)) return std::nullopt;
  return ParseObject(rows.front().TextView(1));
}

Result<HubRules> ContentRulesService::Get(const identity::Principal& caller, const std::string& hub_key) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tx(session, caller.tenant_id);
  CR_TRY(RequireEnabled(tx));
  CR_TRY_ASSIGN(auto hub, kb::RequireHubAccess(tx, caller, hub_key, kb::AccessLevel::kViewer));
  return Read(tx, hub);
}

Result<HubRules> ContentRulesService::Put(const identity::Principal& caller, const std::string& hub_key,
                                          bool is_enabled, const std::string& rules_json) const {
  CR_TRY(identity::RequireUser(caller));
  boost::system::error_code ec;
  json::value parsed = json::parse(rules_json, ec);
  if (ec || !parsed.is_object()) return Error::Validation({{"rulesJson", "must be a JSON object"}});
  const json::object rules = std::move(parsed.as_object());
  if (auto valid = ValidateSettings(*registry_.Find("content-rules"), rules); !valid) {
    Error e = valid.error();
    for (auto& f : e.fields) f.field = "rulesJson." + f.field;
    return e;
  }
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tx(session, caller.tenant_id);
  CR_TRY(RequireEnabled(tx));
  CR_TRY_ASSIGN(auto hub, kb::RequireHubAccess(tx, caller, hub_key, kb::AccessLevel::kAdmin));
  const TimeMs now = clock_.Now();
  tx.Run(internal::kUpsertHubRules, {hub.id, is_enabled, json::serialize(rules), now});
  audit_.Record(tx, identity::AuditOf(caller, "plugin.hub_rules_updated", {"hub", hub.id},
                                      {{"hubKey", hub.key}, {"isEnabled", is_enabled}}));
  session.Commit();
  return HubRules{hub.key, is_enabled, rules, now};
}

PluginModule internal::ContentRulesModule() {
  return {.manifest = ShippedManifest("content-rules"),
          .guard = GuardOf([](const GuardCall& call) -> std::optional<kb::GuardDenial> {
            // The hub's enabled rules tighten the tenant's.
            const auto* hub_id = call.context.properties.if_contains("hubId");
            auto hub_rules = hub_id && hub_id->is_string() ? EnabledHubRules(call.tx, std::string(hub_id->as_string()))
                                                           : std::nullopt;
            const json::object rules = hub_rules ? MergeRules(call.settings, *hub_rules) : call.settings;
            if (auto denial = ContentRulesGuard(rules, call.context)) return denial;
            return ContentRulesStoredChecks(call.tx, rules, call.context);
          })};
}

}  // namespace credence::plugins
