// Slow and idle clients cannot take the service offline (issue 25,
// "Connections"; docs/operations.md): the open-files limit is raised at
// start; past --max-connections (or a client address's share) a new
// connection sheds the oldest one that has not sent a whole request, then
// the oldest idle keep-alive one, so a normal client is served; a request
// must arrive whole within --read-timeout-ms; bad values of the new flags
// are refused at start.
#include <netinet/in.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "support/api_fixture.h"
#include "support/http_client.h"
#include "support/server_process.h"

namespace credence::test {
namespace {

// A raw connection to the server on loopback.
class RawConnection {
 public:
  explicit RawConnection(int port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~RawConnection() {
    if (fd_ >= 0) ::close(fd_);
  }
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  bool connected() const { return fd_ >= 0; }
  void Send(const std::string& bytes) const { (void)!::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL); }
  // Reads what the server sent within `timeout_ms` (until it pauses).
  std::string Receive(int timeout_ms) {
    std::string out;
    char buffer[4096];
    pollfd p{fd_, POLLIN, 0};
    while (::poll(&p, 1, timeout_ms) > 0) {
      const ssize_t n = ::recv(fd_, buffer, sizeof buffer, 0);
      if (n <= 0) {
        closed_ = true;
        break;
      }
      out.append(buffer, static_cast<size_t>(n));
      timeout_ms = 50;
    }
    return out;
  }
  // True once the server has closed the connection (within `timeout_ms`).
  bool ClosedByServer(int timeout_ms) {
    if (closed_) return true;
    Receive(timeout_ms);
    return closed_;
  }

 private:
  int fd_ = -1;
  bool closed_ = false;
};

constexpr char kPartialRequest[] = "GET /healthz HTTP/1.1\r\nHost: slow\r\n";


class Connections : public ::testing::Test {
 protected:
  void SetUp() override {
    if (BackendUnavailable()) GTEST_SKIP() << "backend unavailable";
  }
};

TEST_F(Connections, ANormalClientIsServedWhileSlowClientsHoldEveryConnection) {
  ServerProcess server({.extra_args = {"--max-connections", "16"}});
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the health check's connection gone
  std::vector<std::unique_ptr<RawConnection>> slow;
  for (int i = 0; i < 16; ++i) {
    slow.push_back(std::make_unique<RawConnection>(server.port()));
    ASSERT_TRUE(slow.back()->connected());
    slow.back()->Send(kPartialRequest);
  }
  // Each new connection past the cap sheds the oldest slow one (the normal
  // clients stay connected, so each one needs a place of its own).
  std::vector<std::unique_ptr<HttpClient>> normal;
  for (int i = 0; i < 6; ++i) {
    normal.push_back(std::make_unique<HttpClient>(server.base_url()));
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(normal.back()->Get("/healthz").status, 200);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
  }
  int closed = 0;
  for (auto& s : slow) closed += s->ClosedByServer(200) ? 1 : 0;
  EXPECT_GE(closed, 6);
  EXPECT_LE(closed, 8) << "only as many as the new connections needed";
  // The oldest went first.
  EXPECT_TRUE(slow.front()->ClosedByServer(0));
  EXPECT_FALSE(slow.back()->ClosedByServer(0));
}

TEST_F(Connections, IdleKeepAliveConnectionsAreShedWhenNoneIsIncomplete) {
  ServerProcess server({.extra_args = {"--max-connections", "16"}});
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the health check's connection gone
  std::vector<std::unique_ptr<RawConnection>> idle;
  for (int i = 0; i < 16; ++i) {
    idle.push_back(std::make_unique<RawConnection>(server.port()));
    idle.back()->Send("GET /healthz HTTP/1.1\r\nHost: idle\r\n\r\n");
    ASSERT_NE(idle.back()->Receive(2000).find("200 OK"), std::string::npos);
  }
  HttpClient normal(server.base_url());
  EXPECT_EQ(normal.Get("/healthz").status, 200);
  EXPECT_TRUE(idle.front()->ClosedByServer(1000));
  EXPECT_FALSE(idle.back()->ClosedByServer(0));
}

TEST_F(Connections, OneAddressCannotHoldMoreThanItsShare) {
  ServerProcess server({.extra_args = {"--max-connections-per-address", "4"}});
  // The start-up health check's connection is closed by now, but the server
  // may not have seen it go yet: it would count as one of the address's four.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  std::vector<std::unique_ptr<RawConnection>> slow;
  for (int i = 0; i < 4; ++i) {
    slow.push_back(std::make_unique<RawConnection>(server.port()));
    slow.back()->Send(kPartialRequest);
  }
  HttpClient normal(server.base_url());
  EXPECT_EQ(normal.Get("/healthz").status, 200);
  EXPECT_TRUE(slow.front()->ClosedByServer(1000));
  for (size_t i = 1; i < slow.size(); ++i) EXPECT_FALSE(slow[i]->ClosedByServer(0)) << i;
}

TEST_F(Connections, ARequestMustArriveWholeWithinTheReadTimeout) {
  ServerProcess server({.extra_args = {"--read-timeout-ms", "300"}});
  RawConnection slow(server.port());
  slow.Send(kPartialRequest);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_TRUE(slow.ClosedByServer(3000));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(1500));
  // A header line every 100 ms does not stretch it.
  RawConnection trickle(server.port());
  trickle.Send("GET /healthz HTTP/1.1\r\n");
  bool closed = false;
  for (int i = 0; i < 15 && !closed; ++i) {
    trickle.Send("X-Slow: 1\r\n");
    closed = trickle.ClosedByServer(100);
  }
  EXPECT_TRUE(closed);
}

TEST_F(Connections, TheOpenFilesLimitIsRaisedToTheHardLimitAtStart) {
  rlimit mine{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &mine), 0);
  ServerProcess server;
  const std::string log = server.ReadLog();
  const auto at = log.find("\"msg\":\"open files limit\"");
  ASSERT_NE(at, std::string::npos) << log;
  const std::string line = log.substr(at, log.find('\n', at) - at);
  EXPECT_NE(line.find("\"soft\":" + std::to_string(mine.rlim_max) + ","), std::string::npos) << line;
  EXPECT_NE(log.find("\"maxConnections\":"), std::string::npos);
}

TEST_F(Connections, BadConnectionFlagsAreRefusedAtStart) {
  for (const auto& [flags, named] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--max-connections", "5"}, "--max-connections"},
           {{"--max-connections", "many"}, "--max-connections"},
           {{"--max-connections-per-address", "-1"}, "--max-connections-per-address"},
           {{"--read-timeout-ms", "0"}, "--read-timeout-ms"}}) {
    std::vector<std::string> args = {"serve", "--data-dir", "/tmp/credence-connections-flags"};
    args.insert(args.end(), flags.begin(), flags.end());
    const CommandResult started = RunCredence(args);
    EXPECT_EQ(started.exit_code, 2) << started.err;
    EXPECT_NE(started.err.find(named), std::string::npos) << started.err;
  }
}

}  // namespace
}  // namespace credence::test
