#pragma once
// Minimal JSON text helpers for hot paths (logs, metrics) that should not
// build a DOM.
#include <string>
#include <string_view>
#include <vector>

namespace credence {

// Appends `s` as a quoted JSON string with the required escapes.
void AppendJsonString(std::string& out, std::string_view s);

// A list of strings stored as a JSON array in a TEXT column, and back
// (anything but an array of strings reads as empty).
std::string StringListToJson(const std::vector<std::string>& values);
std::vector<std::string> StringListFromJson(std::string_view text);

}  // namespace credence
