#pragma once
// Rate limits (docs/operations.md, "Rate limits"): token buckets in memory,
// per node, applied by the Dispatcher once the caller is authenticated.
//
//   policy    bucket                 limit
//   "key"     the principal's key    --rate-limit-key-rps / -burst
//   "app"     an app-bound key's app the app's rateLimit in the registry (none when unset)
//   "user"    the signed-in user     --rate-limit-user-rps / -burst
//   "address" the client address     --rate-limit-address-rps / -burst, only on the routes
//                                    that need no credential (Route::limit_by_address)
//
// Every limit is divided by --rate-limit-nodes: HAProxy spreads a client's
// requests over the nodes, so each node enforces its share.
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace credence::identity {
struct Principal;
}

namespace credence::http {

// A token bucket's shape: refills at `per_second`, holds at most `burst`.
// Disabled (no limit) when either is 0.
struct RateLimit {
  double per_second = 0;
  int64_t burst = 0;
  bool enabled() const { return per_second > 0 && burst > 0; }
};

// What one bucket said about one request.
struct BucketOutcome {
  bool allowed = true;
  int64_t remaining = 0;      // whole tokens left after this request
  int64_t reset_seconds = 0;  // until the bucket is full again, rounded up
  int64_t retry_after = 0;    // when refused: until one token is back, rounded up (>= 1)
};

// Token buckets by name. Thread-safe: the names are spread over shards,
// each with its own mutex. Memory is bounded: a shard past kMaxPerShard
// buckets first drops the full ones (a full bucket is the same as none),
// then, if still past it, the least recently used half.
class TokenBuckets {
 public:
  using Clock = std::chrono::steady_clock;
  static constexpr size_t kShards = 16;
  static constexpr size_t kMaxPerShard = 8192;

  // Takes one token from the bucket `name` shaped by `limit` (enabled).
  BucketOutcome Take(std::string_view name, const RateLimit& limit, Clock::time_point now);
  size_t size() const;

 private:
  struct Bucket {
    double tokens = 0;
    Clock::time_point last;
  };
  struct Shard {
    mutable std::mutex mu;
    std::unordered_map<std::string, Bucket> buckets;  // guarded by mu
  };
  static void Evict(Shard& shard, Clock::time_point now, const RateLimit& limit);
  Shard shards_[kShards];
};

struct RateLimitSettings {
  RateLimit key;
  RateLimit user;
  RateLimit address;
  int64_t nodes = 1;  // every limit is divided by this
};

// The answer for one request: the header values, and whether it is refused.
struct RateLimitVerdict {
  std::string policy;  // RateLimit-Policy; empty when no limit applies
  std::string state;   // RateLimit
  bool refused = false;
  std::string refused_by;   // the policy that refused ("key", "app", ...)
  int64_t retry_after = 0;  // seconds, when refused
};

class RateLimiter {
 public:
  using Clock = TokenBuckets::Clock;
  // An app's own limit from the registry (nullopt: none). Called at most
  // once a second per app and node (the answer is cached that long); may
  // throw storage errors (the Dispatcher maps them).
  using AppLimitSource = std::function<std::optional<RateLimit>(const std::string& tenant_id,
                                                                 const std::string& app_id)>;
  static constexpr std::chrono::milliseconds kAppLimitCacheTtl{1000};

  RateLimiter(RateLimitSettings settings, AppLimitSource app_limits)
      : settings_(settings), app_limits_(std::move(app_limits)) {}

  // `principal`: the authenticated caller, or nullptr. `by_address`: the
  // route needs no credential and is limited per client address.
  // Thread-safe.
  RateLimitVerdict Check(const identity::Principal* principal, bool by_address, std::string_view client_address,
                         Clock::time_point now = Clock::now()) const;

 private:
  RateLimit Share(const RateLimit& limit) const;
  std::optional<RateLimit> AppLimit(const std::string& tenant_id, const std::string& app_id,
                                    Clock::time_point now) const;

  struct CachedLimit {
    std::optional<RateLimit> limit;
    Clock::time_point fetched;
  };
  const RateLimitSettings settings_;
  const AppLimitSource app_limits_;
  mutable TokenBuckets buckets_;
  mutable std::mutex app_mu_;
  mutable std::unordered_map<std::string, CachedLimit> app_cache_;  // guarded by app_mu_
};

}  // namespace credence::http
