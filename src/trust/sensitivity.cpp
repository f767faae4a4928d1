#include "trust/sensitivity.h"

#include "storage/session.h"

namespace credence::trust {
namespace {

using storage::TenantQuery;

constexpr TenantQuery kFacts{
    "trust.sensitivity_facts",
    "SELECT classification, has_secrets, has_personal_data, set_by, set_by_user, updated_at FROM source_sensitivity"
    " WHERE tenant_id = $1 AND source_kind = $2 AND source_id = $3"};

constexpr TenantQuery kWriteHuman{
    "trust.sensitivity_write_human",
    "INSERT INTO source_sensitivity (tenant_id, source_kind, source_id, classification, has_secrets,"
    " has_personal_data, set_by, set_by_user, updated_at) VALUES ($1, $2, $3, $4, $5, $6, 'human', $7, $8)"
    " ON CONFLICT (tenant_id, source_kind, source_id) DO UPDATE SET classification = excluded.classification,"
    " has_secrets = excluded.has_secrets, has_personal_data = excluded.has_personal_data, set_by = 'human',"
    " set_by_user = excluded.set_by_user, updated_at = excluded.updated_at"};

// The WHERE of the upsert is what keeps a human's fact: the conflicting row
// is left alone when a human set it, also when a human writes concurrently.
constexpr TenantQuery kWriteScanner{
    "trust.sensitivity_write_scanner",
    "INSERT INTO source_sensitivity (tenant_id, source_kind, source_id, classification, has_secrets,"
    " has_personal_data, set_by, set_by_user, updated_at) VALUES ($1, $2, $3, $4, $5, $6, 'scanner', NULL, $7)"
    " ON CONFLICT (tenant_id, source_kind, source_id) DO UPDATE SET classification = excluded.classification,"
    " has_secrets = excluded.has_secrets, has_personal_data = excluded.has_personal_data, set_by = 'scanner',"
    " set_by_user = NULL, updated_at = excluded.updated_at WHERE source_sensitivity.set_by <> 'human'"};

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
