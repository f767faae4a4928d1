#include "plugins/lua/internal/sandbox.h"

#include <cmath>
#include <cstdlib>
#include <cstring>

#include "plugins/lua/internal/convert.h"

namespace credence::plugins::lua::internal {
namespace {

const char* TripMessage(Tripped t) {
  switch (t) {
    case Tripped::kBudget:
      return "instruction budget exceeded";
    case Tripped::kMemory:
      return "memory limit exceeded";
    case Tripped::kTimeout:
      return "time limit exceeded";
    case Tripped::kNone:
      break;
  }
  return "limit exceeded";
}

void Hook(lua_State* L, lua_Debug* /*ar*/) {
  CallState& cs = StateOf(L);
  cs.instructions += cs.tripped == Tripped::kNone ? kHookEvery : 1;
  // Once tripped, every instruction fails again: a script that catches the
  // error with pcall cannot go on.
  if (cs.tripped != Tripped::kNone) Trip(L, cs.tripped);
  if (cs.memory_refused) Trip(L, Tripped::kMemory);
  if (cs.instructions > cs.limits.instruction_budget) Trip(L, Tripped::kBudget);
  if (std::chrono::steady_clock::now() > cs.deadline) Trip(L, Tripped::kTimeout);
}

// Calls upvalue 1 (the library's original function) with this call's arguments.
int CallOriginal(lua_State* L) {
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_insert(L, 1);
  lua_call(L, lua_gettop(L) - 1, LUA_MULTRET);
  return lua_gettop(L);
}

int64_t Saturate(double d) { return d >= 9.0e18 ? INT64_MAX : static_cast<int64_t>(d); }

// string.rep: "" repeated 2^62 times loops in C without allocating; a large
// result is refused before the buffer is made.
int SafeRep(lua_State* L) {
  size_t l = 0, lsep = 0;
  luaL_checklstring(L, 1, &l);
  lua_Integer n = luaL_checkinteger(L, 2);
  luaL_optlstring(L, 3, "", &lsep);
  if (n <= 0 || l + lsep == 0) {
    lua_pushliteral(L, "");
    return 1;
  }
  CallState& cs = StateOf(L);
  double total = static_cast<double>(n) * static_cast<double>(l + lsep);
  if (total + static_cast<double>(cs.memory_used) > static_cast<double>(cs.limits.memory_bytes)) {
    cs.memory_refused = true;
    Trip(L, Tripped::kMemory);
  }
  Charge(L, n / 4 + 1);
  return CallOriginal(L);
}

// The worst case of Lua's backtracking matcher on a subject of n bytes: each
// quantifier (* + - and %b) that is not the pattern's last item can multiply
// the work by n, each '?' by 2, an unanchored search by n more.
double PatternCost(size_t n, const char* p, size_t m, bool plain) {
  double subject = static_cast<double>(n) + 1;
  double plen = static_cast<double>(m) + 1;
  if (plain) return subject * plen;
  bool anchored = m > 0 && p[0] == '^';
  int quantifiers = 0;
  int optionals = 0;  // each '?' may try both ways: doubles the work
  for (size_t i = anchored ? 1 : 0; i < m; ++i) {
    char c = p[i];
    // Followed only by capture ends (and an end anchor): nothing after it can
    // fail, so it never backtracks.
    size_t rest = i + 1;
    while (rest < m && p[rest] == ')') ++rest;
    bool last = rest == m || (rest + 1 == m && p[rest] == '$');
    if (c == '%' && i + 1 < m) {
      if (p[i + 1] == 'b' && !last) ++quantifiers;
      ++i;
    } else if ((c == '*' || c == '+' || c == '-') && !last) {
      ++quantifiers;
    } else if (c == '?' && !last) {
      ++optionals;
    }
  }
  return std::pow(subject, quantifiers + (anchored ? 0 : 1)) * std::pow(2.0, optionals) * plen;
}

// Pattern functions run in C, out of the hook's sight: refuse a call whose
// worst case exceeds 16 units of C work per remaining instruction, and charge
// the linear scan.
void CheckPattern(lua_State* L, bool plain_arg_at_4) {
  size_t n = 0, m = 0;
  luaL_checklstring(L, 1, &n);
  const char* p = luaL_checklstring(L, 2, &m);
  bool plain = plain_arg_at_4 && lua_toboolean(L, 4);
  if (!plain) plain = std::strpbrk(p, "^$*+?.([%-") == nullptr && std::strlen(p) == m;
  CallState& cs = StateOf(L);
  double allowance = 16.0 * static_cast<double>(cs.limits.instruction_budget - cs.instructions);
  if (PatternCost(n, p, m, plain) > allowance) {
    cs.instructions = cs.limits.instruction_budget;
    Trip(L, Tripped::kBudget);
  }
  Charge(L, static_cast<int64_t>(n / 16 + 1));
}

int SafeFind(lua_State* L) {
  CheckPattern(L, true);
  return CallOriginal(L);
}
int SafeMatch(lua_State* L) {
  CheckPattern(L, false);
  return CallOriginal(L);
}

// The length the table functions will use (luaL_len runs __len, which a
// script may make huge).
int64_t LengthOf(lua_State* L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE && !luaL_getmetafield(L, idx, "__len")) return 0;
  if (lua_type(L, idx) != LUA_TTABLE) lua_pop(L, 1);
  return static_cast<int64_t>(luaL_len(L, idx));
}

int SafeConcat(lua_State* L) {
  int64_t i = luaL_optinteger(L, 3, 1);
  int64_t j = lua_isnoneornil(L, 4) ? LengthOf(L, 1) : luaL_checkinteger(L, 4);
  if (j >= i) Charge(L, Saturate(static_cast<double>(j) - static_cast<double>(i) + 1));
  return CallOriginal(L);
}

int SafeMove(lua_State* L) {
  int64_t f = luaL_checkinteger(L, 2);
  int64_t e = luaL_checkinteger(L, 3);
  if (e >= f) Charge(L, Saturate(static_cast<double>(e) - static_cast<double>(f) + 1));
  return CallOriginal(L);
}

// sort and unpack walk #t elements in C.
int SafeByLength(lua_State* L) {
  int64_t n = LengthOf(L, 1);
  if (n > 0) Charge(L, n);
  return CallOriginal(L);
}

// insert and remove shift the elements after the position (appending and
// popping the last element cost nothing extra).
int SafeInsert(lua_State* L) {
  if (lua_gettop(L) >= 3) {
    int64_t n = LengthOf(L, 1);
    int64_t pos = luaL_checkinteger(L, 2);
    if (pos >= 1 && pos <= n) Charge(L, n - pos + 1);
  }
  return CallOriginal(L);
}

int SafeRemove(lua_State* L) {
  if (!lua_isnoneornil(L, 2)) {
    int64_t n = LengthOf(L, 1);
    int64_t pos = luaL_checkinteger(L, 2);
    if (pos >= 1 && pos < n) Charge(L, n - pos);
  }
  return CallOriginal(L);
}

// tostring and string.format("%s") of a table or function show its address
// ("table: 0x55..."), which tells a tenant where the server's heap is: they
// show the type name instead. A __tostring metamethod is honoured.
bool ShowsAddress(lua_State* L, int idx) {
  int t = lua_type(L, idx);
  if (t != LUA_TTABLE && t != LUA_TFUNCTION && t != LUA_TUSERDATA && t != LUA_TTHREAD && t != LUA_TLIGHTUSERDATA) {
    return false;
  }
  if (luaL_getmetafield(L, idx, "__tostring") == LUA_TNIL) return true;
  lua_pop(L, 1);
  return false;
}

int SafeTostring(lua_State* L) {
  luaL_checkany(L, 1);
  if (ShowsAddress(L, 1)) {
    lua_pushstring(L, luaL_typename(L, 1));
    return 1;
  }
  return CallOriginal(L);
}

int SafeFormat(lua_State* L) {
  size_t n = 0;
  const char* f = luaL_checklstring(L, 1, &n);
  int top = lua_gettop(L);
  int arg = 1;
  for (size_t i = 0; i < n; ++i) {
    if (f[i] != '%') continue;
    if (++i >= n) break;
    if (f[i] == '%') continue;
    ++arg;
    while (i < n && f[i] != '\0' && std::strchr("-+ #0123456789.", f[i]) != nullptr) ++i;
    if (i >= n) break;
    if (f[i] == 'p') return luaL_error(L, "string.format: '%%p' is not available");
    if (f[i] == 's' && arg <= top && ShowsAddress(L, arg)) {
      lua_pushstring(L, luaL_typename(L, arg));
      lua_replace(L, arg);
    }
  }
  return CallOriginal(L);
}

// A __gc finalizer runs with hooks off (and again at lua_close): refused.
int SafeSetmetatable(lua_State* L) {
  if (lua_type(L, 2) == LUA_TTABLE) {
    lua_pushliteral(L, "__gc");
    if (lua_rawget(L, 2) != LUA_TNIL) return luaL_error(L, "__gc metamethods are not allowed");
    lua_pop(L, 1);
  }
  return CallOriginal(L);
}

// rawset skips __newindex: on a view of the context it would write into the
// view's own (empty) table, which reads then see before the context.
int SafeRawset(lua_State* L) {
  if (IsReadOnlyView(L, 1)) return luaL_error(L, "ctx is read-only");
  return CallOriginal(L);
}

// xpcall's message handler would run while the hook is off: the handler runs
// after the protected call returns instead, as an ordinary call.
int SafeXpcall(lua_State* L) {
  luaL_checkany(L, 2);
  int n = lua_gettop(L);
  lua_pushvalue(L, 1);
  for (int i = 3; i <= n; ++i) lua_pushvalue(L, i);
  if (lua_pcall(L, n - 2, LUA_MULTRET, 0) == LUA_OK) {
    lua_pushboolean(L, 1);
    lua_insert(L, n + 1);
    return lua_gettop(L) - n;
  }
  if (StateOf(L).tripped != Tripped::kNone) return lua_error(L);
  lua_pushvalue(L, 2);
  lua_insert(L, n + 1);
  lua_call(L, 1, 1);
  lua_pushboolean(L, 0);
  lua_insert(L, n + 1);
  return 2;
}

// Replaces table[name] (table at the top of the stack) by `fn` closing over
// the original.
void Wrap(lua_State* L, const char* name, lua_CFunction fn) {
  lua_getfield(L, -1, name);
  lua_pushcclosure(L, fn, 1);
  lua_setfield(L, -2, name);
}

void Remove(lua_State* L, const char* name) {
  lua_pushnil(L);
  lua_setfield(L, -2, name);
}

}  // namespace

void* CappedAlloc(void* ud, void* ptr, size_t osize, size_t nsize) {
  auto* cs = static_cast<CallState*>(ud);
  size_t old = ptr != nullptr ? osize : 0;
  if (nsize == 0) {
    std::free(ptr);  // NOLINT(cppcoreguidelines-no-malloc): Lua's allocator contract
    cs->memory_used -= old;
    return nullptr;
  }
  if (nsize > old && cs->memory_used - old + nsize > cs->limits.memory_bytes) {
    cs->memory_refused = true;
    return nullptr;
  }
  void* p = std::realloc(ptr, nsize);  // NOLINT(cppcoreguidelines-no-malloc)
  if (p == nullptr) {
    cs->memory_refused = true;
    return nullptr;
  }
  cs->memory_used = cs->memory_used - old + nsize;
  return p;
}

lua_State* NewState(CallState& cs) {
  lua_State* L = lua_newstate(CappedAlloc, &cs);
  if (L == nullptr) return nullptr;
  *static_cast<CallState**>(lua_getextraspace(L)) = &cs;
  lua_sethook(L, Hook, LUA_MASKCOUNT, kHookEvery);
  return L;
}

CallState& StateOf(lua_State* L) { return **static_cast<CallState**>(lua_getextraspace(L)); }

void Charge(lua_State* L, int64_t units) {
  CallState& cs = StateOf(L);
  cs.instructions = units > INT64_MAX - cs.instructions ? INT64_MAX : cs.instructions + units;
  if (cs.instructions > cs.limits.instruction_budget) Trip(L, Tripped::kBudget);
}

void Trip(lua_State* L, Tripped kind) {
  CallState& cs = StateOf(L);
  if (cs.tripped == Tripped::kNone) cs.tripped = kind;
  lua_sethook(L, Hook, LUA_MASKCOUNT, 1);
  luaL_error(L, "%s", TripMessage(cs.tripped));
  std::abort();  // luaL_error does not return
}

const char* TrippedName(Tripped t) {
  switch (t) {
    case Tripped::kBudget:
      return "budget";
    case Tripped::kMemory:
      return "memory";
    case Tripped::kTimeout:
      return "timeout";
    case Tripped::kNone:
      break;
  }
  return "";
}

void OpenSandbox(lua_State* L) {
  luaL_requiref(L, LUA_GNAME, luaopen_base, 1);
  for (const char* name : {"dofile", "loadfile", "load", "loadstring", "require", "collectgarbage", "print", "warn"}) {
    Remove(L, name);
  }
  Wrap(L, "setmetatable", SafeSetmetatable);
  Wrap(L, "rawset", SafeRawset);
  Wrap(L, "xpcall", SafeXpcall);
  Wrap(L, "tostring", SafeTostring);
  lua_pop(L, 1);

  luaL_requiref(L, LUA_STRLIBNAME, luaopen_string, 1);
  Remove(L, "dump");
  Wrap(L, "rep", SafeRep);
  Wrap(L, "find", SafeFind);
  Wrap(L, "match", SafeMatch);
  Wrap(L, "gmatch", SafeMatch);
  Wrap(L, "gsub", SafeMatch);
  Wrap(L, "format", SafeFormat);
  lua_pop(L, 1);

  luaL_requiref(L, LUA_TABLIBNAME, luaopen_table, 1);
  Wrap(L, "concat", SafeConcat);
  Wrap(L, "move", SafeMove);
  Wrap(L, "insert", SafeInsert);
  Wrap(L, "remove", SafeRemove);
  Wrap(L, "sort", SafeByLength);
  Wrap(L, "unpack", SafeByLength);
  lua_pop(L, 1);

  // math.random is kept, seeded with a constant: a verdict depends only on
  // the script and its context.
  luaL_requiref(L, LUA_MATHLIBNAME, luaopen_math, 1);
  lua_getfield(L, -1, "randomseed");
  lua_pushinteger(L, 0);
  lua_call(L, 1, 0);
  lua_pop(L, 1);

  luaL_requiref(L, LUA_UTF8LIBNAME, luaopen_utf8, 1);
  lua_pop(L, 1);
}

}  // namespace credence::plugins::lua::internal
