#include "trust/source_cache.h"

#include <mutex>

#include "storage/session.h"

namespace credence::trust {
namespace {

constexpr storage::TenantQuery kGeneration{"trust.generation",
                                           "SELECT generation FROM trust_generations WHERE tenant_id = $1"};

// The same source with its time-derived fields for `now`: itself when they
// already are, else a derived copy (sharing its memo).
std::shared_ptr<const ResolvedSource> DerivedFor(const std::shared_ptr<const ResolvedSource>& source, TimeMs now) {
  const SourceState& s = source->state;
  if (!s.expiry_facts) return source;
  const auto st = lifecycle::ComputeExpiryStatus(*s.expiry_facts, s.windows, now);
  if (st.status == s.status && st.expiry_at == s.expiry_at && st.days_until_expiry == s.days_until_expiry)
    return source;
  auto copy = std::make_shared<ResolvedSource>(*source);
  DeriveAt(copy->state, now);
  return copy;
}

}  // namespace

int64_t SourceCache::CurrentGeneration(storage::TenantSession& tenant) {
  const auto rows = tenant.Run(kGeneration);
  return rows.empty() ? 0 : rows.front().Int(0);
}

std::optional<SourceCache::MemoryHit> SourceCache::ResolveFromMemory(const std::string& tenant_id,
                                                                     const std::vector<std::string>& source_ids,
                                                                     const std::string& language, TimeMs now) {
  if (!language.empty()) return std::nullopt;
  MemoryHit hit;
  std::vector<size_t> rederived;
  {
    std::shared_lock lock(mu_);
    auto it = tenants_.find(tenant_id);
    if (it == tenants_.end() || !it->second.config) return std::nullopt;
    hit.generation = it->second.generation;
    hit.resolution.config = it->second.config;
    hit.resolution.sources.resize(source_ids.size());
    for (size_t i = 0; i < source_ids.size(); ++i) {
      auto found = it->second.sources.find(source_ids[i]);
      if (found == it->second.sources.end()) return std::nullopt;
      hit.resolution.sources[i] = DerivedFor(found->second, now);
      if (hit.resolution.sources[i] != found->second) rederived.push_back(i);
    }
  }
  if (!rederived.empty()) KeepDerived(tenant_id, hit.generation, source_ids, hit.resolution, rederived);
  return hit;
}

void SourceCache::KeepDerived(const std::string& tenant_id, int64_t generation,
                              const std::vector<std::string>& source_ids, const SharedResolution& resolution,
                              const std::vector<size_t>& rederived) {
  std::unique_lock lock(mu_);
  auto it = tenants_.find(tenant_id);
  if (it == tenants_.end() || it->second.generation != generation) return;
  for (size_t i : rederived) it->second.sources.insert_or_assign(source_ids[i], resolution.sources[i]);
}

SharedResolution SourceCache::Resolve(storage::TenantSession& tenant, const std::vector<std::string>& source_ids,
                                      const std::string& language, TimeMs now) {
  SharedResolution out;
  if (!language.empty()) {
    Resolution fresh = ResolveSources(tenant, source_ids, language, now);
    out.sources.reserve(fresh.sources.size());
    for (auto& s : fresh.sources) out.sources.push_back(std::make_shared<const ResolvedSource>(std::move(s)));
    out.config = std::make_shared<const ContextConfig>(std::move(fresh.config));
    return out;
  }
  // First statement of the snapshot: misses below are read at this generation.
  const int64_t generation = CurrentGeneration(tenant);

  out.sources.resize(source_ids.size());
  std::vector<size_t> missing;
  std::vector<size_t> rederived;
  {
    std::shared_lock lock(mu_);
    auto it = tenants_.find(tenant.tenant_id());
    const bool current = it != tenants_.end() && it->second.generation == generation;
    for (size_t i = 0; i < source_ids.size(); ++i) {
      if (current) {
        if (auto hit = it->second.sources.find(source_ids[i]); hit != it->second.sources.end()) {
          out.sources[i] = DerivedFor(hit->second, now);
          if (out.sources[i] != hit->second) rederived.push_back(i);
          continue;
        }
      }
      missing.push_back(i);
    }
    if (current) out.config = it->second.config;
  }

  std::vector<std::string> ids;
  Resolution fresh;
  if (!missing.empty()) {
    ids.reserve(missing.size());
    for (size_t i : missing) ids.push_back(source_ids[i]);
    fresh = ResolveSources(tenant, ids, language, now);
    out.config = std::make_shared<const ContextConfig>(std::move(fresh.config));
    for (size_t j = 0; j < missing.size(); ++j)
      out.sources[missing[j]] = std::make_shared<const ResolvedSource>(std::move(fresh.sources[j]));
  }
  if (missing.empty() && rederived.empty()) return out;

  // Keep what was read (and what was derived again) for the next requests.
  std::unique_lock lock(mu_);
  TenantSources& cached = tenants_[tenant.tenant_id()];
  if (generation > cached.generation || cached.sources.size() + missing.size() > max_per_tenant_) {
    cached.sources.clear();
    cached.generation = generation;
    cached.config.reset();
  }
  if (cached.generation == generation) {
    if (!cached.config) cached.config = out.config;
    for (size_t i : missing) cached.sources.insert_or_assign(source_ids[i], out.sources[i]);
    for (size_t i : rederived) cached.sources.insert_or_assign(source_ids[i], out.sources[i]);
  }
  return out;
}

}  // namespace credence::trust
