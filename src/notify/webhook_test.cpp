#include "notify/webhook.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

namespace credence::notify {
namespace {

// The test vector published by Standard Webhooks (standard-webhooks/
// standard-webhooks, libraries' tests), byte for byte.
TEST(StandardWebhooks, PublishedTestVector) {
  EXPECT_EQ(StandardWebhookSignature("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_p5jXN8AQM9LWM0D4loKWxJek",
                                     1614265330, R"({"test": 2432232314})"),
            "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
}

TEST(StandardWebhooks, SecretsAreWhsecBase64Of24Bytes) {
  const std::string a = NewWebhookSecret();
  const std::string b = NewWebhookSecret();
  EXPECT_NE(a, b);
  ASSERT_TRUE(a.starts_with("whsec_"));
  const auto key = WebhookSecretKey(a);
  ASSERT_TRUE(key.has_value());
  EXPECT_EQ(key->size(), 24u);
  EXPECT_FALSE(WebhookSecretKey("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"));  // no prefix
  EXPECT_FALSE(WebhookSecretKey("whsec_"));
  EXPECT_FALSE(WebhookSecretKey("whsec_not base64!"));
  EXPECT_THROW(StandardWebhookSignature("nope", "m", 1, "{}"), std::invalid_argument);
}

TEST(StandardWebhooks, PayloadIsTypeTimestampData) {
  const auto v = boost::json::parse(WebhookPayload("entry.published", 1'700'000'000'123, R"({"entryId":"e"})"));
  EXPECT_EQ(v.at("type").as_string(), "entry.published");
  EXPECT_EQ(v.at("timestamp").as_string(), "2023-11-14T22:13:20.123Z");
  EXPECT_EQ(v.at("data").at("entryId").as_string(), "e");
  // Malformed data never makes a malformed payload.
  EXPECT_TRUE(boost::json::parse(WebhookPayload("x", 0, "nope")).at("data").as_object().empty());
}

TEST(StandardWebhooks, RetryScheduleCoversAboutADayWithBoundedJitter) {
  TimeMs total = 0;
  for (int n = 1; n < kWebhookMaxAttempts; ++n) {
    const TimeMs low = WebhookRetryDelay(n, 0.0);
    const TimeMs high = WebhookRetryDelay(n, 0.999);
    EXPECT_LT(low, high);
    EXPECT_LE(high, low + low / 5);
    total += low;
  }
  EXPECT_EQ(WebhookRetryDelay(1, 0.0), 5'000);
  EXPECT_EQ(WebhookRetryDelay(7, 0.0), 36'000'000);
  EXPECT_GT(total, kMsPerDay);
  EXPECT_LT(total, 2 * kMsPerDay);
}

TEST(StandardWebhooks, CatalogHasTheRequiredTypes) {
  for (const char* t :
       {"entry.published", "entry.updated", "entry.deleted", "entry.expiring", "entry.expired", "entry.renewed",
        "review.submitted", "translation.stale", "translation.updated", "trust.decision.blocked", "apikey.created",
        "apikey.revoked", "app.key.disabled", "connector.sync.failed", "scanning.secret.detected"})
    EXPECT_TRUE(IsWebhookEventType(t)) << t;
  EXPECT_FALSE(IsWebhookEventType(kWebhookTestEvent));
  EXPECT_FALSE(IsWebhookEventType("entry.expiring_soon"));
}

}  // namespace
}  // namespace credence::notify
