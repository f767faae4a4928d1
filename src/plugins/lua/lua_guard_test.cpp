#include "plugins/lua/lua_guard.h"

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <boost/json.hpp>
#include <lua.hpp>

#include "plugins/lua/internal/engine.h"

namespace credence::plugins::lua {
namespace {

constexpr std::string_view kContext = R"({"action":"Entry.Publish","tenantId":"t1","userId":"u1","entityId":"e1",
  "properties":{"title":"Refund policy","wordCount":420,"tags":["billing","policy"],"draft":false,
  "author":{"id":"u2","role":"Editor"},"score":0.5}})";

std::shared_ptr<const CompiledScript> MustCompile(std::string_view source) {
  auto r = Compile(source, "test/guard");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().fields.empty() ? r.error().detail : r.error().fields[0].message);
  return r.ok() ? r.value() : nullptr;
}

// The production limits with a wall clock that a loaded test machine cannot
// reach: these tests assert what the instruction budget and the memory
// limit stop; the one test of the clock sets its own.
Limits TestLimits() {
  Limits limits;
  limits.timeout_ms = 10'000;
  return limits;
}

Verdict RunGuard(std::string_view source, const Limits& limits = TestLimits(), std::string_view context = kContext) {
  auto script = MustCompile(source);
  if (!script) return {};
  return Evaluate(*script, context, limits);
}

std::string Describe(const Verdict& v) {
  return "kind=" + std::to_string(static_cast<int>(v.kind)) + " error_kind=" + v.error_kind + " error=" + v.error +
         " reason=" + v.reason_code;
}

void ExpectError(const Verdict& v, std::string_view kind) {
  EXPECT_EQ(v.kind, Verdict::Kind::kError) << Describe(v);
  EXPECT_EQ(v.error_kind, kind) << Describe(v);
  EXPECT_LE(v.error.size(), 500u);
}

// --- results -----------------------------------------------------------------

TEST(LuaGuard, AllowWithTrue) {
  Verdict v = RunGuard("function guard(ctx) return true end");
  EXPECT_EQ(v.kind, Verdict::Kind::kAllow) << Describe(v);
  EXPECT_EQ(v.metadata_json, "{}");
}

TEST(LuaGuard, DenyWithFalseAndReason) {
  Verdict v = RunGuard("function guard(ctx) return false, 'too_short' end");
  ASSERT_EQ(v.kind, Verdict::Kind::kDeny) << Describe(v);
  EXPECT_EQ(v.reason_code, "too_short");
  EXPECT_EQ(v.message, "");
  EXPECT_EQ(v.metadata_json, "{}");
}

TEST(LuaGuard, DenyWithMessageAndMetadata) {
  Verdict v = RunGuard(R"(function guard(ctx)
    return false, 'needs_review', 'An editor must review this entry.', {minWords = 500, words = ctx.properties.wordCount}
  end)");
  ASSERT_EQ(v.kind, Verdict::Kind::kDeny) << Describe(v);
  EXPECT_EQ(v.reason_code, "needs_review");
  EXPECT_EQ(v.message, "An editor must review this entry.");
  EXPECT_EQ(boost::json::parse(v.metadata_json), boost::json::parse(R"({"minWords":500,"words":420})"));
}

TEST(LuaGuard, TableResultAllowAndDeny) {
  Verdict allow = RunGuard("function guard(ctx) return {allow = true} end");
  EXPECT_EQ(allow.kind, Verdict::Kind::kAllow) << Describe(allow);
  Verdict deny = RunGuard(R"(function guard(ctx)
    return {allow = false, reasonCode = 'blocked', message = 'no', metadata = {why = 'policy'}}
  end)");
  ASSERT_EQ(deny.kind, Verdict::Kind::kDeny) << Describe(deny);
  EXPECT_EQ(deny.reason_code, "blocked");
  EXPECT_EQ(deny.message, "no");
  EXPECT_EQ(deny.metadata_json, R"({"why":"policy"})");
}

TEST(LuaGuard, MetadataRoundTrip) {
  Verdict v = RunGuard(R"(function guard(ctx)
    return false, 'r', nil, {
      s = 'caf\u{e9} "quoted"\n', i = -7, f = 1.5, t = true, fl = false,
      list = {1, 'two', {three = 3}}, nested = {a = {b = {c = {}}}}, [5] = 'five'}
  end)");
  ASSERT_EQ(v.kind, Verdict::Kind::kDeny) << Describe(v);
  EXPECT_EQ(boost::json::parse(v.metadata_json), boost::json::parse(R"({
      "s":"café \"quoted\"\n","i":-7,"f":1.5,"t":true,"fl":false,
      "list":[1,"two",{"three":3}],"nested":{"a":{"b":{"c":{}}}},"5":"five"})"));
}

TEST(LuaGuard, BadResults) {
  for (std::string_view body : {
           "return nil",
           "return",
           "return 1",
           "return 'yes'",
           "return false",
           "return false, ''",
           "return false, 42",
           "return false, 'r', 42",
           "return false, 'r', 'm', 'not a table'",
           "return {reasonCode = 'r'}",
           "return {allow = 'no'}",
           "return false, string.rep('x', 200)",
           "return false, 'r', nil, {f = print or function() end}",
           "return false, 'r', nil, {x = 0/0}",
           "return false, 'r', nil, {1, 2}",
           "return false, 'r', '\\xff\\xfe'",
           "local t = {} t.self = t return false, 'r', nil, t",
           "return false, 'r', nil, {big = string.rep('x', 20000)}",
       }) {
    Verdict v = RunGuard("function guard(ctx) " + std::string(body) + " end");
    SCOPED_TRACE(body);
    ExpectError(v, "bad_result");
  }
}

TEST(LuaGuard, MissingGuardIsRuntime) {
  ExpectError(RunGuard("local x = 1"), "runtime");
  ExpectError(RunGuard("guard = 5"), "runtime");
}

TEST(LuaGuard, RuntimeErrorsCarryLineNumbers) {
  Verdict v = RunGuard("function guard(ctx)\n  local x = nil\n  return x.y\nend");
  ExpectError(v, "runtime");
  EXPECT_NE(v.error.find("test/guard:3:"), std::string::npos) << v.error;
  Verdict raised = RunGuard("function guard(ctx) error({}) end");
  ExpectError(raised, "runtime");
}

TEST(LuaGuard, LongErrorsAreCut) {
  Verdict v = RunGuard("function guard(ctx) error(string.rep('é', 2000)) end");
  ExpectError(v, "runtime");
  EXPECT_LE(v.error.size(), 500u);
}

// --- context -----------------------------------------------------------------

TEST(LuaGuard, ReadsContextFields) {
  Verdict v = RunGuard(R"(function guard(ctx)
    local p = ctx.properties
    assert(ctx.action == 'Entry.Publish' and ctx.tenantId == 't1' and ctx.userId == 'u1' and ctx.entityId == 'e1')
    assert(p.author.role == 'Editor' and p.wordCount == 420 and math.type(p.wordCount) == 'integer')
    assert(p.draft == false and p.score == 0.5 and p.missing == nil)
    assert(#p.tags == 2 and p.tags[1] == 'billing')
    local seen = {}
    for i, tag in ipairs(p.tags) do seen[#seen + 1] = tag end
    local keys = 0
    for k, val in pairs(p) do keys = keys + 1 end
    assert(keys == 6, 'pairs saw ' .. keys)
    if p.title:find('policy', 1, true) then return false, 'policy_pages_locked', 'Policies are locked.' end
    return true
  end)");
  ASSERT_EQ(v.kind, Verdict::Kind::kDeny) << Describe(v);
  EXPECT_EQ(v.reason_code, "policy_pages_locked");
  EXPECT_GT(v.instructions, 0);
}

TEST(LuaGuard, ContextIsReadOnly) {
  ExpectError(RunGuard("function guard(ctx) ctx.action = 'x' return true end"), "runtime");
  ExpectError(RunGuard("function guard(ctx) ctx.properties.author.role = 'Admin' return true end"), "runtime");
  ExpectError(RunGuard("function guard(ctx) setmetatable(ctx, nil) return true end"), "runtime");
  Verdict v = RunGuard("function guard(ctx) return getmetatable(ctx) == 'read-only' end");
  EXPECT_EQ(v.kind, Verdict::Kind::kAllow) << Describe(v);
}

// rawset skips __newindex; on a view it would write into the view's own
// table, and reads would then see the script's value instead of the context.
TEST(LuaGuard, RawsetOnTheContextIsAnError) {
  for (const char* source : {"function guard(ctx) rawset(ctx, 'action', 'Hub.Delete') return ctx.action end",
                             "function guard(ctx) rawset(ctx, 'extra', true) return true end",
                             "function guard(ctx) rawset(ctx.properties, 'title', 'x') return true end",
                             "function guard(ctx) rawset(ctx.properties.tags, 1, 'x') return true end",
                             "function guard(ctx) local r = rawset; r(ctx.properties.author, 'role', 'Admin') "
                             "return true end"}) {
    Verdict v = RunGuard(source);
    ExpectError(v, "runtime");
    EXPECT_NE(v.error.find("ctx is read-only"), std::string::npos) << source << ": " << v.error;
  }
  for (const char* source : {"function guard(ctx) table.insert(ctx.properties.tags, 'x') return true end",
                             "function guard(ctx) table.remove(ctx.properties.tags) return true end",
                             "function guard(ctx) table.sort(ctx.properties.tags, function(a, b) return a > b end) "
                             "return true end",
                             "function guard(ctx) table.move({'x'}, 1, 1, 1, ctx.properties.tags) return true end"})
    ExpectError(RunGuard(source), "runtime");
  // Caught with pcall, the write has still not happened.
  Verdict v = RunGuard(R"(function guard(ctx)
    local ok = pcall(rawset, ctx, 'action', 'Hub.Delete')
    assert(not ok)
    return ctx.action == 'Entry.Publish' and rawget(ctx, 'action') == nil
  end)");
  EXPECT_EQ(v.kind, Verdict::Kind::kAllow) << Describe(v);
  // The script's own tables are not views.
  v = RunGuard(R"(function guard(ctx)
    local t = setmetatable({}, {__newindex = function() error('no') end, __metatable = 'read-only'})
    rawset(t, 'k', 1)
    return rawset({}, 'k', 2).k == 2 and t.k == 1
  end)");
  EXPECT_EQ(v.kind, Verdict::Kind::kAllow) << Describe(v);
}

TEST(LuaGuard, ContextViewsInMetadataAreWrittenOut) {
  Verdict v = RunGuard(R"(function guard(ctx)
    return false, 'r', nil, {tags = ctx.properties.tags, author = ctx.properties.author}
  end)");
  ASSERT_EQ(v.kind, Verdict::Kind::kDeny) << Describe(v);
  EXPECT_EQ(boost::json::parse(v.metadata_json),
            boost::json::parse(R"({"tags":["billing","policy"],"author":{"id":"u2","role":"Editor"}})"));
}

TEST(LuaGuard, ErrorsAreValidUtf8) {
  Verdict v = RunGuard("function guard(ctx) error('bad \xff\xfe byte') end");
  ExpectError(v, "runtime");
  EXPECT_NE(v.error.find("bad ?? byte"), std::string::npos) << v.error;
}

TEST(LuaGuard, BadContextIsAnError) {
  auto script = MustCompile("function guard(ctx) return true end");
  ExpectError(Evaluate(*script, "[1,2]"), "runtime");
  ExpectError(Evaluate(*script, "{not json"), "runtime");
  std::string deep(100, '[');
  ExpectError(Evaluate(*script, R"({"a":)" + deep + std::string(100, ']') + "}"), "runtime");
}

TEST(LuaGuard, NoStateCarriesOverBetweenCalls) {
  auto script = MustCompile(R"(
    counter = (counter or 0) + 1
    function guard(ctx)
      string.upper = nil
      calls = (calls or 0) + 1
      if calls > 1 or counter > 1 then return false, 'leaked' end
      return math.random(1, 1000000) == FIRST or FIRST == nil
    end)");
  for (int i = 0; i < 3; ++i) {
    Verdict v = Evaluate(*script, kContext);
    EXPECT_EQ(v.kind, Verdict::Kind::kAllow) << Describe(v);
  }
  // math.random is seeded with a constant: the same sequence every call.
  auto random = MustCompile("function guard(ctx) return false, tostring(math.random(1, 1000000)) end");
  EXPECT_EQ(Evaluate(*random, kContext).reason_code, Evaluate(*random, kContext).reason_code);
}

// --- compilation ---------------------------------------------------------------

TEST(LuaGuard, CompileErrorsNameSourceAndLine) {
  auto r = Compile("function guard(ctx)\n  return true\n\nif x then", "tenant1/rules/publish");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::kInvalidArgument);
  ASSERT_EQ(r.error().fields.size(), 1u);
  EXPECT_EQ(r.error().fields[0].field, "source");
  EXPECT_NE(r.error().fields[0].message.find("tenant1/rules/publish:4:"), std::string::npos)
      << r.error().fields[0].message;
}

TEST(LuaGuard, BinaryChunksRefused) {
  lua_State* L = luaL_newstate();
  ASSERT_EQ(luaL_loadstring(L, "function guard(ctx) return true end"), LUA_OK);
  std::string dump;
  lua_dump(
      L,
      [](lua_State*, const void* p, size_t n, void* ud) {
        static_cast<std::string*>(ud)->append(static_cast<const char*>(p), n);
        return 0;
      },
      &dump, 0);
  lua_close(L);
  auto r = Compile(dump, "bin");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().fields.at(0).field, "source");
  // Even when the signature is hidden behind whitespace, text mode refuses it.
  auto hidden = Compile(" " + dump, "bin");
  EXPECT_FALSE(hidden.ok());
}

TEST(LuaGuard, LargeSourcesRefused) {
  std::string source = "function guard(ctx) return true end\n" + std::string(kMaxSourceBytes, ' ');
  auto r = Compile(source, "big");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().fields.at(0).field, "source");
}

TEST(LuaGuard, ReparsingTheSourceGivesTheSameVerdict) {
  auto script = MustCompile("function guard(ctx) return false, ctx.action end");
  Verdict a = internal::EvaluateWith(*script, kContext, {}, internal::LoadMode::kSource);
  Verdict b = internal::EvaluateWith(*script, kContext, {}, internal::LoadMode::kBytecode);
  EXPECT_EQ(a.reason_code, "Entry.Publish");
  EXPECT_EQ(b.reason_code, "Entry.Publish");
}

// --- sandbox -------------------------------------------------------------------

TEST(LuaSandbox, DangerousGlobalsAreAbsent) {
  Verdict v = RunGuard(R"(function guard(ctx)
    assert(io == nil and os == nil and debug == nil and package == nil and require == nil)
    assert(load == nil and loadfile == nil and dofile == nil and loadstring == nil and collectgarbage == nil)
    assert(string.dump == nil and ("x").dump == nil and print == nil)
    assert(coroutine == nil and warn == nil)
    assert(string.format and table.concat and math.floor and utf8.char and pcall)
    return true
  end)");
  EXPECT_EQ(v.kind, Verdict::Kind::kAllow) << Describe(v);
}

TEST(LuaSandbox, CallingThemIsARuntimeError) {
  for (std::string_view call :
       {"io.open('/etc/passwd')", "os.execute('touch /tmp/credence-lua-pwned')", "require('os')", "load('return 1')()",
        "dofile('/etc/passwd')", "string.dump(guard)", "debug.getinfo(1)", "loadfile('/etc/passwd')",
        "collectgarbage('count')", "getmetatable('').__index.dump(guard)"}) {
    SCOPED_TRACE(call);
    ExpectError(RunGuard("function guard(ctx) " + std::string(call) + " return true end"), "runtime");
  }
}

TEST(LuaSandbox, EndlessLoopStopsOnBudget) {
  auto start = std::chrono::steady_clock::now();
  Verdict v = RunGuard("function guard(ctx) while true do end end");
  ExpectError(v, "budget");
  EXPECT_GE(v.instructions, 1'000'000);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(LuaSandbox, CatchingTheBudgetErrorDoesNotHelp) {
  Verdict v = RunGuard(R"(function guard(ctx)
    for i = 1, 100 do pcall(function() while true do end end) end
    return true
  end)");
  ExpectError(v, "budget");
  Verdict x = RunGuard(R"(function guard(ctx)
    while true do xpcall(function() while true do end end, function(e) return e end) end
  end)");
  ExpectError(x, "budget");
}

TEST(LuaSandbox, TopLevelLoopStopsToo) {
  ExpectError(RunGuard("while true do end function guard(ctx) return true end"), "budget");
}

TEST(LuaSandbox, SlowScriptStopsOnTimeout) {
  Limits limits;
  limits.instruction_budget = INT64_MAX / 2;
  limits.timeout_ms = 30;
  auto start = std::chrono::steady_clock::now();
  Verdict v = RunGuard("function guard(ctx) local s = 0 while true do s = s + 1 end end", limits);
  ExpectError(v, "timeout");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

TEST(LuaSandbox, HugeStringStopsOnMemory) {
  ExpectError(RunGuard("function guard(ctx) local s = string.rep('x', 1 << 30) return true end"), "memory");
  ExpectError(RunGuard("function guard(ctx) local s = ('x'):rep(1 << 30, ',') return true end"), "memory");
  // Doubling: each step is small for the hook, the cap catches it.
  Limits limits;
  limits.instruction_budget = 1'000'000'000;
  limits.timeout_ms = 5000;
  ExpectError(RunGuard("function guard(ctx) local s = 'x' while true do s = s .. s end end", limits), "memory");
  // Caught with pcall: still a memory error.
  ExpectError(RunGuard(R"(function guard(ctx)
    local ok = pcall(string.rep, 'x', 1 << 30)
    return true
  end)"),
              "memory");
}

TEST(LuaSandbox, EmptyRepeatIsNotACpuBomb) {
  auto start = std::chrono::steady_clock::now();
  Verdict v = RunGuard("function guard(ctx) local s = string.rep('', 1 << 62) return #s == 0 end");
  EXPECT_EQ(v.kind, Verdict::Kind::kAllow) << Describe(v);
  ExpectError(RunGuard("function guard(ctx) local s = string.rep('x', 1 << 22) return true end"), "budget");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(1));
}

TEST(LuaSandbox, TableBombsStopOnMemory) {
  Limits limits;
  limits.instruction_budget = 1'000'000'000;
  limits.timeout_ms = 5000;
  ExpectError(RunGuard(R"(function guard(ctx)
    local function bomb(d) if d == 0 then return {} end return {bomb(d - 1), bomb(d - 1), x = {}} end
    return bomb(30) ~= nil
  end)",
                       limits),
              "memory");
  ExpectError(RunGuard("function guard(ctx) local t = {} for i = 1, 1e9 do t[i] = {i} end end", limits), "memory");
  // With the default limits either cap may come first; the call is stopped.
  Verdict v = RunGuard("function guard(ctx) local t = {} for i = 1, 1e9 do t[i] = {i, i, i} end end");
  EXPECT_EQ(v.kind, Verdict::Kind::kError) << Describe(v);
}

TEST(LuaSandbox, DeepRecursionIsAnError) {
  Limits limits;
  limits.instruction_budget = 1'000'000'000;
  limits.timeout_ms = 5000;
  Verdict v = RunGuard("local function f(n) return 1 + f(n + 1) end function guard(ctx) return f(1) end", limits);
  EXPECT_EQ(v.kind, Verdict::Kind::kError) << Describe(v);
  EXPECT_TRUE(v.error_kind == "runtime" || v.error_kind == "memory") << Describe(v);
  Verdict c = RunGuard(R"(function guard(ctx)
    local t = setmetatable({}, {__index = function(t, k) return t[k .. 'x'] end})
    return t.a
  end)",
                       limits);
  EXPECT_EQ(c.kind, Verdict::Kind::kError) << Describe(c);
}

TEST(LuaSandbox, CFunctionLoopsAreCharged) {
  auto start = std::chrono::steady_clock::now();
  for (std::string_view body : {
           "table.move({}, 1, 1 << 50, 2)",
           "table.concat(setmetatable({}, {__index = function() return 'x' end}), '', 1, 1 << 40)",
           "table.insert(setmetatable({}, {__len = function() return 1 << 50 end}), 1, 0)",
           "table.sort(setmetatable({}, {__len = function() return 1 << 30 end, __index = rawlen}))",
           "string.find(string.rep('a', 5000), string.rep('a*', 20) .. 'b')",
           "string.match(string.rep('a', 60000), '.-.-.-b')",
           "for w in string.gmatch(string.rep('a', 60000), '(a*)a*b') do end",
           "string.match(string.rep('a', 40), '^' .. string.rep('a?', 40) .. string.rep('a', 40) .. '$')",
       }) {
    SCOPED_TRACE(body);
    ExpectError(RunGuard("function guard(ctx) " + std::string(body) + " return true end"), "budget");
  }
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
}

TEST(LuaSandbox, OrdinaryPatternsStillWork) {
  Verdict v = RunGuard(R"(function guard(ctx)
    local text = string.rep('word ', 2000) .. 'id 12345 '
    assert(text:find('%d+') and text:match('id (%d+)') == '12345')
    assert(('user@example.com'):match('^[%w.]+@[%w.]+%.%a+$'))
    local n = 0 for w in text:gmatch('%a+') do n = n + 1 end
    assert(n == 2001, n)
    assert(select(2, text:gsub('word', 'w')) == 2000)
    return true
  end)");
  EXPECT_EQ(v.kind, Verdict::Kind::kAllow) << Describe(v);
}

TEST(LuaSandbox, OrdinaryTableWorkIsCheap) {
  Verdict v = RunGuard(R"(function guard(ctx)
    local t = {}
    for i = 1, 20000 do table.insert(t, i) end
    for i = 1, 10000 do table.remove(t) end
    table.insert(t, 1, 0)
    table.remove(t, 1)
    table.sort(t, function(a, b) return a > b end)
    return #t == 10000 and t[1] == 10000 and #table.concat(t, ',') > 0
  end)");
  EXPECT_EQ(v.kind, Verdict::Kind::kAllow) << Describe(v);
  EXPECT_LT(v.instructions, 1'000'000);
}

TEST(LuaSandbox, AddressesAreNotShown) {
  Verdict v = RunGuard(R"(function guard(ctx)
    assert(tostring({}) == 'table' and tostring(guard) == 'function' and tostring(ctx) == 'table')
    assert(tostring(setmetatable({}, {__name = 'x'})) == 'table')
    assert(tostring(setmetatable({}, {__tostring = function() return 'custom' end})) == 'custom')
    assert(string.format('%s|%5s|%d|%%|%s', {}, 'ab', 7, 1.5) == 'table|   ab|7|%|1.5')
    assert(("%s"):format(string.len) == 'function')
    assert(tostring(12) == '12' and tostring(nil) == 'nil')
    return true
  end)");
  EXPECT_EQ(v.kind, Verdict::Kind::kAllow) << Describe(v);
  ExpectError(RunGuard("function guard(ctx) return false, string.format('%p', {}) end"), "runtime");
}

TEST(LuaSandbox, FinalizersRefused) {
  Verdict v = RunGuard(R"(function guard(ctx)
    setmetatable({}, {__gc = function() while true do end end})
    return true
  end)");
  ExpectError(v, "runtime");
}

TEST(LuaSandbox, StringMetatableChangesStayInTheirCall) {
  auto script = MustCompile(R"(function guard(ctx)
    local before = ('x'):upper()
    getmetatable('').__index = function() return function() return 'hijacked' end end
    return before == 'X'
  end)");
  for (int i = 0; i < 2; ++i) EXPECT_EQ(Evaluate(*script, kContext).kind, Verdict::Kind::kAllow);
}

TEST(LuaSandbox, ConcurrentEvaluationsShareOneScript) {
  auto script = MustCompile(R"(function guard(ctx)
    local n = 0
    for i = 1, 1000 do n = n + i end
    if ctx.properties.wordCount < 500 then return false, 'too_short', 'n=' .. n, {words = ctx.properties.wordCount} end
    return true
  end)");
  // Eight threads on a loaded two-core machine: a thread may wait longer than
  // the default 50 ms wall clock, which is not what this test is about.
  Limits limits;
  limits.timeout_ms = 60'000;
  std::atomic<int> denies{0}, others{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 200; ++i) {
        Verdict v = Evaluate(*script, kContext, limits);
        if (v.kind == Verdict::Kind::kDeny && v.message == "n=500500" && v.metadata_json == R"({"words":420})") {
          ++denies;
        } else {
          ++others;
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  EXPECT_EQ(denies.load(), 1600);
  EXPECT_EQ(others.load(), 0);
}

}  // namespace
}  // namespace credence::plugins::lua
