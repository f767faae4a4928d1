#pragma once
// Real receivers for notification tests, each a child process running one
// of the Python scripts beside this file on 127.0.0.1: an SMTP server
// (aiosmtpd) and an HTTP server that can fail its first requests. They
// record what they receive as JSON files in a fresh directory, which the
// tests read; both are killed (and the directory removed unless
// CREDENCE_TEST_KEEP is set) on destruction.
#include <boost/json/object.hpp>
#include <boost/json/value.hpp>

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace credence::test {

// A receiver process and its directory.
class SinkProcess {
 public:
  SinkProcess(const SinkProcess&) = delete;
  SinkProcess& operator=(const SinkProcess&) = delete;
  ~SinkProcess();

  const std::string& directory() const { return dir_; }
  // The parsed <n>.json records received so far, in arrival order.
  std::vector<boost::json::object> Records() const;

 protected:
  SinkProcess();
  // Starts `script` (a file beside this one) with `args` and waits until it
  // prints a line starting with "ready"; returns that line. Throws when it
  // exits or stays silent for 15 s.
  std::string Start(const std::string& script, const std::vector<std::string>& args);
  void Stop();

 private:
  std::string dir_;
  pid_t pid_ = -1;
  int out_fd_ = -1;
};

class SmtpSink : public SinkProcess {
 public:
  SmtpSink();
  int port() const { return port_; }
  std::string url() const { return "smtp://127.0.0.1:" + std::to_string(port_); }
  // Summaries of the messages (see smtp_sink.py) with `address` among their
  // envelope recipients.
  std::vector<boost::json::object> MessagesTo(const std::string& address) const;

 private:
  int port_ = 0;
};

struct ReceivedPost {
  std::string path;
  std::map<std::string, std::string> headers;  // names lowercased
  std::string body;
  int status = 0;  // what the sink answered
  boost::json::value Json() const;
  std::string Header(const std::string& lowercase_name) const;
};

class HttpSink : public SinkProcess {
 public:
  // Answers 500 to the first `fail_first` requests, 200 afterwards.
  explicit HttpSink(int fail_first = 0);
  int port() const { return port_; }
  std::string url(const std::string& path = "/hook") const;
  std::vector<ReceivedPost> Posts() const;

 private:
  int port_ = 0;
};

// A web site for the web connector (web_site.py): the files written with
// The machine-translation stand-in (mt_standin.py): LibreTranslate's and
// DeepL API v2's documented endpoints; every request recorded.
class MtStandIn : public SinkProcess {
 public:
  MtStandIn();
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::vector<ReceivedPost> Requests() const;

 private:
  int port_ = 0;
};

// A real Apertium APY server (apertium_apy.py); port() is 0 and
// missing() says why when apertium-apy or the eng-spa pair is not installed.
class ApertiumServer : public SinkProcess {
 public:
  ApertiumServer();
  int port() const { return port_; }
  const std::string& missing() const { return missing_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  int port_ = 0;
  std::string missing_;
};

// Put under the site's root, as text/html with ETags; a file whose content
// starts with "FAIL" is answered 500, a missing one 404.
class WebSite : public SinkProcess {
 public:
  WebSite();
  int port() const { return port_; }
  std::string url(const std::string& path = "/") const;
  void Put(const std::string& path, const std::string& content) const;
  void Delete(const std::string& path) const;

 private:
  int port_ = 0;
};

// A site (and git repositories, over git http-backend) that answers only
// requests carrying `header_name: header_value` (private_site.py). A file
// "REDIRECT <url>" is a 302 to it.
class PrivateSite : public SinkProcess {
 public:
  PrivateSite(const std::string& header_name, const std::string& header_value, const std::string& git_root = "");
  int port() const { return port_; }
  std::string url(const std::string& path = "/") const;
  void Put(const std::string& path, const std::string& content) const;
  // One object per request: path, host, sent (the header present), valid.
  std::vector<boost::json::object> Requests() const;

 private:
  int port_ = 0;
};

// The SMTP server of the shared test server (SharedServerOptions passes it
// as --smtp-url), started once per test binary.
SmtpSink& SharedSmtpSink();

// Polls `done` every 20 ms until it holds or `timeout` passes; returns
// whether it held. For asynchronous effects only (a background job, another
// process), never to let time pass for time logic.
bool WaitUntil(const std::function<bool()>& done, std::chrono::milliseconds timeout);

}  // namespace credence::test
