#pragma once
// The Model Context Protocol server inside credence (docs/agents.md): the
// JSON-RPC methods of revisions 2025-11-25 (initialize handshake, served
// statelessly) and 2026-07-28 (per-request _meta, server/discover), the
// tools search_knowledge, read_entry and evaluate_sources, and the
// resources credence://entries/{id}. Every retrieval is a trust decision
// in the ledger, made by TrustService exactly as POST /api/trust/evaluate
// makes it for the calling application's key.
//
// Knows nothing of HTTP: the transport (http/handlers/mcp_routes.cpp)
// hands in the body and the protocol's request headers and turns a Reply
// into a status. Thread-safe; built once.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/result.h"
#include "identity/principal.h"

namespace credence::trust {
class TrustService;
}
namespace credence::kb {
class EntryService;
}

namespace credence::mcp {

inline constexpr std::string_view kModernVersion = "2026-07-28";
inline constexpr std::string_view kLegacyVersion = "2025-11-25";
// Newest first: what UnsupportedProtocolVersion errors and server/discover
// list.
const std::vector<std::string>& SupportedVersions();

// JSON-RPC and MCP error codes (MCP 2026-07-28, basic/index "Error Codes").
inline constexpr int kParseError = -32700;
inline constexpr int kInvalidRequest = -32600;
inline constexpr int kMethodNotFound = -32601;
inline constexpr int kInvalidParams = -32602;
inline constexpr int kInternalError = -32603;
// 2025-11-25's resource-not-found; 2026-07-28 answers kInvalidParams.
inline constexpr int kLegacyResourceNotFound = -32002;
inline constexpr int kHeaderMismatch = -32020;
inline constexpr int kUnsupportedProtocolVersion = -32022;
// Credence's own, outside the range JSON-RPC reserves: a resource read the
// trust plane blocked (resources have no isError); data has the decision.
inline constexpr int kBlockedByTrust = -31001;

// One POST to the MCP endpoint as the transport received it.
struct Inbound {
  std::string_view body;
  std::optional<std::string_view> protocol_version;  // MCP-Protocol-Version
  std::optional<std::string_view> method;            // Mcp-Method
  std::optional<std::string_view> name;              // Mcp-Name
};

// What to send back.
struct Reply {
  enum class Kind {
    kAccepted,  // a notification taken: no body
    kAnswered,  // a JSON-RPC response: a result, or an error about the request's content (in-band)
    kRejected,  // a JSON-RPC error the transport's validation produced: sent with an HTTP error status
  };
  Kind kind = Kind::kAnswered;
  std::string body;    // the JSON-RPC response; empty for kAccepted
  int error_code = 0;  // kRejected: the JSON-RPC error code, which decides the status
};

struct ServerInfo {
  std::string name = "credence";
  std::string version;
  std::string instructions;
};

class PendingCall;

class McpServer {
 public:
  McpServer(const trust::TrustService& trust, const kb::EntryService& entries, ServerInfo info);
  ~McpServer();

  // Starts one exchange. `caller` is the authenticated principal; only an
  // AI application's credential (an app key or a token issued to one) may
  // use MCP: anything else is 403 app_key_required. The reply is there at
  // once, or a call waits for its trust decision to reach the ledger:
  // `committed` then runs (on the ledger writer's thread) once Finish may
  // be called without waiting. Storage failures throw StorageError.
  using Started = std::variant<Reply, std::shared_ptr<PendingCall>>;
  Result<Started> Start(const identity::Principal& caller, const Inbound& inbound,
                        std::function<void()> committed) const;
  // The reply of a call Start left pending; any thread, once.
  Reply Finish(PendingCall& call) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace credence::mcp
