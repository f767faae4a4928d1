#pragma once
// Sandboxed Lua 5.4 guard scripts (docs/plugins-lua.md, decisions.md section 13).
//
// A tenant's script is compiled once (Compile, or ScriptCache in
// script_cache.h) and evaluated per guarded action in a fresh, capped
// lua_State (Evaluate): nothing one call leaves behind reaches the next, and
// no state is ever shared between calls, scripts or tenants.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/result.h"

namespace credence::plugins::lua {

// Per-call limits. Work done inside the C library functions the hook cannot
// see (string.rep, the pattern functions, table.concat/move/insert/remove/sort)
// is charged to the same instruction budget.
struct Limits {
  int64_t instruction_budget = 1'000'000;  // VM instructions per call (count hook)
  size_t memory_bytes = 8u << 20;          // per call, enforced by a capped allocator
  int64_t timeout_ms = 50;                 // wall clock per call, checked in the hook
};

struct Verdict {
  enum class Kind { kAllow, kDeny, kError };
  Kind kind = Kind::kAllow;
  std::string reason_code, message;  // kDeny
  std::string metadata_json = "{}";  // kDeny: a JSON object
  std::string error_kind;            // kError: "budget" | "memory" | "timeout" | "runtime" | "bad_result"
  std::string error;                 // kError: a short message (never more than 500 bytes)
  int64_t instructions = 0;          // used (to the hook's granularity plus charged C work)
};

class CompiledScript;
Result<std::shared_ptr<const CompiledScript>> Compile(std::string_view source, std::string_view chunk_name);

// A script compiled from source text. Immutable; safe to share between threads.
// Only Compile makes one (its bytecode is loaded without verification).
class CompiledScript {
  struct Token {
    explicit Token() = default;
  };
  friend Result<std::shared_ptr<const CompiledScript>> Compile(std::string_view source, std::string_view chunk_name);

 public:
  CompiledScript(Token /*only Compile*/, std::string chunk_name, std::string source, std::string bytecode)
      : chunk_name_(std::move(chunk_name)), source_(std::move(source)), bytecode_(std::move(bytecode)) {}
  const std::string& chunk_name() const { return chunk_name_; }
  const std::string& source() const { return source_; }
  // Made by lua_dump from our own text compilation; the only binary chunk
  // ever loaded.
  const std::string& bytecode() const { return bytecode_; }

 private:
  std::string chunk_name_;
  std::string source_;
  std::string bytecode_;
};

inline constexpr size_t kMaxSourceBytes = 64u << 10;

// Compiles a tenant's script (text only: binary chunks are refused). A syntax
// error, a binary chunk or a source over 64 KiB is Error::Validation naming
// field "source" with Lua's message ("<chunk_name>:<line>: ...").
Result<std::shared_ptr<const CompiledScript>> Compile(std::string_view source, std::string_view chunk_name);

// Runs the script's global `guard(ctx)` on `context_json` (a JSON object:
// {action, tenantId, userId, entityId, properties}) in a fresh sandboxed state;
// ctx is a read-only view of it. The guard returns
//   true                                          -> kAllow
//   false, reasonCode[, message[, metadata]]      -> kDeny
//   {allow=bool, reasonCode=, message=, metadata=} -> kAllow or kDeny
// Anything else is kError "bad_result". Never throws; a script that errors or
// exceeds a limit is kError (callers treat it as allow and report it). A
// verdict returned after a limit was hit is not used.
Verdict Evaluate(const CompiledScript& script, std::string_view context_json, const Limits& limits = {});

}  // namespace credence::plugins::lua
