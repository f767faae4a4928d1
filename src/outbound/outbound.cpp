#include "outbound/outbound.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <set>

#include <boost/url/parse.hpp>

namespace credence::outbound {
namespace {

using V4 = std::array<uint8_t, 4>;
using V6 = std::array<uint8_t, 16>;

bool InV4(const V4& a, V4 net, int bits) {
  const uint32_t x = (uint32_t{a[0]} << 24) | (uint32_t{a[1]} << 16) | (uint32_t{a[2]} << 8) | a[3];
  const uint32_t n = (uint32_t{net[0]} << 24) | (uint32_t{net[1]} << 16) | (uint32_t{net[2]} << 8) | net[3];
  const uint32_t mask = bits == 0 ? 0 : ~uint32_t{0} << (32 - bits);
  return (x & mask) == (n & mask);
}

AddressClass ClassifyV4(const V4& a) {
  if (a == V4{169, 254, 169, 254}) return AddressClass::kMetadata;
  if (InV4(a, {0, 0, 0, 0}, 8)) return AddressClass::kUnspecified;
  if (InV4(a, {127, 0, 0, 0}, 8)) return AddressClass::kLoopback;
  if (InV4(a, {10, 0, 0, 0}, 8) || InV4(a, {172, 16, 0, 0}, 12) || InV4(a, {192, 168, 0, 0}, 16) ||
      InV4(a, {100, 64, 0, 0}, 10))
    return AddressClass::kPrivate;
  if (InV4(a, {169, 254, 0, 0}, 16)) return AddressClass::kLinkLocal;
  if (InV4(a, {224, 0, 0, 0}, 4)) return AddressClass::kMulticast;
  // 240/4 (with the broadcast address), IETF protocol assignments, the
  // documentation networks, benchmarking, 6to4 relay anycast.
  if (InV4(a, {240, 0, 0, 0}, 4) || InV4(a, {192, 0, 0, 0}, 24) || InV4(a, {192, 0, 2, 0}, 24) ||
      InV4(a, {198, 51, 100, 0}, 24) || InV4(a, {203, 0, 113, 0}, 24) || InV4(a, {198, 18, 0, 0}, 15) ||
      InV4(a, {192, 88, 99, 0}, 24))
    return AddressClass::kReserved;
  return AddressClass::kPublic;
}

AddressClass ClassifyV6(const V6& a) {
  static constexpr V6 kMetadataV6 = {0xfd, 0x00, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54};
  if (a == kMetadataV6) return AddressClass::kMetadata;
  bool zero_prefix = true;
  for (int i = 0; i < 10; ++i) zero_prefix = zero_prefix && a[i] == 0;
  // IPv4-mapped (::ffff:a.b.c.d) and the deprecated IPv4-compatible form
  // reach the IPv4 address: classified as it.
  if (zero_prefix && a[10] == 0xff && a[11] == 0xff) return ClassifyV4({a[12], a[13], a[14], a[15]});
  if (zero_prefix && a[10] == 0 && a[11] == 0) {
    if (a[12] == 0 && a[13] == 0 && a[14] == 0 && a[15] == 0) return AddressClass::kUnspecified;
    if (a[12] == 0 && a[13] == 0 && a[14] == 0 && a[15] == 1) return AddressClass::kLoopback;
    return ClassifyV4({a[12], a[13], a[14], a[15]});
  }
  // NAT64 (64:ff9b::/96) translates to the embedded IPv4 address.
  if (a[0] == 0x00 && a[1] == 0x64 && a[2] == 0xff && a[3] == 0x9b) {
    bool rest_zero = true;
    for (int i = 4; i < 12; ++i) rest_zero = rest_zero && a[i] == 0;
    if (rest_zero) return ClassifyV4({a[12], a[13], a[14], a[15]});
  }
  if (a[0] == 0xff) return AddressClass::kMulticast;
  if (a[0] == 0xfe && (a[1] & 0xc0) == 0x80) return AddressClass::kLinkLocal;
  if ((a[0] & 0xfe) == 0xfc) return AddressClass::kUniqueLocal;
  // 2001:db8::/32 documentation; 6to4 (2002::/16) embeds any IPv4 address:
  // refused rather than decoded.
  if ((a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x0d && a[3] == 0xb8) || (a[0] == 0x20 && a[1] == 0x02))
    return AddressClass::kReserved;
  // Global unicast is 2000::/3; everything else is unassigned or special.
  if ((a[0] & 0xe0) != 0x20) return AddressClass::kReserved;
  return AddressClass::kPublic;
}

Error NotAllowed(const std::string& field, const std::string& reason) {
  std::vector<FieldError> fields;
  if (!field.empty()) fields.push_back({field, reason});
  return Error::InvalidArgument("url_not_allowed", "The URL is not allowed: " + reason, std::move(fields));
}

// The dotted quad of a host in one of inet_aton's numeric forms ("0x7f.1",
// "2130706433", "127.1", "0177.0.0.1"), which libcurl reads as the IPv4
// address they spell and connects to without resolving.
std::optional<std::string> NumericIpv4(const std::string& host) {
  if (host.empty() || host.find_first_not_of("0123456789abcdefx.") != std::string::npos) return std::nullopt;
  in_addr a{};
  if (inet_aton(host.c_str(), &a) == 0) return std::nullopt;
  char text[INET_ADDRSTRLEN];
  if (inet_ntop(AF_INET, &a, text, sizeof text) == nullptr) return std::nullopt;
  return std::string(text);
}

struct ParsedUrl {
  std::string scheme, host;
  int port = 0;
};

Result<ParsedUrl> ParseUrl(std::string_view url, const std::string& field) {
  auto parsed = boost::urls::parse_absolute_uri(url);
  if (!parsed) return NotAllowed(field, "it is not an absolute URL");
  ParsedUrl out;
  out.scheme = std::string(parsed->scheme());
  for (auto& ch : out.scheme) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (out.scheme != "http" && out.scheme != "https") return NotAllowed(field, "only http and https URLs are called");
  if (!parsed->has_authority() || parsed->host().empty()) return NotAllowed(field, "it has no host");
  // Boost.URL 1.81 ends an IPv4 host early: "http://1.2.3.4.evil.example/"
  // parses as host 1.2.3.4 with the path ".evil.example/", while libcurl
  // connects to 1.2.3.4.evil.example, which the check and the pin would
  // not cover (found by fuzz/url_address). After an authority a path is
  // empty or starts with '/' (RFC 3986 3.3); anything else is that misreading.
  if (const auto path = parsed->encoded_path(); !path.empty() && path.front() != '/')
    return NotAllowed(field, "its host cannot be read unambiguously");
  // The host is read as libcurl reads it, so that the address checked is
  // the one it connects to and the pinned name is the one it looks up
  // (found by fuzz/url_address): libcurl percent-decodes a name, so
  // "a%2eb.example" would be looked up as a.b.example, outside the pin on
  // "a%2eb.example" (such names are refused: no real host needs them), and
  // it reads inet_aton's numeric forms as the IPv4 address they spell
  // ("0x7f.1" is 127.0.0.1, so is it here). An IP literal is connected to
  // without a lookup, so its spelling does not matter.
  switch (parsed->host_type()) {
    case boost::urls::host_type::name:
    case boost::urls::host_type::ipv4:
    case boost::urls::host_type::ipv6:
      out.host = std::string(parsed->encoded_host_address());
      break;
    default:
      return NotAllowed(field, "its host is neither a name nor an IP address");
  }
  if (out.host.size() > 2 && out.host.front() == '[' && out.host.back() == ']')
    out.host = out.host.substr(1, out.host.size() - 2);
  for (auto& ch : out.host) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (parsed->host_type() == boost::urls::host_type::name) {
    if (out.host.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-._") != std::string::npos)
      return NotAllowed(field,
                        "its host is not a plain host name (letters, digits, '-', '_', '.', not percent-encoded; an "
                        "international name in its xn-- form)");
    if (auto v4 = NumericIpv4(out.host)) out.host = std::move(*v4);
  }
  if (parsed->has_port()) {
    const uint16_t port = parsed->port_number();
    if (port == 0) return NotAllowed(field, "its port is not a port number");
    out.port = port;
  } else {
    out.port = out.scheme == "https" ? 443 : 80;
  }
  return out;
}

bool IsLocalhostName(std::string_view host) {
  if (!host.empty() && host.back() == '.') host.remove_suffix(1);
  return host == "localhost" || (host.size() > 10 && host.substr(host.size() - 10) == ".localhost");
}

std::string Refusal(std::string_view host, std::string_view address, AddressClass c) {
  std::string out(host);
  if (address != host) out += " resolves to " + std::string(address) + ",";
  out += " a " + std::string(AddressClassName(c)) + " address";
  return out;
}

}  // namespace

std::string_view AddressClassName(AddressClass c) {
  switch (c) {
    case AddressClass::kPublic:
      return "public";
    case AddressClass::kLoopback:
      return "loopback";
    case AddressClass::kPrivate:
      return "private";
    case AddressClass::kUniqueLocal:
      return "unique-local";
    case AddressClass::kLinkLocal:
      return "link-local";
    case AddressClass::kMetadata:
      return "cloud metadata";
    case AddressClass::kUnspecified:
      return "unspecified";
    case AddressClass::kMulticast:
      return "multicast";
    case AddressClass::kReserved:
      return "reserved";
  }
  return "unknown";
}

std::optional<AddressClass> ClassifyAddress(std::string_view address) {
  const std::string text(address);
  V4 v4{};
  if (inet_pton(AF_INET, text.c_str(), v4.data()) == 1) return ClassifyV4(v4);
  V6 v6{};
  // A zone (fe80::1%eth0) is link-local by definition.
  const auto zone = text.find('%');
  if (inet_pton(AF_INET6, text.substr(0, zone).c_str(), v6.data()) == 1)
    return zone == std::string::npos ? ClassifyV6(v6) : AddressClass::kLinkLocal;
  return std::nullopt;
}

bool Allowed(AddressClass c, const Policy& policy) {
  switch (c) {
    case AddressClass::kPublic:
      return true;
    case AddressClass::kLoopback:
      return policy.allow_loopback;
    case AddressClass::kPrivate:
    case AddressClass::kUniqueLocal:
      return policy.allow_private;
    default:
      return false;
  }
}

Policy ConnectorPolicy() { return Policy{true, true}; }

Status CheckUrl(std::string_view url, const Policy& policy, const std::string& field) {
  CR_TRY_ASSIGN(const ParsedUrl u, ParseUrl(url, field));
  if (IsLocalhostName(u.host) && !policy.allow_loopback)
    return NotAllowed(field, u.host + " is a loopback address");
  if (auto c = ClassifyAddress(u.host); c && !Allowed(*c, policy))
    return NotAllowed(field, Refusal(u.host, u.host, *c));
  return Ok();
}

std::vector<std::string> SystemResolve(const std::string& host) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  std::vector<std::string> out;
  if (getaddrinfo(host.c_str(), nullptr, &hints, &found) != 0) return out;
  std::set<std::string> seen;
  for (addrinfo* a = found; a != nullptr; a = a->ai_next) {
    char text[INET6_ADDRSTRLEN] = {};
    const void* raw = a->ai_family == AF_INET
                          ? static_cast<const void*>(&reinterpret_cast<sockaddr_in*>(a->ai_addr)->sin_addr)
                          : static_cast<const void*>(&reinterpret_cast<sockaddr_in6*>(a->ai_addr)->sin6_addr);
    if ((a->ai_family == AF_INET || a->ai_family == AF_INET6) && inet_ntop(a->ai_family, raw, text, sizeof text) &&
        seen.insert(text).second)
      out.emplace_back(text);
  }
  freeaddrinfo(found);
  return out;
}

std::string PinnedTarget::curl_resolve_entry() const {
  const bool v6 = address.find(':') != std::string::npos;
  return host + ":" + std::to_string(port) + ":" + (v6 ? "[" + address + "]" : address);
}

Result<PinnedTarget> Resolve(std::string_view url, const Policy& policy, const Resolver& resolve) {
  CR_TRY_ASSIGN(const ParsedUrl u, ParseUrl(url, ""));
  PinnedTarget out{u.host, u.port, ""};
  std::vector<std::string> addresses;
  if (ClassifyAddress(u.host))
    addresses.push_back(u.host);
  else
    addresses = resolve(u.host);
  if (addresses.empty())
    return Error::InvalidArgument("host_unresolvable", "The host " + u.host + " does not resolve to an address.");
  for (const auto& a : addresses) {
    const auto c = ClassifyAddress(a);
    if (!c) return NotAllowed("", u.host + " resolves to something that is not an address");
    if (!Allowed(*c, policy)) return NotAllowed("", Refusal(u.host, a, *c));
  }
  out.address = addresses.front();
  return out;
}

}  // namespace credence::outbound
