#pragma once
// The rule catalog: each rule a small pure function of (source state,
// policy, context, time facts) that gives a reason or nothing. docs/trust-rules.md
// lists every rule; a test keeps the two in step.
#include <optional>
#include <span>
#include <string_view>

#include "trust/model.h"

namespace credence::trust {

struct RuleInput {
  const SourceState& source;
  const Policy& policy;
  const Context& context;
  const TimeFacts& time;  // the clock, only as the rules may read it
};

struct Rule {
  std::string_view code;
  Dimension dimension;
  Decision severity;
  std::string_view trigger;  // one line, as docs/trust-rules.md states it
  // Called only for resolved sources, except source_unresolved.
  std::optional<Reason> (*check)(const Rule& rule, const RuleInput& in);
};

std::span<const Rule> RuleCatalog();

}  // namespace credence::trust
