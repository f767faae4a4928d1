#pragma once
// Runs the real credence binary for API tests: a free loopback port, a
// fresh SQLite directory or a fresh PostgreSQL database (by
// CREDENCE_TEST_BACKEND), waits for /healthz, and stops it with SIGTERM on
// destruction. Its stderr (the JSON log) goes to a file kept on failure.
#include <sys/types.h>

#include <memory>
#include <string>
#include <vector>

namespace credence::test {

class PgTestDatabase;

// "sqlite" (default) or "postgres", from CREDENCE_TEST_BACKEND.
std::string TestBackend();
// True when the postgres backend was asked for but no server is available;
// API suites then skip.
bool BackendUnavailable();

struct ServerOptions {
  bool dev = true;
  std::vector<std::string> extra_args;  // e.g. {"--max-body-bytes", "2048"}
  // The port to listen on; 0 picks a free one. Set it when something must
  // know the server's URL before it starts (an OIDC provider's redirect URI).
  int port = 0;
  // When not empty: written to oidc.json in the server's directory and
  // passed as --oidc-config, with --public-url <base_url> (see support/oidc.h).
  std::string oidc_config;
  // When not empty: the server uses this database (another node's, for
  // tests of several nodes) instead of a fresh one of its own.
  std::string database_url;
  // False: the constructor returns once the process is started; call
  // WaitUntilHealthy() (tests that start several nodes at one instant).
  bool wait_until_healthy = true;
};

class ServerProcess {
 public:
  explicit ServerProcess(ServerOptions options = {});
  ~ServerProcess();
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  const std::string& base_url() const { return base_url_; }
  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  const std::string& log_path() const { return log_path_; }
  const std::string& database_url() const { return database_url_; }
  // The server's temporary directory (its data, log and config files).
  const std::string& data_dir() const { return data_dir_; }

  // Waits for /healthz (30 s); throws with the log when the process exits
  // or does not become healthy.
  void WaitUntilHealthy();
  // Sends SIGTERM and waits; returns the exit status (or -signal).
  int Terminate();
  // SIGKILL, as a crash would.
  void Kill();
  // Starts the binary again on the same port and data (after Kill/Terminate).
  void Restart();
  std::string ReadLog() const;

 private:
  void Start();
  void Spawn();
  ServerOptions options_;
  std::unique_ptr<PgTestDatabase> pg_;
  std::string data_dir_;
  std::string database_url_;
  std::string log_path_;
  std::string base_url_;
  int port_ = 0;
  pid_t pid_ = -1;
};

// The binary run to its end: its exit code (-1 when it did not exit), what
// it printed on stdout and on stderr.
struct CommandResult {
  int exit_code = -1;
  std::string out, err;
};
// Runs `credence ARGS...`, each argument passed as it is (quoted for the
// shell), e.g. {"admin", "backup", "--out", dir}.
CommandResult RunCredence(const std::vector<std::string>& args);

// What `credence --help` prints (its flags), e.g. to tell whether the
// binary under test has a flag yet.
std::string ServerUsage();

// A free TCP port on 127.0.0.1 (bound and released; racy but fine locally).
int FreePort();

}  // namespace credence::test
