#include "plugins/lua/internal/convert.h"

#include <cmath>
#include <cstdio>
#include <cstring>

#include <boost/json.hpp>

#include "core/json_text.h"

namespace credence::plugins::lua::internal {
namespace {

// What getmetatable(ctx) answers; also how AppendJson recognizes a view.
constexpr const char* kProxyMark = "read-only";

int ReadOnlyError(lua_State* L) { return luaL_error(L, "ctx is read-only"); }

int ProxyLen(lua_State* L) {
  lua_pushinteger(L, static_cast<lua_Integer>(lua_rawlen(L, lua_upvalueindex(1))));
  return 1;
}

int RawNext(lua_State* L) {
  luaL_checktype(L, 1, LUA_TTABLE);
  lua_settop(L, 2);
  if (lua_next(L, 1) != 0) return 2;
  lua_pushnil(L);
  return 1;
}

int ProxyPairs(lua_State* L) {
  lua_pushcfunction(L, RawNext);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_pushnil(L);
  return 3;
}

// Wraps the table at the top of the stack in a proxy that reads through to it.
void MakeProxy(lua_State* L) {
  int real = lua_gettop(L);
  lua_createtable(L, 0, 0);  // proxy
  lua_createtable(L, 0, 5);  // its metatable
  lua_pushvalue(L, real);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, ReadOnlyError);
  lua_setfield(L, -2, "__newindex");
  lua_pushvalue(L, real);
  lua_pushcclosure(L, ProxyLen, 1);
  lua_setfield(L, -2, "__len");
  lua_pushvalue(L, real);
  lua_pushcclosure(L, ProxyPairs, 1);
  lua_setfield(L, -2, "__pairs");
  lua_pushstring(L, kProxyMark);
  lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, -2);
  lua_replace(L, real);
}

void Push(lua_State* L, const boost::json::value& v, int depth) {
  if (depth > kMaxContextDepth) luaL_error(L, "context nested too deeply");
  luaL_checkstack(L, 8, "context nested too deeply");
  switch (v.kind()) {
    case boost::json::kind::null:
      lua_pushnil(L);
      return;
    case boost::json::kind::bool_:
      lua_pushboolean(L, v.get_bool() ? 1 : 0);
      return;
    case boost::json::kind::int64:
      lua_pushinteger(L, v.get_int64());
      return;
    case boost::json::kind::uint64:
      if (v.get_uint64() <= static_cast<uint64_t>(INT64_MAX)) {
        lua_pushinteger(L, static_cast<lua_Integer>(v.get_uint64()));
      } else {
        lua_pushnumber(L, static_cast<lua_Number>(v.get_uint64()));
      }
      return;
    case boost::json::kind::double_:
      lua_pushnumber(L, v.get_double());
      return;
    case boost::json::kind::string: {
      const auto& s = v.get_string();
      lua_pushlstring(L, s.data(), s.size());
      return;
    }
    case boost::json::kind::array: {
      const auto& a = v.get_array();
      lua_createtable(L, static_cast<int>(a.size()), 0);
      lua_Integer i = 0;
      for (const auto& item : a) {
        ++i;
        Push(L, item, depth + 1);
        lua_rawseti(L, -2, i);
      }
      MakeProxy(L);
      return;
    }
    case boost::json::kind::object: {
      const auto& o = v.get_object();
      lua_createtable(L, 0, static_cast<int>(o.size()));
      for (const auto& member : o) {
        lua_pushlstring(L, member.key().data(), member.key().size());
        Push(L, member.value(), depth + 1);
        lua_rawset(L, -3);
      }
      MakeProxy(L);
      return;
    }
  }
}

struct Writer {
  lua_State* L;
  std::string* out;
  const char* why = nullptr;
  int entries = 0;

  bool Fail(const char* reason) {
    why = reason;
    return false;
  }

  bool Value(int idx, int depth) {
    if (out->size() > kMaxMetadataBytes) return Fail("metadata larger than 16 KiB");
    switch (lua_type(L, idx)) {
      case LUA_TNIL:
        *out += "null";
        return true;
      case LUA_TBOOLEAN:
        *out += lua_toboolean(L, idx) != 0 ? "true" : "false";
        return true;
      case LUA_TNUMBER:
        return Number(idx);
      case LUA_TSTRING: {
        size_t n = 0;
        const char* s = lua_tolstring(L, idx, &n);
        if (!ValidUtf8(s, n)) return Fail("metadata string is not valid UTF-8");
        AppendJsonString(*out, std::string_view(s, n));
        return true;
      }
      case LUA_TTABLE:
        return Table(idx, depth);
      default:
        return Fail("metadata holds a value JSON cannot carry (function, userdata or thread)");
    }
  }

  bool Number(int idx) {
    char buf[32];
    if (lua_isinteger(L, idx) != 0) {
      std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(lua_tointeger(L, idx)));
    } else {
      double d = lua_tonumber(L, idx);
      if (!std::isfinite(d)) return Fail("metadata holds NaN or an infinity");
      std::snprintf(buf, sizeof buf, "%.17g", d);
    }
    *out += buf;
    return true;
  }

  bool Table(int idx, int depth) {
    if (depth >= kMaxMetadataDepth) return Fail("metadata nested too deeply (or cyclic)");
    if (lua_checkstack(L, 4) == 0) return Fail("metadata nested too deeply");
    idx = lua_absindex(L, idx);
    // A read-only context view (PushReadOnly's proxy) is written as what it shows.
    if (lua_getmetatable(L, idx) != 0) {
      lua_pushliteral(L, "__metatable");
      lua_rawget(L, -2);
      bool proxy = lua_type(L, -1) == LUA_TSTRING && std::strcmp(lua_tostring(L, -1), kProxyMark) == 0;
      lua_pop(L, 1);
      if (proxy) {
        lua_pushliteral(L, "__index");
        if (lua_rawget(L, -2) == LUA_TTABLE) {
          bool ok = Table(-1, depth + 1);
          lua_pop(L, 2);
          return ok;
        }
        lua_pop(L, 1);
      }
      lua_pop(L, 1);
    }
    // First pass: is it an array 1..n?
    lua_Unsigned n = lua_rawlen(L, idx);
    lua_Unsigned count = 0;
    bool array = true;
    lua_pushnil(L);
    while (lua_next(L, idx) != 0) {
      ++count;
      if (++entries > kMaxMetadataEntries) {
        lua_pop(L, 2);
        return Fail("metadata has too many entries");
      }
      if (lua_isinteger(L, -2) == 0) {
        array = false;
      } else {
        lua_Integer k = lua_tointeger(L, -2);
        if (k < 1 || static_cast<lua_Unsigned>(k) > n) array = false;
      }
      lua_pop(L, 1);
    }
    array = array && count > 0 && count == n;
    if (array) {
      *out += '[';
      for (lua_Unsigned i = 1; i <= n; ++i) {
        if (i > 1) *out += ',';
        lua_rawgeti(L, idx, static_cast<lua_Integer>(i));
        bool ok = Value(-1, depth + 1);
        lua_pop(L, 1);
        if (!ok) return false;
      }
      *out += ']';
      return true;
    }
    *out += '{';
    bool first = true;
    lua_pushnil(L);
    while (lua_next(L, idx) != 0) {
      if (!first) *out += ',';
      first = false;
      if (lua_type(L, -2) == LUA_TSTRING) {
        size_t kn = 0;
        const char* k = lua_tolstring(L, -2, &kn);
        if (!ValidUtf8(k, kn)) {
          lua_pop(L, 2);
          return Fail("metadata key is not valid UTF-8");
        }
        AppendJsonString(*out, std::string_view(k, kn));
      } else if (lua_isinteger(L, -2) != 0) {
        *out += '"';
        *out += std::to_string(lua_tointeger(L, -2));
        *out += '"';
      } else {
        lua_pop(L, 2);
        return Fail("metadata keys must be strings or integers");
      }
      *out += ':';
      bool ok = Value(-1, depth + 1);
      lua_pop(L, 1);
      if (!ok) {
        lua_pop(L, 1);
        return false;
      }
    }
    *out += '}';
    return true;
  }
};

}  // namespace

void PushReadOnly(lua_State* L, const boost::json::value& v) { Push(L, v, 0); }

bool IsReadOnlyView(lua_State* L, int idx) {
  if (lua_type(L, idx) != LUA_TTABLE || lua_getmetatable(L, idx) == 0) return false;
  lua_pushliteral(L, "__newindex");
  lua_rawget(L, -2);
  const bool view = lua_tocfunction(L, -1) == ReadOnlyError;
  lua_pop(L, 2);
  return view;
}

bool AppendJson(lua_State* L, int idx, std::string* out, const char** why) {
  Writer w{L, out};
  bool ok = w.Value(lua_absindex(L, idx), 0) && out->size() <= kMaxMetadataBytes;
  if (!ok) *why = w.why != nullptr ? w.why : "metadata larger than 16 KiB";
  return ok;
}

bool ValidUtf8(const char* s, size_t n) {
  const auto* p = reinterpret_cast<const unsigned char*>(s);
  size_t i = 0;
  while (i < n) {
    unsigned char c = p[i];
    size_t len = 0;
    uint32_t cp = 0;
    if (c < 0x80) {
      ++i;
      continue;
    }
    if ((c & 0xE0) == 0xC0) {
      len = 2;
      cp = c & 0x1F;
    } else if ((c & 0xF0) == 0xE0) {
      len = 3;
      cp = c & 0x0F;
    } else if ((c & 0xF8) == 0xF0) {
      len = 4;
      cp = c & 0x07;
    } else
      return false;
    if (i + len > n) return false;
    for (size_t k = 1; k < len; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF)) {
      return false;
    }
    i += len;
  }
  return true;
}

}  // namespace credence::plugins::lua::internal
