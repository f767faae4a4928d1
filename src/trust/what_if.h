#pragma once
// Policy what-if (docs/what-if.md): what a proposed change of policies,
// app policies or sensitivity facts would have done to the decisions the
// ledger recorded. Each record is decided again from its frozen evidence
// (the state each source was decided on, the request's context, its own
// time) twice: under today's configuration ("before") and under today's
// configuration with the change applied ("after"). The answer counts the
// decisions that move, per app and channel, the reasons that appear or
// vanish, and gives examples. Records whose replay under today's
// configuration differs from what was recorded (a policy or the context
// vocabulary changed since) are counted apart as drift, so the change is
// never blamed for it. Nothing is written.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/date_window.h"
#include "core/result.h"
#include "identity/principal.h"
#include "trust/config.h"
#include "trust/model.h"
#include "trust/sensitivity.h"

namespace credence::storage {
class Database;
}

namespace credence::trust {

inline constexpr size_t kMaxWhatIfChanges = 50;
// A replay streams the ledger, but it answers in one request: past this the
// window is refused (400 naming `from`) rather than left to run for minutes.
inline constexpr int64_t kMaxReplayedDecisions = 2'000'000;
inline constexpr size_t kWhatIfExamples = 20;
inline constexpr size_t kWhatIfExampleSources = 10;

// What a change names, in the shapes of the endpoints that would publish it.
enum class ChangeTarget {
  kTenantPolicy,  // PUT /trust-admin/policies/tenant
  kHubPolicy,     // PUT /trust-admin/policies/hubs/{hubKey}
  kSourcePolicy,  // PUT /trust-admin/policies/sources?sourceId=
  kAppPolicy,     // PATCH /trust-admin/apps/{id} {defaultPolicy}
  kSensitivity,   // PUT (or DELETE) /trust-admin/sensitivity?sourceId=
};
std::string_view ChangeTargetName(ChangeTarget target);  // tenant-policy, hub-policy, ...
std::optional<ChangeTarget> ParseChangeTarget(std::string_view name);

struct ProposedChange {
  ChangeTarget target = ChangeTarget::kTenantPolicy;
  std::string name;       // the hub key, source id or app id; empty for the tenant
  PolicyOverride policy;  // the policy targets: the level's new override ({} removes it)
  // kSensitivity: the new facts; nullopt removes them (the defaults apply).
  std::optional<SensitivityFacts> sensitivity;
};

struct WhatIfRequest {
  std::vector<ProposedChange> changes;
  std::optional<std::string> from, to;  // DateWindow's days
  std::optional<std::string> app_id;    // only this app's decisions
  std::optional<std::string> channel;   // only decisions on this (effective) channel
};

// Counts by (before, after) decision, indexed by Decision.
using MoveCounts = std::array<std::array<int64_t, 3>, 3>;

struct WhatIfGroup {
  std::optional<std::string> app_id;
  std::optional<std::string> app_name;
  std::string channel;  // the effective channel (an app's when the request named none)
  int64_t replayed = 0;
  int64_t changed = 0;  // overall decision moved
  MoveCounts moves{};
};

struct ReasonShift {
  std::string code;
  Dimension dimension = Dimension::kFreshness;
  int64_t sources = 0;    // source decisions that gained (or lost) it
  int64_t decisions = 0;  // records with at least one such source
};

struct ExampleSource {
  std::string source_id, title;
  Decision before = Decision::kAllow, after = Decision::kAllow;
  std::vector<std::string> reasons_added, reasons_removed;
};

struct WhatIfExample {
  std::string decision_id;
  TimeMs evaluated_at = 0;
  std::optional<std::string> app_id;
  std::string channel;
  Decision recorded = Decision::kAllow, before = Decision::kAllow, after = Decision::kAllow;
  std::vector<ExampleSource> sources;  // the changed ones, at most kWhatIfExampleSources
};

struct WhatIfResult {
  DateWindow window;
  int64_t replayed = 0;
  int64_t changed = 0;                            // records whose overall decision moved
  int64_t sources_changed = 0;                    // source decisions whose decision or reasons changed
  int64_t drifted = 0;                            // records today's configuration alone decides differently
  MoveCounts moves{};                             // overall decisions
  MoveCounts source_moves{};                      // per source (what filter-sources drops or keeps)
  std::vector<WhatIfGroup> groups;                // by app, then channel
  std::vector<ReasonShift> appearing, vanishing;  // most sources first
  std::vector<WhatIfExample> examples;            // oldest first
  int64_t duration_ms = 0;
};

class WhatIfService {
 public:
  WhatIfService(storage::Database& db, const Clock& clock) : db_(db), clock_(clock) {}

  // Tenant admins (403 otherwise). 400 naming the field for a bad window,
  // an unknown hub, source or app in a change (changes[i].hubKey, .sourceId,
  // .appId) or in the
  // filter (appId), and naming `from` for a window of more than
  // kMaxReplayedDecisions decisions.
  Result<WhatIfResult> Replay(const identity::Principal& caller, const WhatIfRequest& request) const;

 private:
  storage::Database& db_;
  const Clock& clock_;
};

}  // namespace credence::trust
