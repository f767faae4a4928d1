#pragma once
// One libcurl easy handle, reused for every request of a crawl so
// connections are kept alive. Not thread-safe: one Fetcher per crawl.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace credence::connectors::web::internal {

struct FetchOptions {
  long timeout_ms = 10000;
  std::string user_agent;
  int64_t max_bytes = int64_t{5} * 1024 * 1024;  // a bigger body is an error (kTooLarge)...
  bool truncate_at_max = false;                  // ...unless this is set: then the first max_bytes are the body
  int follow_redirects = 0;                      // redirects libcurl follows itself (0: report 3xx to the caller)
  std::vector<std::string> headers;              // "Name: value", e.g. If-None-Match
  // Sent only when the URL requested is on `credential_origin` ("https://host/",
  // OriginOf); redirects are then followed here, hop by hop, so libcurl
  // never carries it to another origin.
  std::string credential_header;
  std::string credential_origin;
  // Asked once the response headers are in (status, lowercased media type
  // without parameters): false stops the transfer there, outcome kRefused.
  std::function<bool(long status, std::string_view media_type)> accept;
};

struct FetchResult {
  enum class Outcome { kOk, kTransportError, kTooLarge, kRefused };
  Outcome outcome = Outcome::kTransportError;
  long status = 0;    // the HTTP status, when there was an answer
  std::string error;  // kTransportError: "timed out", or libcurl's message
  std::string body;
  std::string media_type;    // lowercased, without parameters ("text/html")
  std::string charset;       // lowercased charset parameter, if any
  std::string redirect_url;  // a 3xx's Location, absolute
  std::optional<std::string> etag, last_modified;
};

class Fetcher {
 public:
  Fetcher();
  ~Fetcher();
  Fetcher(const Fetcher&) = delete;
  Fetcher& operator=(const Fetcher&) = delete;

  FetchResult Get(const std::string& url, const FetchOptions& options);

 private:
  FetchResult GetOnce(const std::string& url, const FetchOptions& options);
  void* curl_;  // CURL*
};

}  // namespace credence::connectors::web::internal
