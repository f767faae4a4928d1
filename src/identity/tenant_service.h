#pragma once
// Tenants (workspaces), their provisioning, and development sign-in.
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/audit.h"
#include "identity/principal.h"

namespace credence::storage {
class Database;
class TenantSession;
}  // namespace credence::storage

namespace credence::identity {

struct Tenant {
  std::string id;
  std::string name;
  std::string slug;
  std::optional<std::string> domain;
  bool allow_all_users = false;
  std::vector<std::string> enabled_languages;
  std::vector<std::string> enabled_plugins;
  std::string default_language;
  TimeMs created_at = 0;
};

struct NewTenant {
  std::string name;
  std::string slug;
  std::optional<std::string> domain;
  bool allow_all_users = false;
  std::vector<std::string> enabled_languages;  // empty: English only
  std::vector<std::string> enabled_plugins;
};

struct TenantSummary {
  std::string id;
  std::string name;
  std::string slug;
};

// Whether a caller may create a tenant now (POST /api/tenant/create), so a
// client can offer it only when it would succeed (docs/sign-in.md).
struct TenantCreationAllowance {
  bool allowed = false;
  int64_t per_day = 0;    // the limit; 0 forbids (unlimited in development mode: -1)
  int64_t remaining = 0;  // creations left in the current 24 hours (-1 when unlimited)
};

struct UserProfile {
  std::string id;
  std::string email;
  std::string display_name;
  std::string tenant_id;
  TenantRole role = TenantRole::kGuest;
  std::optional<std::string> preferred_language;
};

struct DevSignIn {
  std::string token;
  UserProfile user;
};

// A development persona (decisions.md 4).
struct Persona {
  std::string key;  // admin, editor, viewer, guest
  std::string display_name;
  TenantRole role;
};
const std::vector<Persona>& DevPersonas();

struct KnownLanguage {
  std::string code;  // BCP 47
  std::string display_name;
  std::string native_name;
};
const std::vector<KnownLanguage>& KnownLanguages();
bool IsKnownLanguage(std::string_view code);
// The known language of `code`, or nullptr.
const KnownLanguage* FindKnownLanguage(std::string_view code);

// The tenant's enabled languages (in order) and its default, as stored on
// the tenant row: set at creation, changed afterwards by platform's
// LanguageService (docs/configuration.md), the one truth about which
// languages a tenant offers.
struct TenantLanguages {
  std::vector<std::string> enabled;
  std::string default_language;
};
// Reads them in `tenant`'s session. `for_update` (write transactions only)
// locks the row on PostgreSQL, so a read-modify-write cannot lose a
// concurrent change (SQLite's write transaction holds the lock anyway).
TenantLanguages ReadTenantLanguages(storage::TenantSession& tenant, bool for_update = false);
void WriteTenantLanguages(storage::TenantSession& tenant, const TenantLanguages& languages);

class TenantService {
 public:
  // `creations_per_day`: how many tenants one user may create in 24 hours
  // outside development mode (docs/sign-in.md). Tenants created are
  // recorded in `audit` (in the new tenant's chain).
  TenantService(storage::Database& db, const Clock& clock, const AuditRecorder& audit, bool dev_mode,
                int64_t creations_per_day = 3)
      : db_(db), clock_(clock), audit_(audit), dev_mode_(dev_mode), creations_per_day_(creations_per_day) {}

  // Provisions a tenant for a caller through the API. `creator`, when
  // given, becomes its Owner; in development mode anyone may create one and
  // the four personas are created too. Outside development mode the caller
  // must be a signed-in person (401 without credentials, 403 for a machine
  // credential), limited to `creations_per_day` a day (429 with retryAfter).
  // 409 slug_taken when the slug exists; 400 for unknown languages.
  // Recorded as tenant.created: by the creator, else by the system actor
  // `system_label` (anonymous provisioning, seeding) with `request_meta`.
  Result<Tenant> Create(const NewTenant& request, const Principal* creator, const RequestMeta& request_meta = {},
                        const std::string& system_label = "anonymous") const;

  // What Create would allow `caller` now: always in development mode, never
  // for a machine credential, else within the daily limit.
  TenantCreationAllowance CreationAllowance(const Principal& caller) const;

  // An operator's provisioning on the command line (`credence admin
  // create-tenant`): the tenant, and its first Owner as a user with that
  // email (created when missing; linked at their first sign-in by verified
  // email). No limit, no personas.
  Result<Tenant> CreateWithOwner(const NewTenant& request, const std::string& owner_email,
                                 const std::string& owner_name) const;

  // The tenant with `slug`, creating it (with personas) when missing.
  // Idempotent; used by development seeding.
  Tenant EnsureDevTenant(const std::string& name, const std::string& slug) const;

  std::vector<TenantSummary> ListAll() const;
  Result<Tenant> Get(const std::string& tenant_id) const;

  // decisions.md 4. 404 for an unknown tenant or persona.
  Result<DevSignIn> DevLogin(const std::string& persona, const std::string& tenant_id) const;

  static UserProfile ProfileOf(const Principal& principal);

 private:
  storage::Database& db_;
  const Clock& clock_;
  const AuditRecorder& audit_;
  const bool dev_mode_;
  const int64_t creations_per_day_;

  // Who the tenant.created entry names.
  struct Audited {
    const Principal* creator = nullptr;
    RequestMeta request_meta;
    std::string system_label;
  };
  Result<Tenant> Insert(const NewTenant& request, const std::string* owner_user_id, bool with_personas,
                        const std::string* rate_limited_user, const Audited& audited) const;
};

}  // namespace credence::identity
