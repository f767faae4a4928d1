#pragma once
// URLs as the crawler compares them (boost::url underneath).
#include <optional>
#include <string>
#include <string_view>

namespace credence::connectors::web::internal {

// The canonical form of an absolute http(s) URL, for de-duplication: scheme
// and host lowercased, default port and user info dropped, fragment dropped,
// path normalized (dot segments; "/" when empty; percent-encoding in
// uppercase, unreserved characters decoded), query kept as is (an empty one
// dropped). White space around the URL is trimmed and characters a URL
// cannot hold (blanks, bytes outside ASCII) are percent-encoded first, as
// browsers do. nullopt when it is not an absolute http(s) URL with a host.
std::optional<std::string> CanonicalUrl(std::string_view url);

// `reference` (an href: absolute, relative, "//host/x", "?q", "#f") resolved
// against the canonical `base`, in canonical form; nullopt when it does not
// resolve to an http(s) URL (mailto:, javascript:, garbage).
std::optional<std::string> ResolveUrl(std::string_view base, std::string_view reference);

// "https://host[:port]/" of a canonical URL.
std::string OriginOf(std::string_view canonical_url);

// "/path?query" of a canonical URL.
std::string PathAndQuery(std::string_view canonical_url);

}  // namespace credence::connectors::web::internal
