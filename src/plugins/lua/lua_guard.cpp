#include "plugins/lua/lua_guard.h"

#include <cstring>

#include <boost/json.hpp>
#include <lua.hpp>

#include "plugins/lua/internal/convert.h"
#include "plugins/lua/internal/engine.h"
#include "plugins/lua/internal/sandbox.h"

namespace credence::plugins::lua {
namespace {

using internal::CallState;
using internal::Tripped;

constexpr size_t kMaxErrorBytes = 500;
constexpr size_t kMaxReasonCodeBytes = 128;
constexpr size_t kMaxMessageBytes = 2000;
constexpr size_t kMaxContextBytes = 1u << 20;
constexpr size_t kCompileMemory = 64u << 20;

// Cuts `s` to `max` bytes without splitting a UTF-8 sequence.
std::string Truncate(std::string_view s, size_t max) {
  if (s.size() <= max) return std::string(s);
  size_t n = max;
  while (n > 0 && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
  return std::string(s.substr(0, n));
}

// Valid UTF-8 for logs and JSON reports: invalid bytes become '?'.
std::string SanitizeUtf8(std::string_view s) {
  if (internal::ValidUtf8(s.data(), s.size())) return std::string(s);
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3 : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (len > 0 && i + len <= s.size() && internal::ValidUtf8(s.data() + i, len)) {
      out.append(s.substr(i, len));
      i += len;
    } else {
      out += '?';
      ++i;
    }
  }
  return out;
}

Error SourceError(std::string message) { return Error::Validation({{"source", std::move(message)}}); }

struct CompileJob {
  std::string_view source;
  const char* chunk_name;
  std::string bytecode;
};

int DumpWriter(lua_State* /*L*/, const void* p, size_t size, void* ud) {
  static_cast<std::string*>(ud)->append(static_cast<const char*>(p), size);
  return 0;
}

int CompileProtected(lua_State* L) {
  auto* job = static_cast<CompileJob*>(lua_touserdata(L, 1));
  if (luaL_loadbufferx(L, job->source.data(), job->source.size(), job->chunk_name, "t") != LUA_OK) {
    return lua_error(L);
  }
  lua_dump(L, DumpWriter, &job->bytecode, 0);  // not stripped: runtime errors keep line numbers
  return 0;
}

// One evaluation's inputs and outputs, reached from the protected function.
struct EvalJob {
  const CompiledScript* script;
  const std::string* chunk_name;
  const boost::json::value* context;
  internal::LoadMode mode;
  Verdict* verdict;
  const char* bad_result = nullptr;  // set when the guard's result was refused
};

int BadResult(lua_State* L, EvalJob* job, const char* why) {
  job->bad_result = why;
  return luaL_error(L, "%s", why);
}

// Reads a string field for the verdict; false if present and not a short
// valid string.
bool ReadText(lua_State* L, int idx, size_t max, std::string* out) {
  if (lua_type(L, idx) != LUA_TSTRING) return false;
  size_t n = 0;
  const char* s = lua_tolstring(L, idx, &n);
  if (n > max || !internal::ValidUtf8(s, n)) return false;
  out->assign(s, n);
  return true;
}

// The deny form: reasonCode, message, metadata at idx, idx+1, idx+2 (the
// latter two may be nil).
int ReadDeny(lua_State* L, EvalJob* job, int idx) {
  Verdict& v = *job->verdict;
  if (!ReadText(L, idx, kMaxReasonCodeBytes, &v.reason_code) || v.reason_code.empty()) {
    return BadResult(L, job, "a denial needs a reasonCode: a non-empty string of at most 128 bytes");
  }
  if (!lua_isnil(L, idx + 1) && !ReadText(L, idx + 1, kMaxMessageBytes, &v.message)) {
    return BadResult(L, job, "message must be a UTF-8 string of at most 2000 bytes");
  }
  if (!lua_isnil(L, idx + 2)) {
    if (lua_type(L, idx + 2) != LUA_TTABLE) return BadResult(L, job, "metadata must be a table");
    std::string* out = &v.metadata_json;
    out->clear();
    const char* why = nullptr;
    if (!internal::AppendJson(L, idx + 2, out, &why)) return BadResult(L, job, why);
    if (out->front() != '{') return BadResult(L, job, "metadata must be a table with string keys (a JSON object)");
  }
  v.kind = Verdict::Kind::kDeny;
  return 0;
}

int EvaluateProtected(lua_State* L) {
  auto* job = static_cast<EvalJob*>(lua_touserdata(L, 1));
  lua_settop(L, 0);
  internal::OpenSandbox(L);

  const std::string& code =
      job->mode == internal::LoadMode::kBytecode ? job->script->bytecode() : job->script->source();
  const char* mode = job->mode == internal::LoadMode::kBytecode ? "b" : "t";
  if (luaL_loadbufferx(L, code.data(), code.size(), job->chunk_name->c_str(), mode) != LUA_OK) return lua_error(L);
  lua_call(L, 0, 0);

  if (lua_getglobal(L, "guard") != LUA_TFUNCTION) {
    return luaL_error(L, "the script defines no global function guard(ctx)");
  }
  internal::PushReadOnly(L, *job->context);
  lua_call(L, 1, LUA_MULTRET);
  if (internal::StateOf(L).tripped != Tripped::kNone || internal::StateOf(L).memory_refused) return 0;

  int results = lua_gettop(L);
  if (results == 0) return BadResult(L, job, "guard returned nothing: return true, or false and a reasonCode");
  if (lua_checkstack(L, 3) == 0) return BadResult(L, job, "guard returned too many values");
  lua_settop(L, results + 3);  // nil-pad the optional deny values
  switch (lua_type(L, 1)) {
    case LUA_TBOOLEAN:
      if (lua_toboolean(L, 1) != 0) {
        job->verdict->kind = Verdict::Kind::kAllow;
        return 0;
      }
      return ReadDeny(L, job, 2);
    case LUA_TTABLE: {
      lua_settop(L, 1);
      lua_pushliteral(L, "allow");
      if (lua_rawget(L, 1) != LUA_TBOOLEAN) return BadResult(L, job, "a result table needs allow = true or false");
      if (lua_toboolean(L, 2) != 0) {
        job->verdict->kind = Verdict::Kind::kAllow;
        return 0;
      }
      for (const char* field : {"reasonCode", "message", "metadata"}) {
        lua_pushstring(L, field);
        lua_rawget(L, 1);
      }
      return ReadDeny(L, job, 3);
    }
    default:
      return BadResult(L, job, "guard must return true, false and a reasonCode, or a result table");
  }
}

Verdict ErrorVerdict(std::string kind, std::string_view message, int64_t instructions) {
  Verdict v;
  v.kind = Verdict::Kind::kError;
  v.error_kind = std::move(kind);
  v.error = Truncate(SanitizeUtf8(message), kMaxErrorBytes);
  v.instructions = instructions;
  return v;
}

}  // namespace

Result<std::shared_ptr<const CompiledScript>> Compile(std::string_view source, std::string_view chunk_name) {
  if (source.size() > kMaxSourceBytes) return SourceError("The script is larger than 64 KiB.");
  if (source.substr(0, std::strlen(LUA_SIGNATURE)) == LUA_SIGNATURE) {
    return SourceError("Binary (precompiled) chunks are not accepted; upload the script's source text.");
  }
  std::string name = "=" + std::string(chunk_name);
  CompileJob job{source, name.c_str(), {}};
  internal::CallState cs(Limits{INT64_MAX, kCompileMemory, 86'400'000});
  lua_State* L = lua_newstate(internal::CappedAlloc, &cs);
  if (L == nullptr) return Error::Internal("Lua could not allocate a state.");
  lua_pushcfunction(L, CompileProtected);
  lua_pushlightuserdata(L, &job);
  int status = lua_pcall(L, 1, 0, 0);
  if (status != LUA_OK) {
    std::string message = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "the script could not be compiled";
    lua_close(L);
    return SourceError(Truncate(SanitizeUtf8(message), kMaxErrorBytes));
  }
  lua_close(L);
  return std::make_shared<const CompiledScript>(CompiledScript::Token{}, std::string(chunk_name), std::string(source),
                                                std::move(job.bytecode));
}

Verdict Evaluate(const CompiledScript& script, std::string_view context_json, const Limits& limits) {
  return internal::EvaluateWith(script, context_json, limits, internal::LoadMode::kBytecode);
}

namespace internal {

Verdict EvaluateWith(const CompiledScript& script, std::string_view context_json, const Limits& limits, LoadMode mode) {
  if (context_json.size() > kMaxContextBytes) return ErrorVerdict("runtime", "the context is larger than 1 MiB", 0);
  boost::json::parse_options options;
  options.max_depth = kMaxContextDepth;
  boost::system::error_code ec;
  boost::json::value context = boost::json::parse(context_json, ec, {}, options);
  if (ec || !context.is_object()) return ErrorVerdict("runtime", "the context is not a JSON object", 0);

  CallState cs(limits);
  lua_State* L = NewState(cs);
  if (L == nullptr) return ErrorVerdict("memory", "memory limit exceeded", 0);
  std::string chunk_name = "=" + script.chunk_name();
  Verdict verdict;
  EvalJob job{&script, &chunk_name, &context, mode, &verdict};
  lua_pushcfunction(L, EvaluateProtected);
  lua_pushlightuserdata(L, &job);
  int status = lua_pcall(L, 1, 0, 0);

  int64_t instructions = cs.instructions;
  if (cs.tripped != Tripped::kNone || cs.memory_refused) {
    Tripped kind = cs.tripped != Tripped::kNone ? cs.tripped : Tripped::kMemory;
    const char* message = kind == Tripped::kBudget   ? "instruction budget exceeded"
                          : kind == Tripped::kMemory ? "memory limit exceeded"
                                                     : "time limit exceeded";
    verdict = ErrorVerdict(TrippedName(kind), message, instructions);
  } else if (status != LUA_OK) {
    std::string_view message =
        lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : "the script raised a non-string error";
    std::string kind = job.bad_result != nullptr ? "bad_result" : status == LUA_ERRMEM ? "memory" : "runtime";
    verdict = ErrorVerdict(std::move(kind), message, instructions);
  }
  verdict.instructions = instructions;
  lua_close(L);
  return verdict;
}

}  // namespace internal
}  // namespace credence::plugins::lua
