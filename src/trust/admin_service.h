#pragma once
// Tenant administration of the trust plane (/trust-admin/...): policies per
// level, the context vocabulary, human-set sensitivity facts, connected
// documents and entries' source links. docs/trust.md.
#include "core/clock.h"

namespace credence::storage {
class Database;
}

namespace credence::trust {

class TrustAdminService {
 public:
  TrustAdminService(storage::Database& db, const Clock& clock) : db_(db), clock_(clock) {}

 private:
  storage::Database& db_;
  const Clock& clock_;
};

}  // namespace credence::trust
