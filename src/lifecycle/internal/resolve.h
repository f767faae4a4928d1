#pragma once
// What ExpiryService and ReviewService both need to know about an entry's
// expiry, read one way so that expiry-status, renewal-eligibility and the
// renewals themselves cannot disagree: the template that applies, and the
// facts the state table (status.h) reads.
#include <optional>
#include <string>

#include "core/result.h"
#include "identity/principal.h"
#include "kb/internal/entry_access.h"
#include "kb/model.h"
#include "lifecycle/expiry_service.h"
#include "lifecycle/status.h"

namespace credence::storage {
class TenantSession;
}

namespace credence::lifecycle::internal {

std::optional<ExpiryTemplate> FindTemplate(storage::TenantSession& tenant, const std::string& id);

// Entry custom template, else the hub's default (when it exists in the
// tenant), else the tenant's default, else none. Inactive templates apply.
ResolvedTemplate ResolveTemplate(storage::TenantSession& tenant, const std::string& entry_id, const kb::Hub& hub);

// The entry's expiry bookkeeping beyond kb::Entry (migration 302).
struct EntryExpiryState {
  TimeMs expiry_at = 0;
  std::optional<TimeMs> paused_at;
  std::optional<std::string> paused_by;
  // Start of the current expiry period: the last renewal, else creation.
  TimeMs period_start = 0;
};

// nullopt when the entry does not exist (callers load it first).
std::optional<EntryExpiryState> ReadExpiryState(storage::TenantSession& tenant, const std::string& entry_id);

// The state table's input for `entry` as it stands in `state`.
ExpiryFacts FactsOf(const kb::Entry& entry, const EntryExpiryState& state);

// An entry the caller may access at `needed` (without content), the
// template that applies and its expiry state, read in the caller's
// transaction: what expiry-status, eligibility, reviews and renewals decide
// on.
struct EntryExpiry {
  kb::internal::LoadedEntry loaded;
  ResolvedTemplate resolved;
  EntryExpiryState state;
};
Result<EntryExpiry> LoadEntryExpiry(storage::TenantSession& tenant, const identity::Principal& caller,
                                    const std::string& entry_id, kb::AccessLevel needed);

}  // namespace credence::lifecycle::internal
