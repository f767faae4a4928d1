#pragma once
// A user's expiry notifications: created by the scheduler when an entry the
// user owns enters ExpiringSoon, Warning or Expired (once per transition);
// listed until acknowledged.
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/principal.h"

namespace credence::storage {
class Database;
}

namespace credence::lifecycle {

inline constexpr size_t kMaxListedNotifications = 200;

struct ExpiryNotification {
  std::string id;
  std::string entry_id;
  std::string entry_title;
  std::string hub_key;
  std::string kind;  // ExpiringSoon | Warning | Expired: the status the entry entered
  TimeMs expiry_at = 0;  // the entry's expiry date when it entered it
  TimeMs created_at = 0;
  std::optional<TimeMs> acknowledged_at;
};

class NotificationService {
 public:
  NotificationService(storage::Database& db, const Clock& clock) : db_(db), clock_(clock) {}

  // Signed-in users: their unacknowledged notifications, newest first (at
  // most 200), for entries that still exist.
  Result<std::vector<ExpiryNotification>> ExpiryWarnings(const identity::Principal& caller) const;
  // The caller's own notification (404 for anyone else's). Acknowledging
  // twice keeps the first time.
  Result<ExpiryNotification> Acknowledge(const identity::Principal& caller, const std::string& id) const;
  // Every unacknowledged notification of the caller; answers how many.
  Result<int64_t> AcknowledgeAll(const identity::Principal& caller) const;

 private:
  storage::Database& db_;
  const Clock& clock_;
};

}  // namespace credence::lifecycle
