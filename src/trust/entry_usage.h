#pragma once
// Whether AI applications and other machine consumers recently used an
// entry, from the usage records (POST /api/trust/usage: the sources an
// actor reports having used). For plugins' safe-delete guard, which asks
// inside the delete's transaction (reads only).
#include <cstdint>
#include <string>
#include <vector>

#include "core/clock.h"

namespace credence::storage {
class TenantSession;
}

namespace credence::trust {

struct EntryUsage {
  int64_t usage_count = 0;           // usage records naming entry:<id> since the cut-off (at most 1000 counted)
  std::vector<std::string> app_ids;  // the distinct AI applications among them
};

EntryUsage RecentEntryUsage(storage::TenantSession& tx, const std::string& entry_id, TimeMs since);

// The detectors of the entry's active (unresolved, undismissed) secret
// findings from content scanning, any language; empty when none. For
// content-rules' noSecretFindings.
std::vector<std::string> ActiveSecretDetectors(storage::TenantSession& tx, const std::string& entry_id);

}  // namespace credence::trust
