#include "http/problem.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <string>
#include <utility>
#include <vector>

namespace credence::http {
namespace {
namespace json = boost::json;

json::object BodyOf(const HttpResponse& response) {
  boost::system::error_code ec;
  json::value v = json::parse(response.body, ec);
  EXPECT_FALSE(ec) << "body is not JSON: " << response.body;
  if (ec || !v.is_object()) return {};
  return v.get_object();
}

std::string HeaderOf(const HttpResponse& response, std::string_view name) {
  for (const auto& [n, v] : response.headers)
    if (n == name) return v;
  return {};
}

bool HasHeader(const HttpResponse& response, std::string_view name) {
  for (const auto& [n, v] : response.headers)
    if (n == name) return true;
  return false;
}

Error ErrorOf(ErrorKind kind, std::string code = "some_code") {
  return Error{kind, std::move(code), "Something went wrong.", {}, {}};
}

TEST(StatusFor, MapsEveryErrorKind) {
  const std::vector<std::pair<ErrorKind, int>> cases = {
      {ErrorKind::kInvalidArgument, 400}, {ErrorKind::kUnauthenticated, 401}, {ErrorKind::kPermissionDenied, 403},
      {ErrorKind::kNotFound, 404},        {ErrorKind::kMethodNotAllowed, 405}, {ErrorKind::kConflict, 409},
      {ErrorKind::kPayloadTooLarge, 413}, {ErrorKind::kGuardDenied, 422},      {ErrorKind::kRateLimited, 429},
      {ErrorKind::kUnavailable, 503},     {ErrorKind::kInternal, 500},
  };
  for (const auto& [kind, status] : cases) {
    EXPECT_EQ(StatusFor(kind), status);
    const HttpResponse response = ProblemResponse(ErrorOf(kind), "/x", "rid");
    EXPECT_EQ(response.status, status);
    EXPECT_EQ(BodyOf(response).at("status").as_int64(), status);
  }
}

TEST(ProblemResponse, HeaderAndTimeoutCodesGetTheirOwnStatuses) {
  EXPECT_EQ(ProblemResponse(ErrorOf(ErrorKind::kInvalidArgument, "headers_too_large"), "/", "r").status, 431);
  EXPECT_EQ(ProblemResponse(ErrorOf(ErrorKind::kInvalidArgument, "request_timeout"), "/", "r").status, 408);
}

TEST(ProblemResponse, BodyCarriesEveryProblemMember) {
  const Error error = Error::NotFound("Hub 'hr' not found.");
  const HttpResponse response = ProblemResponse(error, "/api/hubs/hr", "req-123");
  EXPECT_EQ(response.content_type, "application/problem+json");
  const json::object body = BodyOf(response);
  EXPECT_EQ(body.at("type").as_string(), "urn:credence:problem:not_found");
  EXPECT_EQ(body.at("title").as_string(), "Not Found");
  EXPECT_EQ(body.at("status").as_int64(), 404);
  EXPECT_EQ(body.at("detail").as_string(), "Hub 'hr' not found.");
  EXPECT_EQ(body.at("code").as_string(), "not_found");
  EXPECT_EQ(body.at("instance").as_string(), "/api/hubs/hr");
  EXPECT_EQ(body.at("requestId").as_string(), "req-123");
}

TEST(ProblemResponse, TitleMatchesStatus) {
  EXPECT_EQ(BodyOf(ProblemResponse(ErrorOf(ErrorKind::kInvalidArgument), "/", "r")).at("title").as_string(),
            "Bad Request");
  EXPECT_EQ(BodyOf(ProblemResponse(ErrorOf(ErrorKind::kConflict), "/", "r")).at("title").as_string(), "Conflict");
  EXPECT_EQ(BodyOf(ProblemResponse(ErrorOf(ErrorKind::kInternal), "/", "r")).at("title").as_string(),
            "Internal Server Error");
  EXPECT_EQ(BodyOf(ProblemResponse(ErrorOf(ErrorKind::kUnavailable), "/", "r")).at("title").as_string(),
            "Service Unavailable");
}

TEST(ProblemResponse, NoErrorsArrayWithoutFieldErrors) {
  const json::object body = BodyOf(ProblemResponse(Error::Conflict("hub_key_taken", "Taken."), "/", "r"));
  EXPECT_FALSE(body.contains("errors"));
}

TEST(ProblemResponse, ValidationFailureListsEachField) {
  const Error error = Error::Validation({{"name", "is required"}, {"sources[3]", "must be a string"}});
  const HttpResponse response = ProblemResponse(error, "/api/hubs", "r");
  EXPECT_EQ(response.status, 400);
  const json::object body = BodyOf(response);
  EXPECT_EQ(body.at("code").as_string(), "validation_failed");
  const json::array& errors = body.at("errors").as_array();
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].at("field").as_string(), "name");
  EXPECT_EQ(errors[0].at("message").as_string(), "is required");
  EXPECT_EQ(errors[1].at("field").as_string(), "sources[3]");
  EXPECT_EQ(errors[1].at("message").as_string(), "must be a string");
}

TEST(ProblemResponse, UnauthenticatedChallengesWithBearerRealm) {
  const HttpResponse response =
      ProblemResponse(Error::Unauthenticated("missing_credentials", "Sign in."), "/api/users/me", "r");
  EXPECT_EQ(response.status, 401);
  EXPECT_EQ(HeaderOf(response, "WWW-Authenticate"), "Bearer realm=\"credence\"");
}

TEST(ProblemResponse, InvalidTokenAddsErrorToChallenge) {
  const HttpResponse response =
      ProblemResponse(Error::Unauthenticated("invalid_token", "Expired."), "/api/users/me", "r");
  EXPECT_EQ(response.status, 401);
  EXPECT_EQ(HeaderOf(response, "WWW-Authenticate"), "Bearer realm=\"credence\", error=\"invalid_token\"");
}

TEST(ProblemResponse, InsufficientScopeNamesTheScopeInChallenge) {
  Error error = Error::PermissionDenied("The credential lacks the scope trust:evaluate.");
  error.code = "insufficient_scope";
  const HttpResponse response =
      ProblemResponse(std::move(error).With("scope", "\"trust:evaluate\""), "/api/trust/evaluate", "r");
  EXPECT_EQ(response.status, 403);
  EXPECT_EQ(HeaderOf(response, "WWW-Authenticate"),
            "Bearer realm=\"credence\", error=\"insufficient_scope\", scope=\"trust:evaluate\"");
  EXPECT_EQ(BodyOf(response).at("scope").as_string(), "trust:evaluate");
}

TEST(ProblemResponse, PlainForbiddenHasNoChallenge) {
  const HttpResponse response = ProblemResponse(Error::PermissionDenied("Admins only."), "/", "r");
  EXPECT_EQ(response.status, 403);
  EXPECT_FALSE(HasHeader(response, "WWW-Authenticate"));
}

TEST(ProblemResponse, MethodNotAllowedSetsAllowFromExtension) {
  const Error error = Error{ErrorKind::kMethodNotAllowed, "method_not_allowed", "No.", {}, {}}.With(
      "allow", "\"GET, POST\"");
  const HttpResponse response = ProblemResponse(error, "/api/hubs", "r");
  EXPECT_EQ(response.status, 405);
  EXPECT_EQ(HeaderOf(response, "Allow"), "GET, POST");
}

TEST(ProblemResponse, RateLimitedSetsRetryAfterFromExtension) {
  const Error error = Error{ErrorKind::kRateLimited, "rate_limited", "Slow down.", {}, {}}.With("retryAfter", "30");
  const HttpResponse response = ProblemResponse(error, "/", "r");
  EXPECT_EQ(response.status, 429);
  EXPECT_EQ(HeaderOf(response, "Retry-After"), "30");
}

TEST(ProblemResponse, OtherStatusesAddOnlyContentLanguage) {
  for (const Error& error : {Error::NotFound("x"), Error::Internal("x")}) {
    const HttpResponse response = ProblemResponse(error, "/", "r");
    ASSERT_EQ(response.headers.size(), 1u);
    EXPECT_EQ(HeaderOf(response, "Content-Language"), "en");
  }
}

TEST(ProblemResponse, ExtensionMembersAppearInBody) {
  const Error error = Error{ErrorKind::kGuardDenied, "guard_denied", "Blocked by plugin.", {}, {}}
                          .With("reasonCode", "\"pii_detected\"")
                          .With("message", "\"Contains an email address\"")
                          .With("metadata", "{\"count\":2,\"kinds\":[\"email\"]}");
  const HttpResponse response = ProblemResponse(error, "/api/entries", "r");
  EXPECT_EQ(response.status, 422);
  const json::object body = BodyOf(response);
  EXPECT_EQ(body.at("reasonCode").as_string(), "pii_detected");
  EXPECT_EQ(body.at("message").as_string(), "Contains an email address");
  EXPECT_EQ(body.at("metadata").at("count").as_int64(), 2);
  EXPECT_EQ(body.at("metadata").at("kinds").as_array().size(), 1u);
  EXPECT_EQ(body.at("code").as_string(), "guard_denied");
}

TEST(ProblemResponse, EscapesQuotesNewlinesAndControlCharacters) {
  const std::string detail = "Hub \"hr\" \\ failed\nline two\ttab\x01 end";
  const Error error = Error::InvalidArgument("bad", detail, {{"a\"b", "x\ny"}});
  const std::string instance = "/api/hubs/\"q\"";
  const json::object body = BodyOf(ProblemResponse(error, instance, "id\"1"));
  EXPECT_EQ(body.at("detail").as_string(), detail);
  EXPECT_EQ(body.at("instance").as_string(), instance);
  EXPECT_EQ(body.at("requestId").as_string(), "id\"1");
  EXPECT_EQ(body.at("errors").as_array()[0].at("field").as_string(), "a\"b");
  EXPECT_EQ(body.at("errors").as_array()[0].at("message").as_string(), "x\ny");
}

TEST(ProblemResponse, KeepsUtf8Text) {
  const json::object body = BodyOf(ProblemResponse(Error::NotFound("Hub \xC3\xA9t\xC3\xA9 not found."), "/", "r"));
  EXPECT_EQ(body.at("detail").as_string(), "Hub \xC3\xA9t\xC3\xA9 not found.");
}

// Beast accepts raw bytes >= 0x80 in a request target, and the dispatcher
// puts the path into `detail` and `instance` of its 404: bytes that are not
// valid UTF-8 become U+FFFD (AppendJsonString), so the body stays valid JSON.
TEST(ProblemResponse, InvalidUtf8InInputStillYieldsValidJson) {
  const HttpResponse response = ProblemResponse(Error::NotFound("No route matches /\xff\xfe."), "/\xff\xfe", "r");
  boost::system::error_code ec;
  json::parse(response.body, ec);
  EXPECT_FALSE(ec) << response.body;
}

}  // namespace
}  // namespace credence::http
