#pragma once
// A small HTTP/1.1 server on 127.0.0.1 for the crawler's tests: real sockets,
// keep-alive, a thread per connection. It serves a map path -> response
// (the path with its query, as the request line has it; 404 otherwise),
// answers conditional requests itself (If-None-Match against the response's
// ETag, If-Modified-Since equal to its Last-Modified: 304), and records every
// request with its headers. Thread-safe.
#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace credence::connectors::web::test {

class LoopbackHttpServer {
 public:
  struct Response {
    int status = 200;
    std::string content_type = "text/html; charset=utf-8";  // empty: no Content-Type header
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;  // e.g. {"Location", "/new"}
    std::optional<std::string> etag;
    std::optional<std::string> last_modified;
    int delay_ms = 0;                   // before answering
    bool close_without_length = false;  // no Content-Length: the body ends when the connection closes
  };
  struct Request {
    std::string method;
    std::string target;                          // "/path?query"
    std::map<std::string, std::string> headers;  // names lowercased
  };

  LoopbackHttpServer();  // listens on an ephemeral port at once
  ~LoopbackHttpServer();
  LoopbackHttpServer(const LoopbackHttpServer&) = delete;
  LoopbackHttpServer& operator=(const LoopbackHttpServer&) = delete;

  int port() const { return port_; }
  std::string Origin() const;                      // "http://127.0.0.1:PORT"
  std::string Url(const std::string& path) const;  // Origin() + path

  void Set(const std::string& path, Response response);
  void SetHtml(const std::string& path, const std::string& html);
  void Remove(const std::string& path);

  int Count(const std::string& path) const;  // requests for `path` so far
  std::vector<Request> Requests() const;     // all of them, in order
  std::vector<Request> RequestsFor(const std::string& path) const;
  int connections() const { return connections_.load(); }
  void ClearLog();

 private:
  void AcceptLoop();
  void Serve(int fd);
  Response Lookup(const Request& request, bool* not_modified) const;

  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<int> connections_{0};
  std::thread acceptor_;

  mutable std::mutex mu_;
  std::condition_variable stop_cv_;         // wakes delayed answers when stopping
  std::map<std::string, Response> routes_;  // guarded by mu_
  std::vector<Request> log_;                // guarded by mu_
  std::vector<int> client_fds_;             // guarded by mu_
  std::vector<std::thread> workers_;        // guarded by mu_
};

}  // namespace credence::connectors::web::test
