#include "support/http_client.h"

#include "support/openapi_check.h"

#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <chrono>
#include <stdexcept>

namespace credence::test {

size_t WriteBody(char* data, size_t size, size_t n, void* user) {
  static_cast<std::string*>(user)->append(data, size * n);
  return size * n;
}

size_t WriteHeader(char* data, size_t size, size_t n, void* user) {
  auto* headers = static_cast<std::vector<std::pair<std::string, std::string>>*>(user);
  std::string line(data, size * n);
  if (line.rfind("HTTP/", 0) == 0) headers->clear();  // a new response (after 100 Continue)
  const auto colon = line.find(':');
  if (colon != std::string::npos) {
    std::string name = line.substr(0, colon);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    std::string value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ')) value.erase(0, 1);
    while (!value.empty() && (value.back() == '\r' || value.back() == '\n')) value.pop_back();
    headers->emplace_back(std::move(name), std::move(value));
  }
  return size * n;
}

namespace {

struct CurlGlobal {
  CurlGlobal() { curl_global_init(CURL_GLOBAL_DEFAULT); }
} curl_global;

}  // namespace

std::string Response::Header(std::string_view name) const {
  for (const auto& [n, v] : headers)
    if (n == name) return v;
  return {};
}

boost::json::value Response::Json() const { return boost::json::parse(body); }

HttpClient::HttpClient(std::string base_url) : base_url_(std::move(base_url)), curl_(curl_easy_init()) {}
HttpClient::~HttpClient() { curl_easy_cleanup(static_cast<CURL*>(curl_)); }

Response HttpClient::Send(const std::string& method, const std::string& path, const std::string& body,
                          const std::string& token, const Headers& headers) {
  CURL* curl = static_cast<CURL*>(curl_);
  curl_easy_reset(curl);
  Response r;
  const std::string url = base_url_ + path;
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, method.c_str());
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, WriteBody);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &r.body);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, WriteHeader);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &r.headers);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 30000L);
  curl_easy_setopt(curl, CURLOPT_PATH_AS_IS, 1L);
  if (method == "HEAD") curl_easy_setopt(curl, CURLOPT_NOBODY, 1L);
  if (!body.empty() || method == "POST" || method == "PUT" || method == "PATCH") {
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body.data());
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
  }
  curl_slist* list = nullptr;
  bool has_content_type = false;
  for (const auto& [name, value] : headers) {
    list = curl_slist_append(list, (name + ": " + value).c_str());
    if (name == "Content-Type" || name == "content-type") has_content_type = true;
  }
  if (!body.empty() && !has_content_type) list = curl_slist_append(list, "Content-Type: application/json");
  if (!token.empty()) list = curl_slist_append(list, ("Authorization: Bearer " + token).c_str());
  list = curl_slist_append(list, "Expect:");
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, list);
  const CURLcode rc = curl_easy_perform(curl);
  curl_slist_free_all(list);
  if (rc != CURLE_OK) {
    r.status = 0;
    r.body = curl_easy_strerror(rc);
    return r;
  }
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  r.status = static_cast<int>(status);
  CheckAgainstOpenApi(base_url_, method, path, r);
  return r;
}

Response HttpClient::Post(const std::string& path, const boost::json::value& body, const std::string& token) {
  return Send("POST", path, boost::json::serialize(body), token);
}
Response HttpClient::Put(const std::string& path, const boost::json::value& body, const std::string& token) {
  return Send("PUT", path, boost::json::serialize(body), token);
}
Response HttpClient::Patch(const std::string& path, const boost::json::value& body, const std::string& token) {
  return Send("PATCH", path, boost::json::serialize(body), token);
}

std::string RawExchange(int port, const std::string& bytes, int timeout_ms) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  ::inet_pton(AF_INET, "127.0.0.1", &addr.sin_addr);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    throw std::runtime_error("connect failed");
  }
  size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;  // the server may close early (e.g. after a 413)
    sent += static_cast<size_t>(n);
  }
  std::string out;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
  char buf[4096];
  while (true) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) break;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) break;
    const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return out;
}

}  // namespace credence::test
