#pragma once
// The decision for one source: every rule of the catalog applied to its
// state, its policy and the request's context; the most severe reason
// decides (decisions.md 6). Pure: the same inputs give the same decision.
#include <string>

#include "trust/model.h"

namespace credence::trust {

SourceDecision Decide(const SourceState& source, const Policy& policy, const std::string& policy_source,
                      const Context& context, const TimeFacts& time);
// The same at `now`.
SourceDecision Decide(const SourceState& source, const Policy& policy, const std::string& policy_source,
                      const Context& context, TimeMs now);

// What the rules may read of `now` for this source and policy.
TimeFacts TimeFactsAt(const SourceState& source, const Policy& policy, TimeMs now);

// 0 (unusable) .. 100 (just reviewed): linear decay of the last review over
// policy maxReviewAgeDays, capped by what the reasons say
// (docs/trust-rules.md, "Freshness score").
int FreshnessScore(const SourceState& source, const Policy& policy, TimeMs now);

// block over warn over allow.
Decision MostSevere(Decision a, Decision b);

}  // namespace credence::trust
