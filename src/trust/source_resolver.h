#pragma once
// Batch resolution of source identifiers to what the rules need: the source's
// state, the policy that applies and where it came from. A constant number of
// queries per batch, whatever its size, never one per source.
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/clock.h"
#include "trust/config.h"
#include "trust/ledger.h"
#include "trust/model.h"

namespace credence::storage {
class TenantSession;
}

namespace credence::trust {

// What evaluation last wrote for one resolved source: the answer's decision
// object and the evidence, under a key made of everything they depend on
// besides the resolved state itself (the decision and the time-derived
// fields). Shared by the copies of a cached source, so a source evaluated
// again with the same outcome reuses its text and where its evidence is
// stored. A resolved state never changes (a new generation makes new ones),
// so a memo is never stale. Thread-safe.
class SourceMemo {
 public:
  // Everything the texts depend on besides the source's cached state: the
  // fields of the state derived from the clock, and the decision.
  struct Key {
    kb::EntryStatus status = kb::EntryStatus::kDraft;
    TimeMs expiry_at = 0;
    int64_t days_until_expiry = 0;
    Policy policy;  // as applied: an app's default policy may tighten the source's
    SourceDecision decision;
    bool operator==(const Key&) const = default;
  };
  struct Texts {
    Key key;
    std::string result;
    std::string evidence;
    std::optional<StoredEvidence> stored;
  };
  // Compared field by field: no key text is built per source and request.
  std::shared_ptr<const Texts> Find(const SourceState& state, const Policy& policy,
                                    const SourceDecision& decision) const;
  void Put(std::shared_ptr<const Texts> texts);
  // Records where the evidence of `texts` (found or put before) is stored,
  // once it is committed; nothing when the memo has moved on.
  void Stored(const Texts* texts, const StoredEvidence& stored);

 private:
  mutable std::mutex mu_;
  std::shared_ptr<const Texts> last_;
};

struct ResolvedSource {
  SourceState state;
  Policy policy;
  std::string policy_source = kPolicyTenantDefault;
  std::string hub_id;  // native entries
  std::shared_ptr<SourceMemo> memo = std::make_shared<SourceMemo>();
};

struct Resolution {
  std::vector<ResolvedSource> sources;  // in request order
  ContextConfig config;
};

// `language`: the context's language, or "" (translation rules then stay
// quiet). Unparseable and unknown ids come back with resolved = false.
// The tenant's context vocabulary: the one it set, else the defaults (also
// for a stored one that no longer parses; it was validated when written).
ContextConfig LoadContextConfig(storage::TenantSession& tenant);

// Every app of the tenant (trust_apps), one query.
AppProfiles LoadAppProfiles(storage::TenantSession& tenant);

Resolution ResolveSources(storage::TenantSession& tenant, const std::vector<std::string>& source_ids,
                          const std::string& language, TimeMs now);

}  // namespace credence::trust
