#include "plugins/admission/testing/hook_test_server.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>

namespace credence::plugins::admission::test {
namespace {

constexpr size_t kMaxHead = size_t{64} * 1024;
constexpr size_t kMaxBody = size_t{1024} * 1024;

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

}  // namespace

HookTestServer::HookTestServer(Handler handler) : handler_(std::move(handler)) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  if (listen_fd_ < 0) throw std::runtime_error("socket failed");
  const int one = 1;
  ::setsockopt(listen_fd_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(listen_fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(listen_fd_, 128) != 0)
    throw std::runtime_error("bind/listen failed");
  socklen_t len = sizeof addr;
  ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&addr), &len);
  port_ = ntohs(addr.sin_port);
  acceptor_ = std::thread([this] { AcceptLoop(); });
}

HookTestServer::~HookTestServer() {
  stopping_ = true;
  ::shutdown(listen_fd_, SHUT_RDWR);
  acceptor_.join();
  ::close(listen_fd_);
  std::vector<std::thread> workers;
  {
    const std::lock_guard lock(mu_);
    for (const int fd : client_fds_) ::shutdown(fd, SHUT_RDWR);
    workers.swap(workers_);
  }
  stop_cv_.notify_all();
  for (auto& t : workers) t.join();
}

std::string HookTestServer::Url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(port_) + path;
}

std::vector<HookTestServer::Request> HookTestServer::Requests() const {
  const std::lock_guard lock(mu_);
  return log_;
}

void HookTestServer::AcceptLoop() {
  while (!stopping_) {
    const int fd = ::accept(listen_fd_, nullptr, nullptr);
    if (fd < 0) {
      if (stopping_) return;
      continue;
    }
    const std::lock_guard lock(mu_);
    client_fds_.push_back(fd);
    workers_.emplace_back([this, fd] { Serve(fd); });
  }
}

void HookTestServer::Serve(int fd) {
  std::string data;
  char buffer[16384];
  size_t head_end = std::string::npos;
  while ((head_end = data.find("\r\n\r\n")) == std::string::npos && data.size() < kMaxHead) {
    const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
    if (n <= 0) break;
    data.append(buffer, static_cast<size_t>(n));
  }
  Request request;
  bool complete = false;
  if (head_end != std::string::npos) {
    const std::string head = data.substr(0, head_end);
    size_t line_end = head.find("\r\n");
    const std::string first = head.substr(0, line_end);
    const size_t sp1 = first.find(' ');
    const size_t sp2 = first.find(' ', sp1 + 1);
    request.method = first.substr(0, sp1);
    request.target = first.substr(sp1 + 1, sp2 - sp1 - 1);
    while (line_end != std::string::npos && line_end < head.size()) {
      const size_t start = line_end + 2;
      line_end = head.find("\r\n", start);
      const std::string line = head.substr(start, line_end == std::string::npos ? std::string::npos : line_end - start);
      const size_t colon = line.find(':');
      if (colon != std::string::npos) request.headers[Lower(line.substr(0, colon))] = Trim(line.substr(colon + 1));
    }
    size_t length = 0;
    if (auto it = request.headers.find("content-length"); it != request.headers.end())
      length = std::min<size_t>(std::stoul(it->second), kMaxBody);
    request.body = data.substr(head_end + 4);
    while (request.body.size() < length) {
      const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
      if (n <= 0) break;
      request.body.append(buffer, static_cast<size_t>(n));
    }
    complete = request.body.size() >= length;
  }
  if (complete) {
    const Response response = handler_(request);
    {
      std::unique_lock lock(mu_);
      log_.push_back(request);
      if (response.delay_ms > 0)
        stop_cv_.wait_for(lock, std::chrono::milliseconds(response.delay_ms), [this] { return stopping_.load(); });
    }
    std::string out = "HTTP/1.1 " + std::to_string(response.status) + " Status\r\nConnection: close\r\n";
    if (!response.content_type.empty()) out += "Content-Type: " + response.content_type + "\r\n";
    if (!response.without_length) out += "Content-Length: " + std::to_string(response.body.size()) + "\r\n";
    for (const auto& [name, value] : response.headers) out.append(name).append(": ").append(value).append("\r\n");
    out += "\r\n";
    out += response.body;
    if (!stopping_) SendAll(fd, out);
  }
  ::shutdown(fd, SHUT_WR);
  // Drain what the client still sends, so closing does not reset the connection.
  while (::recv(fd, buffer, sizeof buffer, 0) > 0) {
  }
  const std::lock_guard lock(mu_);
  client_fds_.erase(std::remove(client_fds_.begin(), client_fds_.end(), fd), client_fds_.end());
  ::close(fd);
}

}  // namespace credence::plugins::admission::test
