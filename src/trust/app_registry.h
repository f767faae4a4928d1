#pragma once
// The AI application registry (docs/apps.md): apps with a channel, a risk
// and a default policy, and the app-bound keys they call the trust
// endpoints with. Tenant admins only (signed in); machine keys never.
#include "core/clock.h"

namespace credence::storage {
class Database;
}

namespace credence::trust {

class AppRegistry {
 public:
  AppRegistry(storage::Database& db, const Clock& clock) : db_(db), clock_(clock) {}

 private:
  storage::Database& db_;
  const Clock& clock_;
};

}  // namespace credence::trust
