#pragma once
// Notification channels of a tenant: email, Slack- and Teams-compatible chat
// webhooks, generic webhooks. CRUD, a test send, delivery stats.
#include "core/clock.h"

namespace credence::storage {
class Database;
}

namespace credence::notify {

class ChannelService {
 public:
  ChannelService(storage::Database& db, const Clock& clock) : db_(db), clock_(clock) {}

 private:
  storage::Database& db_;
  const Clock& clock_;
};

}  // namespace credence::notify
