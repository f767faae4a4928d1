#pragma once
// content-rules' hub rules (docs/plugins.md): GET/PUT
// /api/hubs/{hubKey}/rules with isEnabled and rulesJson. A hub's enabled
// rules tighten the tenant's global rules (content-rules' settings) at
// publish: MergeRules. Act only while content-rules is installed and
// enabled in the tenant (404 plugin_not_enabled). Audited.
#include <optional>
#include <string>

#include <boost/json/object.hpp>

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

struct HubRules {
  std::string hub_key;
  bool is_enabled = false;
  boost::json::object rules;  // {} until set
  std::optional<TimeMs> updated_at;
};

// The rules in force for a hub: the union of required headings and
// forbidden terms, the smaller of each non-zero maximum.
boost::json::object MergeRules(const boost::json::object& tenant_rules, const boost::json::object& hub_rules);

// The checks of `rules` on the entry's own title and text, pure (properties
// title and content, a ProseMirror document): maxTitleLength,
// maxTextLength, forbiddenTerms, requiredHeadings.
std::optional<kb::GuardDenial> ContentRulesGuard(const boost::json::object& rules, const kb::GuardContext& context);

// The rules that need stored facts (after ContentRulesGuard allowed):
// requiredTranslations (each must exist and be UpToDate) and
// noSecretFindings. Reads only.
// enforceStyleRules (the tenant's style rules of severity Error in the
// entry's original language, on its title and blocks).
std::optional<kb::GuardDenial> ContentRulesStoredChecks(storage::TenantSession& tx, const boost::json::object& rules,
                                                        const kb::GuardContext& context);

// The enabled rules of hub `hub_id` in `tx`'s tenant, or nullopt.
std::optional<boost::json::object> EnabledHubRules(storage::TenantSession& tx, const std::string& hub_id);

class ContentRulesService {
 public:
  ContentRulesService(storage::Database& db, const Clock& clock, const identity::AuditRecorder& audit,
                      const Registry& registry)
      : db_(db), clock_(clock), audit_(audit), registry_(registry) {}

  // Hub Viewer+.
  Result<HubRules> Get(const identity::Principal& caller, const std::string& hub_key) const;
  // Hub Admin+. `rules_json` must be a JSON object valid against
  // content-rules' settings schema (400 naming rulesJson or rulesJson.<member>).
  Result<HubRules> Put(const identity::Principal& caller, const std::string& hub_key, bool is_enabled,
                       const std::string& rules_json) const;

 private:
  storage::Database& db_;
  const Clock& clock_;
  const identity::AuditRecorder& audit_;
  const Registry& registry_;
};

}  // namespace credence::plugins
