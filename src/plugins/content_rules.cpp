#include "plugins/content_rules.h"

#include <algorithm>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "identity/authorization.h"
#include "kb/access.h"
#include "plugins/internal/queries.h"
#include "plugins/plugin_service.h"
#include "storage/session.h"

namespace credence::plugins {
namespace json = boost::json;
namespace {

Status RequireEnabled(storage::TenantSession& tx) {
  for (const auto& i : ReadInstallations(tx, true))
    if (i.plugin_id == "content-rules") return Ok();
  return Error{ErrorKind::kNotFound, "plugin_not_enabled",
               "The content-rules plugin is not installed and enabled in this tenant.", {}, {}};
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

}  // namespace

json::object MergeRules(const json::object& tenant_rules, const json::object& hub_rules) {
  json::object out = tenant_rules;
  Union(out, hub_rules, "requiredHeadings");
  Union(out, hub_rules, "forbiddenTerms");
  Smaller(out, hub_rules, "maxTitleLength");
  Smaller(out, hub_rules, "maxTextLength");
  return out;
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

}  // namespace credence::plugins
