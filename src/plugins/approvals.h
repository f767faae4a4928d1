#pragma once
// approval-workflow (docs/plugins.md): publishing an entry needs an
// approval from an Editor or Admin of the entry other than its owner (the
// author) and the person who asked. Requests, approvals and rejections go
// through the plugin's routes; its Entry.Publish guard (ApprovalGuard)
// allows when the entry's latest request is Approved after the entry's
// content last changed. Acts only while the plugin is installed and enabled
// in the tenant (else 404 plugin_not_enabled). Audited.
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/audit.h"
#include "identity/principal.h"
#include "kb/action_guard.h"
#include "plugins/plugin_service.h"

namespace credence::storage {
class Database;
class TenantSession;
}  // namespace credence::storage

namespace credence::plugins {

inline constexpr size_t kMaxApprovalComment = 2000;

struct Approval {
  std::string id;
  std::string entry_id;
  std::string status;  // Pending | Approved | Rejected
  std::string requested_by;
  TimeMs requested_at = 0;
  std::string request_comment;
  std::string decided_by;  // "" while Pending
  TimeMs decided_at = 0;   // 0 while Pending
  std::string decision_comment;
};

class ApprovalService {
 public:
  ApprovalService(storage::Database& db, const Clock& clock, const identity::AuditRecorder& audit)
      : db_(db), clock_(clock), audit_(audit) {}

  // Entry Viewer+. Newest first.
  Result<std::vector<Approval>> List(const identity::Principal& caller, const std::string& entry_id) const;
  // Entry Editor+. 409 approval_pending while a request is pending. 201.
  Result<Approval> Request(const identity::Principal& caller, const std::string& entry_id,
                           const std::string& comment) const;
  // Entry Editor+ other than the entry's owner and the requester (403
  // approver_is_author). 409 approval_decided when no longer pending. A
  // rejection needs a comment (400).
  Result<Approval> Decide(const identity::Principal& caller, const std::string& approval_id, bool approve,
                          const std::string& comment) const;

 private:
  Status RequireEnabled(storage::TenantSession& tx) const;
  storage::Database& db_;
  const Clock& clock_;
  const identity::AuditRecorder& audit_;
};

// The Entry.Publish guard: reads the entry's latest request through `tx`
// (reads only). Properties used: contentUpdatedAt (ms), hubKey; settings:
// exemptHubs.
std::optional<kb::GuardDenial> ApprovalGuard(storage::TenantSession& tx, const boost::json::object& settings,
                                             const kb::GuardContext& context);

}  // namespace credence::plugins
