#include "http/static_site.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <filesystem>
#include <utility>

#include "http/route.h"
#include "http/router.h"

namespace credence::http {
namespace {

namespace fs = std::filesystem;

// API prefixes reserved even where no route exists yet (the issue 17 list):
// a path under one of them is an API path, answered by the router only.
constexpr std::array<std::string_view, 22> kReservedApiPrefixes = {
    "api",        "auth",     "trust-admin", "admin",       "apikeys",  "connect",
    "users",      "groups",   "webhooks",    "tenant",      "plugins",  "dev",
    "openapi.json", "healthz", "readyz",     "metrics",     ".well-known", "categories",
    "tags",       "review-checklists", "block-type-heuristics", "notification-channels"};

// Largest file served; the client's bundles are far below.
constexpr off_t kMaxFileBytes = 64 << 20;

std::string_view FirstSegment(std::string_view path) {
  path = path.substr(0, path.find('?'));
  if (!path.empty() && path.front() == '/') path.remove_prefix(1);
  return path.substr(0, path.find('/'));
}

// Reads a regular file without following a symbolic link at the last step
// (the directories were resolved by the caller); nullopt on any failure.
std::optional<std::string> ReadRegularFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > kMaxFileBytes) {
    ::close(fd);
    return std::nullopt;
  }
  std::string out(static_cast<size_t>(st.st_size), '\0');
  size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::read(fd, out.data() + done, out.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<size_t>(n);
  }
  ::close(fd);
  out.resize(done);
  return out;
}

bool AcceptsHtml(const HttpRequest& request) {
  return request.Header("accept").find("text/html") != std::string_view::npos;
}

// Smaller files are sent as they are when no precompressed sibling exists:
// the coding's framing and the CPU would cost more than they save.
constexpr size_t kMinOnTheFlyBytes = 1024;

std::string_view TrimOws(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// RFC 9110's qvalue: 0, 0.x{0,3}, 1, 1.0{0,3}; nullopt when malformed.
std::optional<double> ParseQValue(std::string_view v) {
  if (v.empty() || v.size() > 5 || (v[0] != '0' && v[0] != '1')) return std::nullopt;
  if (v.size() > 1 && v[1] != '.') return std::nullopt;
  for (size_t i = 2; i < v.size(); ++i)
    if (v[i] < '0' || v[i] > '9' || (v[0] == '1' && v[i] != '0')) return std::nullopt;
  return std::strtod(std::string(v).c_str(), nullptr);
}

// The q a client gives `coding` by its own entry or `*`; nullopt when
// neither is listed.
std::optional<double> ListedQuality(std::string_view accept_encoding, std::string_view coding);

// Chooses the coding to send: the highest q among those the site can make,
// ties going to the smaller (br, then gzip, then identity). An identity the
// client did not list is acceptable but not preferred: "br;q=0.5" still
// gets br. When the client excludes even identity, identity is sent anyway
// (RFC 9110 lets a server disregard the header rather than answer 406).
std::string_view ChooseCoding(const HttpRequest& request, bool can_br, bool can_gzip) {
  const std::string_view header = request.Header("accept-encoding");
  const double br_q = can_br ? CodingQuality(header, "br") : 0;
  const double gzip_q = can_gzip ? CodingQuality(header, "gzip") : 0;
  const std::string_view compressed = br_q >= gzip_q ? "br" : "gzip";
  const double compressed_q = std::max(br_q, gzip_q);
  if (compressed_q <= 0) return "identity";
  const auto identity_q = ListedQuality(header, "identity");
  return identity_q && *identity_q > compressed_q ? "identity" : compressed;
}

bool IsRegularFile(const std::string& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

// Sets `r`'s body (the file at `path`, already read) in the coding the
// client prefers among those available.
void EncodeBody(HttpResponse& r, const std::string& path, const HttpRequest& request) {
  if (!IsCompressible(r.content_type)) return;
  r.WithHeader("Vary", "Accept-Encoding");
  const bool has_br = IsRegularFile(path + ".br");
  const bool has_gz = IsRegularFile(path + ".gz");
  const std::string_view coding = ChooseCoding(request, has_br, has_gz || r.body.size() >= kMinOnTheFlyBytes);
  if (coding == "identity") return;
  std::optional<std::string> encoded;
  if (coding == "br" || has_gz) encoded = ReadRegularFile(path + (coding == "br" ? ".br" : ".gz"));
  else encoded = GzipCompress(r.body);
  if (!encoded) return;  // a sibling that vanished, or zlib failing: the file as it is
  r.body = std::move(*encoded);
  r.WithHeader("Content-Encoding", std::string(coding));
}

}  // namespace

ApiPrefixes::ApiPrefixes(std::vector<std::string> first_segments) {
  for (auto& s : first_segments) segments_.insert(std::move(s));
  for (std::string_view s : kReservedApiPrefixes) segments_.emplace(s);
}

ApiPrefixes::ApiPrefixes(const Router& router) : ApiPrefixes(std::vector<std::string>{}) {
  for (const auto& route : router.routes()) {
    const std::string_view first = FirstSegment(route->path);
    if (!first.empty() && first.front() != '{') segments_.emplace(first);
  }
}

bool ApiPrefixes::IsApiPath(std::string_view encoded_path) const {
  // Decoded, so /%61pi/... is /api/... as the router sees it.
  const auto decoded = PercentDecode(encoded_path.substr(0, encoded_path.find('?')));
  if (!decoded) return true;  // malformed: never a page
  return segments_.count(FirstSegment(*decoded)) > 0;
}

double CodingQuality(std::string_view accept_encoding, std::string_view coding) {
  return ListedQuality(accept_encoding, coding).value_or(coding == "identity" ? 1 : 0);
}

namespace {

std::optional<double> ListedQuality(std::string_view accept_encoding, std::string_view coding) {
  std::optional<double> own;
  std::optional<double> any;
  std::string_view rest = accept_encoding;
  while (!rest.empty()) {
    const size_t comma = std::min(rest.find(','), rest.size());
    std::string_view element = rest.substr(0, comma);
    rest.remove_prefix(std::min(comma + 1, rest.size()));
    const size_t semi = std::min(element.find(';'), element.size());
    std::string_view name = TrimOws(element.substr(0, semi));
    if (name.empty()) continue;
    double q = 1;
    std::string_view params = element.substr(std::min(semi + 1, element.size()));
    while (semi < element.size() && !params.empty()) {
      const size_t next = std::min(params.find(';'), params.size());
      const std::string_view param = TrimOws(params.substr(0, next));
      params.remove_prefix(std::min(next + 1, params.size()));
      if (param.size() >= 2 && (param[0] == 'q' || param[0] == 'Q') && param[1] == '=')
        q = ParseQValue(TrimOws(param.substr(2))).value_or(0);
    }
    if (EqualsIgnoreCase(name, "x-gzip")) name = "gzip";
    if (EqualsIgnoreCase(name, coding)) own = std::max(own.value_or(0), q);
    else if (name == "*") any = std::max(any.value_or(0), q);
  }
  if (own) return own;
  return any;
}

}  // namespace

bool IsCompressible(std::string_view content_type) {
  for (std::string_view prefix : {"text/", "application/json", "application/manifest+json", "image/svg+xml",
                                  "image/x-icon", "application/wasm"})
    if (content_type.rfind(prefix, 0) == 0) return true;
  return false;
}

std::optional<std::string> GzipCompress(std::string_view data) {
  z_stream z{};
  // 15 + 16: a gzip header and trailer around the deflate stream.
  if (deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return std::nullopt;
  std::string out(deflateBound(&z, static_cast<uLong>(data.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&z, Z_FINISH);
  const size_t written = out.size() - z.avail_out;
  deflateEnd(&z);
  if (rc != Z_STREAM_END) return std::nullopt;
  out.resize(written);
  return out;
}

std::string_view ContentTypeFor(std::string_view file_name) {
  static constexpr std::pair<std::string_view, std::string_view> kTypes[] = {
      {".html", "text/html; charset=utf-8"},
      {".js", "text/javascript; charset=utf-8"},
      {".mjs", "text/javascript; charset=utf-8"},
      {".css", "text/css; charset=utf-8"},
      {".json", "application/json"},
      {".map", "application/json"},
      {".webmanifest", "application/manifest+json"},
      {".svg", "image/svg+xml"},
      {".png", "image/png"},
      {".jpg", "image/jpeg"},
      {".jpeg", "image/jpeg"},
      {".gif", "image/gif"},
      {".webp", "image/webp"},
      {".ico", "image/x-icon"},
      {".woff", "font/woff"},
      {".woff2", "font/woff2"},
      {".ttf", "font/ttf"},
      {".txt", "text/plain; charset=utf-8"},
      {".wasm", "application/wasm"},
  };
  const auto dot = file_name.rfind('.');
  const auto slash = file_name.rfind('/');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash))
    return "application/octet-stream";
  std::string ext(file_name.substr(dot));
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const auto& [e, type] : kTypes)
    if (e == ext) return type;
  return "application/octet-stream";
}

StaticSite::StaticSite(std::string root, ApiPrefixes api) : api_(std::move(api)) {
  std::error_code ec;
  const fs::path canonical = fs::canonical(fs::path(root), ec);
  root_ = ec ? root : canonical.string();
  while (root_.size() > 1 && root_.back() == '/') root_.pop_back();
}

std::optional<HttpResponse> StaticSite::Serve(const HttpRequest& request) const {
  if (request.method != Method::kGet && request.method != Method::kHead) return std::nullopt;
  const std::string_view encoded = request.path();
  if (api_.IsApiPath(encoded)) return std::nullopt;
  const auto decoded = PercentDecode(encoded);
  if (!decoded || decoded->empty() || decoded->front() != '/') return std::nullopt;

  // Segments: none may be empty (but a trailing '/'), start with '.' (no
  // `..`, no dot files) or hold a NUL or a backslash.
  std::vector<std::string_view> segments;
  std::string_view rest = std::string_view(*decoded).substr(1);
  while (!rest.empty()) {
    const size_t end = std::min(rest.find('/'), rest.size());
    const std::string_view segment = rest.substr(0, end);
    if (segment.empty() || segment.front() == '.' || segment.find('\0') != std::string_view::npos ||
        segment.find('\\') != std::string_view::npos)
      return std::nullopt;
    segments.push_back(segment);
    rest.remove_prefix(std::min(end + 1, rest.size()));
  }
  const bool under_assets = !segments.empty() && segments.front() == "assets";

  auto html = [&](std::string body, const std::string& path) {
    HttpResponse r;
    r.content_type = "text/html; charset=utf-8";
    r.body = std::move(body);
    EncodeBody(r, path, request);
    r.WithHeader("Cache-Control", "no-cache");
    r.WithHeader("Content-Security-Policy", std::string(kContentSecurityPolicy));
    r.WithHeader("X-Frame-Options", "DENY");
    r.WithHeader("Referrer-Policy", "same-origin");
    return r;
  };

  if (!segments.empty()) {
    std::string relative;
    for (std::string_view s : segments) relative.append("/").append(s);
    std::error_code ec;
    const fs::path resolved = fs::canonical(fs::path(root_ + relative), ec);
    const std::string resolved_text = resolved.string();
    // Inside the root after every link is resolved, and a regular file.
    if (!ec && resolved_text.size() > root_.size() + 1 && resolved_text.compare(0, root_.size(), root_) == 0 &&
        resolved_text[root_.size()] == '/' && fs::is_regular_file(resolved, ec)) {
      if (auto body = ReadRegularFile(resolved_text)) {
        const std::string_view type = ContentTypeFor(resolved_text);
        if (type.rfind("text/html", 0) == 0) return html(std::move(*body), resolved_text);
        HttpResponse r;
        r.content_type = std::string(type);
        r.body = std::move(*body);
        EncodeBody(r, resolved_text, request);
        r.WithHeader("Cache-Control", under_assets ? "public, max-age=31536000, immutable" : "no-cache");
        return r;
      }
    }
  }

  // `/`, or a client route: index.html, to browsers only; never for a
  // missing asset.
  if (under_assets || (!segments.empty() && !AcceptsHtml(request))) return std::nullopt;
  if (auto index = ReadRegularFile(root_ + "/index.html")) return html(std::move(*index), root_ + "/index.html");
  return std::nullopt;
}

}  // namespace credence::http
