#pragma once
// Batch resolution of source identifiers to what the rules need: the source's
// state, the policy that applies and where it came from. A constant number of
// queries per batch, whatever its size, never one per source.
#include <string>
#include <vector>

#include "core/clock.h"
#include "trust/config.h"
#include "trust/model.h"

namespace credence::storage {
class TenantSession;
}

namespace credence::trust {

struct ResolvedSource {
  SourceState state;
  Policy policy;
  std::string policy_source = kPolicyTenantDefault;
  std::string hub_id;  // native entries
};

struct Resolution {
  std::vector<ResolvedSource> sources;  // in request order
  ContextConfig config;
};

// `language`: the context's language, or "" (translation rules then stay
// quiet). Unparseable and unknown ids come back with resolved = false.
Resolution ResolveSources(storage::TenantSession& tenant, const std::vector<std::string>& source_ids,
                          const std::string& language, TimeMs now);

}  // namespace credence::trust
