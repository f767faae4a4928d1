#pragma once
// Sensitivity facts of a source (source_sensitivity): its classification and
// whether it carries secrets or personal data, with who set them. A human's
// fact is authoritative: the content scanner records its findings only where
// no human has spoken (docs/trust-admin.md, "Sensitivity facts").
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "trust/model.h"

namespace credence::storage {
class TenantSession;
}

namespace credence::trust {

// What a fact is about, as stored in source_kind: a native entry (source id:
// the entry's id) or a connected document (the document's id).
enum class SourceKind { kEntry, kConnected };
std::string_view SourceKindName(SourceKind kind);  // "entry" | "connected"

struct SensitivityFacts {
  Sensitivity classification = Sensitivity::kInternal;
  bool has_secrets = false;
  bool has_personal_data = false;
};

inline constexpr char kSetByHuman[] = "human";
inline constexpr char kSetByScanner[] = "scanner";

// What the scanner's facts were derived from: its active findings.
struct ScannerDetail {
  int64_t secret_findings = 0;  // occurrences, summed over distinct values
  int64_t personal_data_findings = 0;
  std::vector<std::string> detectors;  // sorted
};

struct StoredFacts {
  SensitivityFacts facts;
  std::string set_by;  // kSetByHuman | kSetByScanner
  std::optional<std::string> set_by_user;
  TimeMs updated_at = 0;
  std::optional<ScannerDetail> scanner;  // set_by scanner, from the findings
};

// The content scanner's entry point: records `facts` as set by the scanner,
// unless a human set the source's facts (then nothing changes). Runs in the
// caller's transaction. 404 when the source is not an entry or connected
// document of the tenant.
Status RecordScannerFacts(storage::TenantSession& tenant, SourceKind kind, const std::string& source_id,
                          const SensitivityFacts& facts, TimeMs now);

// The content scanner's facts from its findings: recorded (with the detail)
// unless a human set the source's facts. Runs in the caller's transaction;
// the source must exist.
void RecordScannerFindings(storage::TenantSession& tenant, SourceKind kind, const std::string& source_id,
                           const ScannerDetail& detail, TimeMs now);
// The scanner found nothing (any more): its fact goes, a human's stays.
void ClearScannerFacts(storage::TenantSession& tenant, SourceKind kind, const std::string& source_id);

// The stored fact, or nullopt (the evaluation then assumes the defaults:
// Internal, no secrets, no personal data).
std::optional<StoredFacts> ReadFacts(storage::TenantSession& tenant, SourceKind kind, const std::string& source_id);
// A human's fact; replaces whatever was stored, the scanner's included.
void WriteHumanFacts(storage::TenantSession& tenant, SourceKind kind, const std::string& source_id,
                     const SensitivityFacts& facts, const std::string& user_id, TimeMs now);
// Returns whether a fact was stored.
bool DeleteFacts(storage::TenantSession& tenant, SourceKind kind, const std::string& source_id);

}  // namespace credence::trust
