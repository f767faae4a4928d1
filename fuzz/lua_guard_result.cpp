// Lua guard results (src/plugins/lua): what a tenant's guard returns,
// turned into a verdict by Evaluate (internal/convert.* reads tables,
// strings and numbers back into JSON metadata).
//
// Input: the body of `guard(ctx)`, e.g. "return false, 'too_short', 'msg',
// {words = #ctx.properties.title}". It is compiled as a tenant's script is;
// one that does not compile is refused with a 400 naming "source".
//
// Invariants: nothing throws; a verdict is allow, a denial with a reason
// code and metadata that is a JSON object (valid UTF-8), or an error of a
// documented kind with a message of at most 500 bytes.
#include <boost/json/parse.hpp>

#include <set>
#include <string>
#include <string_view>

#include "core/error.h"
#include "core/text.h"
#include "plugins/lua/lua_guard.h"
#include "support/fuzz_support.h"

namespace lua = credence::plugins::lua;

namespace {

constexpr std::string_view kContext =
    R"({"action":"entry.publish","tenantId":"7d5c0a52-3f0e-4a8e-9d9b-2a8f7f0e1c11","userId":"u-1",)"
    R"("entityId":"e-1","properties":{"title":"Expense policy","words":420,"tags":["billing","policy"],)"
    R"("author":{"id":"u2","role":"Editor"},"reviewed":false,"score":0.75,"nothing":null}})";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string body(reinterpret_cast<const char*>(data), size);
  auto script = lua::Compile("function guard(ctx)\n" + body + "\nend\n", "fuzz");
  if (!script) {
    FUZZ_CHECK(script.error().kind == credence::ErrorKind::kInvalidArgument && !script.error().fields.empty() &&
                   script.error().fields.front().field == "source",
               script.error().code);
    return 0;
  }
  // Small limits: a fuzzed loop costs milliseconds, not the default 50.
  const lua::Limits limits{.instruction_budget = 200'000, .memory_bytes = 4u << 20, .timeout_ms = 20};
  const lua::Verdict v = lua::Evaluate(**script, kContext, limits);
  switch (v.kind) {
    case lua::Verdict::Kind::kAllow:
      break;
    case lua::Verdict::Kind::kDeny: {
      FUZZ_CHECK(!v.reason_code.empty() && credence::IsValidUtf8(v.reason_code), v.reason_code);
      FUZZ_CHECK(credence::IsValidUtf8(v.message), v.message);
      boost::system::error_code ec;
      const auto metadata = boost::json::parse(v.metadata_json, ec);
      FUZZ_CHECK(!ec && metadata.is_object() && credence::IsValidUtf8(v.metadata_json), v.metadata_json);
      break;
    }
    case lua::Verdict::Kind::kError: {
      static const std::set<std::string> kKinds = {"budget", "memory", "timeout", "runtime", "bad_result"};
      FUZZ_CHECK(kKinds.count(v.error_kind) == 1, v.error_kind);
      FUZZ_CHECK(v.error.size() <= 500, v.error);
      break;
    }
  }
  return 0;
}
