#include "trust/sensitivity.h"

#include "storage/session.h"

namespace credence::trust {
namespace {

using storage::TenantQuery;

constexpr TenantQuery kFacts{
    "trust.sensitivity_facts",
    "SELECT classification, has_secrets, has_personal_data, set_by, set_by_user, updated_at, secret_count,"
    " personal_data_count, detectors FROM source_sensitivity"
    " WHERE tenant_id = $1 AND source_kind = $2 AND source_id = $3"};

constexpr TenantQuery kWriteHuman{
    "trust.sensitivity_write_human",
    "INSERT INTO source_sensitivity (tenant_id, source_kind, source_id, classification, has_secrets,"
    " has_personal_data, set_by, set_by_user, updated_at) VALUES ($1, $2, $3, $4, $5, $6, 'human', $7, $8)"
    " ON CONFLICT (tenant_id, source_kind, source_id) DO UPDATE SET classification = excluded.classification,"
    " has_secrets = excluded.has_secrets, has_personal_data = excluded.has_personal_data, set_by = 'human',"
    " set_by_user = excluded.set_by_user, updated_at = excluded.updated_at, secret_count = NULL,"
    " personal_data_count = NULL, detectors = NULL"};

// The WHERE of the upsert is what keeps a human's fact: the conflicting row
// is left alone when a human set it, also when a human writes concurrently.
constexpr TenantQuery kWriteScanner{
    "trust.sensitivity_write_scanner",
    "INSERT INTO source_sensitivity (tenant_id, source_kind, source_id, classification, has_secrets,"
    " has_personal_data, set_by, set_by_user, updated_at) VALUES ($1, $2, $3, $4, $5, $6, 'scanner', NULL, $7)"
    " ON CONFLICT (tenant_id, source_kind, source_id) DO UPDATE SET classification = excluded.classification,"
    " has_secrets = excluded.has_secrets, has_personal_data = excluded.has_personal_data, set_by = 'scanner',"
    " set_by_user = NULL, updated_at = excluded.updated_at WHERE source_sensitivity.set_by <> 'human'"};

// The classification stays what it was (Internal for a new row): findings
// say nothing about it.
constexpr TenantQuery kWriteScannerFindings{
    "trust.sensitivity_write_scanner_findings",
    "INSERT INTO source_sensitivity (tenant_id, source_kind, source_id, classification, has_secrets,"
    " has_personal_data, set_by, set_by_user, updated_at, secret_count, personal_data_count, detectors)"
    " VALUES ($1, $2, $3, 'Internal', $4, $5, 'scanner', NULL, $6, $7, $8, $9)"
    " ON CONFLICT (tenant_id, source_kind, source_id) DO UPDATE SET has_secrets = excluded.has_secrets,"
    " has_personal_data = excluded.has_personal_data, set_by = 'scanner', set_by_user = NULL,"
    " updated_at = excluded.updated_at, secret_count = excluded.secret_count,"
    " personal_data_count = excluded.personal_data_count, detectors = excluded.detectors"
    " WHERE source_sensitivity.set_by <> 'human' AND (source_sensitivity.has_secrets <> excluded.has_secrets"
    " OR source_sensitivity.has_personal_data <> excluded.has_personal_data"
    " OR COALESCE(source_sensitivity.secret_count, -1) <> excluded.secret_count"
    " OR COALESCE(source_sensitivity.personal_data_count, -1) <> excluded.personal_data_count"
    " OR COALESCE(source_sensitivity.detectors, '') <> excluded.detectors)"};
constexpr TenantQuery kClearScannerFacts{
    "trust.sensitivity_clear_scanner",
    "DELETE FROM source_sensitivity WHERE tenant_id = $1 AND source_kind = $2 AND source_id = $3"
    " AND set_by = 'scanner'"};

constexpr TenantQuery kDeleteFacts{
    "trust.sensitivity_delete",
    "DELETE FROM source_sensitivity WHERE tenant_id = $1 AND source_kind = $2 AND source_id = $3"};

constexpr TenantQuery kEntryExists{"trust.sensitivity_entry_exists",
                                   "SELECT 1 FROM entries WHERE tenant_id = $1 AND id = $2"};
constexpr TenantQuery kDocumentExists{"trust.sensitivity_document_exists",
                                      "SELECT 1 FROM connected_documents WHERE tenant_id = $1 AND id = $2"};

}  // namespace

std::string_view SourceKindName(SourceKind kind) { return kind == SourceKind::kEntry ? "entry" : "connected"; }

Status RecordScannerFacts(storage::TenantSession& tenant, SourceKind kind, const std::string& source_id,
                          const SensitivityFacts& facts, TimeMs now) {
  const auto& exists = kind == SourceKind::kEntry ? kEntryExists : kDocumentExists;
  if (tenant.Run(exists, {source_id}).empty()) return Error::NotFound("Source not found.");
  tenant.Run(kWriteScanner, {SourceKindName(kind), source_id, SensitivityName(facts.classification), facts.has_secrets,
                             facts.has_personal_data, now});
  return Ok();
}

void RecordScannerFindings(storage::TenantSession& tenant, SourceKind kind, const std::string& source_id,
                           const ScannerDetail& detail, TimeMs now) {
  std::string detectors;
  for (const auto& d : detail.detectors) {
    if (!detectors.empty()) detectors += ',';
    detectors += d;
  }
  tenant.Run(kWriteScannerFindings,
             {SourceKindName(kind), source_id, detail.secret_findings > 0, detail.personal_data_findings > 0, now,
              detail.secret_findings, detail.personal_data_findings, detectors});
}

void ClearScannerFacts(storage::TenantSession& tenant, SourceKind kind, const std::string& source_id) {
  tenant.Run(kClearScannerFacts, {SourceKindName(kind), source_id});
}

std::optional<StoredFacts> ReadFacts(storage::TenantSession& tenant, SourceKind kind, const std::string& source_id) {
  auto rows = tenant.Run(kFacts, {SourceKindName(kind), source_id});
  if (rows.empty()) return std::nullopt;
  const auto r = rows.front();
  StoredFacts out;
  // Written only through this file, so the name always parses; Internal is
  // what the evaluation would assume otherwise.
  out.facts.classification = ParseSensitivity(r.TextView(0)).value_or(Sensitivity::kInternal);
  out.facts.has_secrets = r.Bool(1);
  out.facts.has_personal_data = r.Bool(2);
  out.set_by = r.Text(3);
  out.set_by_user = r.OptText(4);
  out.updated_at = r.Int(5);
  if (out.set_by == kSetByScanner && !r.IsNull(6)) {
    ScannerDetail detail;
    detail.secret_findings = r.Int(6);
    detail.personal_data_findings = r.OptInt(7).value_or(0);
    const std::string names = r.OptText(8).value_or("");
    for (size_t start = 0; start < names.size();) {
      size_t comma = names.find(',', start);
      if (comma == std::string::npos) comma = names.size();
      detail.detectors.push_back(names.substr(start, comma - start));
      start = comma + 1;
    }
    out.scanner = std::move(detail);
  }
  return out;
}

void WriteHumanFacts(storage::TenantSession& tenant, SourceKind kind, const std::string& source_id,
                     const SensitivityFacts& facts, const std::string& user_id, TimeMs now) {
  tenant.Run(kWriteHuman, {SourceKindName(kind), source_id, SensitivityName(facts.classification), facts.has_secrets,
                           facts.has_personal_data, user_id, now});
}

bool DeleteFacts(storage::TenantSession& tenant, SourceKind kind, const std::string& source_id) {
  return tenant.Run(kDeleteFacts, {SourceKindName(kind), source_id}).affected() > 0;
}

}  // namespace credence::trust
