#include "connectors/web/testing/loopback_http_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace credence::connectors::web::test {
namespace {

constexpr size_t kMaxRequestHead = size_t{64} * 1024;

std::string Lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string Trim(const std::string& s) {
  const size_t b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return std::string();
  const size_t e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

bool SendAll(int fd, const std::string& data) {
  size_t sent = 0;
  while (sent < data.size()) {
    const ssize_t n = ::send(fd, data.data() + sent, data.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) return false;
    sent += static_cast<size_t>(n);
  }
  return true;
}

const char* Reason(int status) {
  switch (status) {
    case 200:
      return "OK";
    case 301:
      return "Moved Permanently";
    case 302:
      return "Found";
    case 304:
      return "Not Modified";
    case 307:
      return "Temporary Redirect";
    case 404:
      return "Not Found";
    case 500:
      return "Internal Server Error";
    case 503:
      return "Service Unavailable";
    default:
      return "Status";
  }
}

}  // namespace

LoopbackHttpServer::LoopbackHttpServer() {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  if (listen_fd_ < 0) throw std::runtime_error("socket failed");
  const int one = 1;
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(listen_fd_, 64) != 0)
    throw std::runtime_error("bind/listen failed");
  socklen_t len = sizeof addr;
  ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  acceptor_ = std::thread([this] { AcceptLoop(); });
}

LoopbackHttpServer::~LoopbackHttpServer() {
  stopping_ = true;
  ::shutdown(listen_fd_, SHUT_RDWR);
  acceptor_.join();
  ::close(listen_fd_);
  std::vector<std::thread> workers;
  {
    std::lock_guard lock(mu_);
    for (int fd : client_fds_) ::shutdown(fd, SHUT_RDWR);
    workers.swap(workers_);
  }
  stop_cv_.notify_all();
  for (auto& t : workers) t.join();
}

std::string LoopbackHttpServer::Origin() const { return "http://127.0.0.1:" + std::to_string(port_); }
std::string LoopbackHttpServer::Url(const std::string& path) const { return Origin() + path; }

void LoopbackHttpServer::Set(const std::string& path, Response response) {
  std::lock_guard lock(mu_);
  routes_[path] = std::move(response);
}

void LoopbackHttpServer::SetHtml(const std::string& path, const std::string& html) {
  Response r;
  r.body = html;
  Set(path, std::move(r));
}

void LoopbackHttpServer::Remove(const std::string& path) {
  std::lock_guard lock(mu_);
  routes_.erase(path);
}

int LoopbackHttpServer::Count(const std::string& path) const {
  std::lock_guard lock(mu_);
  return static_cast<int>(std::count_if(log_.begin(), log_.end(), [&](const Request& r) { return r.target == path; }));
}

std::vector<LoopbackHttpServer::Request> LoopbackHttpServer::Requests() const {
  std::lock_guard lock(mu_);
  return log_;
}

std::vector<LoopbackHttpServer::Request> LoopbackHttpServer::RequestsFor(const std::string& path) const {
  std::lock_guard lock(mu_);
  std::vector<Request> out;
  for (const Request& r : log_)
    if (r.target == path) out.push_back(r);
  return out;
}

void LoopbackHttpServer::ClearLog() {
  std::lock_guard lock(mu_);
  log_.clear();
}

void LoopbackHttpServer::AcceptLoop() {
  while (!stopping_) {
    const int fd = ::accept(listen_fd_, nullptr, nullptr);
    if (fd < 0) {
      if (stopping_) return;
      continue;
    }
    std::lock_guard lock(mu_);
    if (stopping_) {
      ::close(fd);
      return;
    }
    ++connections_;
    client_fds_.push_back(fd);
    workers_.emplace_back([this, fd] { Serve(fd); });
  }
}

LoopbackHttpServer::Response LoopbackHttpServer::Lookup(const Request& request, bool* not_modified) const {
  std::lock_guard lock(mu_);
  const auto it = routes_.find(request.target);
  if (it == routes_.end()) {
    Response missing;
    missing.status = 404;
    missing.content_type = "text/plain";
    missing.body = "not found";
    return missing;
  }
  const Response& r = it->second;
  const auto inm = request.headers.find("if-none-match");
  const auto ims = request.headers.find("if-modified-since");
  *not_modified =
      r.status == 200 && ((r.etag && inm != request.headers.end() && inm->second == *r.etag) ||
                          (r.last_modified && ims != request.headers.end() && ims->second == *r.last_modified));
  return r;
}

void LoopbackHttpServer::Serve(int fd) {
  std::string buffer;
  // Reads until a whole request head is in the buffer; false: the client is gone.
  auto read_head = [&](size_t* head_end) {
    char chunk[4096];
    while ((*head_end = buffer.find("\r\n\r\n")) == std::string::npos) {
      if (buffer.size() > kMaxRequestHead) return false;
      const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
      if (n <= 0) return false;
      buffer.append(chunk, static_cast<size_t>(n));
    }
    return true;
  };
  size_t head_end = 0;
  while (!stopping_ && read_head(&head_end)) {
    {
      const std::string head = buffer.substr(0, head_end);
      buffer.erase(0, head_end + 4);  // GET only: no request bodies
      Request request;
      size_t line_end = head.find("\r\n");
      const std::string request_line = head.substr(0, line_end);
      const size_t sp1 = request_line.find(' ');
      const size_t sp2 = request_line.find(' ', sp1 + 1);
      request.method = request_line.substr(0, sp1);
      request.target = request_line.substr(sp1 + 1, sp2 - sp1 - 1);
      while (line_end != std::string::npos) {
        const size_t next = head.find("\r\n", line_end + 2);
        const std::string line =
            head.substr(line_end + 2, next == std::string::npos ? std::string::npos : next - line_end - 2);
        const size_t colon = line.find(':');
        if (colon != std::string::npos)
          request.headers[Lower(Trim(line.substr(0, colon)))] = Trim(line.substr(colon + 1));
        line_end = next;
      }
      {
        std::lock_guard lock(mu_);
        log_.push_back(request);
      }
      bool not_modified = false;
      const Response r = Lookup(request, &not_modified);
      if (r.delay_ms > 0) {
        std::unique_lock lock(mu_);
        stop_cv_.wait_for(lock, std::chrono::milliseconds(r.delay_ms), [this] { return stopping_.load(); });
        if (stopping_) break;
      }
      const int status = not_modified ? 304 : r.status;
      std::string out = "HTTP/1.1 " + std::to_string(status) + " " + Reason(status) + "\r\n";
      if (!r.content_type.empty() && !not_modified) out += "Content-Type: " + r.content_type + "\r\n";
      if (r.etag) out += "ETag: " + *r.etag + "\r\n";
      if (r.last_modified) out += "Last-Modified: " + *r.last_modified + "\r\n";
      for (const auto& [name, value] : r.headers) out.append(name).append(": ").append(value).append("\r\n");
      const bool close = r.close_without_length && !not_modified;
      if (close) {
        out += "Connection: close\r\n\r\n";
      } else {
        out += "Content-Length: " + std::to_string(not_modified ? 0 : r.body.size()) + "\r\n\r\n";
      }
      if (!not_modified && request.method != "HEAD") out += r.body;
      if (!SendAll(fd, out) || close) break;
      const auto conn = request.headers.find("connection");
      if (conn != request.headers.end() && Lower(conn->second) == "close") break;
    }
  }
  std::lock_guard lock(mu_);
  ::shutdown(fd, SHUT_RDWR);
  ::close(fd);
  client_fds_.erase(std::remove(client_fds_.begin(), client_fds_.end(), fd), client_fds_.end());
}

}  // namespace credence::connectors::web::test
