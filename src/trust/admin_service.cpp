#include "trust/admin_service.h"

#include <utility>

#include <boost/json/array.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <set>

#include "core/ids.h"
#include "identity/authorization.h"
#include "storage/session.h"
#include "trust/model.h"
#include "trust/source_id.h"
#include "trust/source_resolver.h"

namespace credence::trust {
namespace {

namespace json = boost::json;
using storage::TenantQuery;

constexpr TenantQuery kHubIdByKey{"trust_admin.hub_id_by_key",
                                  "SELECT id FROM hubs WHERE tenant_id = $1 AND hub_key = $2"};
constexpr TenantQuery kEntryHub{"trust_admin.entry_hub", "SELECT hub_id FROM entries WHERE tenant_id = $1 AND id = $2"};
// Replacing an entry's links reads the set, then changes it; on PostgreSQL
// the entry's row lock makes two replacements queue instead of interleave.
constexpr TenantQuery kLockEntry{"trust_admin.lock_entry",
                                 "SELECT hub_id FROM entries WHERE tenant_id = $1 AND id = $2",
                                 "SELECT hub_id FROM entries WHERE tenant_id = $1 AND id = $2 FOR NO KEY UPDATE"};
constexpr TenantQuery kDocumentIdByKey{
    "trust_admin.document_id_by_key",
    "SELECT id FROM connected_documents WHERE tenant_id = $1 AND connector_key = $2 AND external_id = $3"};

// The rows the resolver would combine for a source of hub $2 and id $3 (the
// tenant row is found by scope alone, as the resolver finds it).
constexpr TenantQuery kPolicyLevels{
    "trust_admin.policy_levels",
    "SELECT scope, policy, updated_by, updated_at FROM trust_policies WHERE tenant_id = $1 AND (scope = 'tenant'"
    " OR (scope = 'hub' AND target_id = $2) OR (scope = 'entry' AND target_id = $3))"};
constexpr TenantQuery kUpsertPolicy{
    "trust_admin.upsert_policy",
    "INSERT INTO trust_policies (tenant_id, scope, target_id, policy, updated_by, updated_at)"
    " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (tenant_id, scope, target_id) DO UPDATE SET"
    " policy = excluded.policy, updated_by = excluded.updated_by, updated_at = excluded.updated_at"};
constexpr TenantQuery kDeletePolicy{
    "trust_admin.delete_policy", "DELETE FROM trust_policies WHERE tenant_id = $1 AND scope = $2 AND target_id = $3"};

constexpr TenantQuery kUpsertContextConfig{
    "trust_admin.upsert_context_config",
    "INSERT INTO trust_context_config (tenant_id, config, updated_by, updated_at) VALUES ($1, $2, $3, $4)"
    " ON CONFLICT (tenant_id) DO UPDATE SET config = excluded.config, updated_by = excluded.updated_by,"
    " updated_at = excluded.updated_at"};

constexpr TenantQuery kSourceLinks{"trust_admin.source_links",
                                   "SELECT url FROM entry_source_links WHERE tenant_id = $1 AND entry_id = $2"};
constexpr TenantQuery kInsertSourceLink{
    "trust_admin.insert_source_link",
    "INSERT INTO entry_source_links (tenant_id, entry_id, url, created_at) VALUES ($1, $2, $3, $4)"
    " ON CONFLICT (tenant_id, entry_id, url) DO NOTHING"};
constexpr TenantQuery kDeleteSourceLink{
    "trust_admin.delete_source_link",
    "DELETE FROM entry_source_links WHERE tenant_id = $1 AND entry_id = $2 AND url = $3"};

// What a policy or sensitivity request names: a native entry or a
// connected document of the tenant.
struct Target {
  SourceKind kind = SourceKind::kEntry;
  std::string id;         // the entry's or the document's id: target_id, source_sensitivity.source_id
  std::string hub_id;     // native entries
  std::string source_id;  // canonical
};

constexpr char kTenantScope[] = "tenant";
constexpr char kHubScope[] = "hub";
constexpr char kEntryScope[] = "entry";

Error SourceNotFound() { return Error::NotFound("Source not found."); }
Error HubNotFound() { return Error::NotFound("Hub not found."); }

// A URL form is refused rather than resolved: it may name a document or an
// entry, and which one can change as links and documents change; settings
// belong to the source itself.
Result<ParsedSourceId> ParseTarget(const std::string& source_id) {
  ParsedSourceId p = ParseSourceId(source_id);
  if (p.form != SourceForm::kEntry && p.form != SourceForm::kConnected)
    return Error::Validation({{"sourceId", "must be entry:<id> or <connector_key>:<external_id>"}});
  return p;
}

Result<Target> FindTarget(storage::TenantSession& tenant, const ParsedSourceId& p) {
  Target t;
  if (p.form == SourceForm::kEntry) {
    auto rows = tenant.Run(kEntryHub, {p.entry_id});
    if (rows.empty()) return SourceNotFound();
    t.kind = SourceKind::kEntry;
    t.id = p.entry_id;
    t.hub_id = rows.front().Text(0);
    t.source_id = "entry:" + p.entry_id;
    return t;
  }
  auto rows = tenant.Run(kDocumentIdByKey, {p.connector_key, p.external_id});
  if (rows.empty()) return SourceNotFound();
  t.kind = SourceKind::kConnected;
  t.id = rows.front().Text(0);
  t.source_id = p.connector_key + ":" + p.external_id;
  return t;
}

// An operation on the one source `source_id` names (an entry or a connected
// document of the tenant): tenant admins only, 400 for another form of id,
// 404 for an unknown source. In a write transaction, committed when `op`
// succeeds.
template <typename Op>
auto OnTarget(storage::Database& db, const identity::Principal& caller, const std::string& source_id,
              storage::TxMode mode, Op op)
    -> decltype(op(std::declval<storage::TenantSession&>(), std::declval<const Target&>())) {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  CR_TRY_ASSIGN(const ParsedSourceId parsed, ParseTarget(source_id));
  storage::Session session(db, mode);
  storage::TenantSession tenant(session, caller.tenant_id);
  CR_TRY_ASSIGN(const Target target, FindTarget(tenant, parsed));
  auto result = op(tenant, target);
  if (result && mode == storage::TxMode::kWrite) session.Commit();
  return result;
}

// The audit target of a source: a native entry or a connected document.
identity::AuditTarget TargetOf(const Target& t) { return {t.kind == SourceKind::kEntry ? "entry" : "document", t.id}; }

boost::json::object PolicyDetails(std::string_view level, const PolicyOverride& policy) {
  boost::system::error_code ec;
  boost::json::value v = boost::json::parse(PolicyOverrideToJson(policy), ec);
  boost::json::object d{{"level", level}};
  if (!ec) d["policy"] = std::move(v);
  return d;
}

// The setting of `level` for a source of hub `hub_id` and id `target_id`
// ("" where the level does not reach).
PolicySetting ReadSetting(storage::TenantSession& tenant, PolicyLevel level, const std::string& hub_id,
                          const std::string& target_id) {
  PolicyOverride levels[3];
  PolicySetting out;
  out.level = level;
  for (const auto& r : tenant.Run(kPolicyLevels, {hub_id, target_id})) {
    auto o = PolicyOverrideFromJson(r.TextView(1));
    if (!o) continue;  // written through validation; never expected
    const std::string scope = r.Text(0);
    const PolicyLevel at = scope == kTenantScope ? PolicyLevel::kTenant
                           : scope == kHubScope  ? PolicyLevel::kHub
                                                 : PolicyLevel::kEntry;
    levels[static_cast<int>(at)] = std::move(*o);
    if (at == level) {
      out.updated_by = r.OptText(2);
      out.updated_at = r.Int(3);
    }
  }
  for (int i = 0; i <= static_cast<int>(level); ++i) Apply(levels[i], out.effective);
  out.policy = levels[static_cast<int>(level)];
  return out;
}

void WriteOverride(storage::TenantSession& tenant, const char* scope, const std::string& target_id,
                   const PolicyOverride& policy, const identity::Principal& caller, TimeMs now) {
  if (policy.empty())
    tenant.Run(kDeletePolicy, {scope, target_id});
  else
    tenant.Run(kUpsertPolicy, {scope, target_id, PolicyOverrideToJson(policy), caller.user_id, now});
}

// decisions.md: an optional field sent as null is absent. The codecs are
// stricter (null is a wrong type there), so nulls go before they look,
// except where null means something (`keep`).
Result<std::string> WithoutNulls(std::string_view text, std::initializer_list<std::string_view> keep,
                                 const char* what) {
  boost::system::error_code ec;
  json::value v = json::parse(text, ec);
  if (ec || !v.is_object()) return Error::Validation({{what, "must be a JSON object"}});
  json::object& o = v.as_object();
  for (auto it = o.begin(); it != o.end();) {
    const std::string_view key(it->key().data(), it->key().size());
    const bool kept = std::find(keep.begin(), keep.end(), key) != keep.end();
    if (it->value().is_null() && !kept)
      it = o.erase(it);
    else
      ++it;
  }
  return json::serialize(v);
}

}  // namespace

bool IsSourceUrl(std::string_view url) {
  if (url.size() > kMaxUrlLength) return false;
  size_t host = 0;
  if (url.rfind("https://", 0) == 0)
    host = 8;
  else if (url.rfind("http://", 0) == 0)
    host = 7;
  else
    return false;
  if (url.size() == host || url[host] == '/') return false;
  return std::none_of(url.begin(), url.end(),
                      [](char c) { return static_cast<unsigned char>(c) <= 0x20 || c == 0x7f; });
}

std::string_view PolicyLevelName(PolicyLevel level) {
  switch (level) {
    case PolicyLevel::kTenant:
      return kTenantScope;
    case PolicyLevel::kHub:
      return kHubScope;
    case PolicyLevel::kEntry:
      return kEntryScope;
  }
  return kEntryScope;
}

Result<PolicyOverride> PolicyOverrideFromRequest(std::string_view json_text) {
  CR_TRY_ASSIGN(const std::string text, WithoutNulls(json_text, {"disclaimerText"}, "policy"));
  return PolicyOverrideFromJson(text);
}

Result<ContextConfig> ContextConfigFromRequest(std::string_view json_text) {
  CR_TRY_ASSIGN(const std::string text, WithoutNulls(json_text, {}, "config"));
  return ContextConfigFromJson(text);
}

// ---- Policies.

Result<PolicySetting> TrustAdminService::GetTenantPolicy(const identity::Principal& caller) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  return ReadSetting(tenant, PolicyLevel::kTenant, "", "");
}

Result<PolicySetting> TrustAdminService::SetTenantPolicy(const identity::Principal& caller,
                                                         const PolicyOverride& policy) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  // The resolver finds the tenant row by its scope; the target is the
  // tenant itself so that the key stays meaningful.
  WriteOverride(tenant, kTenantScope, caller.tenant_id, policy, caller, clock_.Now());
  PolicySetting out = ReadSetting(tenant, PolicyLevel::kTenant, "", "");
  audit_.Record(tenant,
                identity::AuditOf(caller, "policy.set", {"tenant", caller.tenant_id}, PolicyDetails("tenant", policy)));
  session.Commit();
  return out;
}

Result<PolicySetting> TrustAdminService::GetHubPolicy(const identity::Principal& caller,
                                                      const std::string& hub_key) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto hub = tenant.Run(kHubIdByKey, {hub_key});
  if (hub.empty()) return HubNotFound();
  PolicySetting out = ReadSetting(tenant, PolicyLevel::kHub, hub.front().Text(0), "");
  out.hub_key = hub_key;
  out.hub_id = hub.front().Text(0);
  return out;
}

Result<PolicySetting> TrustAdminService::SetHubPolicy(const identity::Principal& caller, const std::string& hub_key,
                                                      const PolicyOverride& policy) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto hub = tenant.Run(kHubIdByKey, {hub_key});
  if (hub.empty()) return HubNotFound();
  const std::string hub_id = hub.front().Text(0);
  WriteOverride(tenant, kHubScope, hub_id, policy, caller, clock_.Now());
  PolicySetting out = ReadSetting(tenant, PolicyLevel::kHub, hub_id, "");
  out.hub_key = hub_key;
  out.hub_id = hub_id;
  auto details = PolicyDetails("hub", policy);
  details["hubKey"] = hub_key;
  audit_.Record(tenant, identity::AuditOf(caller, "policy.set", {"hub", hub_id}, std::move(details)));
  session.Commit();
  return out;
}

Status TrustAdminService::DeleteHubPolicy(const identity::Principal& caller, const std::string& hub_key) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto hub = tenant.Run(kHubIdByKey, {hub_key});
  if (hub.empty()) return HubNotFound();
  if (tenant.Run(kDeletePolicy, {kHubScope, hub.front().Text(0)}).affected() > 0)
    audit_.Record(tenant, identity::AuditOf(caller, "policy.deleted", {"hub", hub.front().Text(0)},
                                            {{"level", "hub"}, {"hubKey", hub_key}}));
  session.Commit();
  return Ok();
}

Result<PolicySetting> TrustAdminService::GetSourcePolicy(const identity::Principal& caller,
                                                         const std::string& source_id) const {
  return OnTarget(db_, caller, source_id, storage::TxMode::kRead,
                  [&](storage::TenantSession& tenant, const Target& target) {
                    PolicySetting out = ReadSetting(tenant, PolicyLevel::kEntry, target.hub_id, target.id);
                    out.source_id = target.source_id;
                    return Result<PolicySetting>(std::move(out));
                  });
}

Result<PolicySetting> TrustAdminService::SetSourcePolicy(const identity::Principal& caller,
                                                         const std::string& source_id,
                                                         const PolicyOverride& policy) const {
  return OnTarget(
      db_, caller, source_id, storage::TxMode::kWrite, [&](storage::TenantSession& tenant, const Target& target) {
        WriteOverride(tenant, kEntryScope, target.id, policy, caller, clock_.Now());
        PolicySetting out = ReadSetting(tenant, PolicyLevel::kEntry, target.hub_id, target.id);
        out.source_id = target.source_id;
        auto details = PolicyDetails("source", policy);
        details["sourceId"] = target.source_id;
        audit_.Record(tenant, identity::AuditOf(caller, "policy.set", TargetOf(target), std::move(details)));
        return Result<PolicySetting>(std::move(out));
      });
}

Status TrustAdminService::DeleteSourcePolicy(const identity::Principal& caller, const std::string& source_id) const {
  return OnTarget(db_, caller, source_id, storage::TxMode::kWrite,
                  [&](storage::TenantSession& tenant, const Target& target) {
                    if (tenant.Run(kDeletePolicy, {kEntryScope, target.id}).affected() > 0)
                      audit_.Record(tenant, identity::AuditOf(caller, "policy.deleted", TargetOf(target),
                                                              {{"level", "source"}, {"sourceId", target.source_id}}));
                    return Ok();
                  });
}

// ---- Context vocabulary.

Result<ContextConfig> TrustAdminService::GetContext(const identity::Principal& caller) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  return LoadContextConfig(tenant);
}

Result<ContextConfig> TrustAdminService::SetContext(const identity::Principal& caller,
                                                    const ContextConfig& config) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  tenant.Run(kUpsertContextConfig, {ContextConfigToJson(config), caller.user_id, clock_.Now()});
  audit_.Record(tenant, identity::AuditOf(caller, "context.set", {"tenant", caller.tenant_id}));
  session.Commit();
  return config;
}

// ---- Sensitivity facts.

namespace {

SensitivitySetting SettingOf(const std::string& source_id, const std::optional<StoredFacts>& stored) {
  SensitivitySetting out;
  out.source_id = source_id;
  if (stored) {
    out.facts = stored->facts;
    out.set_by = stored->set_by;
    out.set_by_user = stored->set_by_user;
    out.updated_at = stored->updated_at;
    out.scanner = stored->scanner;
  }
  return out;
}

}  // namespace

Result<SensitivitySetting> TrustAdminService::GetSensitivity(const identity::Principal& caller,
                                                             const std::string& source_id) const {
  return OnTarget(
      db_, caller, source_id, storage::TxMode::kRead, [&](storage::TenantSession& tenant, const Target& target) {
        return Result<SensitivitySetting>(SettingOf(target.source_id, ReadFacts(tenant, target.kind, target.id)));
      });
}

Result<SensitivitySetting> TrustAdminService::SetSensitivity(const identity::Principal& caller,
                                                             const std::string& source_id,
                                                             const SensitivityFacts& facts) const {
  return OnTarget(
      db_, caller, source_id, storage::TxMode::kWrite, [&](storage::TenantSession& tenant, const Target& target) {
        WriteHumanFacts(tenant, target.kind, target.id, facts, caller.user_id, clock_.Now());
        audit_.Record(tenant, identity::AuditOf(caller, "sensitivity.set", TargetOf(target),
                                                {{"sourceId", target.source_id},
                                                 {"classification", SensitivityName(facts.classification)},
                                                 {"hasSecrets", facts.has_secrets},
                                                 {"hasPersonalData", facts.has_personal_data}}));
        return Result<SensitivitySetting>(SettingOf(target.source_id, ReadFacts(tenant, target.kind, target.id)));
      });
}

Status TrustAdminService::DeleteSensitivity(const identity::Principal& caller, const std::string& source_id) const {
  return OnTarget(db_, caller, source_id, storage::TxMode::kWrite,
                  [&](storage::TenantSession& tenant, const Target& target) {
                    DeleteFacts(tenant, target.kind, target.id);
                    audit_.Record(tenant, identity::AuditOf(caller, "sensitivity.deleted", TargetOf(target),
                                                            {{"sourceId", target.source_id}}));
                    return Ok();
                  });
}

// ---- Entries' source links.

namespace {

Error EntryNotFound() { return Error::NotFound("Entry not found."); }

std::vector<std::string> LinksOf(storage::TenantSession& tenant, const std::string& entry_id) {
  std::vector<std::string> out;
  for (const auto& r : tenant.Run(kSourceLinks, {entry_id})) out.push_back(r.Text(0));
  // Sorted here: the backends' collations would order differently.
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

Result<SourceLinks> TrustAdminService::GetSourceLinks(const identity::Principal& caller,
                                                      const std::string& entry_id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  if (!IsUuid(entry_id)) return EntryNotFound();
  const std::string id = CanonicalUuid(entry_id);
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (tenant.Run(kEntryHub, {id}).empty()) return EntryNotFound();
  return SourceLinks{id, LinksOf(tenant, id)};
}

Result<SourceLinks> TrustAdminService::SetSourceLinks(const identity::Principal& caller, const std::string& entry_id,
                                                      const std::vector<std::string>& urls) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  std::vector<FieldError> errors;
  if (urls.size() > kMaxSourceLinks)
    errors.push_back({"urls", "must hold at most " + std::to_string(kMaxSourceLinks) + " URLs"});
  for (size_t i = 0; i < urls.size(); ++i)
    if (!IsSourceUrl(urls[i]))
      errors.push_back({"urls[" + std::to_string(i) + "]", "must be an http or https URL of at most " +
                                                               std::to_string(kMaxUrlLength) +
                                                               " characters, without white space"});
  if (!errors.empty()) return Error::Validation(std::move(errors));
  if (!IsUuid(entry_id)) return EntryNotFound();
  const std::string id = CanonicalUuid(entry_id);
  const std::set<std::string> wanted(urls.begin(), urls.end());

  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (tenant.Run(kLockEntry, {id}).empty()) return EntryNotFound();
  // Links that stay keep their row (and created_at).
  for (const auto& url : LinksOf(tenant, id))
    if (!wanted.count(url)) tenant.Run(kDeleteSourceLink, {id, url});
  const TimeMs now = clock_.Now();
  for (const auto& url : wanted) tenant.Run(kInsertSourceLink, {id, url, now});
  boost::json::array links;
  for (const auto& url : wanted) links.emplace_back(url);
  audit_.Record(tenant, identity::AuditOf(caller, "sourcelinks.set", {"entry", id}, {{"urls", std::move(links)}}));
  session.Commit();
  return SourceLinks{id, {wanted.begin(), wanted.end()}};
}

}  // namespace credence::trust
