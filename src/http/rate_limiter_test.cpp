#include "http/rate_limiter.h"

#include <gtest/gtest.h>

#include "identity/principal.h"

namespace credence::http {
namespace {

using Clock = TokenBuckets::Clock;
using std::chrono::milliseconds;

TEST(TokenBuckets, BurstThenRefillAtTheRate) {
  TokenBuckets buckets;
  const RateLimit limit{2, 3};
  const auto t0 = Clock::time_point{} + std::chrono::hours(1);
  for (int i = 0; i < 3; ++i) {
    auto out = buckets.Take("k", limit, t0);
    EXPECT_TRUE(out.allowed);
    EXPECT_EQ(out.remaining, 2 - i);
  }
  auto refused = buckets.Take("k", limit, t0);
  EXPECT_FALSE(refused.allowed);
  EXPECT_EQ(refused.retry_after, 1);   // half a second, rounded up
  EXPECT_EQ(refused.reset_seconds, 2);  // 1.5 s to refill 3 tokens, rounded up
  EXPECT_TRUE(buckets.Take("k", limit, t0 + milliseconds(500)).allowed);
  EXPECT_FALSE(buckets.Take("k", limit, t0 + milliseconds(500)).allowed);
  // Other names do not share.
  EXPECT_TRUE(buckets.Take("other", limit, t0).allowed);
}

TEST(TokenBuckets, RetryAfterFollowsASlowRate) {
  TokenBuckets buckets;
  const RateLimit limit{0.1, 1};
  const auto t0 = Clock::time_point{} + std::chrono::hours(1);
  EXPECT_TRUE(buckets.Take("k", limit, t0).allowed);
  EXPECT_EQ(buckets.Take("k", limit, t0).retry_after, 10);
}

TEST(TokenBuckets, MemoryIsBounded) {
  TokenBuckets buckets;
  const RateLimit limit{1, 5};
  const auto t0 = Clock::time_point{} + std::chrono::hours(1);
  const size_t many = TokenBuckets::kShards * TokenBuckets::kMaxPerShard * 2;
  for (size_t i = 0; i < many; ++i) buckets.Take("addr-" + std::to_string(i), limit, t0 + milliseconds(i / 1000));
  EXPECT_LE(buckets.size(), TokenBuckets::kShards * TokenBuckets::kMaxPerShard);
}

TEST(RateLimiter, KeyAndAppBucketsAndTheNodesShare) {
  int lookups = 0;
  RateLimiter limiter({{10, 2}, {10, 2}, {10, 2}, 1}, [&](const std::string&, const std::string& app) {
    ++lookups;
    return app == "app-1" ? std::optional<RateLimit>(RateLimit{1, 1}) : std::nullopt;
  });
  identity::Principal key;
  key.kind = identity::PrincipalKind::kMachine;
  key.tenant_id = "t";
  key.key_id = "key-1";
  key.app_id = "app-1";
  const auto t0 = Clock::time_point{} + std::chrono::hours(1);
  auto first = limiter.Check(&key, false, "", t0);
  EXPECT_FALSE(first.refused);
  EXPECT_EQ(first.policy, "\"key\";q=2;w=1, \"app\";q=1;w=1");
  EXPECT_EQ(first.state, "\"key\";r=1;t=1, \"app\";r=0;t=1");
  auto second = limiter.Check(&key, false, "", t0);
  EXPECT_TRUE(second.refused);
  EXPECT_EQ(second.refused_by, "app");
  EXPECT_EQ(lookups, 1);  // cached within the second
  limiter.Check(&key, false, "", t0 + milliseconds(1500));
  EXPECT_EQ(lookups, 2);

  // No principal: only routes limited by address are.
  EXPECT_TRUE(limiter.Check(nullptr, false, "10.0.0.1", t0).policy.empty());
  EXPECT_EQ(limiter.Check(nullptr, true, "10.0.0.1", t0).policy, "\"address\";q=2;w=1");

  RateLimiter shared({{10, 5}, {}, {}, 2}, nullptr);
  key.app_id.clear();
  EXPECT_EQ(shared.Check(&key, false, "", t0).policy, "\"key\";q=3;w=1");
}

}  // namespace
}  // namespace credence::http
