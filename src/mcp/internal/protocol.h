#pragma once
// The transport-independent half of MCP's request handling: one POST body
// and its protocol headers classified into a message of one revision, or
// the JSON-RPC error the revision prescribes (the validation ladder of
// 2026-07-28's Streamable HTTP, "Server Validation", and 2025-11-25's
// protocol version header), and the JSON-RPC response texts.
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <string>
#include <string_view>
#include <variant>

#include "mcp/server.h"

namespace credence::mcp::internal {

enum class Era { kLegacy, kModern };

struct Message {
  Era era = Era::kLegacy;
  std::string version;  // the revision the message is served under
  bool notification = false;
  boost::json::value id;  // string or integer; null for notifications
  std::string method;
  boost::json::object params;  // {} when the message has none
};

// A message refused before any method ran: answered with an HTTP error
// status chosen by the code.
struct Rejection {
  int code = kInvalidRequest;
  std::string message;
  boost::json::value id;  // the message's id when it could be read
  boost::json::value data;
};

std::variant<Message, Rejection> Classify(const Inbound& in);

// The `_meta` key a modern request names its revision with.
inline constexpr std::string_view kProtocolVersionKey = "io.modelcontextprotocol/protocolVersion";
inline constexpr std::string_view kClientCapabilitiesKey = "io.modelcontextprotocol/clientCapabilities";
inline constexpr std::string_view kClientInfoKey = "io.modelcontextprotocol/clientInfo";
inline constexpr std::string_view kServerInfoKey = "io.modelcontextprotocol/serverInfo";

std::string ResultText(const boost::json::value& id, const boost::json::object& result);
// A result whose text the caller built (evaluate_sources splices the
// evaluation's per-source texts, which are JSON already).
std::string ResultText(const boost::json::value& id, std::string_view result_json);
std::string ErrorText(const boost::json::value& id, int code, std::string_view message,
                      const boost::json::value& data = nullptr);

// "=?base64?...?=" (2026-07-28 "Value Encoding") decoded; other values as
// they are; nullopt for a malformed sentinel.
std::optional<std::string> DecodeHeaderValue(std::string_view value);

}  // namespace credence::mcp::internal
