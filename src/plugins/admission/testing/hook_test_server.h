#pragma once
// A small HTTP/1.1 server on 127.0.0.1 for the admission hook's tests: real
// sockets, one thread per connection, one request per connection
// (Connection: close). Each request (with its body) goes to a handler that
// says what to answer. Thread-safe.
#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace credence::plugins::admission::test {

class HookTestServer {
 public:
  struct Request {
    std::string method;
    std::string target;
    std::map<std::string, std::string> headers;  // names lowercased
    std::string body;
  };
  struct Response {
    int status = 200;
    std::string content_type = "application/json";
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
    int delay_ms = 0;             // before answering (cut short when the server stops)
    bool without_length = false;  // no Content-Length: the body ends when the connection closes
  };
  using Handler = std::function<Response(const Request&)>;

  explicit HookTestServer(Handler handler);  // listens on an ephemeral port at once
  ~HookTestServer();
  HookTestServer(const HookTestServer&) = delete;
  HookTestServer& operator=(const HookTestServer&) = delete;

  int port() const { return port_; }
  std::string Url(const std::string& path) const;  // "http://127.0.0.1:PORT" + path
  std::vector<Request> Requests() const;

 private:
  void AcceptLoop();
  void Serve(int fd);

  Handler handler_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::thread acceptor_;

  mutable std::mutex mu_;
  std::condition_variable stop_cv_;   // wakes delayed answers when stopping
  std::vector<Request> log_;          // guarded by mu_
  std::vector<int> client_fds_;       // guarded by mu_
  std::vector<std::thread> workers_;  // guarded by mu_
};

}  // namespace credence::plugins::admission::test
