#pragma once
// A small blocking HTTP/1.1 client on libcurl for API tests, with a reused
// keep-alive connection.
#include <boost/json/value.hpp>

#include <string>
#include <utility>
#include <vector>

namespace credence::test {

struct Response {
  int status = 0;  // 0 when the connection failed
  std::vector<std::pair<std::string, std::string>> headers;  // names lowercased
  std::string body;

  std::string Header(std::string_view lowercase_name) const;
  // The body parsed as JSON (throws when it is not JSON).
  boost::json::value Json() const;
};

using Headers = std::vector<std::pair<std::string, std::string>>;

// libcurl write callbacks: the body into a std::string, and header lines
// (names lowercased) into a vector of pairs, cleared at each new status line.
size_t WriteBody(char* data, size_t size, size_t n, void* user);
size_t WriteHeader(char* data, size_t size, size_t n, void* user);

class HttpClient {
 public:
  explicit HttpClient(std::string base_url);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Sends a request; `token`, when not empty, goes in "Authorization: Bearer".
  // The answer of a Credence server is checked against the OpenAPI document
  // it serves (support/openapi_check.h); a mismatch fails the current test.
  Response Send(const std::string& method, const std::string& path, const std::string& body = "",
                const std::string& token = "", const Headers& headers = {});

  Response Get(const std::string& path, const std::string& token = "") { return Send("GET", path, "", token); }
  Response Delete(const std::string& path, const std::string& token = "") { return Send("DELETE", path, "", token); }
  Response Post(const std::string& path, const boost::json::value& body, const std::string& token = "");
  Response Put(const std::string& path, const boost::json::value& body, const std::string& token = "");
  Response Patch(const std::string& path, const boost::json::value& body, const std::string& token = "");

 private:
  std::string base_url_;
  void* curl_;
};

// Sends raw bytes on a fresh TCP connection and returns what the server
// answered before closing or before `timeout_ms` passed.
std::string RawExchange(int port, const std::string& bytes, int timeout_ms = 5000);

}  // namespace credence::test
