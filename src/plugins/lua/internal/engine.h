#pragma once
// Evaluate with a choice of how the compiled script is loaded into the fresh
// state, for the benchmark that decided the default (docs/plugins-lua.md).
#include <string_view>

#include "plugins/lua/lua_guard.h"

namespace credence::plugins::lua::internal {

enum class LoadMode {
  kBytecode,  // undump our own lua_dump of the text compilation (mode "b"); the default
  kSource,    // re-parse the source text (mode "t")
};

Verdict EvaluateWith(const CompiledScript& script, std::string_view context_json, const Limits& limits, LoadMode mode);

}  // namespace credence::plugins::lua::internal
