#pragma once
// The built web client (`credence serve --web-dir DIR`, docs/web-client.md):
// files under DIR at `/`, hashed assets under /assets/ cached for a year,
// index.html never cached without revalidation and under a strict
// Content-Security-Policy, and client routes (a GET for a path that is not
// an API path and not a file, from a browser that accepts text/html)
// answered with index.html. API paths are never answered from here.
// Compressible files are sent as their precompressed sibling (FILE.br,
// FILE.gz, made at build time) when the client accepts that coding, else
// gzipped on the fly when at least 1 KiB; always with Vary: Accept-Encoding.
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "http/request.h"

namespace credence::http {

class Router;

// The first path segments the API owns: every route table's first segment
// plus the reserved prefixes in static_site.cpp (kReservedApiPrefixes), so a
// prefix with no route yet is still never served as a page.
class ApiPrefixes {
 public:
  explicit ApiPrefixes(const Router& router);
  explicit ApiPrefixes(std::vector<std::string> first_segments);
  // `encoded_path` as received ("/api/hubs?x" is fine, the query is ignored).
  bool IsApiPath(std::string_view encoded_path) const;
  const std::set<std::string, std::less<>>& segments() const { return segments_; }

 private:
  std::set<std::string, std::less<>> segments_;
};

class StaticSite {
 public:
  // `root` must be an existing directory (checked by the caller at start-up).
  StaticSite(std::string root, ApiPrefixes api);

  // The answer for a request the router found no route for; nullopt when
  // the site does not answer it (an API path, a method other than GET or
  // HEAD): then the caller answers route_not_found as usual.
  std::optional<HttpResponse> Serve(const HttpRequest& request) const;

  const ApiPrefixes& api() const { return api_; }

  static constexpr std::string_view kContentSecurityPolicy =
      "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; "
      "img-src 'self' data:; font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
      "frame-ancestors 'none'";

 private:
  std::string root_;  // canonical, without a trailing '/'
  ApiPrefixes api_;
};

// Content type by file extension (application/octet-stream when unknown).
std::string_view ContentTypeFor(std::string_view file_name);

// How much a client wants `coding` ("br", "gzip", "identity"; lowercase)
// by its Accept-Encoding value (RFC 9110 12.5.3): the q of the coding's own
// entry, else of `*`, else 0, except identity, which is acceptable (1)
// unless excluded. No header or an empty one: identity only. `x-gzip` is
// gzip; a malformed q makes its entry 0.
double CodingQuality(std::string_view accept_encoding, std::string_view coding);

// Whether a representation of this content type is worth compressing
// (text, JSON, SVG, icons, WebAssembly).
bool IsCompressible(std::string_view content_type);

// `data` as a gzip member (zlib, level 6); nullopt if zlib fails.
std::optional<std::string> GzipCompress(std::string_view data);

}  // namespace credence::http
