#pragma once
// Small pieces the shipped plugins' guards share.
#include <string>
#include <string_view>
#include <utility>

#include <boost/json/object.hpp>

#include "kb/action_guard.h"

namespace credence::plugins::internal {

// The context's string property `key`, or "" when absent or not a string.
inline std::string_view StringProperty(const kb::GuardContext& c, std::string_view key) {
  if (const auto* v = c.properties.if_contains(key); v && v->is_string()) return v->as_string();
  return {};
}

// A denial; the pipeline names the plugin.
inline kb::GuardDenial Deny(std::string code, std::string message, boost::json::object metadata) {
  return {"", std::move(code), std::move(message), std::move(metadata)};
}

}  // namespace credence::plugins::internal
