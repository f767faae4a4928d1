#pragma once
// A ledger evidence body read back (what_if.h): the source's state as it
// was decided on, the policy it was decided under and the outcome recorded.
// The inverse of what trust_service.cpp writes (AppendResult, AppendState),
// for what a replay needs; docs/what-if.md lists what the evidence does not
// hold and how a replay takes it.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "trust/model.h"

namespace credence::trust {

// Reason codes as bits, in RuleCatalog order (the catalog has fewer than 64
// rules; a test keeps it so).
using ReasonSet = uint64_t;
ReasonSet ReasonBit(std::string_view code);  // 0 for a code the catalog does not have
// The catalog's rule of bit `index`.
const struct Rule& RuleOfBit(int index);
ReasonSet ReasonsOf(const SourceDecision& decision);

struct RecordedSource {
  // days_until_expiry is left 0: it depends on the record's time
  // (DaysUntilExpiryAt).
  SourceState state;
  Policy policy;
  std::string policy_source;
  Decision decision = Decision::kAllow;
  ReasonSet reasons = 0;
};

// nullopt when the body is not an evidence object (never written so).
std::optional<RecordedSource> ParseRecordedSource(std::string_view evidence_body);

// A native entry's whole days until its expiry at `t` (lifecycle's
// rounding: towards the past); 0 for connected documents.
int64_t DaysUntilExpiryAt(const SourceState& state, TimeMs t);

}  // namespace credence::trust
