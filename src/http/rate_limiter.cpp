#include "http/rate_limiter.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "identity/principal.h"

namespace credence::http {
namespace {

int64_t CeilSeconds(double seconds) { return seconds <= 0 ? 0 : static_cast<int64_t>(std::ceil(seconds - 1e-9)); }

// draft-ietf-httpapi-ratelimit-headers (-08 and later): a List of Items,
// one per policy, named by a String. A token bucket of `burst` tokens
// refilled at `per_second` is described as a quota of `burst` over the
// time it takes to refill, so q/w is the sustained rate.
void AppendPolicy(std::string& out, std::string_view name, const RateLimit& limit) {
  if (!out.empty()) out += ", ";
  const int64_t window = std::max<int64_t>(1, CeilSeconds(static_cast<double>(limit.burst) / limit.per_second));
  out += '"';
  out += name;
  out += "\";q=" + std::to_string(limit.burst) + ";w=" + std::to_string(window);
}

void AppendState(std::string& out, std::string_view name, const BucketOutcome& outcome) {
  if (!out.empty()) out += ", ";
  out += '"';
  out += name;
  out += "\";r=" + std::to_string(outcome.remaining) + ";t=" + std::to_string(outcome.reset_seconds);
}

}  // namespace

BucketOutcome TokenBuckets::Take(std::string_view name, const RateLimit& limit, Clock::time_point now) {
  Shard& shard = shards_[std::hash<std::string_view>{}(name) % kShards];
  std::lock_guard lock(shard.mu);
  auto it = shard.buckets.find(std::string(name));
  if (it == shard.buckets.end()) {
    if (shard.buckets.size() >= kMaxPerShard) Evict(shard, now, limit);
    it = shard.buckets.emplace(std::string(name), Bucket{static_cast<double>(limit.burst), now}).first;
  }
  Bucket& b = it->second;
  const double elapsed = std::chrono::duration<double>(now - b.last).count();
  if (elapsed > 0) {
    b.tokens = std::min(static_cast<double>(limit.burst), b.tokens + elapsed * limit.per_second);
    b.last = now;
  }
  // A limit lowered since the bucket was filled applies at once.
  b.tokens = std::min(b.tokens, static_cast<double>(limit.burst));
  BucketOutcome out;
  if (b.tokens >= 1) {
    b.tokens -= 1;
  } else {
    out.allowed = false;
    out.retry_after = std::max<int64_t>(1, CeilSeconds((1 - b.tokens) / limit.per_second));
  }
  out.remaining = static_cast<int64_t>(std::floor(b.tokens));
  out.reset_seconds = CeilSeconds((static_cast<double>(limit.burst) - b.tokens) / limit.per_second);
  return out;
}

void TokenBuckets::Evict(Shard& shard, Clock::time_point now, const RateLimit& limit) {
  // A bucket idle long enough to have refilled is the same as no bucket.
  // Buckets of other limits are judged by this one's refill time: a bucket
  // dropped early starts full again, which errs towards the client.
  const auto refill = std::chrono::duration<double>(static_cast<double>(limit.burst) / limit.per_second);
  std::erase_if(shard.buckets, [&](const auto& entry) { return now - entry.second.last >= refill; });
  if (shard.buckets.size() < kMaxPerShard) return;
  std::vector<Clock::time_point> times;
  times.reserve(shard.buckets.size());
  for (const auto& [name, bucket] : shard.buckets) times.push_back(bucket.last);
  auto middle = times.begin() + static_cast<std::ptrdiff_t>(times.size() / 2);
  std::nth_element(times.begin(), middle, times.end());
  const Clock::time_point cut = *middle;
  std::erase_if(shard.buckets, [&](const auto& entry) { return entry.second.last <= cut; });
}

size_t TokenBuckets::size() const {
  size_t n = 0;
  for (const auto& shard : shards_) {
    std::lock_guard lock(shard.mu);
    n += shard.buckets.size();
  }
  return n;
}

RateLimit RateLimiter::Share(const RateLimit& limit) const {
  if (settings_.nodes <= 1 || !limit.enabled()) return limit;
  const auto n = static_cast<double>(settings_.nodes);
  return {limit.per_second / n, std::max<int64_t>(1, static_cast<int64_t>(std::ceil(limit.burst / n)))};
}

std::optional<RateLimit> RateLimiter::AppLimit(const std::string& tenant_id, const std::string& app_id,
                                               Clock::time_point now) const {
  const std::string cache_key = tenant_id + '/' + app_id;
  {
    std::lock_guard lock(app_mu_);
    if (auto it = app_cache_.find(cache_key); it != app_cache_.end() && now - it->second.fetched < kAppLimitCacheTtl)
      return it->second.limit;
  }
  // Read outside the lock: two requests may read at once; both answers are
  // current.
  std::optional<RateLimit> limit = app_limits_ ? app_limits_(tenant_id, app_id) : std::nullopt;
  std::lock_guard lock(app_mu_);
  // Bounded: entries older than the TTL are useless; drop them all when
  // the map grows large.
  if (app_cache_.size() >= 10'000)
    std::erase_if(app_cache_, [&](const auto& e) { return now - e.second.fetched >= kAppLimitCacheTtl; });
  if (app_cache_.size() >= 10'000) app_cache_.clear();
  app_cache_[cache_key] = {limit, now};
  return limit;
}

RateLimitVerdict RateLimiter::Check(const identity::Principal* principal, bool by_address,
                                    std::string_view client_address, Clock::time_point now) const {
  RateLimitVerdict verdict;
  auto apply = [&](std::string_view policy, const std::string& bucket, const RateLimit& configured) {
    if (verdict.refused) return;
    const RateLimit limit = Share(configured);
    if (!limit.enabled()) return;
    const BucketOutcome outcome = buckets_.Take(bucket, limit, now);
    AppendPolicy(verdict.policy, policy, limit);
    AppendState(verdict.state, policy, outcome);
    if (!outcome.allowed) {
      verdict.refused = true;
      verdict.refused_by = std::string(policy);
      verdict.retry_after = outcome.retry_after;
    }
  };
  if (principal != nullptr && principal->is_user() && !principal->user_id.empty()) {
    apply("user", "u:" + principal->user_id, settings_.user);
  } else if (principal != nullptr && !principal->is_user() && !principal->key_id.empty()) {
    apply("key", "k:" + principal->key_id, settings_.key);
    if (!principal->app_id.empty() && !verdict.refused)
      if (auto app = AppLimit(principal->tenant_id, principal->app_id, now))
        apply("app", "a:" + principal->tenant_id + '/' + principal->app_id, *app);
  } else if (by_address && !client_address.empty()) {
    apply("address", "i:" + std::string(client_address), settings_.address);
  }
  return verdict;
}

}  // namespace credence::http
