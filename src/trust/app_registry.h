#pragma once
// The AI application registry (docs/apps.md): apps with a channel, a risk
// and a default policy, and the app-bound keys they call the trust
// endpoints with. Tenant admins only (signed in); machine keys never.
//
// The key mechanics (format, storage, authentication, lifecycle) are
// identity::ApiKeyService's; the registry owns the app and runs every key
// operation in one transaction with the check of its app, so a key cannot
// be minted, enabled or regenerated for an app being archived.
//
// Thread-safe: no state besides the references it is built with.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/date_window.h"
#include "core/result.h"
#include "identity/api_key_service.h"
#include "identity/audit.h"
#include "identity/principal.h"
#include "trust/config.h"

namespace credence::storage {
class Database;
}

namespace credence::trust {

inline constexpr int64_t kDefaultAppKeyMaxDays = 365;
inline constexpr size_t kMaxAppNameLength = 200;
inline constexpr size_t kMaxAppChannelLength = 200;
inline constexpr size_t kMaxAppDescriptionLength = 2000;

inline constexpr char kAppActive[] = "active";
inline constexpr char kAppArchived[] = "archived";

// An app's own rate limit (docs/apps.md, "Rate limit"): its keys' requests
// together, on top of each key's own limit. Requests per second from
// kMinAppRps to kMaxAppRps, burst from 1 to kMaxAppBurst.
inline constexpr double kMinAppRps = 0.01;
inline constexpr double kMaxAppRps = 100'000;
inline constexpr int64_t kMaxAppBurst = 1'000'000;

struct AppRateLimit {
  double requests_per_second = 0;
  int64_t burst = 0;
};

// The declared risk scale, lowest first (docs/apps.md, "Risk").
const std::vector<std::string>& AppRisks();

struct App {
  std::string id;
  std::string name;
  std::string description;  // "" when none
  std::string channel;
  // How the tenant's context vocabulary classifies `channel` now, the way
  // evaluation does (Classify): customer-facing, or not in either list.
  bool customer_facing = true;
  std::string risk;
  PolicyOverride default_policy;
  std::optional<std::string> owner_id;
  std::optional<std::string> created_by;
  TimeMs created_at = 0;
  TimeMs updated_at = 0;
  std::optional<TimeMs> archived_at;
  std::optional<std::string> archived_by;
  std::optional<AppRateLimit> rate_limit;  // none: only the keys' own limits
  std::string_view status() const { return archived_at ? kAppArchived : kAppActive; }
};

struct NewApp {
  std::string name;     // trimmed, 1..200, unique among the tenant's active apps (409 app_name_taken)
  std::string channel;  // trimmed, 1..200
  std::string risk;     // one of AppRisks()
  PolicyOverride default_policy;
  std::optional<std::string> owner_id;  // an active member of the tenant; default: the caller
  std::string description;              // up to 2000 characters
  std::optional<AppRateLimit> rate_limit;
};

// A partial update: fields left unset keep their value. `default_policy`
// replaces the whole override ({} clears it).
struct AppPatch {
  std::optional<std::string> name;
  std::optional<std::string> channel;
  std::optional<std::string> risk;
  std::optional<PolicyOverride> default_policy;
  std::optional<std::string> owner_id;
  std::optional<std::string> description;
  // Unset: kept; set to nullopt: cleared.
  std::optional<std::optional<AppRateLimit>> rate_limit;
};

struct DecisionCounts {
  int64_t total = 0, allow = 0, warn = 0, block = 0;
};

struct SourceDecisionCounts {
  int64_t total = 0, allowed = 0, warned = 0, blocked = 0, escalated = 0;
};

struct KeyVolume {
  std::string key_id;
  std::string name;
  int64_t requests = 0;  // decisions the key made in the window
  std::optional<TimeMs> last_request_at;
};

struct AppStats {
  std::string app_id;
  DateWindow window;
  DecisionCounts decisions;               // ledger records, by overall decision
  SourceDecisionCounts source_decisions;  // the per-source counts of those records, summed
  std::vector<KeyVolume> keys;            // every key of the app, oldest first, also with 0 requests
};

class AppRegistry {
 public:
  // `max_key_days`: the longest lifetime of an app key (--app-key-max-days).
  // Registering, changing and archiving apps (and their keys' changes,
  // through `keys`) are recorded in `audit` (docs/audit.md).
  AppRegistry(storage::Database& db, const Clock& clock, const identity::AuditRecorder& audit,
              const identity::ApiKeyService& keys, int64_t max_key_days = kDefaultAppKeyMaxDays)
      : db_(db), clock_(clock), audit_(audit), keys_(keys), max_key_days_(max_key_days) {}

  // Every method needs a global admin of the tenant (403 otherwise; machine
  // credentials 403 machine_credentials_not_allowed). Another tenant's app
  // or key is 404, as an unknown one. Field errors are answered together
  // (400 validation_failed naming the fields).

  Result<App> Register(const identity::Principal& caller, const NewApp& request) const;
  // Active apps by name (byte order), then archived ones when asked for.
  Result<std::vector<App>> List(const identity::Principal& caller, bool include_archived) const;
  Result<App> Get(const identity::Principal& caller, const std::string& app_id) const;
  // 409 app_archived for an archived app.
  Result<App> Update(const identity::Principal& caller, const std::string& app_id, const AppPatch& patch) const;
  // Archives the app and revokes every key of it in the same transaction
  // (a "revoked" event each). History stays. 409 app_archived when it is
  // archived already.
  Result<App> Archive(const identity::Principal& caller, const std::string& app_id) const;

  // Keys (identity::ApiKeyService, app-key methods). Minting, enabling,
  // disabling and regenerating need an active app (409 app_archived);
  // listing works on archived apps too. 409 key_revoked for a revoked key.
  Result<identity::CreatedAppKey> MintKey(const identity::Principal& caller, const std::string& app_id,
                                          const identity::NewAppKey& request) const;
  Result<std::vector<identity::AppKey>> ListKeys(const identity::Principal& caller, const std::string& app_id) const;
  Result<identity::AppKey> SetKeyEnabled(const identity::Principal& caller, const std::string& app_id,
                                         const std::string& key_id, bool enabled) const;
  Result<identity::CreatedAppKey> RegenerateKey(const identity::Principal& caller, const std::string& app_id,
                                                const std::string& key_id) const;

  // Decision counts and per-key volume over a window of UTC days
  // (ParseDateWindow: validation errors name from and to). Archived apps
  // too.
  Result<AppStats> Stats(const identity::Principal& caller, const std::string& app_id,
                         const std::optional<std::string>& from, const std::optional<std::string>& to) const;

  // The app's own rate limit, for the rate limiter (http/rate_limiter.h):
  // no caller check, one indexed read. nullopt for an unknown app or one
  // without a limit.
  std::optional<AppRateLimit> RateLimitOf(const std::string& tenant_id, const std::string& app_id) const;

  int64_t max_key_days() const { return max_key_days_; }

 private:
  storage::Database& db_;
  const Clock& clock_;
  const identity::AuditRecorder& audit_;
  const identity::ApiKeyService& keys_;
  const int64_t max_key_days_;
};

}  // namespace credence::trust
