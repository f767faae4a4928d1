#pragma once
// Batch resolution of source identifiers to what the rules need: the source's
// state, the policy that applies and where it came from. A constant number of
// queries per batch, whatever its size, never one per source.
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "trust/config.h"
#include "trust/ledger.h"
#include "trust/model.h"
#include "trust/source_memo.h"

namespace credence::storage {
class TenantSession;
}

namespace credence::trust {

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

Resolution ResolveSources(storage::TenantSession& tenant, std::span<const std::string_view> source_ids,
                          const std::string& language, TimeMs now);
inline Resolution ResolveSources(storage::TenantSession& tenant, const std::vector<std::string>& source_ids,
                                 const std::string& language, TimeMs now) {
  const std::vector<std::string_view> views(source_ids.begin(), source_ids.end());
  return ResolveSources(tenant, std::span<const std::string_view>(views), language, now);
}

// Any number of ids (reports resolve whole inventories), in batches of the
// size an evaluation takes, without a language: the sources, in order.
std::vector<ResolvedSource> ResolveInBatches(storage::TenantSession& tenant, const std::vector<std::string>& source_ids,
                                             TimeMs now);

}  // namespace credence::trust
