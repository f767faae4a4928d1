#include "trust/source_cache.h"

#include <mutex>

#include "storage/session.h"

namespace credence::trust {
namespace {

constexpr storage::TenantQuery kGeneration{"trust.generation",
                                           "SELECT generation FROM trust_generations WHERE tenant_id = $1"};

}  // namespace

Resolution SourceCache::Resolve(storage::TenantSession& tenant, const std::vector<std::string>& source_ids,
                                const std::string& language, TimeMs now) {
  if (!language.empty()) return ResolveSources(tenant, source_ids, language, now);
  // First statement of the snapshot: misses below are read at this generation.
  const auto rows = tenant.Run(kGeneration);
  const int64_t generation = rows.empty() ? 0 : rows.front().Int(0);

  Resolution out;
  out.sources.resize(source_ids.size());
  std::vector<size_t> missing;
  {
    std::shared_lock lock(mu_);
    auto it = tenants_.find(tenant.tenant_id());
    const bool current = it != tenants_.end() && it->second.generation == generation;
    for (size_t i = 0; i < source_ids.size(); ++i) {
      if (current) {
        if (auto hit = it->second.sources.find(source_ids[i]); hit != it->second.sources.end()) {
          out.sources[i] = hit->second;
          continue;
        }
      }
      missing.push_back(i);
    }
    if (current) out.config = it->second.config;
  }
  if (missing.empty()) {
    for (auto& s : out.sources) DeriveAt(s.state, now);
    return out;
  }

  std::vector<std::string> ids;
  ids.reserve(missing.size());
  for (size_t i : missing) ids.push_back(source_ids[i]);
  Resolution fresh = ResolveSources(tenant, ids, language, now);
  out.config = fresh.config;
  {
    std::unique_lock lock(mu_);
    TenantSources& cached = tenants_[tenant.tenant_id()];
    if (generation > cached.generation || cached.sources.size() + ids.size() > max_per_tenant_) {
      cached.sources.clear();
      cached.generation = generation;
    }
    if (cached.generation == generation) {
      cached.config = fresh.config;
      for (size_t j = 0; j < ids.size(); ++j) cached.sources.insert_or_assign(ids[j], fresh.sources[j]);
    }
  }
  for (size_t j = 0; j < missing.size(); ++j) out.sources[missing[j]] = std::move(fresh.sources[j]);

  for (auto& s : out.sources) DeriveAt(s.state, now);
  return out;
}

}  // namespace credence::trust
