#pragma once
// Tenant administration of the trust plane (/trust-admin/...): policies per
// level, the context vocabulary, human-set sensitivity facts, connected
// documents and entries' source links. Everything here is for global admins
// of the tenant on a signed-in session; what it writes is what
// source_resolver.cpp reads at evaluation time. docs/trust-admin.md.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/audit.h"
#include "identity/principal.h"
#include "trust/config.h"
#include "trust/model.h"
#include "trust/sensitivity.h"

namespace credence::storage {
class Database;
}

namespace credence::trust {

inline constexpr size_t kMaxExternalIdLength = 1000;
inline constexpr size_t kMaxUrlLength = 2048;
inline constexpr size_t kMaxDocumentTitleLength = 500;
inline constexpr size_t kMaxContentHashLength = 128;
inline constexpr size_t kMaxSourceLinks = 20;
inline constexpr size_t kMaxConnectedDocumentsListed = 500;

// http:// or https://, a host, and no white space or control characters
// (the URL is matched as written, so it must be one token).
bool IsSourceUrl(std::string_view url);

enum class PolicyLevel { kTenant, kHub, kEntry };
std::string_view PolicyLevelName(PolicyLevel level);  // "tenant" | "hub" | "entry"

// One level's override and what applies at that level.
struct PolicySetting {
  PolicyLevel level = PolicyLevel::kTenant;
  std::string hub_key, hub_id;  // kHub
  std::string source_id;        // kEntry: entry:<id> or <connector_key>:<external_id>
  PolicyOverride policy;        // as stored; empty when the level sets nothing
  // The built-in defaults, then every level from the tenant down to this
  // one (a native entry's hub in between).
  Policy effective;
  std::optional<std::string> updated_by;
  std::optional<TimeMs> updated_at;
};

// A policy request body: PolicyOverrideFromJson, except that null is the
// same as leaving a field out (decisions.md), and disclaimerText: null keeps
// the codec's meaning of clearing a lower level's text.
Result<PolicyOverride> PolicyOverrideFromRequest(std::string_view json_text);
// A context configuration body: ContextConfigFromJson, null as absent.
Result<ContextConfig> ContextConfigFromRequest(std::string_view json_text);

struct SensitivitySetting {
  std::string source_id;
  SensitivityFacts facts;             // the defaults when nothing is stored
  std::optional<std::string> set_by;  // kSetByHuman | kSetByScanner; none: defaults
  std::optional<std::string> set_by_user;
  std::optional<TimeMs> updated_at;
  std::optional<ScannerDetail> scanner;  // set by the scanner: from which findings
};

inline constexpr char kDocumentPublished[] = "Published";
inline constexpr char kDocumentDraft[] = "Draft";
// Set by connectors only: the document is gone from its source.
inline constexpr char kDocumentRemoved[] = "Removed";

struct ConnectedDocumentInput {
  std::string connector_key;
  std::string external_id;
  std::optional<std::string> url;
  std::string title;
  std::optional<std::string> content_hash;
  TimeMs content_updated_at = 0;
  std::optional<TimeMs> last_synced_at;  // default: now
  std::optional<std::string> owner_id;
  std::optional<TimeMs> last_reviewed_at;
  std::optional<std::string> last_review_type;  // QuickReview | FullReview | Attestation
  std::string status = kDocumentPublished;
};

struct ConnectedDocument {
  std::string id;
  std::string connector_key;
  std::string external_id;
  std::optional<std::string> url;
  std::string title;
  std::optional<std::string> content_hash;
  TimeMs content_updated_at = 0;
  TimeMs last_synced_at = 0;
  std::optional<std::string> owner_id;
  std::optional<TimeMs> last_reviewed_at;
  std::optional<std::string> last_review_type;
  std::string status;
  int64_t version = 1;
  TimeMs created_at = 0;
  TimeMs updated_at = 0;
  std::string source_id() const { return connector_key + ":" + external_id; }
};

struct RegisteredDocument {
  ConnectedDocument document;
  bool created = false;
};

struct SourceLinks {
  std::string entry_id;
  std::vector<std::string> urls;  // sorted, without duplicates
};

class TrustAdminService {
 public:
  // Every change (policies, the context vocabulary, sensitivity facts,
  // connected documents, source links) is recorded in `audit`.
  TrustAdminService(storage::Database& db, const Clock& clock, const identity::AuditRecorder& audit)
      : db_(db), clock_(clock), audit_(audit) {}

  // Policies. Every method needs a global admin (403 otherwise). Setting an
  // override replaces the level's override; an empty one removes it, as
  // Delete does, so that a level never claims policySource without setting
  // anything. Hubs are named by key (404 when not a hub of the tenant);
  // sources by entry:<id> or <connector_key>:<external_id> (400 for other
  // forms, 404 when not an entry or registered document of the tenant).
  Result<PolicySetting> GetTenantPolicy(const identity::Principal& caller) const;
  Result<PolicySetting> SetTenantPolicy(const identity::Principal& caller, const PolicyOverride& policy) const;
  Result<PolicySetting> GetHubPolicy(const identity::Principal& caller, const std::string& hub_key) const;
  Result<PolicySetting> SetHubPolicy(const identity::Principal& caller, const std::string& hub_key,
                                     const PolicyOverride& policy) const;
  Status DeleteHubPolicy(const identity::Principal& caller, const std::string& hub_key) const;
  Result<PolicySetting> GetSourcePolicy(const identity::Principal& caller, const std::string& source_id) const;
  Result<PolicySetting> SetSourcePolicy(const identity::Principal& caller, const std::string& source_id,
                                        const PolicyOverride& policy) const;
  Status DeleteSourcePolicy(const identity::Principal& caller, const std::string& source_id) const;

  // The context vocabulary; the built-in defaults until one is stored. Set
  // replaces the whole configuration.
  Result<ContextConfig> GetContext(const identity::Principal& caller) const;
  Result<ContextConfig> SetContext(const identity::Principal& caller, const ContextConfig& config) const;

  // Sensitivity facts set by a human (the caller). Sources as for policies.
  Result<SensitivitySetting> GetSensitivity(const identity::Principal& caller, const std::string& source_id) const;
  Result<SensitivitySetting> SetSensitivity(const identity::Principal& caller, const std::string& source_id,
                                            const SensitivityFacts& facts) const;
  // Removes the fact, whoever set it; the defaults apply again.
  Status DeleteSensitivity(const identity::Principal& caller, const std::string& source_id) const;

  // Connected documents (connected_documents.cpp). Register upserts by
  // connector key and external id, replacing every field (left-out optional
  // ones take their defaults); the version goes up when the content hash or
  // contentUpdatedAt changes. ownerId must be a member of the tenant and url
  // not another document's (409 url_taken).
  Result<RegisteredDocument> RegisterDocument(const identity::Principal& caller,
                                              const ConnectedDocumentInput& input) const;
  // By connector key, then external id; at most kMaxConnectedDocumentsListed.
  Result<std::vector<ConnectedDocument>> ListDocuments(const identity::Principal& caller,
                                                       const std::optional<std::string>& connector_key) const;
  Result<ConnectedDocument> GetDocument(const identity::Principal& caller, const std::string& id) const;
  // Also removes the document's policy override and sensitivity fact.
  Status DeleteDocument(const identity::Principal& caller, const std::string& id) const;

  // The URLs that name a native entry at evaluation (after connected
  // documents' URLs). Set replaces the set; 404 when the entry is not the
  // tenant's.
  Result<SourceLinks> GetSourceLinks(const identity::Principal& caller, const std::string& entry_id) const;
  Result<SourceLinks> SetSourceLinks(const identity::Principal& caller, const std::string& entry_id,
                                     const std::vector<std::string>& urls) const;

 private:
  storage::Database& db_;
  const Clock& clock_;
  const identity::AuditRecorder& audit_;
};

}  // namespace credence::trust
