#pragma once
// The per-call sandbox: a capped allocator, the instruction/deadline hook and
// the restricted standard library (docs/plugins-lua.md). Internal to
// plugins/lua.
#include <chrono>
#include <cstddef>
#include <cstdint>

#include <lua.hpp>

#include "plugins/lua/lua_guard.h"

namespace credence::plugins::lua::internal {

// VM instructions between two calls of the count hook (and deadline checks).
inline constexpr int kHookEvery = 100;

enum class Tripped { kNone, kBudget, kMemory, kTimeout };

// Everything one call's limits need; lives on the caller's stack for the
// lifetime of the lua_State (reached from the state's extra space).
struct CallState {
  explicit CallState(const Limits& l)
      : limits(l), deadline(std::chrono::steady_clock::now() + std::chrono::milliseconds(l.timeout_ms)) {}
  Limits limits;
  std::chrono::steady_clock::time_point deadline;
  size_t memory_used = 0;
  bool memory_refused = false;  // the allocator refused a request: the call fails as "memory"
  int64_t instructions = 0;     // counted by the hook plus charged C work
  Tripped tripped = Tripped::kNone;
};

// The capped allocator (ud is a CallState*). The cap is a hard ceiling: the
// first refused allocation fails the call, even if Lua's emergency collection
// would have found room.
void* CappedAlloc(void* ud, void* ptr, size_t osize, size_t nsize);

// A new state using CappedAlloc over `cs`, with the count hook installed and
// `cs` in its extra space; nullptr if the cap cannot hold an empty state.
// Nothing else is opened yet.
lua_State* NewState(CallState& cs);

// Opens the sandboxed libraries into `L`. Raises Lua errors (call it in
// protected mode).
void OpenSandbox(lua_State* L);

CallState& StateOf(lua_State* L);

// Adds `units` of C work to the budget; raises the budget error when spent.
void Charge(lua_State* L, int64_t units);

// Marks the call as failed with `kind` (the first kind sticks), makes the hook
// fire on every instruction from now on, and raises a Lua error.
[[noreturn]] void Trip(lua_State* L, Tripped kind);

const char* TrippedName(Tripped t);  // "budget", "memory", "timeout"

}  // namespace credence::plugins::lua::internal
