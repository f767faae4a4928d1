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

SourceCache::Lookup SourceCache::Find(const std::string& tenant_id, std::optional<int64_t> generation,
                                      std::span<const std::string_view> source_ids, TimeMs now, SharedResolution& out) {
  Lookup lookup;
  out.sources.assign(source_ids.size(), nullptr);
  std::shared_lock lock(mu_);
  auto it = tenants_.find(tenant_id);
  lookup.current = it != tenants_.end() && it->second.config && it->second.apps &&
                   (!generation || it->second.generation == *generation);
  if (lookup.current) {
    lookup.generation = it->second.generation;
    out.config = it->second.config;
    out.apps = it->second.apps;
  }
  for (size_t i = 0; i < source_ids.size(); ++i) {
    if (lookup.current) {
      if (auto hit = it->second.sources.find(source_ids[i]); hit != it->second.sources.end()) {
        out.sources[i] = DerivedFor(hit->second, now);
        if (out.sources[i] != hit->second) lookup.rederived.push_back(i);
        continue;
      }
    }
    lookup.missing.push_back(i);
  }
  return lookup;
}

void SourceCache::Keep(const std::string& tenant_id, int64_t generation, std::span<const std::string_view> source_ids,
                       const SharedResolution& out, const std::vector<size_t>& indexes) {
  if (indexes.empty()) return;
  std::unique_lock lock(mu_);
  TenantSources& cached = tenants_[tenant_id];
  if (generation > cached.generation || cached.sources.size() + indexes.size() > max_per_tenant_) {
    cached.sources.clear();
    cached.generation = generation;
    cached.config.reset();
    cached.apps.reset();
  }
  if (cached.generation != generation) return;  // read at an older generation than the cache holds
  if (!cached.config) cached.config = out.config;
  if (!cached.apps) cached.apps = out.apps;
  for (size_t i : indexes) cached.sources.insert_or_assign(std::string(source_ids[i]), out.sources[i]);
}

std::optional<SourceCache::MemoryHit> SourceCache::ResolveFromMemory(const std::string& tenant_id,
                                                                     std::span<const std::string_view> source_ids,
                                                                     const std::string& language, TimeMs now) {
  if (!language.empty()) return std::nullopt;
  MemoryHit hit;
  const Lookup lookup = Find(tenant_id, std::nullopt, source_ids, now, hit.resolution);
  if (!lookup.current || !lookup.missing.empty()) return std::nullopt;
  hit.generation = lookup.generation;
  Keep(tenant_id, hit.generation, source_ids, hit.resolution, lookup.rederived);
  return hit;
}

SharedResolution SourceCache::Resolve(storage::TenantSession& tenant, std::span<const std::string_view> source_ids,
                                      const std::string& language, TimeMs now) {
  SharedResolution out;
  if (!language.empty()) {
    Resolution fresh = ResolveSources(tenant, source_ids, language, now);
    out.sources.reserve(fresh.sources.size());
    for (auto& s : fresh.sources) out.sources.push_back(std::make_shared<const ResolvedSource>(std::move(s)));
    out.config = std::make_shared<const ContextConfig>(std::move(fresh.config));
    out.apps = std::make_shared<const AppProfiles>(LoadAppProfiles(tenant));
    return out;
  }
  // First statement of the snapshot: misses below are read at this generation.
  const int64_t generation = CurrentGeneration(tenant);
  Lookup lookup = Find(tenant.tenant_id(), generation, source_ids, now, out);
  if (!lookup.missing.empty()) {
    std::vector<std::string_view> ids;
    ids.reserve(lookup.missing.size());
    for (size_t i : lookup.missing) ids.push_back(source_ids[i]);
    Resolution fresh = ResolveSources(tenant, ids, language, now);
    out.config = std::make_shared<const ContextConfig>(std::move(fresh.config));
    for (size_t j = 0; j < lookup.missing.size(); ++j)
      out.sources[lookup.missing[j]] = std::make_shared<const ResolvedSource>(std::move(fresh.sources[j]));
  }
  if (!out.apps) out.apps = std::make_shared<const AppProfiles>(LoadAppProfiles(tenant));
  // Keep what was read (and what was derived again) for the next requests.
  std::vector<size_t> keep = std::move(lookup.missing);
  keep.insert(keep.end(), lookup.rederived.begin(), lookup.rederived.end());
  Keep(tenant.tenant_id(), generation, source_ids, out, keep);
  return out;
}

}  // namespace credence::trust
