#include "lifecycle/internal/resolve.h"

#include "lifecycle/internal/queries.h"
#include "lifecycle/internal/review_queries.h"
#include "lifecycle/internal/rows.h"
#include "storage/session.h"

namespace credence::lifecycle::internal {

std::optional<ExpiryTemplate> FindTemplate(storage::TenantSession& tenant, const std::string& id) {
  auto rows = tenant.Run(kFindTemplate, {id});
  if (rows.empty()) return std::nullopt;
  return TemplateFromRow(rows.front());
}

ResolvedTemplate ResolveTemplate(storage::TenantSession& tenant, const std::string& entry_id, const kb::Hub& hub) {
  ResolvedTemplate out;
  auto own = tenant.Run(kEntryTemplateId, {entry_id});
  if (!own.empty()) {
    if (auto id = own.front().OptText(0)) {
      if (auto t = FindTemplate(tenant, *id)) {
        out.source = kSourceEntry;
        out.tmpl = std::move(t);
        return out;
      }
    }
  }
  if (hub.default_expiry_template_id) {
    if (auto t = FindTemplate(tenant, *hub.default_expiry_template_id)) {
      out.source = kSourceHub;
      out.tmpl = std::move(t);
      return out;
    }
  }
  auto def = tenant.Run(kFindDefaultTemplate);
  if (!def.empty()) {
    out.source = kSourceTenant;
    out.tmpl = TemplateFromRow(def.front());
    return out;
  }
  out.source = kSourceNone;
  return out;
}

std::optional<EntryExpiryState> ReadExpiryState(storage::TenantSession& tenant, const std::string& entry_id) {
  auto rows = tenant.Run(kEntryExpiryState, {entry_id});
  if (rows.empty()) return std::nullopt;
  const auto r = rows.front();
  EntryExpiryState s;
  s.expiry_at = r.Int(0);
  s.paused_at = r.OptInt(1);
  s.paused_by = r.OptText(2);
  s.period_start = r.Int(3);
  return s;
}

ExpiryFacts FactsOf(const kb::Entry& entry, const EntryExpiryState& state) {
  ExpiryFacts facts;
  facts.published = entry.status != kb::EntryStatus::kDraft;
  facts.expiry_at = state.expiry_at;
  facts.paused_at = state.paused_at;
  return facts;
}

Result<EntryExpiry> LoadEntryExpiry(storage::TenantSession& tenant, const identity::Principal& caller,
                                    const std::string& entry_id, kb::AccessLevel needed) {
  CR_TRY_ASSIGN(auto loaded, kb::internal::LoadEntry(tenant, caller, entry_id, needed, /*with_content=*/false));
  ResolvedTemplate resolved = ResolveTemplate(tenant, loaded.entry.id, loaded.hub);
  auto state = ReadExpiryState(tenant, loaded.entry.id);
  if (!state) return Error::NotFound("Entry not found.");
  return EntryExpiry{std::move(loaded), std::move(resolved), std::move(*state)};
}

}  // namespace credence::lifecycle::internal
