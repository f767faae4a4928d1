#include "mcp/internal/protocol.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <optional>

#include "core/ids.h"
#include "core/text.h"

namespace credence::mcp::internal {
namespace json = boost::json;

namespace {

// RFC 9110 section 5.5: optional white space around a field value is not
// part of it.
std::optional<std::string_view> Stripped(std::optional<std::string_view> v) {
  if (!v) return v;
  std::string_view s = *v;
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Revision identifiers are dates: compared as text they order in time.
bool IsModern(std::string_view version) { return version >= kModernVersion; }

Rejection Reject(int code, std::string message, json::value id = nullptr, json::value data = nullptr) {
  return Rejection{code, std::move(message), std::move(id), std::move(data)};
}

Rejection Mismatch(std::string detail, std::string_view header, std::string_view body, json::value id) {
  return Reject(kHeaderMismatch, "Bad Request: the request headers and body disagree: " + detail, std::move(id),
                json::object{{"mismatch", json::object{{"header", header}, {"body", body}}}});
}

Rejection Unsupported(std::string_view requested, json::value id) {
  json::array supported;
  for (const auto& v : SupportedVersions()) supported.emplace_back(v);
  return Reject(kUnsupportedProtocolVersion,
                "Unsupported protocol version: " + std::string(requested) + " (this server speaks " +
                    std::string(kModernVersion) + " and " + std::string(kLegacyVersion) + ")",
                std::move(id), json::object{{"supported", std::move(supported)}, {"requested", requested}});
}

const json::object* MetaOf(const json::object& params) {
  const auto* m = params.if_contains("_meta");
  return m != nullptr && m->is_object() ? &m->get_object() : nullptr;
}

bool HasClaim(const json::object& params) {
  const json::object* meta = MetaOf(params);
  return meta != nullptr && meta->contains(kProtocolVersionKey);
}

// The envelope's first problem, or "" when it is well-formed.
std::string EnvelopeProblem(const json::object& meta) {
  const auto* version = meta.if_contains(kProtocolVersionKey);
  if (version == nullptr) return std::string(kProtocolVersionKey) + ": missing";
  if (!version->is_string() || version->get_string().empty())
    return std::string(kProtocolVersionKey) + ": expected a protocol version string";
  const auto* caps = meta.if_contains(kClientCapabilitiesKey);
  if (caps == nullptr) return std::string(kClientCapabilitiesKey) + ": missing";
  if (!caps->is_object()) return std::string(kClientCapabilitiesKey) + ": expected an object";
  if (const auto* info = meta.if_contains(kClientInfoKey)) {
    const json::object* o = info->if_object();
    auto text = [o](std::string_view k) { return o && o->if_contains(k) && o->at(k).is_string(); };
    if (o == nullptr || !text("name") || !text("version"))
      return std::string(kClientInfoKey) + ": expected an object with string name and version";
  }
  return {};
}

// The body value Mcp-Name mirrors for `method` (2026-07-28, "Standard
// Request Headers"); nullopt when the method has none or the body lacks it.
std::optional<std::pair<std::string_view, std::string>> NameSource(std::string_view method,
                                                                   const json::object& params) {
  std::string_view field;
  if (method == "tools/call" || method == "prompts/get") field = "name";
  if (method == "resources/read") field = "uri";
  if (field.empty()) return std::nullopt;
  const auto* v = params.if_contains(field);
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return std::make_pair(field, std::string(v->get_string()));
}

}  // namespace

std::optional<std::string> DecodeHeaderValue(std::string_view value) {
  constexpr std::string_view kOpen = "=?base64?", kClose = "?=";
  if (!value.starts_with(kOpen) || !value.ends_with(kClose) || value.size() < kOpen.size() + kClose.size())
    return std::string(value);
  auto decoded = Base64Decode(value.substr(kOpen.size(), value.size() - kOpen.size() - kClose.size()),
                              /*url_alphabet=*/false);
  if (!decoded || !IsValidUtf8(*decoded)) return std::nullopt;
  return decoded;
}

std::variant<Message, Rejection> Classify(const Inbound& raw) {
  Inbound in = raw;
  in.protocol_version = Stripped(in.protocol_version);
  in.method = Stripped(in.method);
  in.name = Stripped(in.name);

  boost::system::error_code ec;
  json::value body = json::parse(in.body, ec);
  if (ec) return Reject(kParseError, "Parse error: the body is not JSON (" + ec.message() + ")");
  if (body.is_array())
    return Reject(kInvalidRequest, "Invalid Request: JSON-RPC batches are not supported (removed in 2025-06-18)");
  if (!body.is_object()) return Reject(kInvalidRequest, "Invalid Request: the body must be one JSON-RPC message");
  json::object& o = body.get_object();
  json::value id = nullptr;
  if (const auto* v = o.if_contains("id")) {
    if (!v->is_string() && !v->is_int64() && !v->is_uint64())
      return Reject(kInvalidRequest, "Invalid Request: id must be a string or an integer");
    id = *v;
  }
  const auto* jsonrpc = o.if_contains("jsonrpc");
  if (jsonrpc == nullptr || !jsonrpc->is_string() || jsonrpc->get_string() != "2.0")
    return Reject(kInvalidRequest, "Invalid Request: jsonrpc must be \"2.0\"", id);
  const auto* method_value = o.if_contains("method");
  if (method_value == nullptr && (o.contains("result") || o.contains("error")))
    return Reject(kInvalidRequest,
                  "Invalid Request: this server sends no requests, so it takes no JSON-RPC responses", id);
  if (method_value == nullptr || !method_value->is_string() || method_value->get_string().empty())
    return Reject(kInvalidRequest, "Invalid Request: method must be a non-empty string", id);
  Message m;
  m.method = std::string(method_value->get_string());
  m.notification = !o.contains("id");
  m.id = id;
  if (const auto* p = o.if_contains("params")) {
    if (!p->is_object()) return Reject(kInvalidRequest, "Invalid Request: params must be an object", id);
    m.params = p->get_object();
  }
  const std::optional<std::string_view> header = in.protocol_version;
  const bool header_modern = header && IsModern(*header);

  // 2026-07-28, "Versioning": an initialize request is the legacy handshake
  // unless it carries a valid modern envelope (then the modern era answers
  // it, as any method it does not define).
  const json::object* meta = MetaOf(m.params);
  const bool claim = HasClaim(m.params);
  const bool valid_modern_claim = claim && EnvelopeProblem(*meta).empty() &&
                                  IsModern(meta->at(kProtocolVersionKey).get_string());
  if (m.method == "initialize" && !valid_modern_claim) {
    if (header_modern)
      return Mismatch("an initialize request (the legacy handshake) was sent with MCP-Protocol-Version " +
                          std::string(*header),
                      *header, "initialize", id);
    m.era = Era::kLegacy;
    m.version = std::string(kLegacyVersion);
    return m;
  }

  if (claim) {
    if (std::string problem = EnvelopeProblem(*meta); !problem.empty())
      return Reject(kInvalidParams, "Invalid _meta envelope for protocol revision 2026-07-28: " + problem, id,
                    json::object{{"envelope", problem}});
    const std::string claimed(meta->at(kProtocolVersionKey).get_string());
    if (header && *header != claimed)
      return Mismatch("the body's _meta names protocol version " + claimed + " but MCP-Protocol-Version names " +
                          std::string(*header),
                      *header, claimed, id);
    if (in.method && *in.method != m.method)
      return Mismatch("the body names method " + m.method + " but Mcp-Method names " + std::string(*in.method),
                      *in.method, m.method, id);
    if (!IsModern(claimed)) {
      // A legacy revision named the modern way: served as that revision
      // would be, if it is the one this server speaks.
      if (claimed != kLegacyVersion) return Unsupported(claimed, id);
      m.era = Era::kLegacy;
      m.version = claimed;
      return m;
    }
    if (claimed != kModernVersion) return Unsupported(claimed, id);
    m.era = Era::kModern;
    m.version = claimed;
    if (m.notification) return m;
    // The standard request headers are required of every modern request
    // (2026-07-28 "Server Validation"), in the order the spec names them.
    if (!header)
      return Mismatch("the body's _meta names protocol version " + claimed +
                          " but the required MCP-Protocol-Version header is absent",
                      "(missing)", claimed, id);
    if (!in.method)
      return Mismatch("the body names method " + m.method + " but the required Mcp-Method header is absent",
                      "(missing)", m.method, id);
    if (auto source = NameSource(m.method, m.params)) {
      if (!in.name)
        return Mismatch("the body carries params." + std::string(source->first) + "=\"" + source->second +
                            "\" but the required Mcp-Name header is absent",
                        "(missing)", source->second, id);
      auto decoded = DecodeHeaderValue(*in.name);
      if (!decoded)
        return Mismatch("the Mcp-Name header carries an invalid Base64 sentinel value", *in.name, source->second,
                        id);
      if (*decoded != source->second)
        return Mismatch("the body carries params." + std::string(source->first) + "=\"" + source->second +
                            "\" but Mcp-Name names \"" + *decoded + "\"",
                        *in.name, source->second, id);
    }
    return m;
  }

  if (header_modern) {
    if (m.notification) {
      if (in.method && *in.method != m.method)
        return Mismatch("the notification names method " + m.method + " but Mcp-Method names " +
                            std::string(*in.method),
                        *in.method, m.method, id);
      if (*header != kModernVersion) return Unsupported(*header, id);
      m.era = Era::kModern;
      m.version = std::string(*header);
      return m;
    }
    return Reject(kInvalidParams,
                  "Invalid params: MCP-Protocol-Version names protocol revision " + std::string(*header) +
                      ", but the request has no _meta envelope (" + std::string(kProtocolVersionKey) + ", " +
                      std::string(kClientCapabilitiesKey) + ")",
                  id, json::object{{"envelope", json::object{{"missing", json::array{kProtocolVersionKey}}}}});
  }
  // Legacy traffic. Without the header a stateless server has only the
  // revision it negotiates to assume (2025-11-25, "Protocol Version
  // Header"); with it, the header must name that revision.
  if (header && *header != kLegacyVersion) return Unsupported(*header, id);
  m.era = Era::kLegacy;
  m.version = std::string(kLegacyVersion);
  return m;
}

std::string ResultText(const json::value& id, const json::object& result) {
  return ResultText(id, json::serialize(result));
}

std::string ResultText(const json::value& id, std::string_view result_json) {
  std::string out;
  out.reserve(result_json.size() + 48);
  out += "{\"jsonrpc\":\"2.0\",\"id\":";
  out += json::serialize(id);
  out += ",\"result\":";
  out += result_json;
  out += '}';
  return out;
}

std::string ErrorText(const json::value& id, int code, std::string_view message, const json::value& data) {
  json::object error{{"code", code}, {"message", message}};
  if (!data.is_null()) error["data"] = data;
  json::object out{{"jsonrpc", "2.0"}};
  // JSON-RPC: the id, or null when it could not be read; 2026-07-28 lets
  // the member be left out then.
  if (!id.is_null()) out["id"] = id;
  out["error"] = std::move(error);
  return json::serialize(out);
}

}  // namespace credence::mcp::internal
