#include "trust/source_resolver.h"

#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>

#include <map>
#include <set>

#include "core/json_text.h"
#include "kb/internal/queries.h"
#include "lifecycle/status.h"
#include "storage/session.h"
#include "trust/admin_service.h"
#include "trust/source_id.h"

namespace credence::trust {
namespace {

namespace json = boost::json;
using storage::TenantQuery;

// A JSON array parameter expanded into rows: json_each on SQLite,
// json_array_elements_text on PostgreSQL.
#define CREDENCE_SQLITE_LIST(P) "(SELECT value FROM json_each(" P "))"
#define CREDENCE_PG_LIST(P) "(SELECT json_array_elements_text(CAST(" P " AS JSON)))"

#define CREDENCE_TRUST_ENTRY_SELECT                                                                            \
  "SELECT e.id, e.title, e.status, e.expiry_at, e.paused_at, COALESCE(xt.warning_days, 0),"                    \
  " COALESCE(xt.grace_days, 0), e.version, e.content_updated_at, e.owner_id,"                                  \
  " (SELECT m.is_active FROM tenant_members m WHERE m.tenant_id = e.tenant_id AND m.user_id = e.owner_id),"    \
  " e.hub_id, (SELECT r.created_at FROM entry_reviews r WHERE r.tenant_id = e.tenant_id AND r.entry_id = e.id" \
  " ORDER BY r.created_at DESC LIMIT 1),"                                                                      \
  " (SELECT r.review_type FROM entry_reviews r WHERE r.tenant_id = e.tenant_id AND r.entry_id = e.id"          \
  " ORDER BY r.created_at DESC LIMIT 1),"                                                                      \
  " ss.classification, ss.has_secrets, ss.has_personal_data,"                                                  \
  " CASE WHEN CAST($3 AS TEXT) = '' OR $3 = e.original_language THEN -1"                                       \
  " WHEN NOT EXISTS (SELECT 1 FROM translations t WHERE t.tenant_id = e.tenant_id AND t.entry_id = e.id"       \
  " AND t.language = $3) THEN -2"                                                                              \
  " ELSE (SELECT COUNT(*) FROM translation_blocks tb JOIN entry_blocks b ON b.tenant_id = tb.tenant_id"        \
  " AND b.entry_id = tb.entry_id AND b.block_id = tb.block_id WHERE tb.tenant_id = e.tenant_id"                \
  " AND tb.entry_id = e.id AND tb.language = $3 AND b.is_deleted = 0 AND b.hash <> tb.source_hash) END,"       \
  " (SELECT MIN(l.url) FROM entry_source_links l WHERE l.tenant_id = e.tenant_id AND l.entry_id = "            \
  "e.id),"                                                                                                     \
  " (SELECT COUNT(*) FROM translation_blocks tb JOIN entry_blocks b ON b.tenant_id = tb.tenant_id"             \
  " AND b.entry_id = tb.entry_id AND b.block_id = tb.block_id WHERE tb.tenant_id = e.tenant_id"                \
  " AND tb.entry_id = e.id AND tb.language = $3 AND b.is_deleted = 0 AND tb.machine_translated = "             \
  "1)" CREDENCE_KB_ENTRY_FROM                                                                                  \
  " LEFT JOIN source_sensitivity ss ON ss.tenant_id = e.tenant_id AND ss.source_kind = 'entry'"                \
  " AND ss.source_id = e.id WHERE e.tenant_id = $1 AND e.id IN "

constexpr TenantQuery kEntries{"trust.resolve_entries", CREDENCE_TRUST_ENTRY_SELECT CREDENCE_SQLITE_LIST("$2"),
                               CREDENCE_TRUST_ENTRY_SELECT CREDENCE_PG_LIST("$2")};

#define CREDENCE_TRUST_DOC_COLUMNS                                                                          \
  "SELECT d.id, d.connector_key, d.external_id, d.url, d.title, d.status, d.version, d.content_updated_at," \
  " d.owner_id, (SELECT m.is_active FROM tenant_members m WHERE m.tenant_id = d.tenant_id AND m.user_id = " \
  "d.owner_id),"                                                                                            \
  " d.last_reviewed_at, d.last_review_type, ss.classification, ss.has_secrets, ss.has_personal_data"

#define CREDENCE_TRUST_DOC_SENSITIVITY                                                              \
  " LEFT JOIN source_sensitivity ss ON ss.tenant_id = d.tenant_id AND ss.source_kind = 'connected'" \
  " AND ss.source_id = d.id"

// $2: [[connector_key, external_id], ...]
constexpr TenantQuery kDocsByKey{
    "trust.resolve_docs_by_key",
    // CROSS JOIN keeps SQLite from driving the join from connected_documents
    // (a scan of the tenant's documents per batch): the ids drive, each one
    // a lookup in the unique (tenant, connector, external id) index.
    CREDENCE_TRUST_DOC_COLUMNS
    " FROM json_each($2) j CROSS JOIN connected_documents d ON d.tenant_id = $1"
    " AND d.connector_key = json_extract(j.value, '$[0]') AND d.external_id = json_extract(j.value, "
    "'$[1]')" CREDENCE_TRUST_DOC_SENSITIVITY,
    CREDENCE_TRUST_DOC_COLUMNS
    " FROM json_array_elements(CAST($2 AS JSON)) j JOIN connected_documents d"
    " ON d.tenant_id = $1 AND d.connector_key = j->>0 AND d.external_id = j->>1" CREDENCE_TRUST_DOC_SENSITIVITY};

constexpr TenantQuery kDocsByUrl{
    "trust.resolve_docs_by_url",
    CREDENCE_TRUST_DOC_COLUMNS " FROM connected_documents d" CREDENCE_TRUST_DOC_SENSITIVITY
                               " WHERE d.tenant_id = $1 AND d.url IN " CREDENCE_SQLITE_LIST("$2"),
    CREDENCE_TRUST_DOC_COLUMNS " FROM connected_documents d" CREDENCE_TRUST_DOC_SENSITIVITY
                               " WHERE d.tenant_id = $1 AND d.url IN " CREDENCE_PG_LIST("$2")};

constexpr TenantQuery kLinksByUrl{
    "trust.resolve_links_by_url",
    "SELECT url, MIN(entry_id) FROM entry_source_links WHERE tenant_id = $1 AND url IN " CREDENCE_SQLITE_LIST(
        "$2") " GROUP BY url",
    "SELECT url, MIN(entry_id) FROM entry_source_links WHERE tenant_id = $1 AND url IN " CREDENCE_PG_LIST(
        "$2") " GROUP BY url"};

// The tenant default, and the hub and entry levels of the sources at hand.
constexpr TenantQuery kPolicies{
    "trust.resolve_policies",
    "SELECT scope, target_id, policy FROM trust_policies WHERE tenant_id = $1 AND (scope = 'tenant'"
    " OR target_id IN " CREDENCE_SQLITE_LIST("$2") ")",
    "SELECT scope, target_id, policy FROM trust_policies WHERE tenant_id = $1 AND (scope = 'tenant'"
    " OR target_id IN " CREDENCE_PG_LIST("$2") ")"};

constexpr TenantQuery kApps{"trust.apps",
                            "SELECT id, name, channel, risk, owner_id, default_policy FROM trust_apps"
                            " WHERE tenant_id = $1"};

constexpr TenantQuery kContextConfig{"trust.context_config",
                                     "SELECT config FROM trust_context_config WHERE tenant_id = $1"};

void ApplySensitivity(const storage::Row& r, int first, SourceState& s) {
  if (auto c = r.OptText(first)) {
    if (auto parsed = ParseSensitivity(*c)) s.sensitivity = *parsed;
    s.has_secrets = r.Bool(first + 1);
    s.has_personal_data = r.Bool(first + 2);
  }
}

SourceState EntryState(const storage::Row& r, TimeMs now, std::string& hub_id) {
  SourceState s;
  s.resolved = true;
  s.origin = Origin::kNative;
  s.entry_id = r.Text(0);
  s.title = r.Text(1);
  s.expiry_facts = lifecycle::ExpiryFacts{r.TextView(2) != "Draft", r.Int(3), r.OptInt(4)};
  s.windows = {static_cast<int>(r.Int(5)), static_cast<int>(r.Int(6))};
  DeriveAt(s, now);
  s.version = r.Int(7);
  s.content_updated_at = r.Int(8);
  s.owner_id = r.OptText(9);
  s.owner_active = r.Int(10) == 1;
  hub_id = r.Text(11);
  s.last_reviewed_at = r.OptInt(12);
  if (auto t = r.OptText(13)) s.last_review = StrengthOfReviewType(*t);
  ApplySensitivity(r, 14, s);
  const int64_t stale = r.Int(17);
  if (stale == -2) s.translation_missing = true;
  if (stale >= 0) s.stale_translation_blocks = stale;
  s.external_url = r.OptText(18);
  s.machine_translation_blocks = r.Int(19);
  return s;
}

SourceState DocState(const storage::Row& r) {
  SourceState s;
  s.resolved = true;
  s.origin = Origin::kConnected;
  s.entry_id = r.Text(0);
  s.external_url = r.OptText(3);
  s.title = r.Text(4);
  // Published, Draft or Removed (a connector no longer finds it; it keeps
  // resolving so that callers learn why it is blocked).
  const std::string_view status = r.TextView(5);
  s.removed = status == kDocumentRemoved;
  s.status = s.removed ? kb::EntryStatus::kPublished
                       : kb::ParseEntryStatus(status).value_or(kb::EntryStatus::kPublished);
  s.version = r.Int(6);
  s.content_updated_at = r.Int(7);
  s.owner_id = r.OptText(8);
  s.owner_active = r.Int(9) == 1;
  s.last_reviewed_at = r.OptInt(10);
  if (auto t = r.OptText(11)) s.last_review = StrengthOfReviewType(*t);
  ApplySensitivity(r, 12, s);
  return s;
}

}  // namespace

ContextConfig LoadContextConfig(storage::TenantSession& tenant) {
  auto rows = tenant.Run(kContextConfig);
  if (rows.empty()) return {};
  auto config = ContextConfigFromJson(rows.front().TextView(0));
  return config ? std::move(*config) : ContextConfig{};
}

AppProfiles LoadAppProfiles(storage::TenantSession& tenant) {
  AppProfiles out;
  for (const auto& r : tenant.Run(kApps)) {
    AppProfile app;
    app.id = r.Text(0);
    app.name = r.Text(1);
    app.channel = r.Text(2);
    app.risk = r.Text(3);
    if (!r.IsNull(4)) app.owner_id = r.Text(4);
    // Stored by the registry, which validated it; an unreadable one applies nothing.
    if (auto policy = PolicyOverrideFromJson(r.TextView(5))) app.policy = std::move(*policy);
    out.emplace(app.id, std::move(app));
  }
  return out;
}

Resolution ResolveSources(storage::TenantSession& tenant, std::span<const std::string_view> source_ids,
                          const std::string& language, TimeMs now) {
  Resolution out;
  std::vector<ParsedSourceId> parsed;
  parsed.reserve(source_ids.size());
  std::set<std::string> entry_ids;
  std::set<std::pair<std::string, std::string>> doc_keys;
  std::set<std::string> urls;
  for (const auto& id : source_ids) {
    parsed.push_back(ParseSourceId(id));
    const auto& p = parsed.back();
    if (p.form == SourceForm::kEntry) entry_ids.insert(p.entry_id);
    if (p.form == SourceForm::kConnected) doc_keys.insert({p.connector_key, p.external_id});
    if (p.form == SourceForm::kUrl) urls.insert(p.url);
  }

  // Connected documents, by key and by URL; then the URLs no document
  // claims, through the entries' source links.
  std::map<std::pair<std::string, std::string>, SourceState> docs_by_key;
  std::map<std::string, SourceState> docs_by_url;
  if (!doc_keys.empty()) {
    json::array pairs;
    for (const auto& [k, e] : doc_keys) pairs.push_back(json::array{json::value(k), json::value(e)});
    for (const auto& r : tenant.Run(kDocsByKey, {json::serialize(pairs)}))
      docs_by_key[{r.Text(1), r.Text(2)}] = DocState(r);
  }
  std::map<std::string, std::string> entry_of_url;
  if (!urls.empty()) {
    const std::string list = StringListToJson({urls.begin(), urls.end()});
    for (const auto& r : tenant.Run(kDocsByUrl, {list})) {
      const std::string url = r.Text(3);
      if (!docs_by_url.count(url)) docs_by_url[url] = DocState(r);
    }
    std::vector<std::string> rest;
    for (const auto& u : urls)
      if (!docs_by_url.count(u)) rest.push_back(u);
    if (!rest.empty())
      for (const auto& r : tenant.Run(kLinksByUrl, {StringListToJson(rest)})) {
        entry_of_url[r.Text(0)] = r.Text(1);
        entry_ids.insert(r.Text(1));
      }
  }

  std::map<std::string, std::pair<SourceState, std::string>> entries;  // id -> state, hub
  if (!entry_ids.empty())
    for (const auto& r : tenant.Run(kEntries, {StringListToJson({entry_ids.begin(), entry_ids.end()}), language})) {
      std::string hub;
      SourceState s = EntryState(r, now, hub);
      if (!language.empty()) s.language = language;
      if (s.language && s.stale_translation_blocks == 0 && !s.translation_missing && r.Int(17) == -1 &&
          s.machine_translation_blocks == 0)
        s.language.reset();         // the original's language: nothing to check
      std::string id = s.entry_id;  // (the right side of = is evaluated first)
      entries[std::move(id)] = {std::move(s), std::move(hub)};
    }

  // Policies: the tenant default, then each source's hub, then the source.
  std::vector<std::string> targets;
  for (const auto& [id, e] : entries) {
    targets.push_back(id);
    targets.push_back(e.second);
  }
  for (const auto& [k, d] : docs_by_key) targets.push_back(d.entry_id);
  for (const auto& [u, d] : docs_by_url) targets.push_back(d.entry_id);
  PolicyOverride tenant_override;
  std::map<std::string, PolicyOverride> hub_overrides;
  std::map<std::string, PolicyOverride> source_overrides;
  for (const auto& r : tenant.Run(kPolicies, {StringListToJson(targets)})) {
    auto o = PolicyOverrideFromJson(r.TextView(2));
    if (!o) continue;  // written through validation; never expected
    const std::string scope = r.Text(0);
    if (scope == "tenant") tenant_override = *o;
    if (scope == "hub") hub_overrides[r.Text(1)] = *o;
    if (scope == "entry") source_overrides[r.Text(1)] = *o;
  }
  out.config = LoadContextConfig(tenant);

  out.sources.reserve(parsed.size());
  for (size_t i = 0; i < parsed.size(); ++i) {
    const auto& p = parsed[i];
    ResolvedSource rs;
    const SourceState* found = nullptr;
    if (p.form == SourceForm::kEntry) {
      if (auto it = entries.find(p.entry_id); it != entries.end()) {
        found = &it->second.first;
        rs.hub_id = it->second.second;
      }
    } else if (p.form == SourceForm::kConnected) {
      if (auto it = docs_by_key.find({p.connector_key, p.external_id}); it != docs_by_key.end()) found = &it->second;
    } else if (p.form == SourceForm::kUrl) {
      if (auto it = docs_by_url.find(p.url); it != docs_by_url.end()) {
        found = &it->second;
      } else if (auto link = entry_of_url.find(p.url); link != entry_of_url.end()) {
        if (auto e = entries.find(link->second); e != entries.end()) {
          found = &e->second.first;
          rs.hub_id = e->second.second;
        }
      }
    }
    if (found != nullptr) rs.state = *found;
    rs.state.source_id = source_ids[i];
    Apply(tenant_override, rs.policy);
    if (!tenant_override.empty()) rs.policy_source = kPolicyTenantDefault;
    if (auto h = hub_overrides.find(rs.hub_id); !rs.hub_id.empty() && h != hub_overrides.end()) {
      Apply(h->second, rs.policy);
      rs.policy_source = kPolicyHub;
    }
    if (auto s = source_overrides.find(rs.state.entry_id); rs.state.resolved && s != source_overrides.end()) {
      Apply(s->second, rs.policy);
      rs.policy_source = kPolicyEntry;
    }
    out.sources.push_back(std::move(rs));
  }
  return out;
}

std::vector<ResolvedSource> ResolveInBatches(storage::TenantSession& tenant, const std::vector<std::string>& source_ids,
                                             TimeMs now) {
  constexpr size_t kBatch = 100;  // what the evaluate endpoint takes (kMaxSourcesPerRequest)
  const std::vector<std::string_view> views(source_ids.begin(), source_ids.end());
  std::vector<ResolvedSource> out;
  out.reserve(views.size());
  for (size_t at = 0; at < views.size(); at += kBatch) {
    auto batch = std::span<const std::string_view>(views).subspan(at, std::min(kBatch, views.size() - at));
    for (auto& rs : ResolveSources(tenant, batch, "", now).sources) out.push_back(std::move(rs));
  }
  return out;
}

}  // namespace credence::trust
