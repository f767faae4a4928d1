#include "connectors/web/internal/url.h"

#include <cctype>
#include <vector>

#include <boost/url/parse.hpp>
#include <boost/url/url.hpp>

namespace credence::connectors::web::internal {
namespace {

namespace urls = boost::urls;

bool IsHex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

// What a browser does to an href before parsing: trims C0 controls and
// spaces, removes tabs and newlines inside, percent-encodes what RFC 3986
// does not allow (blanks, quotes, bytes outside ASCII, a stray '%', a second
// '#').
std::string Prepare(std::string_view in) {
  while (!in.empty() && static_cast<unsigned char>(in.front()) <= 0x20) in.remove_prefix(1);
  while (!in.empty() && static_cast<unsigned char>(in.back()) <= 0x20) in.remove_suffix(1);
  static constexpr std::string_view kAllowed =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=";
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(in.size());
  bool seen_hash = false;
  for (size_t i = 0; i < in.size(); ++i) {
    const auto c = static_cast<unsigned char>(in[i]);
    if (c == '\t' || c == '\n' || c == '\r') continue;
    const bool keep = (c == '%' && i + 2 < in.size() && IsHex(in[i + 1]) && IsHex(in[i + 2])) ||
                      (c != '%' && c < 0x80 && kAllowed.find(static_cast<char>(c)) != std::string_view::npos &&
                       !(c == '#' && seen_hash));
    if (c == '#') seen_hash = true;
    if (keep) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
  }
  return out;
}

// RFC 3986 6.2.2.1-2: hex digits of percent-escapes in uppercase, escaped
// unreserved characters decoded; every other escape (%2F) kept, since
// decoding it could change what the URL means. (Boost 1.81's normalize()
// decodes %2F too, and keeps "/../" above the root, so it is not used.)
std::string NormalizeEscapes(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && IsHex(s[i + 1]) && IsHex(s[i + 2])) {
      const int hi =
          std::isdigit(static_cast<unsigned char>(s[i + 1])) ? s[i + 1] - '0' : std::toupper(s[i + 1]) - 'A' + 10;
      const int lo =
          std::isdigit(static_cast<unsigned char>(s[i + 2])) ? s[i + 2] - '0' : std::toupper(s[i + 2]) - 'A' + 10;
      const char c = static_cast<char>(hi * 16 + lo);
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == '_' || c == '~') {
        out += c;
      } else {
        out += '%';
        out += kHex[hi];
        out += kHex[lo];
      }
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// RFC 3986 5.2.4, for an absolute path: "." and ".." segments removed, ".."
// above the root dropped.
std::string RemoveDotSegments(std::string_view path) {
  std::vector<std::string_view> segments;
  size_t i = 1;  // after the leading '/'
  bool trailing_slash = false;
  while (i <= path.size()) {
    size_t end = path.find('/', i);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view seg = path.substr(i, end - i);
    const bool last = end == path.size();
    if (seg == ".") {
      trailing_slash = last;
    } else if (seg == "..") {
      if (!segments.empty()) segments.pop_back();
      trailing_slash = last;
    } else {
      segments.push_back(seg);
      trailing_slash = false;
    }
    i = end + 1;
  }
  std::string out;
  for (const auto& seg : segments) {
    out += '/';
    out += seg;
  }
  if (trailing_slash || out.empty()) out += '/';
  return out;
}

// Boost.URL 1.81 ends an IPv4 host early ("http://1.2.3.4.example/" as
// host 1.2.3.4, path ".example/"), where a browser reads the name; after an
// authority a path starts with '/' or is empty (RFC 3986 3.3), so anything
// else is that misreading. Found by fuzz/url_address.
bool MisreadHost(const urls::url_view_base& u) {
  const auto path = u.encoded_path();
  return u.has_authority() && !path.empty() && path.front() != '/';
}

std::optional<std::string> Canonical(const urls::url_view_base& u) {
  std::string scheme(u.scheme());
  for (char& c : scheme) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (scheme != "http" && scheme != "https") return std::nullopt;
  if (!u.has_authority() || u.encoded_host().empty()) return std::nullopt;
  if (MisreadHost(u)) return std::nullopt;
  // Escapes first, then case: an escaped letter ("%50") is decoded to one
  // that must be lowercased too, or the result would not be a fixed point
  // (fuzz/url_address); the escapes' own hex digits stay uppercase.
  std::string host = NormalizeEscapes(u.encoded_host());
  for (size_t i = 0; i < host.size(); ++i) {
    if (host[i] == '%') {
      i += 2;
      continue;
    }
    host[i] = static_cast<char>(std::tolower(static_cast<unsigned char>(host[i])));
  }
  std::string out = scheme + "://" + host;
  const std::string_view default_port = scheme == "https" ? "443" : "80";
  std::string_view port = u.port();
  while (port.size() > 1 && port.front() == '0') port.remove_prefix(1);
  if (u.has_port() && !port.empty() && port != default_port) out += ":" + std::string(port);
  std::string path = NormalizeEscapes(u.encoded_path());
  out += path.empty() || path.front() != '/' ? "/" + path : RemoveDotSegments(path);
  if (u.has_query() && !u.encoded_query().empty()) out += "?" + NormalizeEscapes(u.encoded_query());
  return out;
}

}  // namespace

namespace {

// `canonical` itself, unless reading it again would misread its host: a
// decoded escape can make one ("25%2e4.0.0.10" is "25.4.0.0.10", which
// Boost.URL 1.81 reads as 25.4.0.0; fuzz/url_address). Canonical URLs are
// canonicalized again (de-duplication, redirects), so they must read back.
std::optional<std::string> ReadsBack(std::optional<std::string> canonical) {
  if (!canonical) return std::nullopt;
  auto again = urls::parse_uri(*canonical);
  if (!again || MisreadHost(*again)) return std::nullopt;
  return canonical;
}

}  // namespace

std::optional<std::string> CanonicalUrl(std::string_view url) {
  try {
    const std::string prepared = Prepare(url);  // parse_uri's view points into it
    auto parsed = urls::parse_uri(prepared);
    if (!parsed) return std::nullopt;
    return ReadsBack(Canonical(*parsed));
  } catch (const std::exception&) {  // boost::url throws only on absurd lengths
    return std::nullopt;
  }
}

std::optional<std::string> ResolveUrl(std::string_view base, std::string_view reference) {
  try {
    auto b = urls::parse_uri(base);
    if (!b) return std::nullopt;
    const std::string prepared = Prepare(reference);
    auto ref = urls::parse_uri_reference(prepared);
    if (!ref || MisreadHost(*ref)) return std::nullopt;
    urls::url out;
    if (!urls::resolve(*b, *ref, out)) return std::nullopt;
    return ReadsBack(Canonical(out));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::string OriginOf(std::string_view canonical_url) {
  auto parsed = urls::parse_uri(canonical_url);
  if (!parsed) return std::string();
  return std::string(parsed->scheme()) + "://" + std::string(parsed->encoded_authority()) + "/";
}

std::string PathAndQuery(std::string_view canonical_url) {
  auto parsed = urls::parse_uri(canonical_url);
  if (!parsed) return "/";
  std::string out(parsed->encoded_path());
  if (out.empty()) out = "/";
  if (parsed->has_query()) out += "?" + std::string(parsed->encoded_query());
  return out;
}

}  // namespace credence::connectors::web::internal
