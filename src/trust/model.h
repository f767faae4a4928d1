#pragma once
// The trust plane's vocabulary: what is known about a source at decision
// time, the policy that applies to it, the context of the request, and the
// decision with its reasons and obligations (docs/trust-rules.md).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "kb/model.h"
#include "lifecycle/status.h"

namespace credence::trust {

enum class Decision { kAllow, kWarn, kBlock };  // ascending severity
std::string_view DecisionName(Decision d);
// The inverse of DecisionName; anything else reads as allow (names are
// only read back from what DecisionName wrote).
Decision DecisionFromName(std::string_view name);

enum class Dimension { kFreshness, kOwnership, kProvenance, kPolicy, kSensitivity, kContext };
std::string_view DimensionName(Dimension d);

// decisions.md 6, ascending.
enum class Sensitivity { kPublic, kInternal, kConfidential, kRestricted };
std::string_view SensitivityName(Sensitivity s);
std::optional<Sensitivity> ParseSensitivity(std::string_view name);

enum class Origin { kNative, kConnected };
std::string_view OriginName(Origin o);

// Review strength, as the lifecycle module ranks review types.
enum class ReviewStrength { kNone, kQuick, kAttestation, kFull };
ReviewStrength StrengthOfReviewType(std::string_view review_type);
std::string_view ReviewTypeOfStrength(ReviewStrength s);

// Everything the rules look at, as it was at decision time. The ledger keeps
// it (with the outcome) as the evidence of a decision.
struct SourceState {
  std::string source_id;  // as submitted
  bool resolved = false;
  Origin origin = Origin::kNative;
  std::string entry_id;  // native entry, or the connected document's id
  std::string title;
  kb::EntryStatus status = kb::EntryStatus::kDraft;  // as a reader sees it now
  // A connected document gone from its source (status Removed): it still
  // resolves, and is blocked by source_removed (docs/connectors.md).
  bool removed = false;
  // Native entries: what status, expiry_at and days_until_expiry are
  // derived from, so a cached state is brought to the current time
  // (DeriveAt) instead of being re-read.
  std::optional<lifecycle::ExpiryFacts> expiry_facts;
  lifecycle::ExpiryWindows windows;
  int64_t version = 0;
  TimeMs content_updated_at = 0;
  TimeMs expiry_at = 0;
  int64_t days_until_expiry = 0;
  std::optional<TimeMs> last_reviewed_at;
  ReviewStrength last_review = ReviewStrength::kNone;
  std::optional<std::string> owner_id;
  bool owner_active = false;
  std::optional<std::string> external_url;
  // The language the context asked for, when it is not the original.
  std::optional<std::string> language;
  bool translation_missing = false;
  int64_t stale_translation_blocks = 0;
  // Blocks of that translation machine-translated and not yet reviewed by a
  // person (docs/machine-translation.md).
  int64_t machine_translation_blocks = 0;
  Sensitivity sensitivity = Sensitivity::kInternal;
  bool has_secrets = false;
  bool has_personal_data = false;
};

// Sets the time-dependent fields of a native entry's state for `now`.
void DeriveAt(SourceState& state, TimeMs now);

// Policy fields (the metadata table of the spec) plus what the rules need.
struct Policy {
  bool ai_retrievable = true;
  bool customer_facing_allowed = true;
  bool internal_only = false;
  bool external_model_allowed = true;
  Sensitivity max_sensitivity_for_ai = Sensitivity::kInternal;
  int64_t warn_before_expiry_days = 14;
  int64_t max_review_age_days = 180;
  bool customer_facing_requires_review = true;
  bool citation_required = false;
  std::optional<std::string> disclaimer_text;
  // Personal data where neither a customer-facing channel nor an external
  // model is involved: warn (true) or allow (false).
  bool warn_on_personal_data = true;
  bool operator==(const Policy&) const = default;
};

// Where the policy of a source came from.
inline constexpr char kPolicyTenantDefault[] = "tenant-default";
inline constexpr char kPolicyHub[] = "hub";
inline constexpr char kPolicyEntry[] = "entry";
// The calling app's default policy made the source's policy stricter.
inline constexpr char kPolicyApp[] = "app";

// The request's context, with what the tenant's configuration says about
// its channel and action already worked out.
struct Context {
  std::string actor_type;
  std::string actor_label;
  std::string action;
  std::string channel;
  bool external_model = false;
  std::optional<std::string> language;
  bool customer_facing = false;  // the channel is customer-facing, or unknown
  bool channel_known = true;
  ReviewStrength action_requires = ReviewStrength::kNone;
  // The calling app's registered channel, when the request named another.
  std::optional<std::string> app_channel;
  bool operator==(const Context&) const = default;
};

// What the rules read of the clock for one source under one policy: the
// rules see time only through these, so a decision is a pure function of
// (state, policy, context, time facts), and equal facts give an equal
// decision. The evaluation memo (SourceMemo) relies on that to skip the rules
// for a source decided before in the same context.
struct TimeFacts {
  bool expiry_passed = false;              // the expiry instant is not in the future
  std::optional<int64_t> review_age_days;  // whole days since the last review
  int freshness_score = 0;                 // FreshnessScore (engine.h)
  bool operator==(const TimeFacts&) const = default;
};

struct Reason {
  std::string code;
  Dimension dimension = Dimension::kFreshness;
  Decision severity = Decision::kAllow;
  std::string message;
  std::string data_json = "{}";  // a JSON object
  bool escalate = false;
  bool operator==(const Reason&) const = default;
};

struct Requirements {
  bool citation_required = false;
  bool disclaimer_required = false;
  std::optional<std::string> disclaimer_text;
  bool operator==(const Requirements&) const = default;
};

struct SourceDecision {
  Decision decision = Decision::kAllow;
  bool escalated = false;
  std::vector<Reason> reasons;  // most severe first
  int freshness_score = 0;      // 0 (unusable) .. 100 (just reviewed)
  std::string classification;   // the source's status: Published, ExpiringSoon, ..., or Unresolved
  std::string policy_source;
  std::string recommended_action;
  Requirements requirements;
  bool operator==(const SourceDecision&) const = default;
};

}  // namespace credence::trust
