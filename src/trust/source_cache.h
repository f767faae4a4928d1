#pragma once
// Resolved sources kept in memory per tenant, so an evaluation of sources
// that were resolved before costs no reads but one: the tenant's generation,
// which triggers bump on every write that can change a resolution
// (migration 502). Cached states are valid exactly while that generation is
// current. They are shared, immutable, between requests; a state whose
// time-derived fields (status, days until expiry) are out of date for `now`
// is derived again into a new one, which replaces it. Requests that ask for
// a language bypass the cache (the translation state is not part of the
// generation). Thread-safe; each node keeps its own.
#include <memory>
#include <optional>
#include <shared_mutex>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "trust/source_resolver.h"

namespace credence::trust {

struct SharedResolution {
  std::vector<std::shared_ptr<const ResolvedSource>> sources;  // in request order, derived for `now`
  std::shared_ptr<const ContextConfig> config;
  std::shared_ptr<const AppProfiles> apps;
};

class SourceCache {
 public:
  explicit SourceCache(size_t max_sources_per_tenant = 50'000) : max_per_tenant_(max_sources_per_tenant) {}

  // Same answer as ResolveSources in the same snapshot.
  SharedResolution Resolve(storage::TenantSession& tenant, std::span<const std::string_view> source_ids,
                           const std::string& language, TimeMs now);

  // Without touching the store: the sources when every one of them is
  // cached, with the generation they are valid at. The caller checks that
  // generation is still current in the transaction that records its
  // decision (CurrentGeneration), and resolves again when it is not.
  struct MemoryHit {
    SharedResolution resolution;
    int64_t generation = 0;
  };
  std::optional<MemoryHit> ResolveFromMemory(const std::string& tenant_id, std::span<const std::string_view> source_ids,
                                             const std::string& language, TimeMs now);

  static int64_t CurrentGeneration(storage::TenantSession& tenant);

 private:
  // What the cache holds for `source_ids` (at `generation`, or at whichever
  // it holds when none is given), derived for `now`, into `out`.
  struct Lookup {
    bool current = false;  // the tenant's entries are at the generation asked for
    int64_t generation = 0;
    std::vector<size_t> missing;    // not cached: out.sources[i] is empty
    std::vector<size_t> rederived;  // cached, derived again for `now`
  };
  Lookup Find(const std::string& tenant_id, std::optional<int64_t> generation,
              std::span<const std::string_view> source_ids, TimeMs now, SharedResolution& out);
  // Keeps out.sources[i] for every i of `indexes`, read at `generation`.
  void Keep(const std::string& tenant_id, int64_t generation, std::span<const std::string_view> source_ids,
            const SharedResolution& out, const std::vector<size_t>& indexes);

  struct TransparentHash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  struct TenantSources {
    int64_t generation = -1;
    // By the id as submitted; looked up by view, without building a string.
    std::unordered_map<std::string, std::shared_ptr<const ResolvedSource>, TransparentHash, std::equal_to<>> sources;
    std::shared_ptr<const ContextConfig> config;
    std::shared_ptr<const AppProfiles> apps;
  };
  size_t max_per_tenant_;
  std::shared_mutex mu_;
  std::unordered_map<std::string, TenantSources> tenants_;
};

}  // namespace credence::trust
