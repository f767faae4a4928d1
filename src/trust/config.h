#pragma once
// Stored trust configuration and its JSON: policy overrides per level and
// the tenant's context vocabulary (docs/trust-admin.md).
#include <map>
#include <optional>
#include <set>
#include <string>

#include "core/result.h"
#include "trust/model.h"

namespace credence::trust {

// A policy level sets only some fields; unset ones come from the level
// below (entry over hub over tenant default over the built-in defaults).
struct PolicyOverride {
  std::optional<bool> ai_retrievable;
  std::optional<bool> customer_facing_allowed;
  std::optional<bool> internal_only;
  std::optional<bool> external_model_allowed;
  std::optional<Sensitivity> max_sensitivity_for_ai;
  std::optional<int64_t> warn_before_expiry_days;
  std::optional<int64_t> max_review_age_days;
  std::optional<bool> customer_facing_requires_review;
  std::optional<bool> citation_required;
  std::optional<std::string> disclaimer_text;  // "" clears a lower level's text
  std::optional<bool> warn_on_personal_data;
  bool empty() const;
};

void Apply(const PolicyOverride& o, Policy& p);

// JSON object with the spec's field names (aiRetrievable, ...,
// maxSensitivityForAi, warnBeforeExpiryDays, maxReviewAgeDays,
// customerFacingRequiresReview, citationRequired, disclaimerText). Unknown
// fields and wrong types are validation errors naming the field.
Result<PolicyOverride> PolicyOverrideFromJson(std::string_view json_text);
std::string PolicyOverrideToJson(const PolicyOverride& o);
std::string PolicyToJson(const Policy& p);

// The tenant's context vocabulary.
struct ContextConfig {
  std::set<std::string> customer_facing_channels{"public_support_chat", "customer_email", "public_website"};
  std::set<std::string> internal_channels{"internal", "ci", "employee_chat"};
  std::map<std::string, ReviewStrength> action_requires_review{{"ship_release", ReviewStrength::kFull}};
};

Result<ContextConfig> ContextConfigFromJson(std::string_view json_text);
std::string ContextConfigToJson(const ContextConfig& c);

// An AI application as its decisions see it (docs/apps.md).
struct AppProfile {
  std::string id, name, channel, risk;
  std::optional<std::string> owner_id;
  PolicyOverride policy;
};

// A tenant's apps by id, archived ones included (a token issued before an
// app was archived still decides under its policy until it expires).
using AppProfiles = std::map<std::string, AppProfile>;

// Tightens a source's `policy` by the calling app's default policy: each
// field the app sets can only make the effective policy stricter (docs/
// apps.md, "How an app's policy applies"). True when it changed anything.
bool Tighten(const PolicyOverride& app, Policy& policy);

// {"id", "name", "ownerId", "channel", "risk"}: the app as a ledger record
// keeps it.
std::string AppJson(const AppProfile& app);

// Works out what the configuration says about a request's channel and
// action. Unknown channels are customer-facing (the conservative reading).
void Classify(const ContextConfig& config, Context& context);
// The same for a request made with an app's key: a request without a
// channel takes the app's; one naming another channel is customer-facing
// when either channel is, and keeps the app's channel for the
// app_channel_mismatch rule.
void ClassifyForApp(const ContextConfig& config, const AppProfile& app, Context& context);
// Whether Classify takes `channel` as customer-facing (unknown ones are).
bool IsCustomerFacing(const ContextConfig& config, const std::string& channel);

}  // namespace credence::trust
