// Admission hook answers (src/plugins/admission): ParseAnswer, which reads
// the body of a hook's 2xx answer into the verdict the guard pipeline
// applies (the transfer itself is fuzzed by webhook_answer).
//
// Invariants: nothing throws; an allow carries nothing; a denial has a
// snake_case reason code of at most 100 characters, a message of at most
// 1000 code points and metadata that is a JSON object of at most 8 KiB; a
// bad answer is a kError whose text is printable ASCII (it goes to logs,
// metrics and the plugin's health).
#include <boost/json/parse.hpp>

#include <algorithm>
#include <string>
#include <string_view>

#include "core/text.h"
#include "plugins/admission/admission_hook.h"
#include "plugins/admission/internal/answer.h"
#include "support/fuzz_support.h"

using credence::plugins::admission::HookVerdict;
namespace admission = credence::plugins::admission;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  const HookVerdict v = admission::internal::ParseAnswer(body, 200);
  switch (v.kind) {
    case HookVerdict::Kind::kAllow:
      FUZZ_CHECK(v.reason_code.empty() && v.error.empty(), body);
      break;
    case HookVerdict::Kind::kDeny: {
      FUZZ_CHECK(!v.reason_code.empty() && v.reason_code.size() <= admission::kMaxReasonCodeChars, v.reason_code);
      FUZZ_CHECK(std::all_of(v.reason_code.begin(), v.reason_code.end(),
                             [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; }),
                 v.reason_code);
      FUZZ_CHECK(!v.message.empty() && credence::IsValidUtf8(v.message) &&
                     credence::Utf8Length(v.message) <= admission::kMaxMessageChars,
                 v.message);
      FUZZ_CHECK(v.metadata_json.size() <= admission::kMaxMetadataBytes, v.metadata_json);
      boost::system::error_code ec;
      const auto metadata = boost::json::parse(v.metadata_json, ec);
      FUZZ_CHECK(!ec && metadata.is_object(), v.metadata_json);
      break;
    }
    case HookVerdict::Kind::kError:
      FUZZ_CHECK(v.error.starts_with("bad answer: "), v.error);
      FUZZ_CHECK(std::all_of(v.error.begin(), v.error.end(), [](char c) { return c >= 0x20 && c < 0x7f; }), v.error);
      break;
  }
  return 0;
}
