#include "http/metrics.h"

#include <array>
#include <atomic>
#include <map>
#include <tuple>
#include <unordered_map>

#include "http/route.h"

namespace credence::http {
namespace {

constexpr std::array<double, 12> kBuckets = {0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025,
                                             0.05,   0.1,   0.25,   0.5,   1.0,  2.5};

struct Histogram {
  std::array<uint64_t, kBuckets.size() + 1> counts{};  // last: +Inf
  double sum = 0;
  uint64_t total = 0;
  void Observe(double seconds) {
    size_t i = 0;
    while (i < kBuckets.size() && seconds > kBuckets[i]) ++i;
    ++counts[i];
    sum += seconds;
    ++total;
  }
};

struct CounterKey {
  const Route* route;
  Method method;
  int status;
  bool operator==(const CounterKey&) const = default;
};
struct CounterKeyHash {
  size_t operator()(const CounterKey& k) const {
    return std::hash<const void*>()(k.route) ^ (static_cast<size_t>(k.method) << 20) ^
           (static_cast<size_t>(k.status) << 4);
  }
};

std::string RouteLabel(const Route* r) { return r == nullptr ? "unmatched" : r->path; }

std::string EscapeLabel(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '\\' || c == '"') out.push_back('\\');
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out.push_back(c);
  }
  return out;
}

}  // namespace

struct Metrics::Shard {
  std::mutex mu;
  std::unordered_map<CounterKey, uint64_t, CounterKeyHash> counts;  // guarded by mu
  std::unordered_map<const Route*, Histogram> latency;              // guarded by mu
};

namespace {
std::atomic<uint64_t> g_next_metrics_id{1};
}  // namespace

Metrics::Metrics() : id_(g_next_metrics_id.fetch_add(1)) {}
Metrics::~Metrics() = default;

Metrics::Shard& Metrics::LocalShard() {
  // Keyed by instance id, not address: a Metrics built where a destroyed one
  // lived must not find that one's freed shard.
  thread_local std::vector<std::pair<uint64_t, Shard*>> shards;
  for (const auto& [id, shard] : shards)
    if (id == id_) return *shard;
  std::lock_guard lock(shards_mu_);
  shards_.push_back(std::make_unique<Shard>());
  shards.emplace_back(id_, shards_.back().get());
  return *shards_.back();
}

void Metrics::Record(const Route* route, Method method, int status, double seconds) {
  Shard& shard = LocalShard();
  std::lock_guard lock(shard.mu);
  ++shard.counts[CounterKey{route, method, status}];
  shard.latency[route].Observe(seconds);
}

std::string Metrics::RenderPrometheus() const {
  std::map<std::tuple<std::string, std::string, int>, uint64_t> counts;
  std::map<std::string, Histogram> latency;
  {
    std::lock_guard lock(shards_mu_);
    for (const auto& shard : shards_) {
      std::lock_guard shard_lock(shard->mu);
      for (const auto& [key, n] : shard->counts)
        counts[{RouteLabel(key.route), std::string(MethodName(key.method)), key.status}] += n;
      for (const auto& [route, h] : shard->latency) {
        Histogram& merged = latency[RouteLabel(route)];
        for (size_t i = 0; i < h.counts.size(); ++i) merged.counts[i] += h.counts[i];
        merged.sum += h.sum;
        merged.total += h.total;
      }
    }
  }
  std::string out;
  out += "# HELP credence_http_requests_total HTTP requests by route template, method and status.\n";
  out += "# TYPE credence_http_requests_total counter\n";
  for (const auto& [key, n] : counts) {
    const auto& [route, method, status] = key;
    out += "credence_http_requests_total{route=\"" + EscapeLabel(route) + "\",method=\"" + method + "\",status=\"" +
           std::to_string(status) + "\"} " + std::to_string(n) + "\n";
  }
  out += "# HELP credence_http_request_duration_seconds Time from request read to response ready.\n";
  out += "# TYPE credence_http_request_duration_seconds histogram\n";
  char buf[64];
  for (const auto& [route, h] : latency) {
    const std::string label = "route=\"" + EscapeLabel(route) + "\"";
    uint64_t cumulative = 0;
    for (size_t i = 0; i < kBuckets.size(); ++i) {
      cumulative += h.counts[i];
      std::snprintf(buf, sizeof buf, "%g", kBuckets[i]);
      out += "credence_http_request_duration_seconds_bucket{" + label + ",le=\"" + buf + "\"} " +
             std::to_string(cumulative) + "\n";
    }
    cumulative += h.counts.back();
    out += "credence_http_request_duration_seconds_bucket{" + label + ",le=\"+Inf\"} " + std::to_string(cumulative) +
           "\n";
    std::snprintf(buf, sizeof buf, "%.6f", h.sum);
    out += "credence_http_request_duration_seconds_sum{" + label + "} " + buf + "\n";
    out += "credence_http_request_duration_seconds_count{" + label + "} " + std::to_string(h.total) + "\n";
  }
  return out;
}

}  // namespace credence::http
