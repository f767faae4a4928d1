#include "connectors/connector_service.h"

#include "connectors/credential.h"
#include "connectors/internal/documents.h"
#include "connectors/internal/queries.h"
#include "connectors/settings.h"
#include "core/ids.h"
#include "core/text.h"
#include "identity/authorization.h"
#include "storage/session.h"
#include "trust/connected_documents.h"
#include "trust/content_scanning.h"
#include "trust/source_id.h"

namespace credence::connectors {
namespace {

using namespace internal;  // NOLINT(google-build-using-namespace): the module's own SQL

constexpr TenantQuery kListConnectors{
    "connectors.list",
    "SELECT " CREDENCE_CONNECTOR_COLUMNS " FROM connectors WHERE tenant_id = $1 ORDER BY connector_key",
    "SELECT " CREDENCE_CONNECTOR_COLUMNS " FROM connectors WHERE tenant_id = $1 ORDER BY connector_key COLLATE \"C\""};
constexpr TenantQuery kInsertConnector{
    "connectors.insert",
    "INSERT INTO connectors (tenant_id, id, connector_key, kind, name, settings, schedule_minutes, next_run_at,"
    " created_by, created_at, updated_at, credential_info, credential_sealed)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10, $11, $12)"
    " ON CONFLICT (tenant_id, connector_key) DO NOTHING"};
constexpr TenantQuery kUpdateConnector{
    "connectors.update",
    "UPDATE connectors SET name = $3, settings = $4, schedule_minutes = $5, next_run_at = $6,"
    " sync_cursor = CASE WHEN $7 = 1 THEN NULL ELSE sync_cursor END, updated_at = $8,"
    " credential_info = $9, credential_sealed = $10 WHERE tenant_id = $1 AND id = $2"};
constexpr TenantQuery kDeleteConnector{"connectors.delete", "DELETE FROM connectors WHERE tenant_id = $1 AND id = $2"};
constexpr TenantQuery kDeleteRuns{"connectors.delete_runs",
                                  "DELETE FROM connector_runs WHERE tenant_id = $1 AND connector_id = $2"};
constexpr TenantQuery kDeleteRunErrors{"connectors.delete_run_errors",
                                       "DELETE FROM connector_run_errors WHERE tenant_id = $1 AND run_id IN"
                                       " (SELECT id FROM connector_runs WHERE tenant_id = $1 AND connector_id = $2)"};
constexpr TenantQuery kLiveKnown{
    "connectors.live_known",
    "SELECT external_id FROM connector_documents WHERE tenant_id = $1 AND connector_id = $2 AND removed = 0"};
constexpr TenantQuery kDeleteKnown{"connectors.delete_known",
                                   "DELETE FROM connector_documents WHERE tenant_id = $1 AND connector_id = $2"};
constexpr TenantQuery kCountLive{
    "connectors.count_live",
    "SELECT COUNT(*) FROM connector_documents WHERE tenant_id = $1 AND connector_id = $2 AND removed = 0"};
constexpr TenantQuery kLastRun{"connectors.last_run", "SELECT " CREDENCE_RUN_COLUMNS
                                                      " FROM connector_runs WHERE tenant_id = $1 AND connector_id = $2"
                                                      " ORDER BY queued_at DESC, id DESC LIMIT 1"};
constexpr TenantQuery kLastSuccess{
    "connectors.last_success",
    "SELECT MAX(finished_at) FROM connector_runs WHERE tenant_id = $1 AND connector_id = $2 AND status = 'succeeded'"};
constexpr TenantQuery kListRuns{"connectors.list_runs",
                                "SELECT " CREDENCE_RUN_COLUMNS
                                " FROM connector_runs WHERE tenant_id = $1 AND connector_id = $2"
                                " ORDER BY queued_at DESC, id DESC LIMIT $3"};
constexpr TenantQuery kRunErrors{
    "connectors.run_errors",
    "SELECT external_id, message, at FROM connector_run_errors WHERE tenant_id = $1 AND run_id = $2"
    " ORDER BY at, external_id LIMIT $3"};

Error ConnectorNotFound() { return Error::NotFound("Connector not found."); }

// The fields every kind shares; key and kind are checked by the caller.
void ValidateCommon(ConnectorInput& in, std::vector<FieldError>& errors) {
  in.name = Trim(in.name);
  if (in.name.empty()) in.name = in.key;
  if (Utf8Length(in.name) > kMaxConnectorNameLength)
    errors.push_back({"name", "must be at most " + std::to_string(kMaxConnectorNameLength) + " characters"});
  if (in.schedule_minutes && (*in.schedule_minutes < 1 || *in.schedule_minutes > kMaxScheduleMinutes))
    errors.push_back({"scheduleMinutes", "must be 1 to " + std::to_string(kMaxScheduleMinutes) + " minutes, or null"});
  if (in.kind == kKindPush && in.schedule_minutes)
    errors.push_back({"scheduleMinutes", "must be null for push connectors (they have nothing to sync)"});
}

bool IsKind(const std::string& kind) {
  for (const auto& k : ConnectorKinds())
    if (k == kind) return true;
  return false;
}

// Never the credential's secret: only whether one is set, and its kind.
boost::json::object AuditDetails(const Connector& c) {
  boost::json::object d{{"key", c.key}, {"kind", c.kind}, {"name", c.name}};
  d["scheduleMinutes"] = c.schedule_minutes ? boost::json::value(*c.schedule_minutes) : boost::json::value(nullptr);
  d["credential"] = c.credential_info ? boost::json::value(InfoFromJson(*c.credential_info).kind)
                                      : boost::json::value(nullptr);
  return d;
}

ConnectorView ViewOf(storage::TenantSession& tenant, Connector c) {
  ConnectorView v;
  if (auto rows = tenant.Run(kLastRun, {c.id}); !rows.empty()) v.last_run = RunFromRow(rows.front());
  if (auto rows = tenant.Run(kLastSuccess, {c.id}); !rows.empty()) v.last_success_at = rows.front().OptInt(0);
  if (auto rows = tenant.Run(kCountLive, {c.id}); !rows.empty()) v.documents = rows.front().Int(0);
  if (v.last_run) {
    for (const auto& r : tenant.Run(kRunErrors, {v.last_run->id, static_cast<int64_t>(kMaxRunErrorsListed)}))
      v.last_run->errors.push_back({r.Text(0), r.Text(1), r.Int(2)});
  }
  v.connector = std::move(c);
  return v;
}

std::optional<Connector> FindConnector(storage::TenantSession& tenant, const std::string& id) {
  auto rows = tenant.Run(kConnectorById, {id});
  if (rows.empty()) return std::nullopt;
  return ConnectorFromRow(rows.front());
}

}  // namespace

const std::vector<std::string>& ConnectorKinds() {
  static const std::vector<std::string> kKinds = {kKindGit, kKindWeb, kKindPush};
  return kKinds;
}

std::string_view WriteOutcomeName(WriteOutcome o) {
  switch (o) {
    case WriteOutcome::kAdded:
      return "added";
    case WriteOutcome::kChanged:
      return "changed";
    default:
      return "unchanged";
  }
}

ConnectorService::ConnectorService(storage::Database& db, const Clock& clock, const identity::AuditRecorder& audit,
                                   const trust::ContentScanning* scanning, RepositoryPolicy repositories,
                                   std::shared_ptr<const SecretBox> secrets)
    : db_(db),
      clock_(clock),
      audit_(audit),
      scanning_(scanning),
      repositories_(std::move(repositories)),
      secrets_(std::move(secrets)) {}

std::optional<Credential> ConnectorService::CheckCredential(const ConnectorInput& in, const std::string& settings,
                                                            std::vector<FieldError>& errors) const {
  if (!in.credential_given || !in.credential) return std::nullopt;
  if (secrets_ == nullptr) {
    errors.push_back({"credential", "this server keeps no secrets key, so it takes no credential"});
    return std::nullopt;
  }
  auto c = ParseCredential(*in.credential, in.kind, settings);
  if (!c) {
    for (const auto& f : c.error().fields) errors.push_back(f);
    return std::nullopt;
  }
  return std::move(*c);
}

void ConnectorService::SealInto(Connector& c, const std::string& tenant_id, const Credential& credential) const {
  c.credential_info = InfoToJson(InfoOf(credential));
  c.credential_sealed = secrets_->Seal(CredentialToJson(credential), CredentialSealContext(tenant_id, c.id));
}

Result<Credential> OpenCredential(const SecretBox& secrets, const std::string& tenant_id, const Connector& c) {
  if (!c.credential_sealed) return Error::NotFound("The connector has no credential.");
  CR_TRY_ASSIGN(std::string text, secrets.Open(*c.credential_sealed, CredentialSealContext(tenant_id, c.id)));
  return CredentialFromJson(text);
}

bool ConnectorService::Exists(storage::TenantSession& tenant, const std::string& id) {
  return !tenant.Run(kConnectorById, {id}).empty();
}

Result<ConnectorView> ConnectorService::Create(const identity::Principal& caller, const ConnectorInput& request) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  ConnectorInput in = request;
  std::vector<FieldError> errors;
  if (!trust::IsConnectorKey(in.key))
    errors.push_back({"key",
                      "must be 1 to 64 of a-z, 0-9, _ and -, starting with a letter or digit, and not entry, "
                      "http or https"});
  if (!IsKind(in.kind)) errors.push_back({"kind", "must be one of git, web, push"});
  ValidateCommon(in, errors);
  std::string settings;
  if (IsKind(in.kind)) {
    auto s = ValidateSettings(in.kind, in.settings, repositories_);
    if (!s)
      for (const auto& f : s.error().fields) errors.push_back(f);
    else
      settings = std::move(*s);
  }
  const std::optional<Credential> credential = settings.empty() ? std::nullopt : CheckCredential(in, settings, errors);
  if (!errors.empty()) return Error::Validation(std::move(errors));

  const TimeMs now = clock_.Now();
  Connector c;
  c.id = NewId();
  if (credential) SealInto(c, caller.tenant_id, *credential);
  c.key = in.key;
  c.kind = in.kind;
  c.name = in.name;
  c.settings = settings;
  c.schedule_minutes = in.schedule_minutes;
  if (c.schedule_minutes) c.next_run_at = now;  // the first run is due at once
  c.created_by = caller.user_id;
  c.created_at = c.updated_at = now;

  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (tenant
          .Run(kInsertConnector,
               {c.id, c.key, c.kind, c.name, c.settings, c.schedule_minutes, c.next_run_at, c.created_by, now,
                c.credential_info, c.credential_sealed})
          .affected() == 0)
    return Error::Conflict("connector_key_taken", "The tenant has a connector with this key.");
  audit_.Record(tenant, identity::AuditOf(caller, "connector.created", {"connector", c.id}, AuditDetails(c)));
  ConnectorView view = ViewOf(tenant, c);
  session.Commit();
  return view;
}

Result<std::vector<ConnectorView>> ConnectorService::List(const identity::Principal& caller) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  std::vector<ConnectorView> out;
  for (const auto& r : tenant.Run(kListConnectors)) out.push_back(ViewOf(tenant, ConnectorFromRow(r)));
  return out;
}

Result<ConnectorView> ConnectorService::Get(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto c = FindConnector(tenant, id);
  if (!c) return ConnectorNotFound();
  return ViewOf(tenant, std::move(*c));
}

Result<ConnectorView> ConnectorService::Update(const identity::Principal& caller, const std::string& id,
                                               const ConnectorInput& request) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto existing = FindConnector(tenant, id);
  if (!existing) return ConnectorNotFound();
  ConnectorInput in = request;
  std::vector<FieldError> errors;
  if (!in.key.empty() && in.key != existing->key) errors.push_back({"key", "cannot change"});
  if (!in.kind.empty() && in.kind != existing->kind) errors.push_back({"kind", "cannot change"});
  in.key = existing->key;
  in.kind = existing->kind;
  ValidateCommon(in, errors);
  auto settings = ValidateSettings(in.kind, in.settings, repositories_);
  if (!settings)
    for (const auto& f : settings.error().fields) errors.push_back(f);
  std::optional<Credential> credential;
  if (settings) {
    credential = CheckCredential(in, *settings, errors);
    // Kept as it is: it must still fit (a URL that became local, or moved
    // from https to ssh, takes no credential or another kind).
    if (!in.credential_given && existing->credential_info)
      if (auto mismatch = CredentialMismatch(InfoFromJson(*existing->credential_info), in.kind, *settings))
        errors.push_back(*mismatch);
  }
  if (!errors.empty()) return Error::Validation(std::move(errors));

  const TimeMs now = clock_.Now();
  Connector c = *existing;
  c.name = in.name;
  c.settings = *settings;
  if (credential) {
    SealInto(c, caller.tenant_id, *credential);
  } else if (in.credential_given) {
    c.credential_info.reset();
    c.credential_sealed.reset();
  }
  if (in.schedule_minutes != c.schedule_minutes)
    c.next_run_at = in.schedule_minutes ? std::optional(now) : std::nullopt;
  c.schedule_minutes = in.schedule_minutes;
  // Another repository or branch: the commit synced last means nothing there.
  bool restart = false;
  if (c.kind == kKindGit) {
    const auto before = GitSettingsFromJson(existing->settings);
    const auto after = GitSettingsFromJson(c.settings);
    restart = before.url != after.url || before.branch != after.branch;
  }
  if (restart) c.sync_cursor.reset();
  c.updated_at = now;
  tenant.Run(kUpdateConnector, {c.id, c.name, c.settings, c.schedule_minutes, c.next_run_at, restart ? 1 : 0, now,
                                 c.credential_info, c.credential_sealed});
  boost::json::object details = AuditDetails(c);
  details["credentialChange"] = !in.credential_given ? "kept" : credential ? "set" : "removed";
  audit_.Record(tenant, identity::AuditOf(caller, "connector.updated", {"connector", c.id}, std::move(details)));
  ConnectorView view = ViewOf(tenant, c);
  session.Commit();
  return view;
}

Status ConnectorService::Delete(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto c = FindConnector(tenant, id);
  if (!c) return ConnectorNotFound();
  const TimeMs now = clock_.Now();
  WriteContext ctx{tenant, *c, scanning_, now, std::nullopt};
  std::vector<std::string> live;
  for (const auto& r : tenant.Run(kLiveKnown, {c->id})) live.push_back(r.Text(0));
  for (const auto& external_id : live) RemoveDocument(ctx, external_id);
  tenant.Run(kDeleteKnown, {c->id});
  tenant.Run(kDeleteRunErrors, {c->id});
  tenant.Run(kDeleteRuns, {c->id});
  tenant.Run(kDeleteConnector, {c->id});
  boost::json::object details = AuditDetails(*c);
  details["documentsRemoved"] = static_cast<int64_t>(live.size());
  audit_.Record(tenant, identity::AuditOf(caller, "connector.deleted", {"connector", c->id}, std::move(details)));
  session.Commit();
  return Ok();
}

Result<Run> ConnectorService::SyncNow(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto c = FindConnector(tenant, id);
  if (!c) return ConnectorNotFound();
  if (c->kind == kKindPush)
    return Error::Conflict("connector_not_syncable",
                           "A push connector receives its documents; it has nothing to sync.");
  tenant.Run(kLockConnector, {c->id});
  if (auto open = tenant.Run(kOpenRun, {c->id}); !open.empty()) {
    Run run = RunFromRow(open.front());
    session.Commit();
    // Woken too: the open run may be one no node is working on (queued by
    // a schedule, or interrupted and its lease expired).
    if (waker_ != nullptr) waker_->Wake();
    return run;
  }
  const std::string run_id = NewId();
  tenant.Run(kInsertRun, {run_id, c->id, "manual", clock_.Now()});
  audit_.Record(tenant, identity::AuditOf(caller, "connector.sync_requested", {"connector", c->id},
                                          {{"key", c->key}, {"runId", run_id}}));
  auto rows = tenant.Run(kRunById, {run_id});
  session.Commit();
  // After the commit: a pass that started earlier would not see the run.
  if (waker_ != nullptr) waker_->Wake();
  return RunFromRow(rows.front());
}

Result<std::vector<Run>> ConnectorService::ListRuns(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (!FindConnector(tenant, id)) return ConnectorNotFound();
  std::vector<Run> out;
  for (const auto& r : tenant.Run(kListRuns, {id, static_cast<int64_t>(kMaxRunsListed)})) out.push_back(RunFromRow(r));
  return out;
}

Result<Run> ConnectorService::GetRun(const identity::Principal& caller, const std::string& id,
                                     const std::string& run_id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto rows = tenant.Run(kRunById, {run_id});
  if (rows.empty()) return Error::NotFound("Run not found.");
  Run run = RunFromRow(rows.front());
  if (run.connector_id != id) return Error::NotFound("Run not found.");
  for (const auto& r : tenant.Run(kRunErrors, {run.id, static_cast<int64_t>(kMaxRunErrorsListed)}))
    run.errors.push_back({r.Text(0), r.Text(1), r.Int(2)});
  return run;
}

Result<Connector> ConnectorService::FindForPush(storage::TenantSession& tenant, const identity::Principal& caller,
                                                const std::string& key) const {
  auto rows = tenant.Run(kConnectorByKey, {key});
  if (rows.empty()) return ConnectorNotFound();
  Connector c = ConnectorFromRow(rows.front());
  if (caller.connector_id != c.id) {
    Error e = Error::PermissionDenied("The API key is not bound to this connector.");
    e.code = "connector_not_bound";
    return e;
  }
  if (c.kind != kKindPush)
    return Error::Conflict("connector_not_push", "Only push connectors accept pushed documents.");
  return c;
}

Result<PushedDocument> ConnectorService::Push(const identity::Principal& caller, const std::string& key,
                                              const SourceDocument& doc) const {
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  CR_TRY_ASSIGN(Connector c, FindForPush(tenant, caller, key));
  const TimeMs now = clock_.Now();
  WriteContext ctx{tenant, c, scanning_, now, std::nullopt};
  CR_TRY_ASSIGN(WriteOutcome outcome, WriteDocument(ctx, doc));
  auto stored = trust::FindConnectedDocument(tenant, c.key, doc.external_id);
  if (!stored) return Error::Internal("The pushed document vanished while it was written.");
  session.Commit();
  return PushedDocument{stored->id,
                        stored->source_id(),
                        outcome,
                        stored->version,
                        stored->content_hash.value_or(""),
                        stored->content_updated_at};
}

Status ConnectorService::RemovePushed(const identity::Principal& caller, const std::string& key,
                                      const std::string& external_id) const {
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  CR_TRY_ASSIGN(Connector c, FindForPush(tenant, caller, key));
  WriteContext ctx{tenant, c, scanning_, clock_.Now(), std::nullopt};
  if (!RemoveDocument(ctx, external_id)) return Error::NotFound("The connector has no such document.");
  session.Commit();
  return Ok();
}

}  // namespace credence::connectors
