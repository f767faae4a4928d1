#include "connectors/sync_engine.h"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <exception>
#include <map>
#include <thread>
#include <tuple>

#include "connectors/connector_service.h"
#include "connectors/credential.h"
#include "connectors/document_text.h"
#include "connectors/git_repo.h"
#include "connectors/internal/queries.h"
#include "connectors/internal/run_writer.h"
#include "connectors/internal/web_kind.h"
#include "connectors/settings.h"
#include "core/ids.h"
#include "core/logging.h"
#include "outbound/outbound.h"
#include "storage/database.h"
#include "storage/session.h"
#include "telemetry/span.h"

namespace credence::connectors {
namespace {

using namespace internal;  // NOLINT(google-build-using-namespace): the module's own SQL

constexpr GlobalQuery kDueConnectors{
    "connectors.due",
    "SELECT tenant_id, id, next_run_at, schedule_minutes FROM connectors WHERE next_run_at IS NOT NULL"
    " AND next_run_at <= $1 ORDER BY next_run_at LIMIT 100"};
// Guarded by the next_run_at read: of two nodes, one queues the run.
constexpr TenantQuery kAdvanceSchedule{
    "connectors.advance_schedule",
    "UPDATE connectors SET next_run_at = $3 WHERE tenant_id = $1 AND id = $2 AND next_run_at = $4"};
constexpr GlobalQuery kOpenRuns{
    "connectors.open_runs",
    "SELECT tenant_id, id, connector_id FROM connector_runs WHERE status IN ('queued', 'running')"
    " ORDER BY queued_at LIMIT $1"};
// Taken when free, expired, or claiming to run more than a lease further
// ahead than this node would write ($6: a clock set back since). Not merely
// further ahead: a node that took the lease just after this one read its
// clock wrote a later expiry, and on PostgreSQL this UPDATE waits for its
// row lock and then re-checks, so `> $4` let both nodes run the connector.
constexpr TenantQuery kTakeLease{
    "connectors.take_lease",
    "UPDATE connectors SET lease_holder = $3, lease_expires_at = $4 WHERE tenant_id = $1 AND id = $2"
    " AND (lease_holder IS NULL OR lease_expires_at <= $5 OR lease_expires_at > $6)"};
constexpr TenantQuery kRenewLease{
    "connectors.renew_lease",
    "UPDATE connectors SET lease_expires_at = $4 WHERE tenant_id = $1 AND id = $2 AND lease_holder = $3"};
constexpr TenantQuery kReleaseLease{
    "connectors.release_lease",
    "UPDATE connectors SET lease_holder = NULL, lease_expires_at = 0 WHERE tenant_id = $1 AND id = $2"
    " AND lease_holder = $3"};
constexpr TenantQuery kStartRun{
    "connectors.start_run",
    "UPDATE connector_runs SET status = 'running', started_at = COALESCE(started_at, $3), attempts = attempts + 1,"
    " updated_at = $3 WHERE tenant_id = $1 AND id = $2 AND status IN ('queued', 'running')"};
constexpr TenantQuery kSetTarget{"connectors.set_target",
                                 "UPDATE connector_runs SET target = $3, base = $4, checkpoint = NULL, updated_at = $5"
                                 " WHERE tenant_id = $1 AND id = $2"};
constexpr TenantQuery kBatchDone{
    "connectors.batch_done",
    "UPDATE connector_runs SET seen = seen + $3, added = added + $4, changed = changed + $5, removed = removed + $6,"
    " unchanged = unchanged + $7, failed = failed + $8, checkpoint = COALESCE(CAST($9 AS TEXT), checkpoint),"
    " updated_at = $10 WHERE tenant_id = $1 AND id = $2"};
constexpr TenantQuery kFinishRun{"connectors.finish_run",
                                 "UPDATE connector_runs SET status = $3, error = $4, finished_at = $5, updated_at = $5"
                                 " WHERE tenant_id = $1 AND id = $2"};
constexpr TenantQuery kSetCursor{"connectors.set_cursor",
                                 "UPDATE connectors SET sync_cursor = $3 WHERE tenant_id = $1 AND id = $2"};
constexpr TenantQuery kRunError{
    "connectors.run_error",
    "INSERT INTO connector_run_errors (tenant_id, run_id, external_id, message, at) VALUES ($1, $2, $3, $4, $5)"
    " ON CONFLICT (tenant_id, run_id, external_id) DO UPDATE SET message = excluded.message, at = excluded.at"};
constexpr TenantQuery kAllKnown{"connectors.all_known",
                                "SELECT external_id, source_version, removed, last_seen_run FROM connector_documents"
                                " WHERE tenant_id = $1 AND connector_id = $2"};

// Pending texts kept in memory before a batch is committed.
constexpr size_t kMaxPendingBytes = 16 << 20;

std::string Replace(std::string s, std::string_view from, const std::string& to) {
  for (size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size()))
    s.replace(at, from.size(), to);
  return s;
}

// Each path segment percent-encoded, the slashes kept.
std::string EncodePath(std::string_view path) {
  static const char* kHex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 0xf]);
    }
  }
  return out;
}

// The connector's credential, opened; nullopt when it has none. Throws
// (failing the run) when it does not open: the key file lacks its key.
std::optional<Credential> CredentialFor(const RunScope& scope, const SyncOptions& options) {
  if (!scope.connector.credential_sealed) return std::nullopt;
  if (options.secrets == nullptr)
    throw std::runtime_error("the connector's credential cannot be opened: no secrets key");
  auto c = OpenCredential(*options.secrets, scope.tenant_id, scope.connector);
  if (!c) throw std::runtime_error("the connector's credential cannot be opened: " + c.error().detail);
  return std::move(*c);
}

// The git kind: fetch, then the changes from the commit synced last (or
// every file when there is none, skipping those whose blob is the one
// synced), in path order, resuming after the run's checkpoint.
std::optional<std::string> SyncGit(RunWriter& w, const Run& run, const SyncOptions& options) {
  const std::string& data_dir = options.data_dir;
  const RunScope& scope = w.scope();
  const GitSettings settings = GitSettingsFromJson(scope.connector.settings);
  // Checked again here: the settings may predate the operator's flags, and
  // a remote's name may resolve elsewhere now than at creation.
  if (auto refused = RepositoryRefusal(settings.url, {options.allow_local_repositories, data_dir}))
    throw std::runtime_error("the repository URL is not allowed: " + *refused);
  if (settings.url.rfind("http", 0) == 0 || IsSshUrl(settings.url)) {
    const std::string host = IsSshUrl(settings.url) ? SshHostOf(settings.url) : std::string();
    const std::string as_http =
        host.empty() ? settings.url : "http://" + (host.find(':') != std::string::npos ? "[" + host + "]" : host) + "/";
    auto target = outbound::Resolve(as_http, outbound::ConnectorPolicy());
    if (!target) throw std::runtime_error("cannot fetch from " + settings.url + ": " + target.error().detail);
  }
  const GitAuth auth{CredentialFor(scope, options), settings.ssh_host_key};
  const std::string dir = data_dir + "/connectors/" + scope.tenant_id + "/" + scope.connector.id;
  auto mirror = GitMirror::Open(dir, settings.url);
  if (!mirror) throw std::runtime_error(mirror.error().detail);

  std::string target;
  std::optional<std::string> base;
  std::optional<std::string> checkpoint = run.checkpoint;
  if (run.target && mirror->HasCommit(*run.target) && (!run.base || mirror->HasCommit(*run.base))) {
    target = *run.target;  // resuming: the same commit, the same order
    base = run.base;
  } else {
    const auto fetch_start = std::chrono::steady_clock::now();
    auto tip = mirror->Fetch(settings.branch, auth);
    LogLine(LogLevel::kDebug, "connector fetch")
        .Str("connector", scope.connector.key)
        .Int("ms", std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - fetch_start)
                       .count());
    if (!tip) throw std::runtime_error(tip.error().detail);
    target = *tip;
    if (scope.connector.sync_cursor && mirror->HasCommit(*scope.connector.sync_cursor))
      base = scope.connector.sync_cursor;
    checkpoint.reset();
    w.SetTarget(target, base);
  }

  // CODEOWNERS (the first of the usual places) at a commit.
  auto owners_text = [&mirror](const std::string& commit) -> std::optional<std::string> {
    for (const char* path : {".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS"})
      if (auto text = mirror->ReadFile(commit, path, 1 << 20)) return text;
    return std::nullopt;
  };
  const std::optional<std::string> owners_file = owners_text(target);
  const CodeOwners owners(owners_file.value_or(""));
  // Owners moved: every document is looked at again (a full listing whose
  // unchanged files are still written only when their owner changed).
  const bool owners_changed = base && owners_text(*base) != owners_file;

  std::vector<GitChange> changes;
  std::map<std::string, RunWriter::KnownEntry> known;
  if (base && !owners_changed) {
    auto diff = mirror->Diff(*base, target, IsDocumentPath);
    if (!diff) throw std::runtime_error(diff.error().detail);
    changes = std::move(*diff);
  } else {
    auto listed = mirror->List(target, IsDocumentPath);
    if (!listed) throw std::runtime_error(listed.error().detail);
    changes = std::move(*listed);
    for (auto& k : w.AllKnown()) known.emplace(k.external_id, std::move(k));
    // What the connector knew and the commit no longer has.
    std::map<std::string, bool> present;
    for (const auto& c : changes) present[c.path] = true;
    for (const auto& [path, k] : known)
      if (!k.removed && !present.count(path)) changes.push_back({path, true, ""});
    std::sort(changes.begin(), changes.end(), [](const auto& a, const auto& b) { return a.path < b.path; });
  }

  const TimeMs commit_time = mirror->CommitTime(target);

  for (const auto& change : changes) {
    if (checkpoint && change.path <= *checkpoint) continue;  // committed before the interruption
    if (change.removed) {
      w.Remove(change.path, change.path);
      continue;
    }
    if (auto k = known.find(change.path);
        !owners_changed && k != known.end() && !k->second.removed && k->second.source_version == change.blob_id) {
      w.Unchanged(change.path, change.path);
      continue;
    }
    auto bytes = mirror->ReadBlob(change.blob_id, settings.max_file_bytes);
    if (!bytes) {
      w.Fail(change.path, bytes.error().detail, change.path);
      continue;
    }
    auto facts = ReadFileFacts(change.path, *bytes);
    if (!facts) {
      w.Fail(change.path, facts.error().detail, change.path);
      continue;
    }
    SourceDocument doc;
    doc.external_id = change.path;
    if (settings.web_url_template)
      doc.url = Replace(Replace(*settings.web_url_template, "{branch}", EncodePath(settings.branch)), "{path}",
                        EncodePath(change.path));
    doc.title = std::move(facts->title);
    doc.text = std::move(*bytes);
    doc.owner_email = facts->owner_email ? facts->owner_email : owners.OwnerOf(change.path);
    doc.reviewed_at = facts->reviewed_at;
    doc.review_type = facts->review_type;
    doc.modified_at = commit_time;
    doc.source_version = change.blob_id;
    w.Upsert(std::move(doc), change.path);
  }
  w.Flush();
  return target;
}

}  // namespace

namespace internal {

RunWriter::RunWriter(storage::Database& db, const Clock& clock, const trust::ContentScanning* scanning, RunScope scope)
    : db_(db), clock_(clock), scanning_(scanning), scope_(std::move(scope)) {}

void RunWriter::Add(Op op, const std::string& position) {
  pending_bytes_ += op.doc.text.size() + 256;
  pending_.push_back(std::move(op));
  if (!position.empty()) position_ = position;
  if (static_cast<int64_t>(pending_.size()) >= scope_.batch_size || pending_bytes_ >= kMaxPendingBytes) Flush();
}

void RunWriter::Upsert(SourceDocument doc, const std::string& position) {
  Add(Op{OpKind::kUpsert, std::move(doc), "", false}, position);
}

void RunWriter::Unchanged(const std::string& external_id, const std::string& position, bool mark_seen,
                          std::optional<std::string> etag, std::optional<std::string> last_modified) {
  SourceDocument d;
  d.external_id = external_id;
  d.etag = std::move(etag);
  d.last_modified = std::move(last_modified);
  Add(Op{OpKind::kUnchanged, std::move(d), "", mark_seen}, position);
}

void RunWriter::Remove(const std::string& external_id, const std::string& position) {
  SourceDocument d;
  d.external_id = external_id;
  Add(Op{OpKind::kRemove, std::move(d), "", false}, position);
}

void RunWriter::Fail(const std::string& external_id, const std::string& message, const std::string& position) {
  SourceDocument d;
  d.external_id = external_id;
  Add(Op{OpKind::kFail, std::move(d), message, false}, position);
}

void RunWriter::SetTarget(const std::string& target, const std::optional<std::string>& base) {
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, scope_.tenant_id);
  tenant.Run(kSetTarget, {scope_.run_id, target, base, clock_.Now()});
  session.Commit();
}

void RunWriter::Flush() {
  const TimeMs now = clock_.Now();
  int64_t seen = 0, added = 0, changed = 0, removed = 0, unchanged = 0, failed = 0;
  {
    storage::Session session(db_, storage::TxMode::kWrite);
    storage::TenantSession tenant(session, scope_.tenant_id);
    WriteContext ctx{tenant, scope_.connector, scanning_, now, scope_.run_id};
    ctx.defer_known = true;
    std::vector<std::string> upserted, urls;
    for (const Op& op : pending_) {
      if (op.kind != OpKind::kUpsert) continue;
      upserted.push_back(op.doc.external_id);
      if (op.doc.url) urls.push_back(*op.doc.url);
    }
    ReadAhead(ctx, upserted, urls);
    auto fail = [&](const std::string& external_id, const std::string& message) {
      tenant.Run(kRunError, {scope_.run_id, external_id, message, now});
      ++failed;
    };
    for (const Op& op : pending_) {
      switch (op.kind) {
        case OpKind::kUpsert: {
          ++seen;
          auto written = WriteDocument(ctx, op.doc);
          if (!written) {
            fail(op.doc.external_id, written.error().detail);
          } else if (*written == WriteOutcome::kAdded) {
            ++added;
          } else if (*written == WriteOutcome::kChanged) {
            ++changed;
          } else {
            ++unchanged;
          }
          break;
        }
        case OpKind::kUnchanged:
          ++seen;
          ++unchanged;
          if (op.mark_seen) MarkSeen(ctx, op.doc.external_id, op.doc.etag, op.doc.last_modified);
          break;
        case OpKind::kRemove:
          if (RemoveDocument(ctx, op.doc.external_id)) ++removed;
          break;
        case OpKind::kFail:
          ++seen;
          fail(op.doc.external_id, op.message);
          if (op.mark_seen) MarkSeen(ctx, op.doc.external_id, std::nullopt, std::nullopt);
          break;
      }
    }
    FlushKnown(ctx);
    tenant.Run(kBatchDone, {scope_.run_id, seen, added, changed, removed, unchanged, failed,
                            position_.empty() ? std::optional<std::string>() : std::optional(position_), now});
    if (tenant.Run(kRenewLease, {scope_.connector.id, scope_.holder, now + scope_.lease_ms}).affected() == 0)
      throw LeaseLost();
    session.Commit();
  }
  pending_.clear();
  pending_bytes_ = 0;
  if (scope_.batch_pause_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(scope_.batch_pause_ms));
}

std::optional<KnownDocument> RunWriter::Known(const std::string& external_id) const {
  storage::Session session(db_);
  storage::TenantSession tenant(session, scope_.tenant_id);
  return FindKnown(tenant, scope_.connector.id, external_id);
}

std::vector<RunWriter::KnownEntry> RunWriter::AllKnown() const {
  storage::Session session(db_);
  storage::TenantSession tenant(session, scope_.tenant_id);
  std::vector<KnownEntry> out;
  for (const auto& r : tenant.Run(kAllKnown, {scope_.connector.id}))
    out.push_back({r.Text(0), r.OptText(1), r.Bool(2), r.OptText(3)});
  return out;
}

}  // namespace internal

ConnectorSyncer::ConnectorSyncer(storage::Database& db, const Clock& clock, const trust::ContentScanning* scanning,
                                 SyncOptions options)
    : db_(db), clock_(clock), scanning_(scanning), options_(std::move(options)) {}

SyncPassSummary ConnectorSyncer::RunOnce() const {
  SyncPassSummary summary;
  TimeMs now = clock_.Now();

  // Scheduled connectors that are due: one run each (unless one is open).
  std::vector<std::tuple<std::string, std::string, int64_t, int64_t>> due;
  {
    storage::Session session(db_);
    for (const auto& r : session.Run(kDueConnectors, {now})) due.emplace_back(r.Text(0), r.Text(1), r.Int(2), r.Int(3));
  }
  for (const auto& [tenant_id, id, next_run_at, minutes] : due) {
    storage::Session session(db_, storage::TxMode::kWrite);
    storage::TenantSession tenant(session, tenant_id);
    if (tenant.Run(kAdvanceSchedule, {id, now + minutes * 60'000, next_run_at}).affected() == 0) continue;
    if (tenant.Run(kOpenRun, {id}).empty()) {
      tenant.Run(kInsertRun, {NewId(), id, "schedule", now});
      ++summary.scheduled;
    }
    session.Commit();
  }

  std::vector<std::tuple<std::string, std::string, std::string>> open;
  {
    storage::Session session(db_);
    for (const auto& r : session.Run(kOpenRuns, {options_.runs_per_pass}))
      open.emplace_back(r.Text(0), r.Text(1), r.Text(2));
  }
  for (const auto& [tenant_id, run_id, connector_id] : open) {
    now = clock_.Now();
    // Unique per attempt: a second pass in the same process (the jobs
    // thread and POST /dev/jobs/run) must not share the lease.
    const std::string holder = options_.node_id + "/" + NewId();
    Connector connector;
    Run run;
    {
      storage::Session session(db_, storage::TxMode::kWrite);
      storage::TenantSession tenant(session, tenant_id);
      if (tenant.Run(kTakeLease, {connector_id, holder, now + options_.lease_ms, now, now + 2 * options_.lease_ms})
              .affected() == 0) {
        ++summary.lease_held;
        continue;
      }
      auto c = tenant.Run(kConnectorById, {connector_id});
      if (c.empty() || tenant.Run(kStartRun, {run_id, now}).affected() == 0) continue;  // rolled back
      connector = ConnectorFromRow(c.front());
      run = RunFromRow(tenant.Run(kRunById, {run_id}).front());
      session.Commit();
    }
    ++summary.started;
    // A trace per run (docs/tracing.md): its fetches and batches are spans in it.
    telemetry::Span span = telemetry::Span::Root("connector sync");
    if (span.recording())
      span.SetString("credence.connector.kind", connector.kind)
          .SetString("credence.connector.run_id", run_id)
          .SetString("credence.tenant_id", tenant_id);
    RunScope scope{
        tenant_id, connector, run_id, holder, options_.lease_ms, options_.batch_size, options_.batch_pause_ms};
    RunWriter writer(db_, clock_, scanning_, scope);
    std::optional<std::string> error;
    std::optional<std::string> cursor;
    bool lost = false;
    try {
      if (connector.kind == kKindGit)
        cursor = SyncGit(writer, run, options_);
      else if (connector.kind == kKindWeb)
        SyncWeb(writer, run, CredentialFor(scope, options_));
      else
        error = "push connectors have nothing to sync";
    } catch (const LeaseLost&) {
      lost = true;
    } catch (const std::exception& e) {
      error = e.what();
    }
    if (lost) {
      LogLine(LogLevel::kWarn, "connector sync lost its lease").Str("tenant", tenant_id).Str("run", run_id);
      span.SetError("lost its lease");
      continue;
    }
    if (error) span.SetError(*error);
    try {
      storage::Session session(db_, storage::TxMode::kWrite);
      storage::TenantSession tenant(session, tenant_id);
      const TimeMs end = clock_.Now();
      tenant.Run(kFinishRun, {run_id, error ? kRunFailed : kRunSucceeded, error, end});
      if (!error && cursor) tenant.Run(kSetCursor, {connector_id, *cursor});
      tenant.Run(kReleaseLease, {connector_id, holder});
      if (error && events_ != nullptr)
        events_->Emit(tenant, "connector.sync.failed",
                      {{"connectorId", connector_id},
                       {"connectorKey", connector.key},
                       {"runId", run_id},
                       {"errorCode", "sync_failed"}});
      session.Commit();
    } catch (const std::exception& e) {
      LogLine(LogLevel::kError, "cannot finish a connector run").Str("run", run_id).Str("error", e.what());
      continue;
    }
    if (error) {
      ++summary.failed;
      LogLine(LogLevel::kWarn, "connector sync failed")
          .Str("tenant", tenant_id)
          .Str("connector", connector.key)
          .Str("error", *error);
    } else {
      ++summary.succeeded;
    }
  }
  return summary;
}

}  // namespace credence::connectors
