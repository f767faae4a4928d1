#pragma once
// Content scanning in the trust plane (docs/scanning.md, "Where scanning
// happens"): the text of a native entry on every save, and of a connected
// document on every connector sync, goes through the pure scanner
// (scanning/scanner.h) in flight; what is kept is the findings (detector,
// kind, sub-type, block, count, keyed fingerprint, first and last seen; never
// the matched text) and, from them, the source's machine sensitivity facts,
// which a human's fact always overrides (sensitivity.h).
//
// Per tenant: a setting turns auto-scanning on or off (default on), and a
// random fingerprint key, made on first use, keys the HMAC of every finding.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/audit.h"
#include "identity/principal.h"
#include "kb/content_observer.h"
#include "trust/sensitivity.h"

namespace credence::storage {
class Database;
class TenantSession;
}  // namespace credence::storage
namespace credence::scanning {
class Scanner;
}

namespace credence::trust {

// What one scan of one source (or of one part of it: a language of an
// entry) found and changed.
struct ScanOutcome {
  bool scanned = false;     // false: auto-scanning is off for the tenant
  int secret_findings = 0;  // distinct values found now, by kind
  int personal_data_findings = 0;
  int new_findings = 0;       // not seen in this source before (or seen and resolved)
  int resolved_findings = 0;  // gone from the content since the last scan
};

struct ScanSettings {
  bool auto_scan = true;
  std::optional<std::string> updated_by;
  std::optional<TimeMs> updated_at;
};

// The listing's filters (all optional, combined with AND).
struct FindingFilter {
  std::optional<std::string> source_id;      // entry:<id> or <connector_key>:<external_id>
  std::optional<std::string> connector_key;  // documents of one connector
  std::optional<std::string> detector;
  std::optional<std::string> kind;    // secret | personal_data
  std::optional<std::string> status;  // active | dismissed | resolved
  std::optional<std::string> after;   // cursor: the last id of the previous page
  int limit = 100;
};

struct FindingRecord {
  std::string id;
  std::string source_kind;  // entry | connected
  std::string source_ref;   // the entry's or the document's id
  std::string source_id;    // entry:<id> or <connector_key>:<external_id>
  std::string part;         // a translation's language; empty for an entry's original and for a document
  std::string detector, kind, sub_type;
  std::optional<std::string> block_id;
  int64_t count = 0;
  std::string fingerprint;
  TimeMs first_seen_at = 0, last_seen_at = 0;
  std::string status;  // active | dismissed | resolved
  std::optional<TimeMs> resolved_at;
  std::optional<std::string> dismissed_by;
  std::optional<TimeMs> dismissed_at;
  std::optional<std::string> dismiss_reason;
};

// What the scans of one write transaction share (a connector sync's batch
// scans up to hundreds of documents): the tenant's scanning settings, read
// at the first scan and kept for the rest. The caller makes one per
// transaction and drops it with the transaction.
class ScanBatch {
 private:
  friend class ContentScanning;
  std::optional<std::pair<bool, std::string>> settings_;  // auto-scan, fingerprint key
};

class ContentScanning final : public kb::ContentObserver {
 public:
  ContentScanning(storage::Database& db, const Clock& clock, const identity::AuditRecorder& audit,
                  std::shared_ptr<const scanning::Scanner> scanner);
  ~ContentScanning() override;

  // kb::ContentObserver: scans an entry's language on save.
  void EntryTextSaved(storage::TenantSession& tx, const std::string& entry_id, const std::string& language,
                      std::span<const kb::TextPiece> pieces, TimeMs now) const override;

  // A connector sync: scans a connected document's text in the caller's
  // write transaction (the text is not stored) and updates its findings and
  // facts. The document must exist (its id). `batch`, if given, carries the
  // settings from one scan of the transaction to the next; `created` says
  // the document was created in this transaction, so it has no findings yet
  // to compare with (none are read).
  ScanOutcome ScanConnectedDocument(storage::TenantSession& tx, const std::string& document_id, std::string_view text,
                                    TimeMs now, ScanBatch* batch = nullptr, bool created = false) const;
  // A document gone from its source: its findings are resolved and the
  // scanner's facts removed (a human's stay).
  void ForgetConnectedDocument(storage::TenantSession& tx, const std::string& document_id, TimeMs now) const;

  // /trust-admin/scanning: global admins; the change is audited.
  Result<ScanSettings> GetSettings(const identity::Principal& caller) const;
  Result<ScanSettings> SetSettings(const identity::Principal& caller, bool auto_scan) const;
  // Scans every native entry of the tenant again (all languages), e.g. after
  // turning auto-scanning on. Answers how many entries were scanned.
  Result<int64_t> RescanEntries(const identity::Principal& caller) const;

  // /trust-admin/findings.
  Result<std::vector<FindingRecord>> ListFindings(const identity::Principal& caller, const FindingFilter& filter) const;
  Result<FindingRecord> GetFinding(const identity::Principal& caller, const std::string& id) const;
  // A human says a finding is a false positive: it no longer counts towards
  // the source's facts until the content of its part changes. Audited.
  Result<FindingRecord> DismissFinding(const identity::Principal& caller, const std::string& id,
                                       const std::optional<std::string>& reason) const;
  Result<FindingRecord> RestoreFinding(const identity::Principal& caller, const std::string& id) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace credence::trust
