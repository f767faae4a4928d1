// Per-call latency of a typical guard, with the compiled script loaded from
// our own bytecode (the default) and by re-parsing its source.
//   lua_guard_bench [calls]
#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "plugins/lua/internal/engine.h"
#include "plugins/lua/lua_guard.h"

namespace {

using credence::plugins::lua::Verdict;
namespace internal = credence::plugins::lua::internal;

// A typical content guard: a few field reads, a pattern, a loop over tags.
constexpr std::string_view kScript = R"(
local REQUIRED = {'billing', 'policy'}
local FORBIDDEN = {'internal only', 'do not share'}

local function has_tag(tags, wanted)
  for _, tag in ipairs(tags) do if tag == wanted then return true end end
  return false
end

function guard(ctx)
  if ctx.action ~= 'Entry.Publish' then return true end
  local p = ctx.properties
  if p.wordCount < 100 then
    return false, 'too_short', 'Entries need at least 100 words.', {words = p.wordCount, minimum = 100}
  end
  local title = p.title:lower()
  for _, phrase in ipairs(FORBIDDEN) do
    if title:find(phrase, 1, true) then return false, 'forbidden_phrase', 'The title uses a forbidden phrase.' end
  end
  for _, tag in ipairs(REQUIRED) do
    if not has_tag(p.tags, tag) then
      return {allow = false, reasonCode = 'missing_tag', message = 'Tag ' .. tag .. ' is required.', metadata = {tag = tag}}
    end
  end
  if not title:match('^%a') then return false, 'bad_title' end
  return true
end
)";

constexpr std::string_view kContext = R"({"action":"Entry.Publish","tenantId":"t1","userId":"u1","entityId":"e1",
  "properties":{"title":"Refund policy for annual plans","wordCount":420,"tags":["billing","policy","refunds"],
  "author":{"id":"u2","role":"Editor"}}})";

double Measure(const credence::plugins::lua::CompiledScript& script, internal::LoadMode mode, int calls,
               int64_t* instructions) {
  for (int i = 0; i < calls / 10; ++i) (void)internal::EvaluateWith(script, kContext, {}, mode);  // warm up
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) {
    Verdict v = internal::EvaluateWith(script, kContext, {}, mode);
    if (v.kind != Verdict::Kind::kAllow) {
      std::fprintf(stderr, "unexpected verdict: %s %s\n", v.error_kind.c_str(), v.error.c_str());
      std::exit(1);
    }
    *instructions = v.instructions;
  }
  std::chrono::duration<double, std::micro> elapsed = std::chrono::steady_clock::now() - start;
  return elapsed.count() / calls;
}

}  // namespace

int main(int argc, char** argv) {
  int calls = argc > 1 ? std::atoi(argv[1]) : 10000;
  auto compiled = credence::plugins::lua::Compile(kScript, "bench/guard");
  if (!compiled.ok()) {
    std::fprintf(stderr, "compile failed\n");
    return 1;
  }
  auto compile_start = std::chrono::steady_clock::now();
  for (int i = 0; i < 1000; ++i) (void)credence::plugins::lua::Compile(kScript, "bench/guard");
  std::chrono::duration<double, std::micro> compile = std::chrono::steady_clock::now() - compile_start;
  int64_t instructions = 0;
  double bytecode = Measure(*compiled.value(), internal::LoadMode::kBytecode, calls, &instructions);
  double source = Measure(*compiled.value(), internal::LoadMode::kSource, calls, &instructions);
  // The smallest memory cap this guard runs under: the state, the libraries,
  // the script and the context.
  size_t lo = 1024, hi = 8u << 20;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    credence::plugins::lua::Limits limits;
    limits.memory_bytes = mid;
    if (credence::plugins::lua::Evaluate(*compiled.value(), kContext, limits).kind == Verdict::Kind::kAllow) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  std::printf("smallest memory cap for this guard: %zu bytes\n", lo);
  std::printf("calls: %d, instructions per call: ~%lld\n", calls, static_cast<long long>(instructions));
  std::printf("compile (parse + dump): %.1f us\n", compile.count() / 1000);
  std::printf("evaluate, load our bytecode (default): %.1f us/call\n", bytecode);
  std::printf("evaluate, re-parse source:             %.1f us/call\n", source);
  return 0;
}
