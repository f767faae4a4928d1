#pragma once
// What the reports need of one evidence row of the ledger, extracted once
// (evidence rows are immutable). The body is the one trust_service.cpp
// writes: {"result": <the decision object as answered>, "state": <the
// source state it was decided on>}.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"

namespace credence::reports::internal {

struct EvidenceFacts {
  std::string source_id;                // as submitted
  std::string entry_id;                 // "" when unresolved
  std::optional<std::string> origin;    // Native | Connected; none when unresolved
  std::optional<std::string> title;
  std::string decision;                 // allow | warn | block
  bool escalated = false;
  std::string classification;           // the status a reader saw: Published, ..., Expired, Unresolved
  bool stale = false;                   // Expired, or Warning (past expiry, in grace)
  std::optional<TimeMs> expiry_at;      // native entries
  std::optional<std::string> owner_id;
  bool owner_active = false;
  std::optional<std::string> sensitivity;
  std::vector<std::string> block_reasons;  // codes of the reasons with severity block, in answer order
};

// Never fails: a body that is not the expected shape gives what could be
// read (an unknown decision is neither allow, warn nor block).
EvidenceFacts ExtractFacts(std::string_view body);

}  // namespace credence::reports::internal
