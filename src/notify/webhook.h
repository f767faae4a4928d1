#pragma once
// Webhooks on the wire (docs/webhooks.md): the event catalog, whsec_
// secrets, the Standard Webhooks signature, the payload and the retry
// schedule. Pure: nothing here touches the store or the network.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"

namespace credence::notify {

struct WebhookEventType {
  std::string_view type;         // "entry.published"
  std::string_view description;  // one sentence: when it is emitted
};

// Every event type a webhook may subscribe to, in catalog order.
const std::vector<WebhookEventType>& WebhookCatalog();
std::vector<std::string> WebhookEventTypes();
bool IsWebhookEventType(std::string_view type);

// Sent by POST /webhooks/{id}/test only; not subscribable.
inline constexpr std::string_view kWebhookTestEvent = "webhook.test";

// "whsec_" + base64 of 24 fresh random bytes.
std::string NewWebhookSecret();
// The key bytes of a whsec_ secret (base64-decoded after the prefix);
// nullopt when it is not one.
std::optional<std::string> WebhookSecretKey(std::string_view secret);

// One Standard Webhooks signature: "v1," + base64(HMAC-SHA256(key,
// "<msg_id>.<timestamp>.<body>")), the key being the decoded secret.
// Throws std::invalid_argument for a malformed secret.
std::string StandardWebhookSignature(std::string_view secret, std::string_view msg_id, int64_t timestamp_seconds,
                                     std::string_view body);

// The payload: {"type","timestamp","data"} (data_json must be a JSON object).
std::string WebhookPayload(std::string_view type, TimeMs timestamp, std::string_view data_json);

// Attempts per delivery: the first, then retries after 5 s, 5 min, 30 min,
// 2 h, 5 h, 10 h and 10 h (about 27.6 hours in all), each delay stretched by
// up to 20% of jitter; the 8th failure gives the delivery up.
inline constexpr int kWebhookMaxAttempts = 8;
// `failed_attempts` is 1-based; `jitter` in [0, 1) adds that fraction of 20%.
TimeMs WebhookRetryDelay(int failed_attempts, double jitter);
// A webhook whose attempts have all failed for this long is disabled.
inline constexpr TimeMs kWebhookDisableAfterMs = kMsPerDay;
// How long the previous secret keeps signing after a rotation.
inline constexpr TimeMs kWebhookSecretGraceMs = kMsPerDay;

}  // namespace credence::notify
