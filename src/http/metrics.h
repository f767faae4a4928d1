#pragma once
// Request counters by route template, method and status, and a latency
// histogram by route, exposed in the Prometheus text format. Each thread
// records into its own shard (an uncontended lock), merged at scrape time.
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "http/request.h"

namespace credence::http {

struct Route;

class Metrics {
 public:
  Metrics();
  ~Metrics();
  Metrics(const Metrics&) = delete;
  Metrics& operator=(const Metrics&) = delete;

  // `route` is nullptr for requests that matched no route.
  void Record(const Route* route, Method method, int status, double seconds);
  std::string RenderPrometheus() const;

 private:
  struct Shard;
  Shard& LocalShard();

  const uint64_t id_;  // unique per instance, never reused (unlike an address)
  mutable std::mutex shards_mu_;
  std::vector<std::unique_ptr<Shard>> shards_;  // guarded by shards_mu_
};

}  // namespace credence::http
