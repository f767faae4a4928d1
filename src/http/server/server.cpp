#include "http/server/server.h"

#include <unistd.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/this_coro.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <list>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/logging.h"
#include "http/dispatcher.h"

namespace credence::http {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = asio::ip::tcp;
using std::chrono::milliseconds;

namespace {

constexpr auto kUseTuple = asio::as_tuple(asio::use_awaitable);

struct Connection {
  beast::tcp_stream* stream;
  bool busy = false;  // between the first byte of a request and its response
};

// One thread, one io_context, the connections it serves. Connections are
// touched only from this worker's thread, so the list needs no lock.
struct Worker {
  asio::io_context ioc{1};
  asio::executor_work_guard<asio::io_context::executor_type> guard = asio::make_work_guard(ioc);
  std::list<Connection*> connections;
  std::thread thread;
  // Requests this worker's thread is running a handler for right now
  // (handlers block on storage). The accept loop hands new connections to
  // a worker that is not, so a long request delays no one else's.
  std::atomic<int> in_handler{0};
};

// Every open connection, for shedding: those that have not sent a whole
// request yet (fresh ones, slow senders) and idle keep-alive ones, each list
// oldest first, and how many each client address holds. Touched by the
// acceptor thread and every worker, under one mutex (a few list splices per
// request).
class ConnectionRegistry {
 public:
  enum class State { kIncomplete, kIdle, kHandling, kShed };
  struct Entry {
    uint64_t id = 0;
    Worker* worker = nullptr;
    std::string address;
    beast::tcp_stream* stream = nullptr;  // set by its coroutine, on its worker's thread
    State state = State::kIncomplete;
    std::list<Entry*>::iterator position;
  };

  size_t Open() const { return open_.load(std::memory_order_relaxed); }

  void Add(Entry& e) {
    std::lock_guard lock(mu_);
    e.state = State::kIncomplete;
    incomplete_.push_back(&e);
    e.position = std::prev(incomplete_.end());
    live_.emplace(e.id, &e);
    ++per_address_[e.address];
    open_.fetch_add(1, std::memory_order_relaxed);
  }

  void Remove(Entry& e) {
    std::lock_guard lock(mu_);
    Unlist(e);
    live_.erase(e.id);
    if (auto it = per_address_.find(e.address); it != per_address_.end() && --it->second == 0) per_address_.erase(it);
    open_.fetch_sub(1, std::memory_order_relaxed);
  }

  void Move(Entry& e, State state) {
    std::lock_guard lock(mu_);
    if (e.state == State::kShed || e.state == state) return;
    Unlist(e);
    e.state = state;
    if (state == State::kIncomplete) {
      incomplete_.push_back(&e);
      e.position = std::prev(incomplete_.end());
    } else if (state == State::kIdle) {
      idle_.push_back(&e);
      e.position = std::prev(idle_.end());
    }
  }

  size_t OpenFrom(const std::string& address) const {
    std::lock_guard lock(mu_);
    auto it = per_address_.find(address);
    return it == per_address_.end() ? 0 : static_cast<size_t>(it->second);
  }

  // Chooses a connection to shed (of `address` when given): the oldest
  // incomplete, else the oldest idle one; marks it shed. Its worker closes
  // it (Close, posted there). nullopt when every candidate is handling a
  // request.
  std::optional<std::pair<uint64_t, Worker*>> PickVictim(const std::string* address) {
    std::lock_guard lock(mu_);
    for (auto* list : {&incomplete_, &idle_}) {
      for (Entry* e : *list) {
        if (address != nullptr && e->address != *address) continue;
        Unlist(*e);
        e->state = State::kShed;
        return std::make_pair(e->id, e->worker);
      }
    }
    return std::nullopt;
  }

  // On the connection's worker thread: its coroutine cannot end meanwhile.
  void Close(uint64_t id) {
    beast::tcp_stream* stream = nullptr;
    {
      std::lock_guard lock(mu_);
      auto it = live_.find(id);
      if (it == live_.end()) return;
      stream = it->second->stream;
    }
    if (stream != nullptr) stream->close();
  }

  bool Shed(const Entry& e) const {
    std::lock_guard lock(mu_);
    return e.state == State::kShed;
  }

 private:
  void Unlist(Entry& e) {
    if (e.state == State::kIncomplete) incomplete_.erase(e.position);
    if (e.state == State::kIdle) idle_.erase(e.position);
  }
  mutable std::mutex mu_;
  std::list<Entry*> incomplete_, idle_;
  std::unordered_map<uint64_t, Entry*> live_;
  std::unordered_map<std::string, int> per_address_;
  std::atomic<size_t> open_{0};
};

// Counts a handler running on the worker's thread for its lifetime.
class HandlerScope {
 public:
  explicit HandlerScope(Worker& worker) : worker_(worker) { worker_.in_handler.fetch_add(1, std::memory_order_relaxed); }
  ~HandlerScope() { worker_.in_handler.fetch_sub(1, std::memory_order_relaxed); }
  HandlerScope(const HandlerScope&) = delete;
  HandlerScope& operator=(const HandlerScope&) = delete;

 private:
  Worker& worker_;
};

HttpRequest ToHttpRequest(bhttp::request<bhttp::string_body>&& in) {
  HttpRequest out;
  out.method_name = std::string(in.method_string());
  out.method = ParseMethod(out.method_name);
  out.target = std::string(in.target());
  out.headers.reserve(8);
  for (const auto& field : in) {
    std::string name(field.name_string());
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    out.headers.emplace_back(std::move(name), std::string(field.value()));
  }
  out.body = std::move(in.body());
  return out;
}

bhttp::response<bhttp::string_body> ToBeastResponse(HttpResponse&& in, unsigned version, bool keep_alive,
                                                    bool head) {
  bhttp::response<bhttp::string_body> out;
  out.version(version);
  out.result(static_cast<unsigned>(in.status));
  if (!in.content_type.empty()) out.set(bhttp::field::content_type, in.content_type);
  for (auto& [name, value] : in.headers) out.insert(name, value);
  out.body() = std::move(in.body);
  out.keep_alive(keep_alive);
  out.prepare_payload();
  if (head) out.body().clear();  // Content-Length stays that of the GET response
  return out;
}

// Suspends the request until `pending` is ready; meanwhile its thread
// serves other connections. It resumes on the connection's own executor.
asio::awaitable<void> WhenReady(PendingResponse& pending) {
  auto executor = co_await asio::this_coro::executor;
  co_await asio::async_initiate<decltype(asio::use_awaitable), void()>(
      [&pending, executor](auto handler) {
        auto shared = std::make_shared<decltype(handler)>(std::move(handler));
        pending.OnReady([shared, executor] { asio::post(executor, [shared] { (*shared)(); }); });
      },
      asio::use_awaitable);
}

Error PayloadTooLarge(size_t limit) {
  return Error{ErrorKind::kPayloadTooLarge, "payload_too_large",
               "The request body exceeds the limit of " + std::to_string(limit) + " bytes.", {}, {}};
}

}  // namespace

struct Server::Impl {
  Impl(ServerOptions o, const Dispatcher& d) : options(std::move(o)), dispatcher(d) {
    for (int i = 0; i < std::max(1, options.threads); ++i) workers.push_back(std::make_unique<Worker>());
  }

  asio::awaitable<void> AcceptLoop();
  Worker& NextWorker();
  asio::awaitable<void> Serve(Worker& worker, tcp::socket socket, std::unique_ptr<ConnectionRegistry::Entry> entry);
  // Makes room for one more connection from `address`; false when none
  // can be shed (the new one is then refused).
  bool MakeRoom(const std::string& address);
  asio::awaitable<void> Refuse(beast::tcp_stream& stream, const Error& error, Method method,
                               std::string_view target, unsigned version);
  void BeginShutdown();

  const ServerOptions options;
  const Dispatcher& dispatcher;
  std::vector<std::unique_ptr<Worker>> workers;
  // The acceptor and the signals live on a thread of their own, so that
  // accepting a connection never waits behind a handler: a health check
  // is answered at once however long other requests run.
  asio::io_context accept_ioc{1};
  std::thread accept_thread;
  std::unique_ptr<tcp::acceptor> acceptor;
  std::unique_ptr<asio::signal_set> signals;
  size_t next_worker = 0;  // only the accept loop touches it
  uint64_t next_connection_id = 0;  // only the accept loop touches it
  ConnectionRegistry registry;
  std::atomic<int64_t> shed_connections{0};
  std::atomic<int64_t> refused_connections{0};
  std::atomic<int> open_connections{0};

  std::mutex mu;
  std::condition_variable shutdown_requested;
  bool stopping = false;  // guarded by mu; mirrored in stopping_flag for the hot path
  std::atomic<bool> stopping_flag{false};
};

Worker& Server::Impl::NextWorker() {
  // Round-robin over the workers that are not inside a handler; when every
  // one is, plain round-robin.
  const size_t n = workers.size();
  for (size_t tried = 0; tried < n; ++tried) {
    Worker& candidate = *workers[next_worker++ % n];
    if (candidate.in_handler.load(std::memory_order_relaxed) == 0) return candidate;
  }
  return *workers[next_worker++ % n];
}

asio::awaitable<void> Server::Impl::AcceptLoop() {
  while (true) {
    auto [ec, accepted] = co_await acceptor->async_accept(accept_ioc, kUseTuple);
    if (ec) {
      if (stopping_flag || ec == asio::error::operation_aborted) co_return;
      // Out of file descriptors and the like: back off instead of spinning.
      LogLine(LogLevel::kWarn, "accept failed").Str("error", ec.message());
      asio::steady_timer pause(acceptor->get_executor(), milliseconds(50));
      co_await pause.async_wait(kUseTuple);
      continue;
    }
    // The worker is chosen now that the connection is here (chosen before
    // the accept, it would be the one that was free when the previous
    // connection came), and the socket moves to its io_context.
    Worker& worker = NextWorker();
    boost::system::error_code ignored;
    tcp::socket socket(worker.ioc);
    {
      boost::system::error_code move_ec;
      const auto protocol = accepted.local_endpoint(move_ec).protocol();
      const auto native = move_ec ? -1 : accepted.release(move_ec);
      if (!move_ec) socket.assign(protocol, native, move_ec);
      if (move_ec) {
        LogLine(LogLevel::kWarn, "accepted connection could not be handed to a worker").Str("error", move_ec.message());
        accepted.close(ignored);
        if (native >= 0 && !socket.is_open()) ::close(native);
        continue;
      }
    }
    socket.set_option(tcp::no_delay(true), ignored);
    auto entry = std::make_unique<ConnectionRegistry::Entry>();
    entry->id = ++next_connection_id;
    entry->worker = &worker;
    {
      boost::system::error_code peer_ec;
      const auto peer = socket.remote_endpoint(peer_ec);
      if (!peer_ec) {
        auto address = peer.address();
        // An IPv4 client of a dual-stack socket is counted (and logged) in its IPv4 form.
        if (address.is_v6() && address.to_v6().is_v4_mapped())
          address = asio::ip::make_address_v4(asio::ip::v4_mapped, address.to_v6());
        entry->address = address.to_string();
      }
    }
    if (!MakeRoom(entry->address)) {
      // Every connection is inside a request: nothing can be shed.
      refused_connections.fetch_add(1, std::memory_order_relaxed);
      socket.close(ignored);
      continue;
    }
    registry.Add(*entry);
    asio::co_spawn(worker.ioc, Serve(worker, std::move(socket), std::move(entry)), asio::detached);
  }
}

asio::awaitable<void> Server::Impl::Refuse(beast::tcp_stream& stream, const Error& error, Method method,
                                           std::string_view target, unsigned version) {
  auto response = ToBeastResponse(dispatcher.Reject(error, method, target), version == 10 ? 10 : 11, false, false);
  stream.expires_after(milliseconds(options.read_timeout_ms));
  auto [write_ec, written] = co_await bhttp::async_write(stream, response, kUseTuple);
  if (write_ec) co_return;
  // Lingering close: a client still sending its (refused) body would get a
  // reset instead of our answer if we closed at once. Stop sending, then
  // drain what it sends for a short while.
  boost::system::error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
  stream.expires_after(milliseconds(std::min<int64_t>(options.read_timeout_ms, 2000)));
  std::array<char, size_t{16} * 1024> scratch;
  size_t drained = 0;
  while (drained < 64 * options.max_body_bytes) {
    auto [read_ec, n] = co_await stream.async_read_some(asio::buffer(scratch), kUseTuple);
    if (read_ec) break;
    drained += n;
  }
}

bool Server::Impl::MakeRoom(const std::string& address) {
  auto shed = [this](std::optional<std::pair<uint64_t, Worker*>> victim) {
    if (!victim) return false;
    shed_connections.fetch_add(1, std::memory_order_relaxed);
    asio::post(victim->second->ioc, [this, id = victim->first] { registry.Close(id); });
    return true;
  };
  if (options.max_connections > 0 && registry.Open() >= options.max_connections && !shed(registry.PickVictim(nullptr)))
    return false;
  if (options.max_connections_per_address > 0 && registry.OpenFrom(address) >= options.max_connections_per_address &&
      !shed(registry.PickVictim(&address)))
    return false;
  return true;
}

asio::awaitable<void> Server::Impl::Serve(Worker& worker, tcp::socket socket,
                                          std::unique_ptr<ConnectionRegistry::Entry> entry) {
  beast::tcp_stream stream(std::move(socket));
  entry->stream = &stream;
  Connection connection{&stream};
  worker.connections.push_front(&connection);
  const auto self = worker.connections.begin();
  ++open_connections;
  beast::flat_buffer buffer;
  // The peer's address, for the audit log (identity::RequestMeta).
  const std::string client_address = entry->address;
  if (registry.Shed(*entry)) stream.close();  // shed before it began

  while (!stopping_flag) {
    // Wait for the next request under the idle timeout, unless pipelined
    // bytes are already buffered.
    if (buffer.size() == 0) {
      stream.expires_after(milliseconds(options.idle_timeout_ms));
      auto [ec, n] = co_await stream.async_read_some(buffer.prepare(4096), kUseTuple);
      if (ec) break;
      buffer.commit(n);
    }
    registry.Move(*entry, ConnectionRegistry::State::kIncomplete);
    connection.busy = true;
    // The whole request, header and body, must arrive within the read timeout.
    stream.expires_after(milliseconds(options.read_timeout_ms));
    bhttp::request_parser<bhttp::string_body> parser;
    parser.header_limit(static_cast<std::uint32_t>(options.max_header_bytes));
    parser.body_limit(options.max_body_bytes);

    auto [header_ec, header_n] = co_await bhttp::async_read_header(stream, buffer, parser, kUseTuple);
    if (header_ec) {
      if (header_ec == bhttp::error::body_limit) {
        // Beast checks Content-Length against the body limit with the header.
        co_await Refuse(stream, PayloadTooLarge(options.max_body_bytes), ParseMethod(parser.get().method_string()),
                        parser.get().target(), parser.get().version());
      } else if (header_ec == bhttp::error::header_limit) {
        co_await Refuse(stream, Error::InvalidArgument("headers_too_large", "The request headers exceed " +
                                                       std::to_string(options.max_header_bytes) + " bytes."),
                        Method::kOther, "/", 11);
      } else if (header_ec != beast::error::timeout && header_ec != bhttp::error::end_of_stream &&
                 header_ec != asio::error::eof && header_ec != asio::error::operation_aborted &&
                 header_ec != asio::error::connection_reset) {
        co_await Refuse(stream, Error::InvalidArgument("malformed_request", "The request is not valid HTTP/1.1: " +
                                                       header_ec.message() + "."),
                        Method::kOther, "/", 11);
      }
      break;
    }
    const auto& header = parser.get();
    const Method method = ParseMethod(header.method_string());
    const std::string target(header.target());
    const unsigned version = header.version();
    // RFC 9112 section 3.2: an HTTP/1.1 request without Host, or any request
    // with more than one, is a 400. HTTP/1.0 predates Host and may omit it.
    if (const auto hosts = header.count(bhttp::field::host); hosts > 1 || (hosts == 0 && version >= 11)) {
      // A named Error, not a conditional expression inside the co_await:
      // GCC destroyed such a temporary twice (free(): invalid pointer).
      const Error refused =
          hosts > 1 ? Error::InvalidArgument("invalid_host", "The request has more than one Host header.")
                    : Error::InvalidArgument("missing_host", "An HTTP/1.1 request needs a Host header.");
      co_await Refuse(stream, refused, method, target, version);
      break;
    }
    const auto content_length = parser.content_length();
    if (content_length && *content_length > options.max_body_bytes) {
      // Answer at once instead of reading (and discarding) a huge body.
      co_await Refuse(stream, PayloadTooLarge(options.max_body_bytes), method, target, version);
      break;
    }
    if (!parser.is_done()) {
      if (beast::iequals(header[bhttp::field::expect], "100-continue")) {
        static constexpr std::string_view kContinue = "HTTP/1.1 100 Continue\r\n\r\n";
        auto [continue_ec, unused] = co_await asio::async_write(stream, asio::buffer(kContinue), kUseTuple);
        if (continue_ec) break;
      }
      auto [body_ec, body_n] = co_await bhttp::async_read(stream, buffer, parser, kUseTuple);
      if (body_ec) {
        if (body_ec == bhttp::error::body_limit) {
          co_await Refuse(stream, PayloadTooLarge(options.max_body_bytes), method, target, version);
        } else if (body_ec != beast::error::timeout && body_ec != asio::error::eof &&
                   body_ec != bhttp::error::partial_message && body_ec != asio::error::operation_aborted &&
                   body_ec != asio::error::connection_reset) {
          co_await Refuse(stream, Error::InvalidArgument("malformed_request", "The request body could not be read: " +
                                                         body_ec.message() + "."),
                          method, target, version);
        }
        break;
      }
    }

    registry.Move(*entry, ConnectionRegistry::State::kHandling);
    const bool keep_alive = parser.get().keep_alive();
    HttpRequest request = ToHttpRequest(parser.release());
    request.client_address = client_address;
    HttpResponse response;
    {
      HandlerScope running(worker);
      response = dispatcher.Dispatch(request);
    }
    if (response.pending) {
      const std::shared_ptr<PendingResponse> pending = std::move(response.pending);
      co_await WhenReady(*pending);
      HandlerScope running(worker);
      response = pending->Finish();
    }
    const bool keep_open = keep_alive && !stopping_flag;
    auto out = ToBeastResponse(std::move(response), version, keep_open, method == Method::kHead);
    stream.expires_after(milliseconds(options.read_timeout_ms));
    auto [write_ec, written] = co_await bhttp::async_write(stream, out, kUseTuple);
    connection.busy = false;
    if (write_ec || !keep_open) break;
    registry.Move(*entry, ConnectionRegistry::State::kIdle);
  }

  boost::system::error_code ignored;
  stream.socket().shutdown(tcp::socket::shutdown_send, ignored);
  stream.socket().close(ignored);
  worker.connections.erase(self);
  --open_connections;
  registry.Remove(*entry);
}

void Server::Impl::BeginShutdown() {
  {
    std::lock_guard lock(mu);
    if (stopping) return;
    stopping = true;
    stopping_flag = true;
  }
  LogLine(LogLevel::kInfo, "shutdown requested").Int("openConnections", open_connections.load());
  asio::post(accept_ioc, [this] {
    boost::system::error_code ignored;
    acceptor->close(ignored);
    if (signals) signals->cancel(ignored);
  });
  for (auto& worker : workers) {
    asio::post(worker->ioc, [w = worker.get()] {
      for (Connection* c : w->connections)
        if (!c->busy) c->stream->cancel();
    });
  }
  shutdown_requested.notify_all();
}

Server::Server(ServerOptions options, const Dispatcher& dispatcher)
    : impl_(std::make_unique<Impl>(std::move(options), dispatcher)) {}

Server::~Server() = default;

uint16_t Server::Listen() {
  auto& ioc = impl_->accept_ioc;
  boost::system::error_code ec;
  const auto address = asio::ip::make_address(impl_->options.host, ec);
  if (ec) throw std::runtime_error("invalid listen address '" + impl_->options.host + "'");
  const tcp::endpoint endpoint(address, impl_->options.port);
  auto acceptor = std::make_unique<tcp::acceptor>(ioc);
  acceptor->open(endpoint.protocol(), ec);
  if (!ec) acceptor->set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec) acceptor->bind(endpoint, ec);
  if (!ec) acceptor->listen(asio::socket_base::max_listen_connections, ec);
  if (ec) throw std::runtime_error("cannot listen on " + impl_->options.host + ":" +
                                   std::to_string(impl_->options.port) + ": " + ec.message());
  impl_->acceptor = std::move(acceptor);
  return impl_->acceptor->local_endpoint().port();
}

void Server::Run() {
  Impl& s = *impl_;
  s.signals = std::make_unique<asio::signal_set>(s.accept_ioc, SIGINT, SIGTERM);
  s.signals->async_wait([&s](const boost::system::error_code& ec, int) {
    if (!ec) s.BeginShutdown();
  });
  asio::co_spawn(s.accept_ioc, s.AcceptLoop(), asio::detached);
  s.accept_thread = std::thread([&s] {
    try {
      s.accept_ioc.run();
    } catch (const std::exception& e) {
      LogLine(LogLevel::kError, "accept loop stopped").Str("error", e.what());
    }
  });
  for (auto& worker : s.workers) {
    worker->thread = std::thread([w = worker.get()] {
      try {
        w->ioc.run();
      } catch (const std::exception& e) {
        LogLine(LogLevel::kError, "worker stopped").Str("error", e.what());
      }
    });
  }

  {
    std::unique_lock lock(s.mu);
    s.shutdown_requested.wait(lock, [&s] { return s.stopping; });
  }
  // Drain: in-flight requests finish and their connections close.
  const auto deadline = std::chrono::steady_clock::now() + milliseconds(s.options.shutdown_timeout_ms);
  while (s.open_connections.load() > 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(milliseconds(5));
  if (s.open_connections.load() > 0)
    LogLine(LogLevel::kWarn, "shutdown timeout; closing remaining connections").Int("open", s.open_connections.load());
  LogLine(LogLevel::kInfo, "connections shed")
      .Int("shed", s.shed_connections.load())
      .Int("refused", s.refused_connections.load());
  for (auto& worker : s.workers) {
    worker->guard.reset();
    worker->ioc.stop();
  }
  s.accept_ioc.stop();
  if (s.accept_thread.joinable()) s.accept_thread.join();
  for (auto& worker : s.workers)
    if (worker->thread.joinable()) worker->thread.join();
  LogLine(LogLevel::kInfo, "server stopped");
}

void Server::Stop() { impl_->BeginShutdown(); }

}  // namespace credence::http
