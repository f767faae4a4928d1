#pragma once
// Outbound requests that cannot be turned against the network (SSRF;
// decisions.md 11, docs/outbound.md). Notification channels and webhooks
// call URLs that tenant admins type in; without a rule, an admin could make
// the server call its cloud's metadata service, its own loopback services or
// the private network behind it. Here:
//   - which addresses a URL may reach (ClassifyAddress, Allowed), by policy;
//   - CheckUrl at creation: the scheme, and a literal address checked at once;
//   - Resolve at delivery: the host resolved once, every address checked,
//     and the chosen one returned for the caller to pin (libcurl's
//     CURLOPT_RESOLVE), so a second DNS answer (rebinding) cannot move the
//     connection elsewhere.
// Pure but for the system resolver; no HTTP client here.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace credence::outbound {

enum class AddressClass {
  kPublic,
  kLoopback,     // 127.0.0.0/8, ::1
  kPrivate,      // 10/8, 172.16/12, 192.168/16, 100.64/10 (carrier-grade NAT)
  kUniqueLocal,  // fc00::/7 (fd00:ec2::254 is kMetadata)
  kLinkLocal,    // 169.254.0.0/16, fe80::/10
  kMetadata,     // 169.254.169.254, fd00:ec2::254 (cloud instance metadata)
  kUnspecified,  // 0.0.0.0/8, ::
  kMulticast,    // 224.0.0.0/4, ff00::/8
  kReserved,     // 240.0.0.0/4, 255.255.255.255, documentation and benchmark ranges, other special IPv6
};
std::string_view AddressClassName(AddressClass c);  // e.g. "private", "link-local"

// The class of a literal IPv4 or IPv6 address (an IPv4-mapped IPv6 address
// as its IPv4 address); nullopt when `address` is not one.
std::optional<AddressClass> ClassifyAddress(std::string_view address);

struct Policy {
  bool allow_private = false;   // private and unique-local ranges (an operator's flag)
  bool allow_loopback = false;  // development mode, so local receivers work
};
// Link-local, metadata, unspecified, multicast and reserved addresses are
// never allowed, whatever the policy.
bool Allowed(AddressClass c, const Policy& policy);

// Connectors are pointed at internal sites on purpose by a tenant admin:
// private ranges and loopback are theirs to reach; link-local and metadata
// addresses never (docs/outbound.md).
Policy ConnectorPolicy();

// At creation. http or https with a host; a host that is a literal address
// (or `localhost`) is checked now. Refusals are 400 url_not_allowed naming
// `field`, with the reason.
Status CheckUrl(std::string_view url, const Policy& policy, const std::string& field);

// Host name -> its addresses, as text. The system's: getaddrinfo.
using Resolver = std::function<std::vector<std::string>(const std::string& host)>;
std::vector<std::string> SystemResolve(const std::string& host);

struct PinnedTarget {
  std::string host;     // as in the URL (brackets stripped for IPv6)
  int port = 0;         // explicit or the scheme's default
  std::string address;  // the one to connect to
  // "host:port:address" for CURLOPT_RESOLVE (IPv6 in brackets).
  std::string curl_resolve_entry() const;
};

// At delivery. Resolves the URL's host once (`resolve`; a literal address
// as itself) and refuses it when it resolves to nothing or when any of its
// addresses is not allowed: a name that answers both a public and a private
// address is refused rather than raced. Error url_not_allowed (or
// host_unresolvable) with the reason, for the delivery's last error.
Result<PinnedTarget> Resolve(std::string_view url, const Policy& policy, const Resolver& resolve = SystemResolve);

}  // namespace credence::outbound
