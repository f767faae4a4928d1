#pragma once
// Compiled scripts cached per (key, version), e.g. key "tenant/plugin/script".
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "plugins/lua/lua_guard.h"

namespace credence::plugins::lua {

// Thread-safe and bounded (least recently used entries go first). A key holds
// one version: asking for another version compiles `source` and replaces it.
// Compile errors are returned and not cached. Compilation runs outside the
// lock; two threads missing together may both compile (the last one stays).
class ScriptCache {
 public:
  explicit ScriptCache(size_t capacity = 1024) : capacity_(capacity == 0 ? 1 : capacity) {}

  Result<std::shared_ptr<const CompiledScript>> Get(const std::string& key, int64_t version, std::string_view source);

  void Erase(const std::string& key);
  size_t size() const;

 private:
  struct Entry {
    int64_t version;
    std::shared_ptr<const CompiledScript> script;
    std::list<std::string>::iterator lru;  // position in lru_
  };
  const size_t capacity_;
  mutable std::mutex mu_;
  std::unordered_map<std::string, Entry> entries_;  // guarded by mu_
  std::list<std::string> lru_;                      // guarded by mu_; front = most recent
};

}  // namespace credence::plugins::lua
