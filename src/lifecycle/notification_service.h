#pragma once
// A user's expiry notifications: created by the scheduler when an entry the
// user owns enters ExpiringSoon, Warning or Expired; listed until
// acknowledged.
#include "core/clock.h"

namespace credence::storage {
class Database;
}

namespace credence::lifecycle {

class NotificationService {
 public:
  NotificationService(storage::Database& db, const Clock& clock) : db_(db), clock_(clock) {}

 private:
  storage::Database& db_;
  const Clock& clock_;
};

}  // namespace credence::lifecycle
