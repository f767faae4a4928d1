#pragma once
// Minimal JSON text helpers for hot paths (logs, metrics) that should not
// build a DOM.
#include <string>
#include <string_view>

namespace credence {

// Appends `s` as a quoted JSON string with the required escapes.
void AppendJsonString(std::string& out, std::string_view s);

}  // namespace credence
