#pragma once
// The notification channel model: types, events, per-type configuration and
// the rules it must satisfy (docs/notifications.md).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "core/text.h"

namespace credence::notify {

inline constexpr std::string_view kTypeEmail = "email";
inline constexpr std::string_view kTypeSlack = "slack";
inline constexpr std::string_view kTypeTeams = "teams";
inline constexpr std::string_view kTypeWebhook = "webhook";

inline constexpr std::string_view kEventExpiringSoon = "entry.expiring_soon";
inline constexpr std::string_view kEventWarning = "entry.warning";
inline constexpr std::string_view kEventExpired = "entry.expired";
// Sent by POST .../test only; channels cannot subscribe to it.
inline constexpr std::string_view kEventChannelTest = "channel.test";

inline constexpr size_t kMaxChannelNameLength = 200;
inline constexpr size_t kMaxRecipients = 50;
inline constexpr size_t kMaxUrlLength = 2000;
inline constexpr size_t kMinSecretLength = 16;
inline constexpr size_t kMaxSecretLength = 200;

const std::vector<std::string>& ChannelTypes();
// The events a channel may subscribe to, in their canonical order.
const std::vector<std::string>& ChannelEvents();

// One struct for every type; the fields a type does not use stay empty.
struct ChannelConfig {
  std::vector<std::string> recipients;  // email
  bool notify_owners = false;           // email: also the entry owners carried by the message
  std::string url;                      // slack and teams: webhookUrl; webhook: url
  std::optional<std::string> secret;    // webhook: signs the body (X-Credence-Signature)
};

// What callers who are not global admins see instead of the configuration:
// URLs and secrets are credentials (a Slack or Teams webhook URL lets anyone
// post to the room).
struct ConfigSummary {
  std::string host;             // slack, teams, webhook: the URL's host name
  int64_t recipient_count = 0;  // email
  bool notify_owners = false;   // email
  bool is_signed = false;       // webhook: a secret is set
};

struct Channel {
  std::string id;
  std::string name;
  std::string type;
  bool is_enabled = true;
  std::vector<std::string> events;
  ChannelConfig config;                  // empty when `summary` is set
  std::optional<ConfigSummary> summary;  // set for callers who may not see the configuration
  TimeMs created_at = 0;
  TimeMs updated_at = 0;
};

struct ChannelInput {
  std::string name;
  std::string type;
  bool is_enabled = true;
  std::optional<std::vector<std::string>> events;  // none: every event
  ChannelConfig config;
};

// Checks every field of `input` (naming JSON fields, e.g. "config.webhookUrl")
// and normalizes it in place: trims the name, the addresses and the URL, and
// puts the events in canonical order without duplicates (all of them when
// none were given).
Status ValidateChannelInput(ChannelInput& input);

// The stored form of a configuration (JSON text, with the API's field names)
// and back.
std::string ConfigToJson(std::string_view type, const ChannelConfig& config);
ChannelConfig ConfigFromJson(std::string_view type, std::string_view text);
ConfigSummary Summarize(std::string_view type, const ChannelConfig& config);

// Recipients are checked with core/text.h's IsPlainEmail.
// An absolute http or https URL with a host.
bool IsHttpUrl(std::string_view s);
// The host name of an http(s) URL, without user information or port; empty
// when it does not parse.
std::string UrlHost(std::string_view url);

}  // namespace credence::notify
