#include "trust/app_registry.h"

#include <utility>

#include <algorithm>
#include <map>
#include <tuple>

#include <boost/json/array.hpp>

#include "core/ids.h"
#include "core/text.h"
#include "identity/authorization.h"
#include "storage/database.h"
#include "storage/session.h"
#include "trust/source_resolver.h"

namespace credence::trust {
namespace {

using storage::TenantQuery;

#define CREDENCE_APP_COLUMNS                                                                            \
  "id, name, description, channel, risk, default_policy, owner_id, created_by, created_at, updated_at," \
  " archived_at, archived_by, rate_limit_rps, rate_limit_burst"

constexpr TenantQuery kInsertApp{
    "apps.insert",
    "INSERT INTO trust_apps (tenant_id, id, name, description, channel, risk, default_policy, owner_id,"
    " created_by, created_at, updated_at, rate_limit_rps, rate_limit_burst)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)"};

constexpr TenantQuery kAppRateLimit{
    "apps.rate_limit", "SELECT rate_limit_rps, rate_limit_burst FROM trust_apps WHERE tenant_id = $1 AND id = $2"};

constexpr TenantQuery kFindApp{"apps.find",
                               "SELECT " CREDENCE_APP_COLUMNS " FROM trust_apps WHERE tenant_id = $1 AND id = $2"};

// Changes of an app read it first; on PostgreSQL (READ COMMITTED, writers
// side by side) the row is locked so that two changes queue instead of
// overwriting each other. SQLite's write transaction is already exclusive.
constexpr TenantQuery kFindAppForUpdate{
    "apps.find_for_update", "SELECT " CREDENCE_APP_COLUMNS " FROM trust_apps WHERE tenant_id = $1 AND id = $2",
    "SELECT " CREDENCE_APP_COLUMNS " FROM trust_apps WHERE tenant_id = $1 AND id = $2 FOR UPDATE"};

// Key operations hold the app's row shared: archiving (which updates the
// row, then revokes the keys) waits for them, and they wait for it and
// then see the app archived. Without this, a key minted while the app is
// archived could escape the revocation.
constexpr TenantQuery kFindAppForShare{"apps.find_for_share",
                                       "SELECT archived_at FROM trust_apps WHERE tenant_id = $1 AND id = $2",
                                       "SELECT archived_at FROM trust_apps WHERE tenant_id = $1 AND id = $2 FOR SHARE"};

constexpr TenantQuery kListApps{"apps.list", "SELECT " CREDENCE_APP_COLUMNS " FROM trust_apps WHERE tenant_id = $1"};

#undef CREDENCE_APP_COLUMNS

constexpr TenantQuery kNameTaken{
    "apps.name_taken",
    "SELECT 1 FROM trust_apps WHERE tenant_id = $1 AND name = $2 AND archived_at IS NULL AND id <> $3"};

constexpr TenantQuery kUpdateApp{
    "apps.update",
    "UPDATE trust_apps SET name = $3, description = $4, channel = $5, risk = $6, default_policy = $7,"
    " owner_id = $8, updated_at = $9, rate_limit_rps = $10, rate_limit_burst = $11"
    " WHERE tenant_id = $1 AND id = $2 AND archived_at IS NULL"};

constexpr TenantQuery kArchiveApp{
    "apps.archive",
    "UPDATE trust_apps SET archived_at = $3, archived_by = $4, updated_at = $3 WHERE tenant_id = $1 AND id = $2"
    " AND archived_at IS NULL"};

constexpr TenantQuery kIsActiveMember{
    "apps.is_active_member", "SELECT 1 FROM tenant_members WHERE tenant_id = $1 AND user_id = $2 AND is_active = 1"};

// Both read the app's decisions by time through trust_decisions_app_time.
constexpr TenantQuery kDecisionCounts{
    "apps.decision_counts",
    "SELECT COUNT(*), COALESCE(SUM(CASE WHEN overall = 'allow' THEN 1 ELSE 0 END), 0),"
    " COALESCE(SUM(CASE WHEN overall = 'warn' THEN 1 ELSE 0 END), 0),"
    " COALESCE(SUM(CASE WHEN overall = 'block' THEN 1 ELSE 0 END), 0), COALESCE(SUM(total), 0),"
    " COALESCE(SUM(allowed), 0), COALESCE(SUM(warned), 0), COALESCE(SUM(blocked), 0), COALESCE(SUM(escalated), 0)"
    " FROM trust_decisions WHERE tenant_id = $1 AND app_id = $2 AND evaluated_at >= $3 AND evaluated_at < $4"};

constexpr TenantQuery kKeyVolumes{
    "apps.key_volumes",
    "SELECT key_id, COUNT(*), MAX(evaluated_at) FROM trust_decisions WHERE tenant_id = $1 AND app_id = $2"
    " AND evaluated_at >= $3 AND evaluated_at < $4 GROUP BY key_id"};

Error AppNotFound() { return Error::NotFound("App not found."); }

// Ids are compared in lowercase (decisions.md); anything else is left as
// sent, for the member check to refuse.
std::string LowerIfUuid(const std::string& id) { return IsUuid(id) ? CanonicalUuid(id) : id; }

Error AppArchived() { return Error::Conflict("app_archived", "The app is archived; it cannot be changed."); }

Error NameTaken(const std::string& name) {
  return Error::Conflict("app_name_taken", "An active app named '" + name + "' already exists in this tenant.");
}

// Writes `app` with `query` unless its name is taken by another active app:
// checked first (on PostgreSQL a failed write would abort the transaction),
// and a concurrent writer of the same name that won the race is caught by
// the unique index.
Status WriteUnlessNameTaken(storage::TenantSession& tenant, const App& app, const storage::TenantQuery& query,
                            std::initializer_list<storage::Param> params) {
  if (!tenant.Run(kNameTaken, {app.name, app.id}).empty()) return NameTaken(app.name);
  try {
    tenant.Run(query, params);
  } catch (const storage::StorageError& e) {
    if (e.kind() == storage::StorageError::Kind::kUniqueViolation) return NameTaken(app.name);
    throw;
  }
  return Ok();
}

App AppFromRow(const storage::Row& r) {
  App a;
  a.id = r.Text(0);
  a.name = r.Text(1);
  a.description = r.Text(2);
  a.channel = r.Text(3);
  a.risk = r.Text(4);
  // Written by PolicyOverrideToJson, so it parses; a row edited by hand
  // that does not is shown as no override rather than failing the read.
  if (auto policy = PolicyOverrideFromJson(r.TextView(5))) a.default_policy = std::move(*policy);
  a.owner_id = r.OptText(6);
  a.created_by = r.OptText(7);
  a.created_at = r.Int(8);
  a.updated_at = r.Int(9);
  a.archived_at = r.OptInt(10);
  a.archived_by = r.OptText(11);
  if (!r.IsNull(12) && !r.IsNull(13)) a.rate_limit = AppRateLimit{r.Real(12), r.Int(13)};
  return a;
}

std::optional<double> RpsOf(const App& app) {
  return app.rate_limit ? std::optional<double>(app.rate_limit->requests_per_second) : std::nullopt;
}
std::optional<int64_t> BurstOf(const App& app) {
  return app.rate_limit ? std::optional<int64_t>(app.rate_limit->burst) : std::nullopt;
}

// The tenant's context vocabulary, or the built-in one.
void ClassifyChannel(const ContextConfig& config, App& app) {
  app.customer_facing = IsCustomerFacing(config, app.channel);
}

bool IsRisk(const std::string& risk) {
  const auto& risks = AppRisks();
  return std::find(risks.begin(), risks.end(), risk) != risks.end();
}

// The checks Register and Update share, on the values the app would have.
void ValidateFields(storage::TenantSession& tenant, const App& app, bool check_owner, std::vector<FieldError>& errors) {
  if (app.name.empty()) errors.push_back({"name", "must not be blank"});
  if (Utf8Length(app.name) > kMaxAppNameLength)
    errors.push_back({"name", "must be at most " + std::to_string(kMaxAppNameLength) + " characters"});
  if (app.channel.empty()) errors.push_back({"channel", "must not be blank"});
  if (Utf8Length(app.channel) > kMaxAppChannelLength)
    errors.push_back({"channel", "must be at most " + std::to_string(kMaxAppChannelLength) + " characters"});
  if (!IsRisk(app.risk)) errors.push_back({"risk", "must be one of low, medium, high, critical"});
  if (Utf8Length(app.description) > kMaxAppDescriptionLength)
    errors.push_back({"description", "must be at most " + std::to_string(kMaxAppDescriptionLength) + " characters"});
  if (app.rate_limit) {
    const double rps = app.rate_limit->requests_per_second;
    if (!(rps >= kMinAppRps && rps <= kMaxAppRps))
      errors.push_back({"rateLimit.requestsPerSecond", "must be from 0.01 to 100000"});
    if (app.rate_limit->burst < 1 || app.rate_limit->burst > kMaxAppBurst)
      errors.push_back({"rateLimit.burst", "must be an integer from 1 to 1000000"});
  }
  if (check_owner && app.owner_id && (!IsUuid(*app.owner_id) || tenant.Run(kIsActiveMember, {*app.owner_id}).empty()))
    errors.push_back({"ownerUserId", "must be an active member of the tenant"});
}

// The app of a key change: 404 when not the tenant's; 409 when archived
// (its keys are revoked and stay so). Holds the row shared on PostgreSQL.
Status CheckAppForKeys(storage::TenantSession& tenant, const std::string& app_id) {
  auto rows = tenant.Run(kFindAppForShare, {app_id});
  if (rows.empty()) return AppNotFound();
  if (!rows.front().IsNull(0))
    return Error::Conflict("app_archived", "The app is archived; its keys cannot be changed.");
  return Ok();
}

// A change to an app's keys: tenant admins only, in one write transaction
// in which the app exists and is not archived; committed when `op` succeeds.
template <typename Op>
auto ChangeKeys(storage::Database& db, const identity::Principal& caller, const std::string& app_id, Op op)
    -> decltype(op(std::declval<storage::TenantSession&>())) {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  CR_TRY(CheckAppForKeys(tenant, app_id));
  auto result = op(tenant);
  if (result) session.Commit();
  return result;
}

}  // namespace

const std::vector<std::string>& AppRisks() {
  static const std::vector<std::string> kRisks = {"low", "medium", "high", "critical"};
  return kRisks;
}

Result<App> AppRegistry::Register(const identity::Principal& caller, const NewApp& request) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  const TimeMs now = clock_.Now();
  App app;
  app.id = NewId();
  app.name = Trim(request.name);
  app.channel = Trim(request.channel);
  app.risk = request.risk;
  app.default_policy = request.default_policy;
  app.owner_id = request.owner_id ? LowerIfUuid(*request.owner_id) : caller.user_id;
  app.created_by = caller.user_id;
  app.description = request.description;
  app.rate_limit = request.rate_limit;
  app.created_at = now;
  app.updated_at = now;

  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  std::vector<FieldError> errors;
  ValidateFields(tenant, app, request.owner_id.has_value(), errors);
  if (!errors.empty()) return Error::Validation(std::move(errors));
  CR_TRY(WriteUnlessNameTaken(tenant, app, kInsertApp,
                              {app.id, app.name, app.description, app.channel, app.risk,
                               PolicyOverrideToJson(app.default_policy), app.owner_id, app.created_by, now, now,
                               RpsOf(app), BurstOf(app)}));
  ClassifyChannel(LoadContextConfig(tenant), app);
  audit_.Record(tenant, identity::AuditOf(caller, "app.registered", {"app", app.id},
                                          {{"name", app.name}, {"channel", app.channel}, {"risk", app.risk}}));
  session.Commit();
  return app;
}

Result<std::vector<App>> AppRegistry::List(const identity::Principal& caller, bool include_archived) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  const ContextConfig config = LoadContextConfig(tenant);
  std::vector<App> out;
  for (const auto& row : tenant.Run(kListApps)) {
    App app = AppFromRow(row);
    if (app.archived_at && !include_archived) continue;
    ClassifyChannel(config, app);
    out.push_back(std::move(app));
  }
  // Byte order on both backends (PostgreSQL's ORDER BY would follow the
  // database's collation).
  std::sort(out.begin(), out.end(), [](const App& a, const App& b) {
    return std::make_tuple(a.archived_at.has_value(), std::string_view(a.name), std::string_view(a.id)) <
           std::make_tuple(b.archived_at.has_value(), std::string_view(b.name), std::string_view(b.id));
  });
  return out;
}

Result<App> AppRegistry::Get(const identity::Principal& caller, const std::string& app_id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto rows = tenant.Run(kFindApp, {app_id});
  if (rows.empty()) return AppNotFound();
  App app = AppFromRow(rows.front());
  ClassifyChannel(LoadContextConfig(tenant), app);
  return app;
}

Result<App> AppRegistry::Update(const identity::Principal& caller, const std::string& app_id,
                                const AppPatch& patch) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto rows = tenant.Run(kFindAppForUpdate, {app_id});
  if (rows.empty()) return AppNotFound();
  App app = AppFromRow(rows.front());
  if (app.archived_at) return AppArchived();
  if (patch.name) app.name = Trim(*patch.name);
  if (patch.channel) app.channel = Trim(*patch.channel);
  if (patch.risk) app.risk = *patch.risk;
  if (patch.default_policy) app.default_policy = *patch.default_policy;
  if (patch.owner_id) app.owner_id = LowerIfUuid(*patch.owner_id);
  if (patch.description) app.description = *patch.description;
  if (patch.rate_limit) app.rate_limit = *patch.rate_limit;
  boost::json::array fields;
  // Which fields the change named (their values are in the app itself).
  const std::pair<const char*, bool> named[] = {
      {"name", patch.name.has_value()},       {"channel", patch.channel.has_value()},
      {"risk", patch.risk.has_value()},       {"defaultPolicy", patch.default_policy.has_value()},
      {"ownerId", patch.owner_id.has_value()}, {"description", patch.description.has_value()},
      {"rateLimit", patch.rate_limit.has_value()}};
  for (const auto& [name, given] : named)
    if (given) fields.emplace_back(name);
  std::vector<FieldError> errors;
  ValidateFields(tenant, app, patch.owner_id.has_value(), errors);
  if (!errors.empty()) return Error::Validation(std::move(errors));
  app.updated_at = clock_.Now();
  CR_TRY(WriteUnlessNameTaken(tenant, app, kUpdateApp,
                              {app.id, app.name, app.description, app.channel, app.risk,
                               PolicyOverrideToJson(app.default_policy), app.owner_id, app.updated_at,
                               RpsOf(app), BurstOf(app)}));
  ClassifyChannel(LoadContextConfig(tenant), app);
  audit_.Record(tenant, identity::AuditOf(caller, "app.updated", {"app", app.id},
                                          {{"name", app.name}, {"fields", std::move(fields)}}));
  session.Commit();
  return app;
}

Result<App> AppRegistry::Archive(const identity::Principal& caller, const std::string& app_id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  const TimeMs now = clock_.Now();
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (tenant.Run(kArchiveApp, {app_id, now, caller.user_id}).affected() == 0) {
    if (tenant.Run(kFindApp, {app_id}).empty()) return AppNotFound();
    return Error::Conflict("app_archived", "The app is archived already.");
  }
  CR_TRY(keys_.RevokeAppKeys(tenant, caller, app_id));
  auto rows = tenant.Run(kFindApp, {app_id});
  if (rows.empty()) return AppNotFound();
  App app = AppFromRow(rows.front());
  ClassifyChannel(LoadContextConfig(tenant), app);
  audit_.Record(tenant, identity::AuditOf(caller, "app.archived", {"app", app.id}, {{"name", app.name}}));
  session.Commit();
  return app;
}

Result<identity::CreatedAppKey> AppRegistry::MintKey(const identity::Principal& caller, const std::string& app_id,
                                                     const identity::NewAppKey& request) const {
  return ChangeKeys(db_, caller, app_id, [&](storage::TenantSession& tenant) {
    return keys_.CreateAppKey(tenant, caller, app_id, request, max_key_days_ * kMsPerDay);
  });
}

Result<std::vector<identity::AppKey>> AppRegistry::ListKeys(const identity::Principal& caller,
                                                            const std::string& app_id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (tenant.Run(kFindApp, {app_id}).empty()) return AppNotFound();
  return keys_.ListAppKeys(tenant, caller, app_id);
}

Result<identity::AppKey> AppRegistry::SetKeyEnabled(const identity::Principal& caller, const std::string& app_id,
                                                    const std::string& key_id, bool enabled) const {
  return ChangeKeys(db_, caller, app_id, [&](storage::TenantSession& tenant) {
    return keys_.SetAppKeyEnabled(tenant, caller, app_id, key_id, enabled);
  });
}

Result<identity::CreatedAppKey> AppRegistry::RegenerateKey(const identity::Principal& caller, const std::string& app_id,
                                                           const std::string& key_id) const {
  return ChangeKeys(db_, caller, app_id, [&](storage::TenantSession& tenant) {
    return keys_.RegenerateAppKey(tenant, caller, app_id, key_id);
  });
}

std::optional<AppRateLimit> AppRegistry::RateLimitOf(const std::string& tenant_id, const std::string& app_id) const {
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, tenant_id);
  const auto rows = tenant.Run(kAppRateLimit, {app_id});
  if (rows.empty() || rows.front().IsNull(0) || rows.front().IsNull(1)) return std::nullopt;
  return AppRateLimit{rows.front().Real(0), rows.front().Int(1)};
}

Result<AppStats> AppRegistry::Stats(const identity::Principal& caller, const std::string& app_id,
                                    const std::optional<std::string>& from,
                                    const std::optional<std::string>& to) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  CR_TRY_ASSIGN(DateWindow window, ParseDateWindow(from, to, clock_.Now()));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (tenant.Run(kFindApp, {app_id}).empty()) return AppNotFound();
  AppStats out;
  out.app_id = app_id;
  out.window = window;
  {
    const auto rows = tenant.Run(kDecisionCounts, {app_id, window.from_ms, window.end_ms});
    const auto r = rows.front();
    out.decisions = {r.Int(0), r.Int(1), r.Int(2), r.Int(3)};
    out.source_decisions = {r.Int(4), r.Int(5), r.Int(6), r.Int(7), r.Int(8)};
  }
  std::map<std::string, std::pair<int64_t, TimeMs>, std::less<>> volumes;
  for (const auto& r : tenant.Run(kKeyVolumes, {app_id, window.from_ms, window.end_ms}))
    volumes[r.Text(0)] = {r.Int(1), r.Int(2)};
  CR_TRY_ASSIGN(auto keys, keys_.ListAppKeys(tenant, caller, app_id));
  for (const auto& k : keys) {
    KeyVolume v{k.key.id, k.key.name, 0, std::nullopt};
    if (const auto it = volumes.find(k.key.id); it != volumes.end()) {
      v.requests = it->second.first;
      v.last_request_at = it->second.second;
    }
    out.keys.push_back(std::move(v));
  }
  return out;
}

}  // namespace credence::trust
