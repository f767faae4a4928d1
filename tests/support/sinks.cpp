#include "support/sinks.h"

#include <boost/json/parse.hpp>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "support/server_process.h"

namespace credence::test {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

// The scripts sit beside this file (CREDENCE_TESTS_DIR/support).
fs::path ScriptPath(const std::string& name) { return fs::path(CREDENCE_TESTS_DIR) / "support" / name; }

// Debian's interpreter, where python3-aiosmtpd is installed; a python3 that
// comes first on PATH (pyenv, a virtualenv) may not have it.
std::string Python() { return fs::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3"; }

std::string ReadFile(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

SinkProcess::SinkProcess() {
  char tmpl[] = "/tmp/credence-sink-XXXXXX";
  if (::mkdtemp(tmpl) == nullptr) throw std::runtime_error("mkdtemp failed");
  dir_ = tmpl;
}

SinkProcess::~SinkProcess() {
  Stop();
  if (std::getenv("CREDENCE_TEST_KEEP") == nullptr) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
}

void SinkProcess::Stop() {
  if (pid_ > 0) {
    ::kill(pid_, SIGKILL);
    int status = 0;
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
  }
  if (out_fd_ >= 0) {
    ::close(out_fd_);
    out_fd_ = -1;
  }
}

std::string SinkProcess::Start(const std::string& script, const std::vector<std::string>& args) {
  Stop();
  int fds[2];
  // Close-on-exec: the server processes forked later must not hold it.
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error("pipe failed");
  std::vector<std::string> argv_strings = {Python(), ScriptPath(script).string()};
  argv_strings.insert(argv_strings.end(), args.begin(), args.end());
  const std::string log_path = dir_ + "/" + script + ".log";

  // Everything the child needs is prepared before fork: between fork and
  // exec only async-signal-safe calls are allowed.
  std::vector<char*> argv;
  argv.reserve(argv_strings.size() + 1);
  for (auto& a : argv_strings) argv.push_back(a.data());
  argv.push_back(nullptr);

  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    // The receiver never outlives the test process.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    ::dup2(fds[1], STDOUT_FILENO);
    const int log = ::open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (log >= 0) ::dup2(log, STDERR_FILENO);
    ::execvp(argv[0], argv.data());
    std::_Exit(127);
  }
  ::close(fds[1]);
  out_fd_ = fds[0];

  std::string output;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{out_fd_, POLLIN, 0};
    if (::poll(&p, 1, 100) > 0) {
      char buffer[256];
      const ssize_t n = ::read(out_fd_, buffer, sizeof buffer);
      if (n > 0) output.append(buffer, static_cast<size_t>(n));
      const auto newline = output.find('\n');
      if (newline != std::string::npos && output.rfind("ready", 0) == 0) return output.substr(0, newline);
      if (n <= 0) break;  // it closed its output: it exited
    }
  }
  Stop();
  throw std::runtime_error(script + " did not start; output: " + output + "; log:\n" + ReadFile(log_path));
}

std::vector<json::object> SinkProcess::Records() const {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir_))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::vector<json::object> out;
  out.reserve(files.size());
  for (const auto& f : files) out.push_back(json::parse(ReadFile(f)).as_object());
  return out;
}

SmtpSink::SmtpSink() {
  // The port is chosen here, so another process may take it first: try again.
  for (int attempt = 0;; ++attempt) {
    port_ = FreePort();
    try {
      Start("smtp_sink.py", {std::to_string(port_), directory()});
      return;
    } catch (const std::exception&) {
      if (attempt == 2) throw;
    }
  }
}

std::vector<json::object> SmtpSink::MessagesTo(const std::string& address) const {
  std::vector<json::object> out;
  for (auto& m : Records()) {
    for (const auto& r : m.at("rcptTos").as_array())
      if (r.as_string() == address) {
        out.push_back(m);
        break;
      }
  }
  return out;
}

json::value ReceivedPost::Json() const { return json::parse(body); }

std::string ReceivedPost::Header(const std::string& lowercase_name) const {
  const auto it = headers.find(lowercase_name);
  return it == headers.end() ? "" : it->second;
}

HttpSink::HttpSink(int fail_first) {
  const std::string ready = Start("http_sink.py", {directory(), "--fail-first", std::to_string(fail_first)});
  port_ = std::stoi(ready.substr(ready.find(' ') + 1));
}

MtStandIn::MtStandIn() {
  const std::string ready = Start("mt_standin.py", {directory()});
  port_ = std::stoi(ready.substr(ready.find(' ') + 1));
}

std::vector<ReceivedPost> MtStandIn::Requests() const {
  std::vector<ReceivedPost> out;
  for (const auto& r : Records()) {
    ReceivedPost p;
    p.path = std::string(r.at("path").as_string());
    for (const auto& [name, value] : r.at("headers").as_object())
      p.headers[std::string(name)] = std::string(value.as_string());
    p.body = std::string(r.at("body").as_string());
    p.status = static_cast<int>(r.at("status").as_int64());
    out.push_back(std::move(p));
  }
  return out;
}

ApertiumServer::ApertiumServer() {
  const std::string ready = Start("apertium_apy.py", {directory()});
  const std::string rest = ready.substr(ready.find(' ') + 1);
  port_ = std::stoi(rest);
  if (port_ == 0) missing_ = rest.substr(rest.find(' ') + 1);
}

WebSite::WebSite() {
  const std::string ready = Start("web_site.py", {directory()});
  port_ = std::stoi(ready.substr(ready.find(' ') + 1));
}

PrivateSite::PrivateSite(const std::string& header_name, const std::string& header_value,
                         const std::string& git_root) {
  std::vector<std::string> args = {directory(), header_name, header_value};
  if (!git_root.empty()) args.push_back(git_root);
  const std::string ready = Start("private_site.py", args);
  port_ = std::stoi(ready.substr(ready.find(' ') + 1));
}

std::string PrivateSite::url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(port_) + path;
}

void PrivateSite::Put(const std::string& path, const std::string& content) const {
  const fs::path file = fs::path(directory()) / "site" / path.substr(path.front() == '/' ? 1 : 0);
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << content;
}

std::vector<boost::json::object> PrivateSite::Requests() const {
  std::vector<boost::json::object> out;
  std::ifstream in(fs::path(directory()) / "requests.jsonl");
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) out.push_back(boost::json::parse(line).as_object());
  return out;
}

std::string WebSite::url(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(port_) + path; }

void WebSite::Put(const std::string& path, const std::string& content) const {
  const fs::path file = fs::path(directory()) / "site" / path.substr(path.front() == '/' ? 1 : 0);
  fs::create_directories(file.parent_path());
  std::ofstream(file, std::ios::binary) << content;
}

void WebSite::Delete(const std::string& path) const {
  fs::remove(fs::path(directory()) / "site" / path.substr(path.front() == '/' ? 1 : 0));
}

std::string HttpSink::url(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(port_) + path; }

std::vector<ReceivedPost> HttpSink::Posts() const {
  std::vector<ReceivedPost> out;
  for (const auto& r : Records()) {
    ReceivedPost p;
    p.path = std::string(r.at("path").as_string());
    for (const auto& [name, value] : r.at("headers").as_object())
      p.headers[std::string(name)] = std::string(value.as_string());
    p.body = std::string(r.at("body").as_string());
    p.status = static_cast<int>(r.at("status").as_int64());
    out.push_back(std::move(p));
  }
  return out;
}

SmtpSink& SharedSmtpSink() {
  static SmtpSink sink;
  return sink;
}

bool WaitUntil(const std::function<bool()>& done, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

}  // namespace credence::test
