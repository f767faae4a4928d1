#pragma once
// Expiry templates of a tenant: named expiry policies (expiry, warning and
// grace periods, review requirements) that hubs use as their default and
// entries as their custom policy. One template per tenant may be the default.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/principal.h"

namespace credence::storage {
class Database;
}

namespace credence::lifecycle {

inline constexpr size_t kMaxTemplateNameLength = 200;
inline constexpr int64_t kMaxExpiryDays = 3650;
inline constexpr int64_t kMaxWarningDays = 365;
inline constexpr int64_t kMaxGraceDays = 365;

// ReviewType: QuickReview, FullReview, Attestation.
const std::vector<std::string>& ReviewTypes();

// What Create and Update accept (Update replaces every field).
struct ExpiryTemplateInput {
  std::string name;
  std::optional<std::string> description;
  int64_t expiry_days = 0;
  int64_t warning_days = 0;
  int64_t grace_days = 0;
  bool review_required = false;
  std::optional<std::string> review_type;
  std::optional<std::string> checklist_id;
  bool auto_renew_on_attestation = false;
  bool is_active = true;
};

// A stored template: its settings plus identity and bookkeeping.
struct ExpiryTemplate : ExpiryTemplateInput {
  std::string id;
  bool is_default = false;
  TimeMs created_at = 0;
  TimeMs updated_at = 0;
};

struct TemplateUsage {
  std::string template_id;
  int64_t entry_count = 0;              // entries with the template as their custom one
  int64_t hub_count = 0;                // hubs with it as their default
  int64_t entries_via_hub_default = 0;  // entries without a custom template in those hubs
};

class ExpiryTemplateService {
 public:
  ExpiryTemplateService(storage::Database& db, const Clock& clock) : db_(db), clock_(clock) {}

  // Any signed-in user. By name, ignoring case; only active ones when asked.
  Result<std::vector<ExpiryTemplate>> List(const identity::Principal& caller, bool active_only) const;
  // Any signed-in user; 404 when not in the caller's tenant.
  Result<ExpiryTemplate> Get(const identity::Principal& caller, const std::string& id) const;
  // Any signed-in user; 404 when the tenant has no default template.
  Result<ExpiryTemplate> GetDefault(const identity::Principal& caller) const;

  // Global admins only. name: trimmed, 1..200, unique per tenant ignoring
  // ASCII case (409 template_name_taken); expiryDays 1..3650; warningDays
  // 0..365 and below expiryDays; graceDays 0..365; reviewType required when
  // reviewRequired; checklistId a checklist of the tenant (400 otherwise).
  Result<ExpiryTemplate> Create(const identity::Principal& caller, const ExpiryTemplateInput& input) const;
  Result<ExpiryTemplate> Update(const identity::Principal& caller, const std::string& id,
                                const ExpiryTemplateInput& input) const;
  // Global admins only. 409 template_in_use when an entry has it as custom
  // template or a hub as default template; deleting the default leaves none.
  Status Delete(const identity::Principal& caller, const std::string& id) const;
  // Global admins only. Makes `id` the tenant's only default (one transaction).
  Result<ExpiryTemplate> SetDefault(const identity::Principal& caller, const std::string& id) const;
  // Any signed-in user; 404 when not in the caller's tenant.
  Result<TemplateUsage> UsageStats(const identity::Principal& caller, const std::string& id) const;

 private:
  storage::Database& db_;
  const Clock& clock_;
};

}  // namespace credence::lifecycle
