#include "support/server_process.h"

#include "support/openapi_check.h"

#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "support/http_client.h"
#include "support/pg_test_database.h"

#ifndef CREDENCE_BINARY_PATH
#error "CREDENCE_BINARY_PATH must point at the credence binary"
#endif

namespace credence::test {

std::string TestBackend() {
  const char* v = std::getenv("CREDENCE_TEST_BACKEND");
  return v != nullptr && std::string(v) == "postgres" ? "postgres" : "sqlite";
}

bool BackendUnavailable() { return TestBackend() == "postgres" && !PgServerUrlFromEnv(); }

int FreePort() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) throw std::runtime_error("bind failed");
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  ::close(fd);
  return ntohs(addr.sin_port);
}

CommandResult RunCredence(const std::vector<std::string>& args) {
  // Single quotes keep every argument one word; a quote inside one is
  // closed, escaped and reopened.
  auto quote = [](const std::string& a) {
    std::string q = "'";
    for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
  };
  char err_path[] = "/tmp/credence-command-err-XXXXXX";
  const int err_fd = ::mkstemp(err_path);
  if (err_fd >= 0) ::close(err_fd);
  std::string command = quote(CREDENCE_BINARY_PATH);
  for (const auto& a : args) command += " " + quote(a);
  command += std::string(" 2>") + err_path;
  CommandResult r;
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    char buffer[4096];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) r.out.append(buffer, n);
    const int status = ::pclose(pipe);
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  std::ifstream err(err_path);
  std::stringstream ss;
  ss << err.rdbuf();
  r.err = ss.str();
  ::unlink(err_path);
  return r;
}

std::string ServerUsage() {
  const std::string command = std::string("'") + CREDENCE_BINARY_PATH + "' --help 2>&1";
  std::string out;
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    char buffer[4096];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) out.append(buffer, n);
    ::pclose(pipe);
  }
  return out;
}

ServerProcess::ServerProcess(ServerOptions options) : options_(std::move(options)) {
  char tmpl[] = "/tmp/credence-test-XXXXXX";
  if (::mkdtemp(tmpl) == nullptr) throw std::runtime_error("mkdtemp failed");
  data_dir_ = tmpl;
  log_path_ = data_dir_ + "/server.log";
  if (!options_.database_url.empty()) {
    database_url_ = options_.database_url;
  } else if (TestBackend() == "postgres") {
    auto server = PgServerUrlFromEnv();
    if (!server) throw std::runtime_error("CREDENCE_TEST_PG_URL is not set");
    pg_ = std::make_unique<PgTestDatabase>(*server);
    database_url_ = pg_->url();
  } else {
    database_url_ = "sqlite:" + data_dir_ + "/credence.db";
  }
  port_ = options_.port != 0 ? options_.port : FreePort();
  base_url_ = "http://127.0.0.1:" + std::to_string(port_);
  RegisterCredenceServer(base_url_);
  if (options_.wait_until_healthy) {
    Start();
  } else {
    Spawn();
  }
}

void ServerProcess::Start() {
  Spawn();
  WaitUntilHealthy();
}

void ServerProcess::Spawn() {
  std::vector<std::string> args = {CREDENCE_BINARY_PATH, "serve", "--listen", "127.0.0.1:" + std::to_string(port_),
                                   "--data-dir", data_dir_, "--database", database_url_, "--threads", "2",
                                   "--shutdown-timeout-ms", "3000"};
  if (options_.dev) args.push_back("--dev");
  if (!options_.oidc_config.empty()) {
    const std::string path = data_dir_ + "/oidc.json";
    std::ofstream(path) << options_.oidc_config;
    args.insert(args.end(), {"--oidc-config", path, "--public-url", base_url_});
  }
  args.insert(args.end(), options_.extra_args.begin(), options_.extra_args.end());

  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    // The server never outlives the test process, and never holds its
    // stdout: a runner waiting on the pipe would otherwise hang.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    FILE* log = std::fopen(log_path_.c_str(), "a");
    if (log != nullptr) {
      ::dup2(fileno(log), STDERR_FILENO);
      ::dup2(fileno(log), STDOUT_FILENO);
    }
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    std::_Exit(127);
  }
}

void ServerProcess::WaitUntilHealthy() {
  HttpClient client(base_url_);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    if (::waitpid(pid_, &status, WNOHANG) == pid_) {
      pid_ = -1;
      throw std::runtime_error("credence exited during start-up; log:\n" + ReadLog());
    }
    if (client.Get("/healthz").status == 200) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  throw std::runtime_error("credence did not become healthy; log:\n" + ReadLog());
}

int ServerProcess::Terminate() {
  if (pid_ <= 0) return 0;
  ::kill(pid_, SIGTERM);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  return -WTERMSIG(status);
}

void ServerProcess::Kill() {
  if (pid_ <= 0) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  pid_ = -1;
}

void ServerProcess::Restart() {
  if (pid_ > 0) Terminate();
  Start();
}

std::string ServerProcess::ReadLog() const {
  std::ifstream in(log_path_);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

ServerProcess::~ServerProcess() {
  UnregisterCredenceServer(base_url_);
  Terminate();
  std::error_code ec;
  // Keep the directory (and its log) only when asked to, for debugging.
  if (std::getenv("CREDENCE_TEST_KEEP") == nullptr) {
    const std::string cmd = "rm -rf '" + data_dir_ + "'";
    [[maybe_unused]] int rc = std::system(cmd.c_str());
  }
}

}  // namespace credence::test
