#include "http/static_site.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
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

  auto html = [&](std::string body) {
    HttpResponse r;
    r.content_type = "text/html; charset=utf-8";
    r.body = std::move(body);
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
        if (type.rfind("text/html", 0) == 0) return html(std::move(*body));
        HttpResponse r;
        r.content_type = std::string(type);
        r.body = std::move(*body);
        r.WithHeader("Cache-Control", under_assets ? "public, max-age=31536000, immutable" : "no-cache");
        return r;
      }
    }
  }

  // `/`, or a client route: index.html, to browsers only; never for a
  // missing asset.
  if (under_assets || (!segments.empty() && !AcceptsHtml(request))) return std::nullopt;
  if (auto index = ReadRegularFile(root_ + "/index.html")) return html(std::move(*index));
  return std::nullopt;
}

}  // namespace credence::http
