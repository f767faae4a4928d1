#include "plugins/lua/script_cache.h"

namespace credence::plugins::lua {

Result<std::shared_ptr<const CompiledScript>> ScriptCache::Get(const std::string& key, int64_t version,
                                                               std::string_view source) {
  {
    std::lock_guard lock(mu_);
    auto it = entries_.find(key);
    if (it != entries_.end() && it->second.version == version) {
      lru_.splice(lru_.begin(), lru_, it->second.lru);
      return it->second.script;
    }
  }
  CR_TRY_ASSIGN(auto compiled, Compile(source, key));
  std::lock_guard lock(mu_);
  auto it = entries_.find(key);
  if (it != entries_.end()) {
    it->second.version = version;
    it->second.script = compiled;
    lru_.splice(lru_.begin(), lru_, it->second.lru);
    return compiled;
  }
  while (entries_.size() >= capacity_) {
    entries_.erase(lru_.back());
    lru_.pop_back();
  }
  lru_.push_front(key);
  entries_.emplace(key, Entry{version, compiled, lru_.begin()});
  return compiled;
}

void ScriptCache::Erase(const std::string& key) {
  std::lock_guard lock(mu_);
  auto it = entries_.find(key);
  if (it == entries_.end()) return;
  lru_.erase(it->second.lru);
  entries_.erase(it);
}

size_t ScriptCache::size() const {
  std::lock_guard lock(mu_);
  return entries_.size();
}

}  // namespace credence::plugins::lua
