// Webhook and admission hook answers over the wire (src/notify/delivery.*,
// src/plugins/admission): what a receiver sends back, read by libcurl and
// then by our code. A loopback server in this process answers each request
// with the input's bytes, verbatim (status line, headers, body, or garbage).
//
// Input: a mode byte, then the raw HTTP answer.
//   'W' notify::PostJson, as webhook and channel deliveries call it
//   'H' admission::Call, a guard's call to a hook (development policy:
//       http on loopback)
// Any other first byte picks a mode by its value.
//
// Invariants: nothing throws; a delivery succeeds exactly on a 2xx status,
// and its error text (stored as the delivery's last error, shown in JSON) is
// printable ASCII and bounded; a hook verdict is allow, a well-formed denial,
// or an error of printable ASCII.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>

#include "core/text.h"
#include "notify/delivery.h"
#include "notify/webhook.h"
#include "outbound/outbound.h"
#include "plugins/admission/admission_hook.h"
#include "support/fuzz_support.h"

namespace {

using namespace credence;
namespace admission = credence::plugins::admission;

constexpr int64_t kTimeoutMs = 1500;

bool PrintableAscii(std::string_view s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
}

// Answers every connection with `answer` once the request (headers and a
// Content-Length body) has arrived, then closes it.
class LoopbackServer {
 public:
  LoopbackServer() {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), len) != 0 || ::listen(fd_, 16) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
      fuzz::Fail("the loopback server cannot listen");
    port_ = ntohs(addr.sin_port);
    std::thread([this] { Serve(); }).detach();
  }
  int port() const { return port_; }
  void SetAnswer(std::string_view answer) {
    const std::lock_guard lock(mu_);
    answer_ = std::string(answer);
  }

 private:
  void Serve() {
    for (;;) {
      const int conn = ::accept(fd_, nullptr, nullptr);
      if (conn < 0) continue;
      ReadRequest(conn);
      std::string answer;
      {
        const std::lock_guard lock(mu_);
        answer = answer_;
      }
      size_t sent = 0;
      while (sent < answer.size()) {
        const ssize_t n = ::send(conn, answer.data() + sent, answer.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) break;
        sent += static_cast<size_t>(n);
      }
      ::shutdown(conn, SHUT_WR);
      ::close(conn);
    }
  }

  static void ReadRequest(int conn) {
    std::string in;
    char buffer[4096];
    size_t need = std::string::npos;
    while (in.size() < need) {
      pollfd p{conn, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(kTimeoutMs)) <= 0) return;
      const ssize_t n = ::recv(conn, buffer, sizeof buffer, 0);
      if (n <= 0) return;
      in.append(buffer, static_cast<size_t>(n));
      if (need == std::string::npos) {
        const size_t end = in.find("\r\n\r\n");
        if (end == std::string::npos) continue;
        size_t length = 0;
        const size_t at = in.find("Content-Length: ");
        if (at != std::string::npos && at < end) length = std::strtoul(in.c_str() + at + 16, nullptr, 10);
        need = end + 4 + length;
      }
    }
  }

  int fd_ = -1;
  int port_ = 0;
  std::mutex mu_;
  std::string answer_;  // guarded by mu_
};

LoopbackServer& Server() {
  static LoopbackServer* server = [] {
    notify::InitCurl();
    return new LoopbackServer;
  }();
  return *server;
}

void Deliver() {
  const std::string url = "http://127.0.0.1:" + std::to_string(Server().port()) + "/hooks/credence";
  const notify::SendResult r =
      notify::PostJson(url, R"({"type":"entry.published"})", {{"X-Test", "1"}}, kTimeoutMs, {.allow_loopback = true});
  FUZZ_CHECK(r.ok == (r.status >= 200 && r.status < 300), r.error);
  FUZZ_CHECK(r.ok || !r.error.empty(), "a failed delivery without an error");
  FUZZ_CHECK(PrintableAscii(r.error) && r.error.size() <= 600, r.error);
}

void CallHook() {
  static const std::string secret = notify::NewWebhookSecret();
  admission::HookRequest request;
  request.url = "http://127.0.0.1:" + std::to_string(Server().port()) + "/admit";
  request.secret = secret;
  request.context_json = R"({"action":"entry.publish","tenantId":"t","userId":"u","entityId":"e","properties":{}})";
  request.timeout_ms = kTimeoutMs;
  request.policy = {.allow_loopback = true};
  const admission::HookVerdict v = admission::Call(request, [](const std::string&) {
    return std::vector<std::string>{"127.0.0.1"};
  });
  switch (v.kind) {
    case admission::HookVerdict::Kind::kAllow:
      FUZZ_CHECK(v.http_status >= 200 && v.http_status < 300, v.error);
      break;
    case admission::HookVerdict::Kind::kDeny:
      FUZZ_CHECK(v.http_status >= 200 && v.http_status < 300 && !v.reason_code.empty() && IsValidUtf8(v.message),
                 v.reason_code);
      break;
    case admission::HookVerdict::Kind::kError:
      FUZZ_CHECK(PrintableAscii(v.error) && !v.error.empty() && v.error.size() <= 300, v.error);
      break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  (void)Server();
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  char mode = static_cast<char>(data[0]);
  if (mode != 'W' && mode != 'H') mode = "WH"[data[0] % 2];
  Server().SetAnswer(std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1));
  if (mode == 'W')
    Deliver();
  else
    CallHook();
  return 0;
}
