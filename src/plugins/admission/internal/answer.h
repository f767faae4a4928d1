#pragma once
// The reading of a hook's answer, internal to plugins/admission; declared
// here for the fuzz target (fuzz/hook_answer.cpp).
#include <string_view>

#include "plugins/admission/admission_hook.h"

namespace credence::plugins::admission::internal {

// A 2xx answer's body as a verdict: allow, deny with its reason, message and
// metadata, or kError "bad answer: ..." (docs/admission-hooks.md).
HookVerdict ParseAnswer(std::string_view body, int status);

}  // namespace credence::plugins::admission::internal
