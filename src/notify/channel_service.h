#pragma once
// Notification channels of a tenant: email, Slack- and Teams-compatible chat
// webhooks, generic webhooks. CRUD, a test send, delivery stats and the
// recent deliveries. Sending happens in the outbox (outbox.h), never here.
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "outbound/outbound.h"
#include "identity/principal.h"
#include "notify/channel.h"

namespace credence::storage {
class Database;
}

namespace credence::notify {

struct ChannelStats {
  int64_t success_count = 0;
  int64_t failure_count = 0;
  std::optional<TimeMs> last_used_at;  // the last attempt, successful or not
  int64_t pending_count = 0;
};

struct DeliveryRecord {
  std::string id;
  std::string event;
  std::string status;  // pending, delivered, dead
  int64_t attempts = 0;
  std::optional<std::string> last_error;
  std::optional<TimeMs> next_attempt_at;  // pending only
  TimeMs created_at = 0;
  std::optional<TimeMs> delivered_at;
};

inline constexpr size_t kMaxListedDeliveries = 50;

class ChannelService {
 public:
  // `outbound` decides which URLs a channel may call (docs/outbound.md); a
  // URL with a literal address it refuses is a 400 url_not_allowed here.
  ChannelService(storage::Database& db, const Clock& clock, outbound::Policy outbound = {})
      : db_(db), clock_(clock), outbound_(outbound) {}

  // Any signed-in user. Callers who are not global admins get each channel
  // with `summary` instead of its configuration. By name ignoring case.
  Result<std::vector<Channel>> List(const identity::Principal& caller) const;
  Result<Channel> Get(const identity::Principal& caller, const std::string& id) const;

  // Global admins only. 409 channel_name_taken when another channel of the
  // tenant has the name, ignoring case. Update replaces every field.
  Result<Channel> Create(const identity::Principal& caller, const ChannelInput& input) const;
  Result<Channel> Update(const identity::Principal& caller, const std::string& id, const ChannelInput& input) const;
  // Global admins only. The channel's deliveries, pending or not, go with it.
  Status Delete(const identity::Principal& caller, const std::string& id) const;

  // Any signed-in user.
  Result<ChannelStats> Stats(const identity::Principal& caller, const std::string& id) const;

  // Global admins only. Queues a channel.test delivery to this channel
  // alone, also when it is disabled (it is a probe); returns its id.
  Result<std::string> SendTest(const identity::Principal& caller, const std::string& id) const;
  // Global admins only: the newest 50 deliveries, newest first.
  Result<std::vector<DeliveryRecord>> Deliveries(const identity::Principal& caller, const std::string& id) const;

 private:
  storage::Database& db_;
  const Clock& clock_;
  outbound::Policy outbound_;
};

}  // namespace credence::notify
