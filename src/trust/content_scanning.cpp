#include "trust/content_scanning.h"
#include "trust/scanning_events.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "core/ids.h"
#include "identity/authorization.h"
#include "kb/document.h"
#include "scanning/scanner.h"
#include "storage/session.h"
#include "trust/source_id.h"

namespace credence::trust {
namespace {

using storage::TenantQuery;

constexpr char kEntryKind[] = "entry";
constexpr char kConnectedKind[] = "connected";
constexpr int kMaxFindingsListed = 500;

constexpr TenantQuery kSettings{
    "scan.settings",
    "SELECT auto_scan, fingerprint_key, updated_by, updated_at FROM scan_settings WHERE tenant_id = $1"};
// The key is made once per tenant, by whichever save or setting comes first;
// a concurrent first use loses the insert and reads the winner's key.
constexpr TenantQuery kEnsureSettings{
    "scan.ensure_settings",
    "INSERT INTO scan_settings (tenant_id, auto_scan, fingerprint_key) VALUES ($1, 1, $2)"
    " ON CONFLICT (tenant_id) DO NOTHING"};
constexpr TenantQuery kSetAutoScan{
    "scan.set_auto_scan",
    "UPDATE scan_settings SET auto_scan = $2, updated_by = $3, updated_at = $4 WHERE tenant_id = $1"};

constexpr TenantQuery kPartFindings{"scan.part_findings",
                                    "SELECT id, detector, fingerprint, resolved_at FROM scan_findings"
                                    " WHERE tenant_id = $1 AND source_kind = $2 AND source_ref = $3 AND part = $4"};
constexpr TenantQuery kSourceFindings{
    "scan.source_findings",
    "SELECT id, resolved_at FROM scan_findings WHERE tenant_id = $1 AND source_kind = $2 AND source_ref = $3"};
constexpr TenantQuery kInsertFinding{
    "scan.insert_finding",
    "INSERT INTO scan_findings (tenant_id, id, source_kind, source_ref, part, detector, fingerprint, kind, sub_type,"
    " block_id, count, part_hash, first_seen_at, last_seen_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,"
    " $12, $13, $13)"};
// A dismissal holds for the content it was made on: when the part's text
// has changed since, the finding counts again.
constexpr TenantQuery kSeenAgain{
    "scan.seen_again",
    "UPDATE scan_findings SET count = $3, block_id = $4, part_hash = $5, last_seen_at = $6, resolved_at = NULL,"
    " dismissed_by = CASE WHEN dismissed_part_hash = $5 THEN dismissed_by ELSE NULL END,"
    " dismissed_at = CASE WHEN dismissed_part_hash = $5 THEN dismissed_at ELSE NULL END,"
    " dismiss_reason = CASE WHEN dismissed_part_hash = $5 THEN dismiss_reason ELSE NULL END,"
    " dismissed_part_hash = CASE WHEN dismissed_part_hash = $5 THEN dismissed_part_hash ELSE NULL END"
    " WHERE tenant_id = $1 AND id = $2"};
constexpr TenantQuery kResolve{"scan.resolve",
                               "UPDATE scan_findings SET resolved_at = $3 WHERE tenant_id = $1 AND id = $2"};
constexpr TenantQuery kActiveTotals{
    "scan.active_totals",
    "SELECT kind, detector, SUM(count) FROM scan_findings WHERE tenant_id = $1 AND source_kind = $2"
    " AND source_ref = $3 AND resolved_at IS NULL AND dismissed_at IS NULL GROUP BY kind, detector"};

#define CREDENCE_SCAN_FINDING_COLUMNS                                                                              \
  "f.id, f.source_kind, f.source_ref, f.part, f.detector, f.kind, f.sub_type, f.block_id, f.count, f.fingerprint," \
  " f.first_seen_at, f.last_seen_at, f.resolved_at, f.dismissed_by, f.dismissed_at, f.dismiss_reason,"             \
  " d.connector_key, d.external_id"
#define CREDENCE_SCAN_FINDING_FROM \
  " FROM scan_findings f LEFT JOIN connected_documents d ON d.tenant_id = f.tenant_id AND d.id = f.source_ref"

constexpr TenantQuery kFindingById{"scan.finding_by_id",
                                   "SELECT " CREDENCE_SCAN_FINDING_COLUMNS CREDENCE_SCAN_FINDING_FROM
                                   " WHERE f.tenant_id = $1 AND f.id = $2"};
// Newest first (ids are UUID v7); `after` continues below the previous
// page's last id.
constexpr TenantQuery kListFindings{
    "scan.list_findings",
    "SELECT " CREDENCE_SCAN_FINDING_COLUMNS CREDENCE_SCAN_FINDING_FROM
    " WHERE f.tenant_id = $1 AND ($2 IS NULL OR f.source_kind = $2) AND ($3 IS NULL OR f.source_ref = $3)"
    " AND ($4 IS NULL OR d.connector_key = $4) AND ($5 IS NULL OR f.detector = $5) AND ($6 IS NULL OR f.kind = $6)"
    " AND ($7 IS NULL OR ($7 = 'active' AND f.resolved_at IS NULL AND f.dismissed_at IS NULL)"
    " OR ($7 = 'dismissed' AND f.resolved_at IS NULL AND f.dismissed_at IS NOT NULL)"
    " OR ($7 = 'resolved' AND f.resolved_at IS NOT NULL)) AND ($8 IS NULL OR f.id < $8) ORDER BY f.id DESC LIMIT $9",
    "SELECT " CREDENCE_SCAN_FINDING_COLUMNS CREDENCE_SCAN_FINDING_FROM
    " WHERE f.tenant_id = $1 AND (CAST($2 AS TEXT) IS NULL OR f.source_kind = $2)"
    " AND (CAST($3 AS TEXT) IS NULL OR f.source_ref = $3) AND (CAST($4 AS TEXT) IS NULL OR d.connector_key = $4)"
    " AND (CAST($5 AS TEXT) IS NULL OR f.detector = $5) AND (CAST($6 AS TEXT) IS NULL OR f.kind = $6)"
    " AND (CAST($7 AS TEXT) IS NULL OR ($7 = 'active' AND f.resolved_at IS NULL AND f.dismissed_at IS NULL)"
    " OR ($7 = 'dismissed' AND f.resolved_at IS NULL AND f.dismissed_at IS NOT NULL)"
    " OR ($7 = 'resolved' AND f.resolved_at IS NOT NULL)) AND (CAST($8 AS TEXT) IS NULL OR f.id < $8)"
    " ORDER BY f.id DESC LIMIT $9"};
constexpr TenantQuery kDismiss{"scan.dismiss",
                               "UPDATE scan_findings SET dismissed_by = $3, dismissed_at = $4, dismiss_reason = $5,"
                               " dismissed_part_hash = part_hash WHERE tenant_id = $1 AND id = $2"};
constexpr TenantQuery kRestore{
    "scan.restore",
    "UPDATE scan_findings SET dismissed_by = NULL, dismissed_at = NULL, dismiss_reason = NULL,"
    " dismissed_part_hash = NULL WHERE tenant_id = $1 AND id = $2"};

constexpr TenantQuery kEntryExists{"scan.entry_exists", "SELECT 1 FROM entries WHERE tenant_id = $1 AND id = $2"};
constexpr TenantQuery kDocumentIdByKey{
    "scan.document_id_by_key",
    "SELECT id FROM connected_documents WHERE tenant_id = $1 AND connector_key = $2 AND external_id = $3"};
constexpr TenantQuery kEntriesOfTenant{"scan.entries_of_tenant",
                                       "SELECT id, title FROM entries WHERE tenant_id = $1 ORDER BY id"};
constexpr TenantQuery kOriginalBlocks{
    "scan.original_blocks",
    "SELECT block_id, node FROM entry_blocks WHERE tenant_id = $1 AND entry_id = $2 AND is_deleted = 0"
    " ORDER BY position"};
constexpr TenantQuery kTranslations{"scan.translations",
                                    "SELECT language, title FROM translations WHERE tenant_id = $1 AND entry_id = $2"};
constexpr TenantQuery kTranslationBlocks{
    "scan.translation_blocks",
    "SELECT t.block_id, t.node FROM translation_blocks t JOIN entry_blocks b ON b.tenant_id = t.tenant_id"
    " AND b.entry_id = t.entry_id AND b.block_id = t.block_id"
    " WHERE t.tenant_id = $1 AND t.entry_id = $2 AND t.language = $3 ORDER BY b.position"};

struct TenantScanSettings {
  bool auto_scan = true;
  std::string key;
};

// In the caller's write transaction: the tenant's settings, made on first use.
TenantScanSettings LoadOrCreateSettings(storage::TenantSession& tx) {
  auto rows = tx.Run(kSettings);
  if (rows.empty()) {
    tx.Run(kEnsureSettings, {Sha256Hex(SecureRandomBytes(32))});
    rows = tx.Run(kSettings);
  }
  const auto r = rows.front();
  return {r.Bool(0), r.Text(1)};
}

// What identifies the text a finding was seen in: a dismissal holds while
// this stays the same.
std::string PartHash(std::span<const kb::TextPiece> pieces) {
  std::string all;
  for (const auto& p : pieces) {
    all.append(p.block_id);
    all.push_back('\0');
    all.append(p.text);
    all.push_back('\0');
  }
  return Sha256Hex(all);
}

struct FoundValue {
  std::string kind, sub_type;
  std::optional<std::string> block_id;
  int64_t count = 0;
};
using FoundValues = std::map<std::pair<std::string, std::string>, FoundValue>;  // (detector, fingerprint)

FoundValues ScanPieces(const scanning::Scanner& scanner, std::span<const kb::TextPiece> pieces,
                       const std::string& key) {
  FoundValues found;
  for (const auto& piece : pieces) {
    if (piece.text.empty()) continue;
    for (auto& f : scanner.Scan(piece.text, key)) {
      auto [it, added] = found.try_emplace({f.detector, f.fingerprint});
      FoundValue& v = it->second;
      if (added) {
        v.kind = std::string(scanning::KindName(f.kind));
        v.sub_type = f.sub_type;
        if (!piece.block_id.empty()) v.block_id = std::string(piece.block_id);
      }
      v.count += f.count;
    }
  }
  return found;
}

// The source's facts from its active, undismissed findings (all parts).
void RefreshFacts(storage::TenantSession& tx, const char* source_kind, const std::string& source_ref, TimeMs now) {
  const SourceKind kind = std::string_view(source_kind) == kEntryKind ? SourceKind::kEntry : SourceKind::kConnected;
  ScannerDetail detail;
  std::set<std::string> detectors;
  for (const auto& r : tx.Run(kActiveTotals, {source_kind, source_ref})) {
    const int64_t count = r.Int(2);
    if (r.TextView(0) == "secret")
      detail.secret_findings += count;
    else
      detail.personal_data_findings += count;
    detectors.insert(r.Text(1));
  }
  if (detectors.empty()) {
    ClearScannerFacts(tx, kind, source_ref);
    return;
  }
  detail.detectors.assign(detectors.begin(), detectors.end());
  RecordScannerFindings(tx, kind, source_ref, detail, now);
}

// Scans one part of a source and brings its findings and the source's facts
// up to date, in `tx`.
// `created`: the source was created in this transaction and has no
// findings yet, so none are read.
ScanOutcome ScanPart(const scanning::Scanner& scanner, storage::TenantSession& tx, const TenantScanSettings& settings,
                     const char* source_kind, const std::string& source_ref, const std::string& part,
                     std::span<const kb::TextPiece> pieces, TimeMs now, bool created = false) {
  ScanOutcome out;
  if (!settings.auto_scan) return out;
  out.scanned = true;
  const FoundValues found = ScanPieces(scanner, pieces, settings.key);
  const storage::Rows existing = created ? storage::Rows() : tx.Run(kPartFindings, {source_kind, source_ref, part});
  if (found.empty() && existing.empty()) return out;  // the common case: nothing then, nothing now

  const std::string part_hash = PartHash(pieces);
  std::map<std::pair<std::string, std::string>, std::pair<std::string, bool>> known;  // -> (id, resolved)
  for (const auto& r : existing) known[{r.Text(1), r.Text(2)}] = {r.Text(0), !r.IsNull(3)};
  for (const auto& [value, f] : found) {
    (f.kind == "secret" ? out.secret_findings : out.personal_data_findings)++;
    auto it = known.find(value);
    if (it == known.end()) {
      if (f.kind == "secret") EmitSecretDetected(tx, source_kind, source_ref, value.first, f.kind);  // webhooks.md
      tx.Run(kInsertFinding, {NewId(), source_kind, source_ref, part, value.first, value.second, f.kind, f.sub_type,
                              f.block_id, f.count, part_hash, now});
      ++out.new_findings;
      continue;
    }
    if (it->second.second) ++out.new_findings;
    tx.Run(kSeenAgain, {it->second.first, f.count, f.block_id, part_hash, now});
    known.erase(it);
  }
  for (const auto& [value, row] : known) {
    if (row.second) continue;
    tx.Run(kResolve, {row.first, now});
    ++out.resolved_findings;
  }
  RefreshFacts(tx, source_kind, source_ref, now);
  return out;
}

FindingRecord FindingFromRow(const storage::Row& r) {
  FindingRecord f;
  f.id = r.Text(0);
  f.source_kind = r.Text(1);
  f.source_ref = r.Text(2);
  f.part = r.Text(3);
  f.detector = r.Text(4);
  f.kind = r.Text(5);
  f.sub_type = r.Text(6);
  f.block_id = r.OptText(7);
  f.count = r.Int(8);
  f.fingerprint = r.Text(9);
  f.first_seen_at = r.Int(10);
  f.last_seen_at = r.Int(11);
  f.resolved_at = r.OptInt(12);
  f.dismissed_by = r.OptText(13);
  f.dismissed_at = r.OptInt(14);
  f.dismiss_reason = r.OptText(15);
  if (f.source_kind == kEntryKind)
    f.source_id = "entry:" + f.source_ref;
  else if (!r.IsNull(16))
    f.source_id = r.Text(16) + ":" + r.Text(17);
  f.status = f.resolved_at ? "resolved" : f.dismissed_at ? "dismissed" : "active";
  return f;
}

Error FindingNotFound() { return Error::NotFound("Finding not found."); }

constexpr size_t kMaxDismissReason = 1000;

}  // namespace

struct ContentScanning::Impl {
  storage::Database& db;
  const Clock& clock;
  const identity::AuditRecorder& audit;
  std::shared_ptr<const scanning::Scanner> scanner;
};

ContentScanning::ContentScanning(storage::Database& db, const Clock& clock, const identity::AuditRecorder& audit,
                                 std::shared_ptr<const scanning::Scanner> scanner)
    : impl_(std::make_unique<Impl>(Impl{db, clock, audit, std::move(scanner)})) {}

ContentScanning::~ContentScanning() = default;

void ContentScanning::EntryTextSaved(storage::TenantSession& tx, const std::string& entry_id,
                                     const std::string& language, std::span<const kb::TextPiece> pieces,
                                     TimeMs now) const {
  ScanPart(*impl_->scanner, tx, LoadOrCreateSettings(tx), kEntryKind, entry_id, language, pieces, now);
}

ScanOutcome ContentScanning::ScanConnectedDocument(storage::TenantSession& tx, const std::string& document_id,
                                                   std::string_view text, TimeMs now, ScanBatch* batch,
                                                   bool created) const {
  TenantScanSettings settings;
  if (batch != nullptr && batch->settings_) {
    settings = {batch->settings_->first, batch->settings_->second};
  } else {
    settings = LoadOrCreateSettings(tx);
    if (batch != nullptr) batch->settings_.emplace(settings.auto_scan, settings.key);
  }
  const kb::TextPiece piece{"", text};
  return ScanPart(*impl_->scanner, tx, settings, kConnectedKind, document_id, "", std::span(&piece, 1), now, created);
}

void ContentScanning::ForgetConnectedDocument(storage::TenantSession& tx, const std::string& document_id,
                                              TimeMs now) const {
  for (const auto& r : tx.Run(kSourceFindings, {kConnectedKind, document_id}))
    if (r.IsNull(1)) tx.Run(kResolve, {r.Text(0), now});
  ClearScannerFacts(tx, SourceKind::kConnected, document_id);
}

Result<ScanSettings> ContentScanning::GetSettings(const identity::Principal& caller) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(impl_->db);
  storage::TenantSession tenant(session, caller.tenant_id);
  ScanSettings out;
  auto rows = tenant.Run(kSettings);
  if (rows.empty()) return out;
  const auto r = rows.front();
  out.auto_scan = r.Bool(0);
  out.updated_by = r.OptText(2);
  out.updated_at = r.OptInt(3);
  return out;
}

Result<ScanSettings> ContentScanning::SetSettings(const identity::Principal& caller, bool auto_scan) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  const TimeMs now = impl_->clock.Now();
  storage::Session session(impl_->db, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  const TenantScanSettings before = LoadOrCreateSettings(tenant);
  tenant.Run(kSetAutoScan, {auto_scan, caller.user_id, now});
  impl_->audit.Record(tenant, identity::AuditOf(caller, "scanning.settings_updated", {"tenant", caller.tenant_id},
                                                {{"autoScan", auto_scan}, {"autoScanBefore", before.auto_scan}}));
  session.Commit();
  return ScanSettings{auto_scan, caller.user_id, now};
}

Result<int64_t> ContentScanning::RescanEntries(const identity::Principal& caller) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  std::vector<std::pair<std::string, std::string>> entries;  // id, title
  {
    storage::Session session(impl_->db, storage::TxMode::kRead);
    storage::TenantSession tenant(session, caller.tenant_id);
    for (const auto& r : tenant.Run(kEntriesOfTenant)) entries.emplace_back(r.Text(0), r.Text(1));
  }
  int64_t scanned = 0;
  // One transaction per entry: a long rescan never holds the write lock for
  // long, and what was scanned stays scanned if it stops half-way.
  for (const auto& [id, title] : entries) {
    storage::Session session(impl_->db, storage::TxMode::kWrite);
    storage::TenantSession tx(session, caller.tenant_id);
    const TimeMs now = impl_->clock.Now();
    if (tx.Run(kEntryExists, {id}).empty()) continue;        // deleted meanwhile
    std::vector<std::pair<std::string, std::string>> texts;  // block id, text
    const TenantScanSettings settings = LoadOrCreateSettings(tx);
    auto scan = [&](const std::string& language, const std::string& part_title, const storage::Rows& rows) -> bool {
      texts.clear();
      texts.emplace_back("", part_title);
      for (const auto& r : rows) texts.emplace_back(r.Text(0), kb::NodeText(r.TextView(1)));
      std::vector<kb::TextPiece> pieces;
      pieces.reserve(texts.size());
      for (const auto& [block, text] : texts) pieces.push_back({block, text});
      return ScanPart(*impl_->scanner, tx, settings, kEntryKind, id, language, pieces, now).scanned;
    };
    auto original_rows = tx.Run(kOriginalBlocks, {id});
    if (!scan("", title, original_rows)) return scanned;  // auto-scan is off
    for (const auto& t : tx.Run(kTranslations, {id})) {
      auto rows = tx.Run(kTranslationBlocks, {id, t.Text(0)});
      scan(t.Text(0), t.Text(1), rows);
    }
    if (scanned == 0)
      impl_->audit.Record(tx, identity::AuditOf(caller, "scanning.rescan_started", {"tenant", caller.tenant_id},
                                                {{"entries", static_cast<int64_t>(entries.size())}}));
    session.Commit();
    ++scanned;
  }
  return scanned;
}

Result<std::vector<FindingRecord>> ContentScanning::ListFindings(const identity::Principal& caller,
                                                                 const FindingFilter& filter) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  std::vector<FieldError> errors;
  if (filter.kind && *filter.kind != "secret" && *filter.kind != "personal_data")
    errors.push_back({"kind", "must be secret or personal_data"});
  if (filter.status && *filter.status != "active" && *filter.status != "dismissed" && *filter.status != "resolved")
    errors.push_back({"status", "must be active, dismissed or resolved"});
  if (filter.detector) {
    const auto detectors = scanning::Detectors();
    if (std::none_of(detectors.begin(), detectors.end(), [&](const auto& d) { return d.id == *filter.detector; }))
      errors.push_back({"detector", "is not a detector (docs/scanning.md lists them)"});
  }
  if (filter.connector_key && !IsConnectorKey(*filter.connector_key))
    errors.push_back({"connectorKey", "is not a connector key"});
  if (filter.after && !IsUuid(*filter.after)) errors.push_back({"after", "must be a finding id"});
  if (filter.limit < 1 || filter.limit > kMaxFindingsListed)
    errors.push_back({"limit", "must be from 1 to " + std::to_string(kMaxFindingsListed)});
  std::optional<ParsedSourceId> source;
  if (filter.source_id) {
    source = ParseSourceId(*filter.source_id);
    if (source->form != SourceForm::kEntry && source->form != SourceForm::kConnected)
      errors.push_back({"sourceId", "must be entry:<id> or <connector_key>:<external_id>"});
  }
  if (!errors.empty()) return Error::Validation(std::move(errors));

  storage::Session session(impl_->db);
  storage::TenantSession tenant(session, caller.tenant_id);
  std::optional<std::string> source_kind, source_ref;
  if (source) {
    if (source->form == SourceForm::kEntry) {
      source_kind = kEntryKind;
      source_ref = source->entry_id;
    } else {
      auto rows = tenant.Run(kDocumentIdByKey, {source->connector_key, source->external_id});
      if (rows.empty()) return std::vector<FindingRecord>{};
      source_kind = kConnectedKind;
      source_ref = rows.front().Text(0);
    }
  }
  std::optional<std::string> after;
  if (filter.after) after = CanonicalUuid(*filter.after);
  std::vector<FindingRecord> out;
  for (const auto& r : tenant.Run(kListFindings, {source_kind, source_ref, filter.connector_key, filter.detector,
                                                  filter.kind, filter.status, after, int64_t{filter.limit}}))
    out.push_back(FindingFromRow(r));
  return out;
}

Result<FindingRecord> ContentScanning::GetFinding(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(impl_->db);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto rows = tenant.Run(kFindingById, {CanonicalUuid(id)});
  if (rows.empty()) return FindingNotFound();
  return FindingFromRow(rows.front());
}

namespace {

template <typename Change>
Result<FindingRecord> ChangeFinding(storage::Database& db, const Clock& clock, const identity::AuditRecorder& audit,
                                    const identity::Principal& caller, const std::string& id, const char* action,
                                    Change change) {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db, storage::TxMode::kWrite);
  storage::TenantSession tx(session, caller.tenant_id);
  const std::string finding_id = CanonicalUuid(id);
  auto rows = tx.Run(kFindingById, {finding_id});
  if (rows.empty()) return FindingNotFound();
  const FindingRecord before = FindingFromRow(rows.front());
  CR_TRY(change(tx, before));
  const TimeMs now = clock.Now();
  RefreshFacts(tx, before.source_kind == kEntryKind ? kEntryKind : kConnectedKind, before.source_ref, now);
  audit.Record(
      tx, identity::AuditOf(caller, action, {"finding", finding_id},
                            {{"sourceId", before.source_id}, {"detector", before.detector}, {"kind", before.kind}}));
  FindingRecord after = FindingFromRow(tx.Run(kFindingById, {finding_id}).front());
  session.Commit();
  return after;
}

}  // namespace

Result<FindingRecord> ContentScanning::DismissFinding(const identity::Principal& caller, const std::string& id,
                                                      const std::optional<std::string>& reason) const {
  if (reason && reason->size() > kMaxDismissReason)
    return Error::Validation({{"reason", "must be at most " + std::to_string(kMaxDismissReason) + " bytes"}});
  const TimeMs now = impl_->clock.Now();
  return ChangeFinding(impl_->db, impl_->clock, impl_->audit, caller, id, "finding.dismissed",
                       [&](storage::TenantSession& tx, const FindingRecord& f) -> Status {
                         if (f.status == "resolved")
                           return Error::Conflict("finding_resolved",
                                                  "The finding is no longer in the content; nothing to dismiss.");
                         tx.Run(kDismiss, {f.id, caller.user_id, now, reason});
                         return Ok();
                       });
}

Result<FindingRecord> ContentScanning::RestoreFinding(const identity::Principal& caller, const std::string& id) const {
  return ChangeFinding(impl_->db, impl_->clock, impl_->audit, caller, id, "finding.restored",
                       [&](storage::TenantSession& tx, const FindingRecord& f) -> Status {
                         tx.Run(kRestore, {f.id});
                         return Ok();
                       });
}

}  // namespace credence::trust
