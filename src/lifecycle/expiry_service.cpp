#include "lifecycle/expiry_service.h"

#include "core/ids.h"
#include "core/text.h"
#include "identity/authorization.h"
#include "kb/internal/entry_access.h"
#include "lifecycle/internal/queries.h"
#include "lifecycle/internal/resolve.h"
#include "storage/session.h"

namespace credence::lifecycle {
namespace {

using kb::AccessLevel;

// An entry the caller may view, with the template that applies to it, read
// in one snapshot.
struct EntryWithTemplate {
  kb::internal::LoadedEntry loaded;
  ResolvedTemplate resolved;
};

Result<EntryWithTemplate> ReadEntryWithTemplate(storage::Database& db, const identity::Principal& caller,
                                                const std::string& entry_id) {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  CR_TRY_ASSIGN(auto loaded,
                kb::internal::LoadEntry(tenant, caller, entry_id, AccessLevel::kViewer, /*with_content=*/false));
  ResolvedTemplate resolved = internal::ResolveTemplate(tenant, loaded.entry.id, loaded.hub);
  return EntryWithTemplate{std::move(loaded), std::move(resolved)};
}

}  // namespace

ExpiryWindows WindowsOf(const ResolvedTemplate& resolved) {
  ExpiryWindows w;
  if (resolved.tmpl) {
    w.warning_days = static_cast<int>(resolved.tmpl->warning_days);
    w.grace_days = static_cast<int>(resolved.tmpl->grace_days);
  }
  return w;
}

Result<lifecycle::ExpiryStatus> ExpiryService::ExpiryStatus(const identity::Principal& caller,
                                                            const std::string& entry_id) const {
  CR_TRY(identity::RequireUser(caller));
  // The entry, its template and its pause read in one snapshot, as for
  // renewals (review_service.cpp).
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  CR_TRY_ASSIGN(const internal::EntryExpiry e,
                internal::LoadEntryExpiry(tenant, caller, entry_id, AccessLevel::kViewer));
  return ComputeExpiryStatus(internal::FactsOf(e.loaded.entry, e.state), WindowsOf(e.resolved), clock_.Now());
}

Result<ResolvedTemplate> ExpiryService::EffectiveTemplate(const identity::Principal& caller,
                                                          const std::string& entry_id) const {
  CR_TRY_ASSIGN(auto read, ReadEntryWithTemplate(db_, caller, entry_id));
  return std::move(read.resolved);
}

Result<EntryExpiryConfig> ExpiryService::ExpiryConfig(const identity::Principal& caller,
                                                      const std::string& entry_id) const {
  CR_TRY_ASSIGN(auto read, ReadEntryWithTemplate(db_, caller, entry_id));
  EntryExpiryConfig config;
  config.resolved = std::move(read.resolved);
  const ExpiryWindows w = WindowsOf(config.resolved);
  config.warning_days = w.warning_days;
  config.grace_days = w.grace_days;
  config.expiry_days = config.resolved.tmpl ? config.resolved.tmpl->expiry_days : read.loaded.hub.default_expiry_days;
  return config;
}

Result<ResolvedTemplate> ExpiryService::ChangeTemplate(const identity::Principal& caller, const std::string& entry_id,
                                                       const std::string& template_id,
                                                       const std::optional<std::string>& reason) const {
  CR_TRY(identity::RequireUser(caller));
  if (!IsUuid(template_id)) return Error::Validation({{"templateId", "must be a UUID"}});
  if (reason && Utf8Length(*reason) > kMaxTemplateChangeReasonLength)
    return Error::Validation(
        {{"reason", "must be at most " + std::to_string(kMaxTemplateChangeReasonLength) + " characters"}});
  const std::string to = CanonicalUuid(template_id);

  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  CR_TRY_ASSIGN(auto loaded,
                kb::internal::LoadEntry(tenant, caller, entry_id, AccessLevel::kEditor, /*with_content=*/false));
  auto tmpl = internal::FindTemplate(tenant, to);
  if (!tmpl) return Error::Validation({{"templateId", "is not an expiry template of this tenant"}});
  std::optional<std::string> from;
  if (auto rows = tenant.Run(internal::kEntryTemplateId, {loaded.entry.id}); !rows.empty())
    from = rows.front().OptText(0);
  tenant.Run(internal::kSetEntryTemplate, {loaded.entry.id, to});
  tenant.Run(internal::kScheduleRecheck, {loaded.entry.id, clock_.Now()});
  tenant.Run(internal::kInsertTemplateChange,
             {NewId(), loaded.entry.id, from, to, reason, caller.user_id, clock_.Now()});
  session.Commit();
  ResolvedTemplate out;
  out.source = kSourceEntry;
  out.tmpl = std::move(tmpl);
  return out;
}

}  // namespace credence::lifecycle
