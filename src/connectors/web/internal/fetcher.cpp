#include "connectors/web/internal/fetcher.h"
#include "core/text.h"

#include "connectors/web/internal/url.h"
#include "outbound/outbound.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <mutex>
#include <stdexcept>

#include "telemetry/outbound_call.h"

namespace credence::connectors::web::internal {
namespace {

std::string_view TrimHeaderValue(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
    s.remove_suffix(1);
  return s;
}

// The one piece of global state: libcurl's own initialisation, which is not
// thread-safe itself (curl_easy_init would do it implicitly, racily).
void GlobalInit() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Transfer {
  CURL* curl;
  const FetchOptions* options;
  FetchResult* result;
  bool decided = false;  // the headers looked at
  bool discard = false;  // not a 2xx: the body is read (to keep the connection) but not kept
  size_t discarded = 0;
  bool discard_stopped = false;  // ...unless it is too long
  bool too_large = false;
  bool refused = false;
  std::string not_allowed;  // the address libcurl was about to connect to, refused
};

// Every connection, also to a redirect's target, is checked at the address
// it is about to connect to (the connectors' rule of docs/outbound.md:
// private and loopback yes, link-local and cloud metadata never), so neither
// a redirect nor a second DNS answer can reach what the rule refuses.
curl_socket_t OpenCheckedSocket(void* user, curlsocktype /*purpose*/, curl_sockaddr* address) {
  auto* t = static_cast<Transfer*>(user);
  char text[INET6_ADDRSTRLEN] = {};
  const void* raw = nullptr;
  if (address->family == AF_INET)
    raw = &reinterpret_cast<const sockaddr_in*>(&address->addr)->sin_addr;
  else if (address->family == AF_INET6)
    raw = &reinterpret_cast<const sockaddr_in6*>(&address->addr)->sin6_addr;
  const auto c = raw != nullptr && inet_ntop(address->family, raw, text, sizeof text) != nullptr
                     ? outbound::ClassifyAddress(text)
                     : std::nullopt;
  if (!c || !outbound::Allowed(*c, outbound::ConnectorPolicy())) {
    t->not_allowed = std::string(text[0] != '\0' ? text : "an unknown address") + ", a " +
                     std::string(c ? outbound::AddressClassName(*c) : "non-IP") + " address";
    return CURL_SOCKET_BAD;
  }
  return socket(address->family, address->socktype, address->protocol);
}

size_t OnBody(char* data, size_t size, size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const size_t bytes = size * n;
  if (!t->decided) {
    t->decided = true;
    long status = 0;
    curl_easy_getinfo(t->curl, CURLINFO_RESPONSE_CODE, &status);
    char* type = nullptr;
    curl_easy_getinfo(t->curl, CURLINFO_CONTENT_TYPE, &type);
    std::string media = type != nullptr ? AsciiLower(type) : std::string();
    if (const size_t semi = media.find(';'); semi != std::string::npos) {
      const std::string params = media.substr(semi + 1);
      media.resize(semi);
      if (const size_t cs = params.find("charset="); cs != std::string::npos) {
        std::string_view v = TrimHeaderValue(std::string_view(params).substr(cs + 8));
        v = v.substr(0, v.find(';'));
        if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
        t->result->charset = std::string(TrimHeaderValue(v));
      }
    }
    t->result->media_type = std::string(TrimHeaderValue(media));
    t->discard = status < 200 || status >= 300;
    if (!t->discard && t->options->accept && !t->options->accept(status, t->result->media_type)) {
      t->refused = true;
      return 0;  // aborts the transfer
    }
  }
  const auto max = static_cast<size_t>(t->options->max_bytes);
  if (t->discard) {
    t->discarded += bytes;
    if (t->discarded > max) {
      t->discard_stopped = true;
      return 0;
    }
    return bytes;
  }
  if (t->result->body.size() + bytes > max) {
    if (t->options->truncate_at_max) {
      t->result->body.append(data, max - t->result->body.size());
    } else {
      t->too_large = true;
    }
    return 0;
  }
  t->result->body.append(data, bytes);
  return bytes;
}

// Response headers; a new status line (after a followed redirect) starts over.
size_t OnHeader(char* data, size_t size, size_t n, void* user) {
  auto* t = static_cast<Transfer*>(user);
  const std::string_view line(data, size * n);
  if (line.starts_with("HTTP/")) {
    t->result->etag.reset();
    t->result->last_modified.reset();
    return size * n;
  }
  const size_t colon = line.find(':');
  if (colon == std::string_view::npos) return size * n;
  const std::string name = AsciiLower(TrimHeaderValue(line.substr(0, colon)));
  const std::string_view value = TrimHeaderValue(line.substr(colon + 1));
  if (value.empty()) return size * n;
  if (name == "etag") t->result->etag = std::string(value);
  if (name == "last-modified") t->result->last_modified = std::string(value);
  return size * n;
}

}  // namespace

Fetcher::Fetcher() {
  GlobalInit();
  curl_ = curl_easy_init();
  if (curl_ == nullptr) throw std::runtime_error("curl_easy_init failed");
}

Fetcher::~Fetcher() { curl_easy_cleanup(static_cast<CURL*>(curl_)); }

FetchResult Fetcher::Get(const std::string& url, const FetchOptions& options) {
  if (options.credential_header.empty() || options.follow_redirects == 0) return GetOnce(url, options);
  FetchOptions hop = options;
  hop.follow_redirects = 0;
  std::string at = url;
  for (int redirects = 0;; ++redirects) {
    FetchResult r = GetOnce(at, hop);
    const bool redirect = r.status == 301 || r.status == 302 || r.status == 303 || r.status == 307 || r.status == 308;
    if (!redirect || r.redirect_url.empty()) return r;
    if (redirects == options.follow_redirects) {
      r.outcome = FetchResult::Outcome::kTransportError;
      r.status = 0;
      r.error = "too many redirects";
      return r;
    }
    at = r.redirect_url;
  }
}

FetchResult Fetcher::GetOnce(const std::string& url, const FetchOptions& options) {
  auto* curl = static_cast<CURL*>(curl_);
  // A child of the sync run's span (connector sync): one per page fetched.
  telemetry::OutboundCall call("connector fetch", "GET", url);
  FetchResult result;
  Transfer transfer{curl, &options, &result};
  // Reset clears the options of the last request but keeps its connections
  // (and DNS cache): the next request to the same host reuses them.
  curl_easy_reset(curl);
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, options.timeout_ms);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, options.timeout_ms);
  curl_easy_setopt(curl, CURLOPT_USERAGENT, options.user_agent.c_str());
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");  // whatever libcurl can decode; limits apply decoded
  if (!options.truncate_at_max) curl_easy_setopt(curl, CURLOPT_MAXFILESIZE_LARGE, curl_off_t{options.max_bytes});
  if (options.follow_redirects > 0) {
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(curl, CURLOPT_MAXREDIRS, static_cast<long>(options.follow_redirects));
  }
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, OnBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, OnHeader);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &transfer);
  curl_easy_setopt(curl, CURLOPT_OPENSOCKETFUNCTION, OpenCheckedSocket);
  curl_easy_setopt(curl, CURLOPT_OPENSOCKETDATA, &transfer);
  curl_slist* headers = nullptr;
  for (const std::string& h : options.headers) headers = curl_slist_append(headers, h.c_str());
  if (!options.credential_header.empty()) {
    const auto canonical = CanonicalUrl(url);
    if (canonical && OriginOf(*canonical) == options.credential_origin)
      headers = curl_slist_append(headers, options.credential_header.c_str());
  }
  for (const std::string& h : call.HeaderLines()) headers = curl_slist_append(headers, h.c_str());
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);

  const CURLcode rc = curl_easy_perform(curl);
  curl_slist_free_all(headers);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &result.status);
  if (!transfer.not_allowed.empty()) {
    result.outcome = FetchResult::Outcome::kTransportError;
    result.status = 0;
    result.error = "not allowed to connect to " + transfer.not_allowed + " (docs/outbound.md)";
  } else if (transfer.refused) {
    result.outcome = FetchResult::Outcome::kRefused;
  } else if (transfer.too_large || rc == CURLE_FILESIZE_EXCEEDED) {
    result.outcome = FetchResult::Outcome::kTooLarge;
    result.error = "larger than " + std::to_string(options.max_bytes) + " bytes";
  } else if (rc == CURLE_OK || (rc == CURLE_WRITE_ERROR && (options.truncate_at_max || transfer.discard_stopped))) {
    result.outcome = FetchResult::Outcome::kOk;
  } else {
    result.outcome = FetchResult::Outcome::kTransportError;
    result.status = 0;
    result.error = rc == CURLE_OPERATION_TIMEDOUT ? "timed out" : curl_easy_strerror(rc);
  }
  if (result.outcome != FetchResult::Outcome::kTransportError) {
    char* location = nullptr;
    if (curl_easy_getinfo(curl, CURLINFO_REDIRECT_URL, &location) == CURLE_OK && location != nullptr)
      result.redirect_url = location;
  }
  if (result.media_type.empty() && result.outcome == FetchResult::Outcome::kOk) {
    // No body (a 304, an empty 200): the type from the headers all the same.
    char* type = nullptr;
    curl_easy_getinfo(curl, CURLINFO_CONTENT_TYPE, &type);
    if (type != nullptr) {
      std::string media = AsciiLower(type);
      result.media_type = std::string(TrimHeaderValue(media.substr(0, media.find(';'))));
    }
  }
  call.Finish(result.status, result.outcome == FetchResult::Outcome::kTransportError ? std::string_view(result.error)
                                                                                     : std::string_view());
  return result;
}

}  // namespace credence::connectors::web::internal
