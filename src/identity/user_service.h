#pragma once
// The users of a tenant: listing, preferences, removal.
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/audit.h"
#include "identity/principal.h"
#include "identity/tenant_service.h"

namespace credence::storage {
class Database;
}

namespace credence::identity {

struct TenantUser {
  std::string id;
  std::string email;
  std::string display_name;
  TenantRole role = TenantRole::kGuest;
  std::optional<std::string> preferred_language;
  TimeMs joined_at = 0;
};

class UserService {
 public:
  // Removals are recorded in `audit`.
  UserService(storage::Database& db, const Clock& clock, const AuditRecorder& audit)
      : db_(db), clock_(clock), audit_(audit) {}

  // Active members of the caller's tenant, by display name.
  std::vector<TenantUser> List(const Principal& caller) const;

  // `code` must be a known language (400 otherwise).
  Status SetPreferredLanguage(const Principal& caller, const std::string& code) const;
  Status ClearPreferredLanguage(const Principal& caller) const;

  // Global admins only. The membership is deactivated, not deleted: the
  // user's entries and history stay, attributed to an inactive owner (which
  // the trust plane reports), until ownership is transferred. Removing
  // yourself or the last Owner is refused (400). The row records when and by
  // whom (removed_at, removed_by); a removed member does not rejoin by
  // signing in (domain join), only through a new invitation. The user's
  // sessions in this tenant end in the same transaction.
  Status RemoveFromTenant(const Principal& caller, const std::string& user_id) const;

  // Global admins only. 404 for a user who is not an active member; the
  // last Owner cannot stop being one (400 last_owner). Takes effect on the
  // member's next request (roles are read per request).
  Status ChangeRole(const Principal& caller, const std::string& user_id, TenantRole role) const;

 private:
  storage::Database& db_;
  const Clock& clock_;
  const AuditRecorder& audit_;
};

}  // namespace credence::identity
