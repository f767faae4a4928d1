#pragma once
// Shared pieces of the API tests: one development server per test binary,
// fresh tenants with their four personas signed in, and problem+json checks.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "support/http_client.h"
#include "support/server_process.h"

namespace credence::test {

// The development-mode server shared by the tests of this binary: test
// clock on, background jobs only on demand.
ServerOptions SharedServerOptions();
ServerProcess& SharedServer();

struct TestTenant {
  std::string id;
  std::string slug;
  std::map<std::string, std::string> tokens;    // persona -> bearer token
  std::map<std::string, std::string> user_ids;  // persona -> user id
  const std::string& token(const std::string& persona) const { return tokens.at(persona); }
};

// Provisions a tenant with a unique slug on the shared server and signs in
// admin, editor, viewer and guest.
TestTenant CreateTenant(HttpClient& client, const std::string& prefix = "t");

// Asserts an RFC 9457 problem with the given status and code.
void ExpectProblem(const Response& response, int status, const std::string& code);

// The `field` of every {field, message} in a validation problem.
std::set<std::string> ErrorFields(const Response& response);
// Asserts a 400 validation_failed naming `field`.
void ExpectValidation(const Response& response, const std::string& field);

// The same request from several clients at once, each on its own
// connection to the shared server; answers in client order.
std::vector<Response> Concurrently(int clients, const std::function<Response(HttpClient&)>& send);

// `s` percent-encoded for a query parameter (RFC 3986 unreserved kept).
std::string PercentEncode(const std::string& s);

// A string member of a JSON object.
std::string Str(const boost::json::value& v, const char* key);

// An id of the right shape that no resource has.
inline constexpr char kUnknownId[] = "00000000-0000-7000-8000-000000000000";
// The codes of an evaluation result's "reasons", in order.
std::vector<std::string> Codes(const boost::json::value& result);
// A JSON array of strings as strings.
std::vector<std::string> Strings(const boost::json::value& array);

// Fixture: skips when the selected backend is unavailable; `api` talks to
// the shared server.
class ApiTest : public ::testing::Test {
 protected:
  void SetUp() override;
  HttpClient& api() { return *client_; }

 private:
  std::unique_ptr<HttpClient> client_;
};

}  // namespace credence::test
