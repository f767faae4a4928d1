#pragma once
// Every response the API tests receive from a Credence server is checked
// against the OpenAPI document that server serves (/openapi.json, fetched
// once per test binary): the operation is found by method and path
// template, the status must be documented for it (or be covered by a
// documented `4XX`/`default`), the content type must be one it documents,
// and a JSON body must validate against the documented schema. A mismatch
// fails the current test (ADD_FAILURE) naming the request, the operation,
// the status and the JSON pointer of the first problem. docs/openapi.md.
#include <boost/json/value.hpp>

#include <memory>
#include <string>
#include <string_view>

namespace credence::test {

struct Response;

// The served document, indexed for lookups: path templates in a segment
// trie that resolves like the server's router (literal segments win), and
// `$ref` targets resolved once.
class OpenApiDocument {
 public:
  explicit OpenApiDocument(boost::json::value document);
  ~OpenApiDocument();
  OpenApiDocument(const OpenApiDocument&) = delete;
  OpenApiDocument& operator=(const OpenApiDocument&) = delete;

  // Empty when the response conforms; otherwise what is wrong, in words
  // (with the operation, the status and a JSON pointer into the body).
  std::string Check(std::string_view method, std::string_view target, int status, std::string_view content_type,
                    std::string_view body) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Responses from `base_url` are checked from now on (ServerProcess registers
// every server it starts, and unregisters it when it is destroyed).
void RegisterCredenceServer(const std::string& base_url);
void UnregisterCredenceServer(const std::string& base_url);

// Called by HttpClient after every exchange: checks `response` when
// `base_url` is a registered Credence server and no OpenApiCheckOff is in
// scope on this thread.
void CheckAgainstOpenApi(const std::string& base_url, const std::string& method, const std::string& target,
                         const Response& response);

// Turns the check off on this thread while in scope. Only for traffic the
// document cannot describe because the client deliberately breaks HTTP
// itself (the server's answer to a request it could not parse); say why
// at the use.
class OpenApiCheckOff {
 public:
  OpenApiCheckOff();
  ~OpenApiCheckOff();
  OpenApiCheckOff(const OpenApiCheckOff&) = delete;
  OpenApiCheckOff& operator=(const OpenApiCheckOff&) = delete;
};

}  // namespace credence::test
