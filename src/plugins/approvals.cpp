#include "plugins/approvals.h"

#include "core/ids.h"
#include "core/text.h"
#include "identity/authorization.h"
#include "kb/access.h"
#include "plugins/internal/modules.h"
#include "plugins/internal/queries.h"
#include "storage/session.h"

namespace credence::plugins {
namespace json = boost::json;
namespace {

Approval ApprovalsFromRow(const storage::Row& r) {
  return {r.Text(0), r.Text(1), r.Text(2), r.Text(3), r.Int(4), r.Text(5), r.Text(6), r.Int(7), r.Text(8)};
}

Error NotEnabled() {
  return Error{ErrorKind::kNotFound,
               "plugin_not_enabled",
               "The approval-workflow plugin is not installed and enabled in this tenant.",
               {},
               {}};
}

Status CheckComment(const std::string& comment, bool required) {
  if (required && Trim(comment).empty()) return Error::Validation({{"comment", "is required to reject"}});
  if (Utf8Length(comment) > kMaxApprovalComment)
    return Error::Validation({{"comment", "must be at most 2000 characters"}});
  return Ok();
}

}  // namespace

Status ApprovalService::RequireEnabled(storage::TenantSession& tx) const {
  for (const auto& i : ReadInstallations(tx, true))
    if (i.plugin_id == "approval-workflow") return Ok();
  return NotEnabled();
}

Result<std::vector<Approval>> ApprovalService::List(const identity::Principal& caller,
                                                    const std::string& entry_id) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tx(session, caller.tenant_id);
  CR_TRY(RequireEnabled(tx));
  CR_TRY(kb::RequireEntryAccess(tx, caller, entry_id, kb::AccessLevel::kViewer));
  std::vector<Approval> out;
  for (const auto& row : tx.Run(internal::kApprovalsOfEntry, {entry_id})) out.push_back(ApprovalsFromRow(row));
  return out;
}

Result<Approval> ApprovalService::Request(const identity::Principal& caller, const std::string& entry_id,
                                          const std::string& comment) const {
  CR_TRY(identity::RequireUser(caller));
  CR_TRY(CheckComment(comment, false));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tx(session, caller.tenant_id);
  CR_TRY(RequireEnabled(tx));
  CR_TRY(kb::RequireEntryAccess(tx, caller, entry_id, kb::AccessLevel::kEditor));
  auto latest = tx.Run(internal::kApprovalsOfEntry, {entry_id});
  if (!latest.empty() && latest.front().Text(2) == "Pending")
    return Error::Conflict("approval_pending", "A request for approval of this entry is already pending.");
  Approval a{NewId(), entry_id, "Pending", caller.user_id, clock_.Now(), comment, "", 0, ""};
  tx.Run(internal::kInsertApproval, {a.id, entry_id, a.requested_by, a.requested_at, comment});
  audit_.Record(tx,
                identity::AuditOf(caller, "plugin.approval_requested", {"entry", entry_id}, {{"approvalId", a.id}}));
  session.Commit();
  return a;
}

Result<Approval> ApprovalService::Decide(const identity::Principal& caller, const std::string& approval_id,
                                         bool approve, const std::string& comment) const {
  CR_TRY(identity::RequireUser(caller));
  CR_TRY(CheckComment(comment, !approve));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tx(session, caller.tenant_id);
  CR_TRY(RequireEnabled(tx));
  auto rows = tx.Run(internal::kApprovalById, {approval_id});
  if (rows.empty()) return Error::NotFound("Approval request not found.");
  Approval a = ApprovalsFromRow(rows.front());
  CR_TRY_ASSIGN(auto entry, kb::EntryWithAccess(tx, caller, a.entry_id, kb::AccessLevel::kEditor));
  if (caller.user_id == entry.first.owner_id || caller.user_id == a.requested_by)
    return Error{ErrorKind::kPermissionDenied,
                 "approver_is_author",
                 "An approval must come from an Editor or Admin other than the entry's author and the requester.",
                 {},
                 {}};
  if (a.status != "Pending") return Error::Conflict("approval_decided", "This request was already " + a.status + ".");
  a.status = approve ? "Approved" : "Rejected";
  a.decided_by = caller.user_id;
  a.decided_at = clock_.Now();
  a.decision_comment = comment;
  tx.Run(internal::kDecideApproval, {approval_id, a.status, a.decided_by, a.decided_at, comment});
  audit_.Record(tx, identity::AuditOf(caller, approve ? "plugin.approval_approved" : "plugin.approval_rejected",
                                      {"entry", a.entry_id}, {{"approvalId", a.id}}));
  session.Commit();
  return a;
}

std::optional<kb::GuardDenial> ApprovalGuard(storage::TenantSession& tx, const json::object& settings,
                                             const kb::GuardContext& context) {
  if (const auto* exempt = settings.if_contains("exemptHubs"); exempt && exempt->is_array())
    if (const auto* hub = context.properties.if_contains("hubKey"); hub && hub->is_string())
      for (const auto& h : exempt->as_array())
        if (h == *hub) return std::nullopt;
  int64_t content_updated_at = 0;
  if (const auto* v = context.properties.if_contains("contentUpdatedAt"); v && v->is_int64())
    content_updated_at = v->as_int64();
  auto rows = tx.Run(internal::kApprovalsOfEntry, {context.entity_id});
  std::string state = "none";
  if (!rows.empty()) {
    const Approval latest = ApprovalsFromRow(rows.front());
    if (latest.status == "Approved" && latest.decided_at >= content_updated_at) return std::nullopt;
    state = latest.status == "Approved" ? "Outdated" : latest.status;
  }
  return kb::GuardDenial{"",
                         "approval_required",
                         state == "Outdated" ? "The entry changed after its approval; request a new one."
                                             : "Publishing needs an approval from an Editor or Admin other than the "
                                               "author.",
                         {{"approvalStatus", state}}};
}

PluginModule internal::ApprovalWorkflowModule() {
  return {
      .manifest = ShippedManifest("approval-workflow"),
      .guard = GuardOf([](const GuardCall& call) { return ApprovalGuard(call.tx, call.settings, call.context); }),
      .on_event = [](storage::TenantSession& tx, const json::object&, const std::string&, const json::object& data) {
        // entry.deleted, its only event: the entry's approval requests go with it.
        std::string entry_id;
        if (const auto* v = data.if_contains("entryId"); v && v->is_string()) entry_id = v->as_string();
        tx.Run(internal::kDeleteApprovalsOfEntry, {entry_id});
      }};
}

}  // namespace credence::plugins
