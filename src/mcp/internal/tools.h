#pragma once
// The tools' definitions (names, input and output JSON Schemas) and the
// checking of their arguments, which a model writes and so gets wrong:
// every problem names the argument (answered as a tool error, isError).
#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <string>
#include <vector>

#include "core/result.h"
#include "trust/trust_service.h"

namespace credence::mcp::internal {

// tools/list's tools, in a fixed order (2026-07-28: deterministic, so
// clients can cache it).
const boost::json::array& ToolDefinitions();

struct SearchArguments {
  std::string query;
  std::string language;  // "" when not given
  int limit = 5;
};
inline constexpr int kMaxSearchLimit = 20;
inline constexpr size_t kMaxQueryLength = 500;
Result<SearchArguments> ParseSearchArguments(const boost::json::object& args);

struct ReadArguments {
  std::string source_id;  // entry:<id> for an entryId
  std::string language;
};
Result<ReadArguments> ParseReadArguments(const boost::json::object& args);

struct EvaluateArguments {
  std::vector<std::string> sources;
  trust::ContextInput context;
};
Result<EvaluateArguments> ParseEvaluateArguments(const boost::json::object& args);

}  // namespace credence::mcp::internal
