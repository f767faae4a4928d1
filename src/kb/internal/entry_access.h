#pragma once
// Loads an entry with its hub and checks the caller's level on it.
#include <optional>
#include <string>

#include "core/result.h"
#include "identity/principal.h"
#include "kb/access.h"
#include "kb/model.h"

namespace credence::storage {
class TenantSession;
}

namespace credence::kb::internal {

// The hub with key `key` in the session's tenant, whoever asks.
std::optional<Hub> FindHubByKey(storage::TenantSession& session, const std::string& key);
Error HubNotFound();

struct LoadedEntry {
  Entry entry;  // with content
  Hub hub;
  AccessLevel level = AccessLevel::kNone;
};

// 404 when the entry does not exist or the caller cannot view it; 403 when
// the caller can view it but `needed` is more. `with_content` false leaves
// Entry::content empty (cheaper for writes that replace or ignore it).
Result<LoadedEntry> LoadEntry(storage::TenantSession& session, const identity::Principal& caller,
                              const std::string& entry_id, AccessLevel needed, bool with_content = true);

}  // namespace credence::kb::internal
