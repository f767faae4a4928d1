#pragma once
// The HTTP/1.1 server: Boost.Beast on Asio, one io_context and thread per
// worker, connections handed out round-robin by one acceptor. Each request
// is read with header and body limits and timeouts, handed to the
// Dispatcher as a plain HttpRequest, and answered on the same thread.
//
// Connections past max_connections (or a client address's share) shed the
// oldest connections that have not sent a whole request, then idle
// keep-alive ones, so slow or idle clients cannot hold every socket while
// a normal client waits (docs/operations.md, "Connections").
//
// Graceful shutdown on SIGTERM/SIGINT or Stop(): stop accepting, close idle
// keep-alive connections, let in-flight requests finish (up to
// shutdown_timeout_ms), then return from Run().
#include <cstdint>
#include <memory>
#include <string>

namespace credence::http {

class Dispatcher;

struct ServerOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 8080;
  int threads = 2;
  size_t max_body_bytes = 1 << 20;
  size_t max_header_bytes = 16 << 10;
  int64_t read_timeout_ms = 10'000;
  int64_t idle_timeout_ms = 60'000;
  int64_t shutdown_timeout_ms = 10'000;
  // Open connections at most (0: no cap). A connection accepted at the cap
  // sheds another: the oldest that has not sent a complete request, else the
  // oldest idle keep-alive one; with none of those it is closed at once.
  size_t max_connections = 0;
  // The same per client address (0: no cap): behind a proxy every client
  // shares the proxy's address.
  size_t max_connections_per_address = 0;
};

class Server {
 public:
  Server(ServerOptions options, const Dispatcher& dispatcher);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Binds and listens; throws std::runtime_error when the address is
  // unavailable. Returns the bound port (useful with port 0).
  uint16_t Listen();
  // Serves until a shutdown is requested, then drains. Call after Listen().
  void Run();
  // Requests a graceful shutdown; safe from any thread.
  void Stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace credence::http
