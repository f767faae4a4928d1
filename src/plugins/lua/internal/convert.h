#pragma once
// JSON <-> Lua values for guard contexts and results. Internal to plugins/lua.
#include <string>

#include <boost/json/value.hpp>
#include <lua.hpp>

namespace credence::plugins::lua::internal {

inline constexpr int kMaxContextDepth = 32;
inline constexpr int kMaxMetadataDepth = 16;
inline constexpr int kMaxMetadataEntries = 2000;
inline constexpr size_t kMaxMetadataBytes = 16u << 10;

// Pushes `v` as a read-only view: objects and arrays become proxy tables
// (reads, #, pairs and ipairs work; writes raise an error). JSON null is nil.
// Raises Lua errors (memory); call in protected mode.
void PushReadOnly(lua_State* L, const boost::json::value& v);

// Whether the value at `idx` is one of PushReadOnly's views. A script cannot
// forge one: the mark is the view's hidden metatable's C __newindex.
bool IsReadOnlyView(lua_State* L, int idx);

// Appends the value at `idx` as JSON to `out`. Tables with keys 1..n become
// arrays, other tables objects (an empty table is {}). Functions, userdata,
// NaN, infinities, invalid UTF-8, cycles and over-limit sizes are refused:
// `why` is set and false returned. Reads raw (no metamethods run); does not
// raise errors except Lua memory errors.
bool AppendJson(lua_State* L, int idx, std::string* out, const char** why);

bool ValidUtf8(const char* s, size_t n);

}  // namespace credence::plugins::lua::internal
