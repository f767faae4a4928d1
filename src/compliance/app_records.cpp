#include "compliance/app_records.h"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <set>
#include <string_view>

#include "integrity/encoding.h"
#include "integrity/merkle.h"
#include "integrity/merkle_log.h"
#include "integrity/note.h"
#include "retention/archive_json.h"
#include "retention/retention_service.h"
#include "storage/session.h"
#include "trust/app_registry.h"
#include "trust/ledger.h"

namespace credence::compliance {
namespace {

namespace json = boost::json;
using storage::TenantQuery;

constexpr int64_t kDecisionPage = 1'000;

constexpr TenantQuery kCountDecisions{
    "compliance.count_decisions",
    "SELECT COUNT(*), COALESCE(SUM(CASE WHEN overall = 'allow' THEN 1 ELSE 0 END), 0),"
    " COALESCE(SUM(CASE WHEN overall = 'warn' THEN 1 ELSE 0 END), 0),"
    " COALESCE(SUM(CASE WHEN overall = 'block' THEN 1 ELSE 0 END), 0)"
    " FROM trust_decisions WHERE tenant_id = $1 AND app_id = $2 AND evaluated_at >= $3 AND evaluated_at < $4"};

constexpr TenantQuery kCountUsage{
    "compliance.count_usage",
    "SELECT COUNT(*) FROM trust_usage WHERE tenant_id = $1 AND app_id = $2 AND created_at >= $3 AND created_at < $4"};

constexpr TenantQuery kUsage{
    "compliance.usage",
    "SELECT id, decision_id, actor_label, action, sources, outcome, user_id, key_id, created_at FROM trust_usage"
    " WHERE tenant_id = $1 AND app_id = $2 AND created_at >= $3 AND created_at < $4 ORDER BY created_at, id"};

// The audit log's actions that are oversight of any app's decisions: what
// changes how sources are decided, and approvals. App and app-key events
// are kept only for this app (filtered below).
constexpr TenantQuery kOversightAudit{
    "compliance.oversight_audit",
    "SELECT seq, id, at, actor_type, actor_id, actor_label, action, target_type, target_id, outcome, details"
    " FROM audit_log WHERE tenant_id = $1 AND at >= $2 AND at < $3 AND (action IN ('policy.set', 'policy.deleted',"
    " 'sensitivity.set', 'sensitivity.deleted', 'context.set', 'retention.settings_updated',"
    " 'scanning.settings_updated', 'plugin.approval_approved', 'plugin.approval_rejected')"
    " OR action LIKE 'app.%' OR action LIKE 'appkey.%') ORDER BY seq"};

constexpr TenantQuery kReviews{
    "compliance.reviews",
    "SELECT id, entry_id, reviewer_id, review_type, time_spent_seconds, notes, renewed, expiry_at, created_at"
    " FROM entry_reviews WHERE tenant_id = $1 AND created_at >= $2 AND created_at < $3"
    " AND entry_id IN (SELECT value FROM json_each($4)) ORDER BY created_at, id",
    "SELECT id, entry_id, reviewer_id, review_type, time_spent_seconds, notes, renewed, expiry_at, created_at"
    " FROM entry_reviews WHERE tenant_id = $1 AND created_at >= $2 AND created_at < $3"
    " AND entry_id IN (SELECT json_array_elements_text(CAST($4 AS JSON))) ORDER BY created_at, id"};

constexpr TenantQuery kRenewals{
    "compliance.renewals",
    "SELECT id, entry_id, renewed_by, days, notes, source, review_id, previous_expiry_at, new_expiry_at, created_at"
    " FROM entry_renewals WHERE tenant_id = $1 AND created_at >= $2 AND created_at < $3"
    " AND entry_id IN (SELECT value FROM json_each($4)) ORDER BY created_at, id",
    "SELECT id, entry_id, renewed_by, days, notes, source, review_id, previous_expiry_at, new_expiry_at, created_at"
    " FROM entry_renewals WHERE tenant_id = $1 AND created_at >= $2 AND created_at < $3"
    " AND entry_id IN (SELECT json_array_elements_text(CAST($4 AS JSON))) ORDER BY created_at, id"};

constexpr TenantQuery kOwner{"compliance.owner",
                             "SELECT u.email, u.display_name FROM tenant_members m JOIN users u ON u.id = m.user_id"
                             " WHERE m.tenant_id = $1 AND m.user_id = $2"};

json::value Opt(const std::optional<std::string>& s) { return s ? json::value(*s) : json::value(nullptr); }
json::value OptTime(const std::optional<TimeMs>& t) {
  return t ? json::value(FormatTimestamp(*t)) : json::value(nullptr);
}

json::value ParsedOr(std::string_view text, json::value fallback) {
  boost::system::error_code ec;
  json::value v = json::parse(text, ec);
  return ec ? fallback : v;
}

// A JSON text as a member's value, byte for byte: the ledger's headers and
// evidence bodies are compact JSON the server wrote, so they are copied, not
// parsed and written again (that was most of an export's time). A text with
// a line break would break the line: written again then.
void AppendRawJson(std::string& out, std::string_view text) {
  if (text.find_first_of("\r\n") == std::string_view::npos) {
    out += text;
    return;
  }
  out += json::serialize(ParsedOr(text, nullptr));
}

void AppendQuoted(std::string& out, std::string_view key, std::string_view value) {
  out += '"';
  out += key;
  out += "\":";
  out += json::serialize(json::string_view(value.data(), value.size()));
}

// The decision's hashed header (time, actor, action, channel, context, key,
// app as it was, overall decision, counts) and its evidence by hash, with its
// place in the chain and the tree. Each evidence body is written once, as an
// `evidence` line before the first decision that references it: decisions
// over the same sources in the same state share their evidence, as they do
// in the ledger. `emitted` holds the hashes written so far.
void AddDecision(std::vector<AppRecordsLine>& lines, const trust::StoredDecision& d, int64_t first_seq,
                 std::set<std::string>& emitted, std::set<std::string>& entry_ids) {
  const std::string at = FormatTimestamp(d.record.evaluated_at);
  for (size_t i = 0; i < d.record.evidence.size() && i < d.evidence_hashes.size(); ++i) {
    const std::string& hash = d.evidence_hashes[i];
    if (!emitted.insert(hash).second) continue;
    const std::string& body = d.record.evidence[i];
    const json::value parsed = ParsedOr(body, json::object());
    if (const auto* entry = parsed.is_object() ? parsed.as_object().if_contains("result") : nullptr;
        entry && entry->is_object())
      if (const auto* id = entry->as_object().if_contains("entryId"); id && id->is_string())
        entry_ids.emplace(id->as_string());
    std::string line = "{\"type\":\"evidence\",\"at\":\"" + at + "\",\"hash\":\"" + hash + "\",\"evidence\":";
    AppendRawJson(line, body);
    line += '}';
    lines.push_back({d.record.evaluated_at, "evidence", hash, std::nullopt, std::move(line)});
  }
  std::string line = "{\"type\":\"decision\",\"at\":\"" + at + "\",";
  AppendQuoted(line, "decisionId", d.record.decision_id);
  line += ",\"sequence\":" + std::to_string(d.seq) + ",\"leafIndex\":" + std::to_string(d.seq - first_seq) + ",";
  AppendQuoted(line, "hash", d.hash);
  line += ',';
  AppendQuoted(line, "previousHash", d.prev_hash);
  line += ",\"hashFormat\":" + std::to_string(d.hash_format) + ",\"header\":";
  AppendRawJson(line, d.header_json);
  line += ",\"evidence\":[";
  for (size_t i = 0; i < d.evidence_hashes.size(); ++i) {
    if (i > 0) line += ',';
    line += '"' + d.evidence_hashes[i] + '"';
  }
  line += "]}";
  lines.push_back({d.record.evaluated_at, "decision", d.record.decision_id, std::nullopt, std::move(line)});
}

AppRecordsLine UsageLine(const storage::Row& r) {
  const TimeMs at = r.Int(8);
  json::object out{{"type", "usage"},
                   {"at", FormatTimestamp(at)},
                   {"usageId", r.Text(0)},
                   {"decisionId", Opt(r.OptText(1))},
                   {"actorLabel", Opt(r.OptText(2))},
                   {"action", Opt(r.OptText(3))},
                   {"sources", ParsedOr(r.TextView(4), json::array())},
                   {"outcome", r.Text(5)},
                   {"userId", Opt(r.OptText(6))},
                   {"keyId", Opt(r.OptText(7))}};
  return {at, "usage", r.Text(0), r.OptText(1), json::serialize(out)};
}

AppRecordsLine AuditLine(const storage::Row& r, const json::value& details) {
  const TimeMs at = r.Int(2);
  json::object out{{"type", "oversight"},
                   {"at", FormatTimestamp(at)},
                   {"kind", "audit"},
                   {"auditId", r.Text(1)},
                   {"auditSequence", r.Int(0)},
                   {"action", r.Text(6)},
                   {"actor", {{"type", r.Text(3)}, {"id", r.Text(4)}, {"label", r.Text(5)}}},
                   {"target", {{"type", r.Text(7)}, {"id", r.Text(8)}}},
                   {"outcome", r.Text(9)},
                   {"details", details}};
  return {at, "oversight", r.Text(1), std::nullopt, json::serialize(out)};
}

AppRecordsLine ReviewLine(const storage::Row& r) {
  const TimeMs at = r.Int(8);
  json::object out{{"type", "oversight"},
                   {"at", FormatTimestamp(at)},
                   {"kind", "review"},
                   {"reviewId", r.Text(0)},
                   {"entryId", r.Text(1)},
                   {"reviewerId", r.Text(2)},
                   {"reviewType", r.Text(3)},
                   {"timeSpentSeconds", r.Int(4)},
                   {"notes", Opt(r.OptText(5))},
                   {"renewed", r.Bool(6)},
                   {"expiryAt", FormatTimestamp(r.Int(7))}};
  return {at, "oversight", r.Text(0), std::nullopt, json::serialize(out)};
}

AppRecordsLine RenewalLine(const storage::Row& r) {
  const TimeMs at = r.Int(9);
  json::object out{{"type", "oversight"},
                   {"at", FormatTimestamp(at)},
                   {"kind", "renewal"},
                   {"renewalId", r.Text(0)},
                   {"entryId", r.Text(1)},
                   {"renewedBy", r.Text(2)},
                   {"days", r.Int(3)},
                   {"notes", Opt(r.OptText(4))},
                   {"source", r.Text(5)},
                   {"reviewId", Opt(r.OptText(6))},
                   {"previousExpiryAt", FormatTimestamp(r.Int(7))},
                   {"newExpiryAt", FormatTimestamp(r.Int(8))}};
  return {at, "oversight", r.Text(0), std::nullopt, json::serialize(out)};
}

// Whether an app or app-key audit entry is about `app_id`.
bool AboutApp(std::string_view action, std::string_view target_id, const json::value& details,
              const std::string& app_id) {
  if (action.starts_with("app.")) return target_id == app_id;
  const auto* d = details.if_object();
  const auto* id = d ? d->if_contains("appId") : nullptr;
  return id && id->is_string() && id->as_string() == app_id;
}

Error TooLarge(int64_t count, const char* what) {
  return Error::Validation(
      {{"from", "the window holds " + std::to_string(count) + " " + what + " of the app; an export holds at most " +
                    std::to_string(kMaxExportedDecisions) + ": export a shorter window"}});
}

}  // namespace

Result<AppRecords> AppRecordsExporter::Export(const identity::Principal& caller, const std::string& app_id,
                                              const std::optional<std::string>& from,
                                              const std::optional<std::string>& to) const {
  // The registry checks the caller (tenant admins) and finds the app (404).
  CR_TRY_ASSIGN(trust::App app, apps_.Get(caller, app_id));
  CR_TRY_ASSIGN(DateWindow window, ParseDateWindow(from, to, clock_.Now()));
  CR_TRY_ASSIGN(retention::RetentionService::View retention, retention_.Get(caller));
  for (const char* kind : retention::kKinds) {
    auto archived = retention_.Archived(caller.tenant_id, kind, window.from_ms, window.end_ms);
    if (!archived) continue;
    return Error::Conflict("window_archived",
                           std::string("Records (") + kind + ") of this window before " +
                               FormatTimestamp(archived->before) +
                               " were archived; export from that time on, and take the rest from the archives "
                               "(credence admin verify-archive checks them).")
        .With("archived", json::serialize(retention::ArchivedWindowJson(*archived)));
  }

  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  AppRecords out;
  out.app_id = app_id;
  out.window = window;
  out.generated_at = clock_.Now();

  const auto count_rows = tenant.Run(kCountDecisions, {app_id, window.from_ms, window.end_ms});
  const auto counts = count_rows.front();
  const int64_t decision_count = counts.Int(0);
  if (decision_count > kMaxExportedDecisions) return TooLarge(decision_count, "decisions");
  const auto usage_rows = tenant.Run(kCountUsage, {app_id, window.from_ms, window.end_ms});
  const int64_t usage_count = usage_rows.front().Int(0);
  if (usage_count > kMaxExportedDecisions) return TooLarge(usage_count, "usage records");

  const auto state = logs_.State(tenant, trust::kLedgerChain);
  const int64_t first_seq = state ? state->first_seq : 1;
  std::set<std::string> entry_ids, emitted_evidence;
  int64_t last_seq = 0;
  for (;;) {
    auto page = trust::ReadAppDecisions(tenant, app_id, window.from_ms, window.end_ms, last_seq, kDecisionPage);
    for (const auto& d : page) AddDecision(out.lines, d, first_seq, emitted_evidence, entry_ids);
    if (!page.empty()) last_seq = page.back().seq;
    if (static_cast<int64_t>(page.size()) < kDecisionPage) break;
  }
  const auto checkpoint = logs_.NewestCheckpoint(tenant, trust::kLedgerChain);
  if (last_seq > 0 && (!checkpoint || last_seq - first_seq >= checkpoint->size))
    return Error::Conflict("records_not_ready",
                           "No checkpoint covers the window's last decision yet; one is signed "
                           "within " +
                               std::to_string(retry_after_seconds_) + " seconds.")
        .With("retryAfter", "\"" + std::to_string(retry_after_seconds_) + "\"");

  for (const auto& r : tenant.Run(kUsage, {app_id, window.from_ms, window.end_ms})) out.lines.push_back(UsageLine(r));
  for (const auto& r : tenant.Run(kOversightAudit, {window.from_ms, window.end_ms})) {
    const std::string action = r.Text(6);
    const json::value details = ParsedOr(r.TextView(10), json::object());
    if ((action.starts_with("app.") || action.starts_with("appkey.")) &&
        !AboutApp(action, r.TextView(8), details, app_id))
      continue;
    out.lines.push_back(AuditLine(r, details));
  }
  if (!entry_ids.empty()) {
    json::array ids;
    for (const auto& id : entry_ids) ids.emplace_back(id);
    const std::string list = json::serialize(ids);
    for (const auto& r : tenant.Run(kReviews, {window.from_ms, window.end_ms, list}))
      out.lines.push_back(ReviewLine(r));
    for (const auto& r : tenant.Run(kRenewals, {window.from_ms, window.end_ms, list}))
      out.lines.push_back(RenewalLine(r));
  }
  // Time order; at one millisecond, decisions before the usage they caused.
  std::stable_sort(out.lines.begin(), out.lines.end(), [](const auto& a, const auto& b) { return a.at < b.at; });

  json::value owner = nullptr;
  if (app.owner_id) {
    json::object o{{"id", *app.owner_id}, {"email", nullptr}, {"displayName", nullptr}};
    for (const auto& r : tenant.Run(kOwner, {*app.owner_id})) {
      o["email"] = r.Text(0);
      o["displayName"] = r.Text(1);
    }
    owner = std::move(o);
  }
  const std::string origin = logs_.OriginOf(tenant, trust::kLedgerChain);
  json::object cover{
      {"type", "cover"},
      {"format", kAppRecordsFormat},
      {"generatedAt", FormatTimestamp(out.generated_at)},
      {"tenantId", caller.tenant_id},
      {"app",
       {{"id", app.id},
        {"name", app.name},
        {"description", app.description},
        {"channel", app.channel},
        {"risk", app.risk},
        {"status", app.status()},
        {"owner", std::move(owner)},
        {"createdAt", FormatTimestamp(app.created_at)},
        {"archivedAt", OptTime(app.archived_at)}}},
      {"period",
       {{"from", window.from},
        {"to", window.to},
        {"start", FormatTimestamp(window.from_ms)},
        {"end", FormatTimestamp(window.end_ms)}}},
      {"counts",
       {{"decisions", decision_count},
        {"allowed", counts.Int(1)},
        {"warned", counts.Int(2)},
        {"blocked", counts.Int(3)},
        {"usage", usage_count},
        {"oversight", std::count_if(out.lines.begin(), out.lines.end(),
                                    [](const AppRecordsLine& l) { return l.type == "oversight"; })}}},
      {"retention",
       {{"decisionsMonths", retention.settings.decisions_months},
        {"usageMonths", retention.settings.usage_months},
        {"auditMonths", retention.settings.audit_months},
        {"archiving", retention.archiving}}},
      {"log", {{"origin", origin}, {"firstSequence", first_seq}}},
  };
  out.cover_json = json::serialize(cover);

  if (checkpoint) {
    json::object c{{"type", "checkpoint"},
                   {"origin", origin},
                   {"treeSize", checkpoint->size},
                   {"rootHash", integrity::Base64Encode(integrity::merkle::Bytes(checkpoint->root))},
                   {"signedAt", FormatTimestamp(checkpoint->signed_at)},
                   {"checkpoint", checkpoint->note},
                   {"verifierKey", nullptr},
                   {"lastDecisionSequence", last_seq > 0 ? json::value(last_seq) : json::value(nullptr)}};
    if (auto key = logs_.VerifierKeyFor(origin, checkpoint->key_id)) c["verifierKey"] = integrity::note::Encode(*key);
    out.checkpoint_json = json::serialize(c);
  }
  return out;
}

}  // namespace credence::compliance
