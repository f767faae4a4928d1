#include "reports/report_service.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <utility>

#include "core/ids.h"
#include "storage/session.h"
#include "trust/config.h"
#include "trust/engine.h"
#include "trust/rules.h"
#include "trust/source_resolver.h"

namespace credence::reports {
namespace {

using storage::TenantQuery;
using T = ColumnType;

// The window is [$2, $3) in epoch ms of UTC midnights; $4 is the app id,
// or '' for every caller.
#define CREDENCE_REPORT_WINDOW(alias)                                                                      \
  alias "tenant_id = $1 AND " alias "day >= $2 AND " alias "day < $3 AND (CAST($4 AS TEXT) = '' OR " alias \
        "app_id = $4)"

constexpr TenantQuery kAppExists{"reports.app_exists", "SELECT id FROM trust_apps WHERE tenant_id = $1 AND id = $2"};
constexpr TenantQuery kApps{"reports.apps",
                            "SELECT id, name, channel, risk, archived_at FROM trust_apps WHERE tenant_id = $1"};

constexpr TenantQuery kDocsBlocked{
    "reports.docs_blocked",
    "SELECT x.app_id, a.name, x.reason_code, x.entry_id, COALESCE(d.source_id, x.source_id), d.title, d.origin,"
    " x.n, x.last_at FROM (SELECT b.app_id, b.reason_code, b.entry_id, b.source_id, SUM(b.blocked) AS n,"
    " MAX(b.last_at) AS last_at FROM report_blocked_daily b WHERE " CREDENCE_REPORT_WINDOW("b.")
    " GROUP BY b.app_id, b.reason_code, b.entry_id, b.source_id) x"
    " LEFT JOIN trust_apps a ON a.tenant_id = $1 AND a.id = x.app_id"
    " LEFT JOIN report_documents d ON d.tenant_id = $1 AND d.entry_id = x.entry_id"
    " ORDER BY x.app_id, x.reason_code, x.n DESC, x.entry_id, x.source_id"};

constexpr TenantQuery kDecisionTotals{
    "reports.decision_totals",
    "SELECT app_id, channel, SUM(decisions), SUM(sources), SUM(allowed), SUM(warned), SUM(blocked), SUM(escalated)"
    " FROM report_decisions_daily WHERE " CREDENCE_REPORT_WINDOW("") " GROUP BY app_id, channel"};

constexpr TenantQuery kExpiredUsed{
    "reports.expired_used",
    "SELECT x.entry_id, d.title, d.origin, x.app_id, a.name, x.classification, x.expiry_at, x.uses, x.last_at"
    " FROM (SELECT u.entry_id, u.app_id, f.classification, f.expiry_at, SUM(u.uses) AS uses,"
    " MAX(u.last_at) AS last_at FROM report_stale_usage_daily u JOIN report_evidence_facts f"
    " ON f.tenant_id = u.tenant_id AND f.evidence_id = u.evidence_id WHERE " CREDENCE_REPORT_WINDOW("u.")
    " GROUP BY u.entry_id, u.app_id, f.classification, f.expiry_at) x"
    " LEFT JOIN report_documents d ON d.tenant_id = $1 AND d.entry_id = x.entry_id"
    " LEFT JOIN trust_apps a ON a.tenant_id = $1 AND a.id = x.app_id"
    " ORDER BY x.uses DESC, x.entry_id, x.app_id, x.classification, x.expiry_at"};

// The owner state is the one the ownership rules read (source_resolver.cpp):
// an owner is active when the tenant has an active membership for them.
// $4: the app, or '*' for every caller.
constexpr TenantQuery kUsedWithoutOwner{
    "reports.used_without_owner",
    "SELECT x.entry_id, COALESCE(e.title, c.title), CASE WHEN e.id IS NOT NULL THEN 'Native' ELSE 'Connected' END,"
    " COALESCE(e.owner_id, c.owner_id), m.is_active, x.uses, x.last_at"
    " FROM (SELECT entry_id, SUM(uses) AS uses, MAX(last_at) AS last_at FROM report_usage_daily"
    " WHERE tenant_id = $1 AND app_id = $4 AND day >= $2 AND day < $3 GROUP BY entry_id) x"
    " LEFT JOIN entries e ON e.tenant_id = $1 AND e.id = x.entry_id"
    " LEFT JOIN connected_documents c ON c.tenant_id = $1 AND c.id = x.entry_id"
    " LEFT JOIN tenant_members m ON m.tenant_id = $1 AND m.user_id = COALESCE(e.owner_id, c.owner_id)"
    " WHERE (e.id IS NOT NULL OR c.id IS NOT NULL)"
    " AND (COALESCE(e.owner_id, c.owner_id) IS NULL OR m.is_active IS NULL OR m.is_active <> 1)"
    " ORDER BY x.uses DESC, x.entry_id"};

// $4: the app, or '*' for every caller.
constexpr TenantQuery kEvaluations{
    "reports.evaluations",
    "SELECT entry_id, SUM(evaluations), MAX(last_at) FROM report_sources_daily"
    " WHERE tenant_id = $1 AND app_id = $4 AND day >= $2 AND day < $3 GROUP BY entry_id"};

constexpr TenantQuery kNeverReviewed{
    "reports.never_reviewed",
    "SELECT 'entry:' || e.id FROM entries e WHERE e.tenant_id = $1 AND e.status <> 'Draft' AND NOT EXISTS"
    " (SELECT 1 FROM entry_reviews r WHERE r.tenant_id = e.tenant_id AND r.entry_id = e.id)"
    " UNION ALL SELECT c.connector_key || ':' || c.external_id FROM connected_documents c WHERE c.tenant_id = $1"
    " AND c.status <> 'Draft' AND c.last_reviewed_at IS NULL"};

constexpr TenantQuery kEntryOverrides{
    "reports.entry_overrides",
    "SELECT p.target_id, p.policy, p.updated_by, p.updated_at, e.id, c.connector_key, c.external_id"
    " FROM trust_policies p LEFT JOIN entries e ON e.tenant_id = p.tenant_id AND e.id = p.target_id"
    " LEFT JOIN connected_documents c ON c.tenant_id = p.tenant_id AND c.id = p.target_id"
    " WHERE p.tenant_id = $1 AND p.scope = 'entry'"};

constexpr TenantQuery kDocumentSensitivity{
    "reports.document_sensitivity",
    "SELECT e.id, 'Native', s.classification, s.has_secrets, s.has_personal_data, s.set_by FROM entries e"
    " LEFT JOIN source_sensitivity s ON s.tenant_id = e.tenant_id AND s.source_kind = 'entry' AND s.source_id = e.id"
    " WHERE e.tenant_id = $1 UNION ALL SELECT c.id, 'Connected', s.classification, s.has_secrets,"
    " s.has_personal_data, s.set_by FROM connected_documents c LEFT JOIN source_sensitivity s"
    " ON s.tenant_id = c.tenant_id AND s.source_kind = 'connected' AND s.source_id = c.id WHERE c.tenant_id = $1"};

// What the content scanner found per source: distinct values still in the
// text, by kind, and those a human dismissed (docs/scanning.md).
constexpr TenantQuery kFindingsBySource{
    "reports.findings_by_source",
    "SELECT source_ref, SUM(CASE WHEN kind = 'secret' AND resolved_at IS NULL AND dismissed_at IS NULL THEN 1 ELSE 0"
    " END), SUM(CASE WHEN kind = 'personal_data' AND resolved_at IS NULL AND dismissed_at IS NULL THEN 1 ELSE 0 END),"
    " SUM(CASE WHEN resolved_at IS NULL AND dismissed_at IS NOT NULL THEN 1 ELSE 0 END)"
    " FROM scan_findings WHERE tenant_id = $1 GROUP BY source_ref"};

Cell Null() { return std::monostate{}; }
Cell Text(const storage::Row& r, int i) {
  if (r.IsNull(i)) return Null();
  std::string s = r.Text(i);
  if (s.empty()) return Null();
  return s;
}
Cell Opt(const std::optional<std::string>& s) { return s && !s->empty() ? Cell(*s) : Null(); }
Cell OptTime(const storage::Row& r, int i) { return r.IsNull(i) ? Null() : Cell(r.Int(i)); }
Cell Share(int64_t part, int64_t whole) {
  if (whole <= 0) return Null();
  return std::round(static_cast<double>(part) * 10000.0 / static_cast<double>(whole)) / 10000.0;
}

std::string_view DimensionOf(std::string_view code) {
  for (const auto& rule : trust::RuleCatalog())
    if (rule.code == code) return trust::DimensionName(rule.dimension);
  return "";
}

struct Evaluated {
  int64_t evaluations = 0;
  TimeMs last_at = 0;
};

// What a report run sees: the caller's tenant in one read snapshot.
struct RunContext {
  storage::TenantSession& tx;
  const DateWindow& window;
  std::string app;  // "" for every caller
  TimeMs now;
};

std::map<std::string, Evaluated> EvaluatedDocuments(RunContext& run) {
  std::map<std::string, Evaluated> out;
  const std::string app = run.app.empty() ? "*" : run.app;
  for (const auto& r : run.tx.Run(kEvaluations, {run.window.from_ms, run.window.end_ms, app}))
    out[r.Text(0)] = {r.Int(1), r.Int(2)};
  return out;
}

// Sources resolved as evaluation resolves them.
std::vector<trust::ResolvedSource> Resolve(RunContext& run, const std::vector<std::string>& source_ids) {
  return trust::ResolveInBatches(run.tx, source_ids, run.now);
}

void AddEvaluated(ReportRow& row, const std::map<std::string, Evaluated>& evaluated, const std::string& entry_id) {
  auto it = evaluated.find(entry_id);
  row.push_back(it == evaluated.end() ? int64_t{0} : it->second.evaluations);
  row.push_back(it == evaluated.end() ? Null() : Cell(it->second.last_at));
}

std::vector<ReportRow> DocsBlocked(RunContext& run) {
  std::vector<ReportRow> rows;
  for (const auto& r : run.tx.Run(kDocsBlocked, {run.window.from_ms, run.window.end_ms, run.app})) {
    const std::string code = r.Text(2);
    rows.push_back({Text(r, 0), Text(r, 1), code, std::string(DimensionOf(code)), Text(r, 4), Text(r, 3), Text(r, 5),
                    Text(r, 6), r.Int(7), r.Int(8)});
  }
  return rows;
}

std::vector<ReportRow> CustomerFacingReadiness(RunContext& run) {
  const trust::ContextConfig config = trust::LoadContextConfig(run.tx);
  auto customer_facing = [&](const std::string& channel) { return trust::IsCustomerFacing(config, channel); };
  struct Totals {
    int64_t decisions = 0, sources = 0, allowed = 0, warned = 0, blocked = 0, escalated = 0;
  };
  std::map<std::string, Totals> by_app;       // app id -> totals
  std::map<std::string, Totals> without_app;  // channel -> totals
  for (const auto& r : run.tx.Run(kDecisionTotals, {run.window.from_ms, run.window.end_ms, run.app})) {
    const std::string app = r.Text(0);
    const std::string channel = r.Text(1);
    Totals* t = nullptr;
    if (!app.empty()) {
      t = &by_app[app];
    } else if (customer_facing(channel)) {
      t = &without_app[channel];
    } else {
      continue;
    }
    t->decisions += r.Int(2);
    t->sources += r.Int(3);
    t->allowed += r.Int(4);
    t->warned += r.Int(5);
    t->blocked += r.Int(6);
    t->escalated += r.Int(7);
  }
  auto row = [](Cell app_id, Cell name, Cell channel, Cell risk, const Totals& t) {
    return ReportRow{std::move(app_id),
                     std::move(name),
                     std::move(channel),
                     std::move(risk),
                     t.decisions,
                     t.sources,
                     t.allowed,
                     t.warned,
                     t.blocked,
                     t.escalated,
                     Share(t.allowed, t.sources),
                     Share(t.warned, t.sources),
                     Share(t.blocked, t.sources)};
  };
  std::vector<std::pair<std::string, ReportRow>> apps;  // sorted by name, then id
  for (const auto& r : run.tx.Run(kApps)) {
    const std::string id = r.Text(0);
    if (!run.app.empty() && id != run.app) continue;
    const std::string channel = r.Text(2);
    if (!customer_facing(channel)) continue;
    auto totals = by_app.find(id);
    // Archived apps only while their decisions fall in the window.
    if (!r.IsNull(4) && totals == by_app.end()) continue;
    apps.emplace_back(r.Text(1) + '\x1f' + id,
                      row(id, r.Text(1), Text(r, 2), Text(r, 3), totals == by_app.end() ? Totals{} : totals->second));
  }
  std::sort(apps.begin(), apps.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<ReportRow> rows;
  for (auto& [key, r] : apps) rows.push_back(std::move(r));
  for (const auto& [channel, t] : without_app)
    rows.push_back(row(Null(), Null(), channel.empty() ? Null() : Cell(channel), Null(), t));
  return rows;
}

std::vector<ReportRow> ExpiredKnowledgeUsed(RunContext& run) {
  std::vector<ReportRow> rows;
  for (const auto& r : run.tx.Run(kExpiredUsed, {run.window.from_ms, run.window.end_ms, run.app}))
    rows.push_back(
        {Text(r, 0), Text(r, 1), Text(r, 2), Text(r, 3), Text(r, 4), Text(r, 5), OptTime(r, 6), r.Int(7), r.Int(8)});
  return rows;
}

std::vector<ReportRow> UsedWithoutOwner(RunContext& run) {
  std::vector<ReportRow> rows;
  const std::string app = run.app.empty() ? "*" : run.app;
  for (const auto& r : run.tx.Run(kUsedWithoutOwner, {run.window.from_ms, run.window.end_ms, app})) {
    const bool no_owner = r.IsNull(3) || r.Text(3).empty();
    rows.push_back({Text(r, 0), Text(r, 1), Text(r, 2), Text(r, 3), std::string(no_owner ? "none" : "inactive"),
                    r.Int(5), r.Int(6)});
  }
  return rows;
}

// AI-accessible: resolved, and not blocked for the most permissive caller
// (an internal channel, no action, no external model): the rules that still
// block there are the ones about the source itself (draft, expired, not AI
// retrievable, above the sensitivity limit, secrets).
// The decision for that caller; nullopt when it blocks (or the source does
// not resolve).
std::optional<trust::SourceDecision> AiAccessible(const trust::ResolvedSource& rs, TimeMs now) {
  if (!rs.state.resolved) return std::nullopt;
  trust::Context internal;
  internal.channel_known = true;
  internal.customer_facing = false;
  auto d = trust::Decide(rs.state, rs.policy, rs.policy_source, internal, now);
  if (d.decision == trust::Decision::kBlock) return std::nullopt;
  return d;
}

std::vector<ReportRow> UnreviewedAccessible(RunContext& run) {
  const auto evaluated = EvaluatedDocuments(run);
  std::vector<std::string> candidates;
  for (const auto& r : run.tx.Run(kNeverReviewed)) candidates.push_back(r.Text(0));
  std::vector<std::pair<std::pair<int64_t, std::string>, ReportRow>> sorted;
  for (const auto& rs : Resolve(run, candidates)) {
    const auto& s = rs.state;
    const auto d = AiAccessible(rs, run.now);
    if (!d || s.last_reviewed_at) continue;
    auto e = evaluated.find(s.entry_id);
    if (!run.app.empty() && e == evaluated.end()) continue;
    ReportRow row{s.source_id,
                  s.entry_id,
                  s.title,
                  std::string(trust::OriginName(s.origin)),
                  d->classification,
                  Opt(s.owner_id),
                  std::string(trust::SensitivityName(s.sensitivity)),
                  rs.policy_source};
    AddEvaluated(row, evaluated, s.entry_id);
    sorted.push_back(
        {{e == evaluated.end() ? 0 : -e->second.evaluations, s.title + '\x1f' + s.entry_id}, std::move(row)});
  }
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<ReportRow> rows;
  for (auto& [k, r] : sorted) rows.push_back(std::move(r));
  return rows;
}

std::vector<ReportRow> PolicyOverrides(RunContext& run) {
  const auto evaluated = EvaluatedDocuments(run);
  struct Stored {
    std::string policy;
    std::optional<std::string> updated_by;
    TimeMs updated_at;
  };
  std::vector<std::string> sources;
  std::map<std::string, Stored> stored;  // by target id
  for (const auto& r : run.tx.Run(kEntryOverrides)) {
    std::string source;
    if (!r.IsNull(4))
      source = "entry:" + r.Text(4);
    else if (!r.IsNull(5))
      source = r.Text(5) + ":" + r.Text(6);
    else
      continue;  // its source is gone: not active
    if (!run.app.empty() && !evaluated.count(r.Text(0))) continue;
    sources.push_back(source);
    stored[r.Text(0)] = {r.Text(1), r.OptText(2), r.Int(3)};
  }
  std::vector<std::pair<std::string, ReportRow>> sorted;
  for (const auto& rs : Resolve(run, sources)) {
    const auto& s = rs.state;
    auto it = stored.find(s.entry_id);
    if (!s.resolved || it == stored.end()) continue;
    std::string override_json = it->second.policy;
    if (auto o = trust::PolicyOverrideFromJson(override_json)) override_json = trust::PolicyOverrideToJson(*o);
    const auto& p = rs.policy;
    ReportRow row{s.source_id,
                  s.entry_id,
                  s.title,
                  std::string(trust::OriginName(s.origin)),
                  override_json,
                  p.ai_retrievable,
                  p.customer_facing_allowed,
                  p.internal_only,
                  p.external_model_allowed,
                  std::string(trust::SensitivityName(p.max_sensitivity_for_ai)),
                  Opt(it->second.updated_by),
                  it->second.updated_at};
    AddEvaluated(row, evaluated, s.entry_id);
    sorted.emplace_back(s.title + '\x1f' + s.entry_id, std::move(row));
  }
  std::sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<ReportRow> rows;
  for (auto& [k, r] : sorted) rows.push_back(std::move(r));
  return rows;
}

std::vector<ReportRow> ClassificationSummary(RunContext& run) {
  const auto evaluated = EvaluatedDocuments(run);
  struct Counts {
    int64_t documents = 0, native = 0, connected = 0, secrets = 0, personal = 0, human = 0, scanner = 0, unset = 0,
            evaluated_documents = 0, evaluations = 0, secret_findings = 0, personal_data_findings = 0,
            with_secret_findings = 0, with_personal_data_findings = 0, dismissed_findings = 0;
  };
  struct SourceFindings {
    int64_t secrets = 0, personal = 0, dismissed = 0;
  };
  std::map<std::string, SourceFindings> findings;
  for (const auto& r : run.tx.Run(kFindingsBySource)) findings[r.Text(0)] = {r.Int(1), r.Int(2), r.Int(3)};
  const std::vector<trust::Sensitivity> levels = {trust::Sensitivity::kPublic, trust::Sensitivity::kInternal,
                                                  trust::Sensitivity::kConfidential, trust::Sensitivity::kRestricted};
  std::map<std::string, Counts> by_level;
  for (const auto& r : run.tx.Run(kDocumentSensitivity)) {
    const std::string id = r.Text(0);
    auto e = evaluated.find(id);
    if (!run.app.empty() && e == evaluated.end()) continue;
    // No fact: evaluated as Internal (docs/trust-admin.md).
    const std::string level = r.IsNull(2) ? "Internal" : r.Text(2);
    auto& c = by_level[level];
    ++c.documents;
    ++(r.TextView(1) == "Native" ? c.native : c.connected);
    if (r.Int(3) == 1) ++c.secrets;
    if (r.Int(4) == 1) ++c.personal;
    const std::string set_by = r.Text(5);
    if (r.IsNull(2))
      ++c.unset;
    else if (set_by == "human")
      ++c.human;
    else
      ++c.scanner;
    if (e != evaluated.end()) {
      ++c.evaluated_documents;
      c.evaluations += e->second.evaluations;
    }
    if (auto f = findings.find(id); f != findings.end()) {
      c.secret_findings += f->second.secrets;
      c.personal_data_findings += f->second.personal;
      c.dismissed_findings += f->second.dismissed;
      if (f->second.secrets > 0) ++c.with_secret_findings;
      if (f->second.personal > 0) ++c.with_personal_data_findings;
    }
  }
  std::vector<ReportRow> rows;
  for (auto level : levels) {
    const Counts c = by_level[std::string(trust::SensitivityName(level))];
    rows.push_back({std::string(trust::SensitivityName(level)), c.documents, c.native, c.connected, c.secrets,
                    c.personal, c.human, c.scanner, c.unset, c.evaluated_documents, c.evaluations,
                    c.with_secret_findings, c.with_personal_data_findings, c.secret_findings, c.personal_data_findings,
                    c.dismissed_findings});
  }
  return rows;
}

using Builder = std::vector<ReportRow> (*)(RunContext&);

struct Entry {
  ReportInfo info;
  Builder build;
};

// Spanish beside the catalog's English (issue 26: the text the server
// composes follows the interface language). A report missing here answers
// in English.
const std::vector<std::tuple<std::string_view, std::string_view, std::string_view>>& SpanishTexts() {
  static const std::vector<std::tuple<std::string_view, std::string_view, std::string_view>> kTexts = {
      {"docs-blocked", "Documentos bloqueados para la IA",
       "Lo que se bloqueó para el uso por IA, por aplicación y código de motivo: una fila por aplicación, motivo de "
       "bloqueo y documento, con las evaluaciones del periodo que bloquearon el documento por ese motivo."},
      {"customer-facing-readiness", "Preparación para clientes",
       "Fuentes permitidas, con aviso y bloqueadas para las aplicaciones de cara al cliente (y para las llamadas sin "
       "aplicación en canales de cara al cliente) en el periodo."},
      {"expired-knowledge-used", "Conocimiento caducado usado por la IA",
       "Conocimiento desactualizado en el que la IA se apoyó de verdad: fuentes nombradas en registros de uso del "
       "periodo cuya decisión vinculada las encontró caducadas o pasada su fecha de caducidad (aviso)."},
      {"unreviewed-accessible", "Documentos accesibles a la IA nunca revisados",
       "Documentos que la IA puede usar hoy (no bloqueados por su propio estado ni por la política) que nunca se "
       "han revisado."},
      {"used-without-owner", "Documentos usados por la IA sin responsable activo",
       "Documentos nombrados en registros de uso del periodo que hoy no tienen responsable, o cuyo responsable no es "
       "miembro activo de la organización."},
      {"policy-overrides", "Excepciones de política por entrada",
       "Excepciones de política activas fijadas en una sola entrada o documento conectado, con la política "
       "efectiva."},
      {"classification-summary", "Documentos por clasificación de sensibilidad",
       "Recuento de documentos por clasificación de sensibilidad, con cómo se fijó la clasificación y cuántos de "
       "los documentos se evaluaron en el periodo."},
  };
  return kTexts;
}

const std::vector<Entry>& Entries() {
  static const std::vector<Entry> kEntries = {
      {{"docs-blocked",
        "Documents blocked from AI use",
        "What was blocked from AI use, by app and reason code: one row per app, block reason and document, "
        "counting the evaluations in the window that blocked the document with that reason.",
        {{"appId", T::kString},
         {"appName", T::kString},
         {"reasonCode", T::kString},
         {"dimension", T::kString},
         {"sourceId", T::kString},
         {"entryId", T::kString},
         {"title", T::kString},
         {"origin", T::kString},
         {"blocked", T::kInteger},
         {"lastBlockedAt", T::kTimestamp}}},
       DocsBlocked},
      {{"customer-facing-readiness",
        "Customer-facing readiness",
        "Allowed vs warned vs blocked sources for customer-facing apps (and for calls without an app on "
        "customer-facing channels) in the window.",
        {{"appId", T::kString},
         {"appName", T::kString},
         {"channel", T::kString},
         {"risk", T::kString},
         {"decisions", T::kInteger},
         {"sources", T::kInteger},
         {"allowed", T::kInteger},
         {"warned", T::kInteger},
         {"blocked", T::kInteger},
         {"escalated", T::kInteger},
         {"allowedShare", T::kNumber},
         {"warnedShare", T::kNumber},
         {"blockedShare", T::kNumber}}},
       CustomerFacingReadiness},
      {{"expired-knowledge-used",
        "Expired knowledge used by AI",
        "Stale knowledge that AI actually relied on: sources named in usage records of the window whose linked "
        "decision found them Expired or past their expiry date (Warning).",
        {{"entryId", T::kString},
         {"title", T::kString},
         {"origin", T::kString},
         {"appId", T::kString},
         {"appName", T::kString},
         {"statusWhenDecided", T::kString},
         {"expiryDate", T::kTimestamp},
         {"uses", T::kInteger},
         {"lastUsedAt", T::kTimestamp}}},
       ExpiredKnowledgeUsed},
      {{"unreviewed-accessible",
        "AI-accessible documents never reviewed",
        "Documents AI can use today (not blocked by their own state or policy) that have never been reviewed.",
        {{"sourceId", T::kString},
         {"entryId", T::kString},
         {"title", T::kString},
         {"origin", T::kString},
         {"status", T::kString},
         {"ownerId", T::kString},
         {"sensitivity", T::kString},
         {"policySource", T::kString},
         {"evaluations", T::kInteger},
         {"lastEvaluatedAt", T::kTimestamp}}},
       UnreviewedAccessible},
      {{"used-without-owner",
        "AI-used documents without an active owner",
        "Documents named in usage records of the window that have no owner, or an owner who is not an active "
        "member of the tenant, today.",
        {{"entryId", T::kString},
         {"title", T::kString},
         {"origin", T::kString},
         {"ownerId", T::kString},
         {"ownerState", T::kString},
         {"uses", T::kInteger},
         {"lastUsedAt", T::kTimestamp}}},
       UsedWithoutOwner},
      {{"policy-overrides",
        "Per-entry policy overrides",
        "Active policy overrides set on a single entry or connected document, with the effective policy.",
        {{"sourceId", T::kString},
         {"entryId", T::kString},
         {"title", T::kString},
         {"origin", T::kString},
         {"override", T::kString},
         {"aiRetrievable", T::kBoolean},
         {"customerFacingAllowed", T::kBoolean},
         {"internalOnly", T::kBoolean},
         {"externalModelAllowed", T::kBoolean},
         {"maxSensitivityForAi", T::kString},
         {"updatedBy", T::kString},
         {"updatedAt", T::kTimestamp},
         {"evaluations", T::kInteger},
         {"lastEvaluatedAt", T::kTimestamp}}},
       PolicyOverrides},
      {{"classification-summary",
        "Documents by sensitivity classification",
        "Document counts by sensitivity classification, with how the classification was set and how many of the "
        "documents were evaluated in the window.",
        {{"classification", T::kString},
         {"documents", T::kInteger},
         {"nativeEntries", T::kInteger},
         {"connectedDocuments", T::kInteger},
         {"withSecrets", T::kInteger},
         {"withPersonalData", T::kInteger},
         {"setByHuman", T::kInteger},
         {"setByScanner", T::kInteger},
         {"unset", T::kInteger},
         {"evaluatedDocuments", T::kInteger},
         {"evaluations", T::kInteger},
         {"withSecretFindings", T::kInteger},
         {"withPersonalDataFindings", T::kInteger},
         {"secretFindings", T::kInteger},
         {"personalDataFindings", T::kInteger},
         {"dismissedFindings", T::kInteger}}},
       ClassificationSummary},
  };
  return kEntries;
}

}  // namespace

std::string_view ColumnTypeName(ColumnType type) {
  switch (type) {
    case ColumnType::kString:
      return "string";
    case ColumnType::kInteger:
      return "integer";
    case ColumnType::kNumber:
      return "number";
    case ColumnType::kBoolean:
      return "boolean";
    case ColumnType::kTimestamp:
      return "timestamp";
  }
  return "string";
}

const std::vector<ReportInfo>& Catalog() {
  static const std::vector<ReportInfo> kCatalog = [] {
    std::vector<ReportInfo> out;
    for (const auto& e : Entries()) out.push_back(e.info);
    return out;
  }();
  return kCatalog;
}

ReportText LocalizedText(const ReportInfo& info, std::string_view language) {
  if (language == "es")
    for (const auto& [key, title, description] : SpanishTexts())
      if (key == info.key) return {title, description};
  return {info.title, info.description};
}

const ReportInfo* FindReport(std::string_view key) {
  for (const auto& info : Catalog())
    if (info.key == key) return &info;
  return nullptr;
}

Result<Report> ReportService::Run(const identity::Principal& caller, std::string_view key,
                                  const ReportParams& params) const {
  if (!caller.is_global_admin()) return Error::PermissionDenied("Reports are for the tenant's admins.");
  const Entry* entry = nullptr;
  for (const auto& e : Entries())
    if (e.info.key == key) entry = &e;
  if (entry == nullptr) return Error::NotFound("There is no report with this key.");
  const TimeMs now = clock_.Now();
  auto window = ParseDateWindow(params.from, params.to, now);
  if (!window) return window.error();
  std::string app;
  if (params.app_id) {
    if (!IsUuid(*params.app_id)) return Error::Validation({{"appId", "must be an app id (UUID)"}});
    app = CanonicalUuid(*params.app_id);
    storage::Session session(db_);
    storage::TenantSession tx(session, caller.tenant_id);
    if (tx.Run(kAppExists, {app}).empty()) return Error::NotFound("There is no app with this id.");
  }
  // Everything committed before the report started is in the aggregates.
  rollup_.CatchUp(caller.tenant_id);

  Report report;
  report.info = &entry->info;
  report.window = *window;
  if (!app.empty()) report.app_id = app;
  report.generated_at = now;
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tx(session, caller.tenant_id);
  RunContext run{tx, report.window, app, now};
  report.rows = entry->build(run);
  return report;
}

}  // namespace credence::reports
