#include "http/router.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace credence::http {
namespace {

using Outcome = Router::Match::Outcome;

Route MakeRoute(Method method, std::string path) {
  return Route{method, std::move(path), Auth::kPublic, "", [](RequestContext&) { return HttpResponse{}; }, {}};
}

std::string Param(const Router::Match& match, std::string_view name) {
  for (const auto& [n, v] : match.params)
    if (n == name) return v;
  ADD_FAILURE() << "no parameter " << name;
  return {};
}

class RouterTest : public ::testing::Test {
 protected:
  void Add(Method method, std::string path) { router_.Add(MakeRoute(method, std::move(path))); }
  Router::Match Find(Method method, std::string_view path) const { return router_.Find(method, path); }

  Router router_;
};

TEST_F(RouterTest, MatchesLiteralRoute) {
  Add(Method::kGet, "/healthz");
  const auto match = Find(Method::kGet, "/healthz");
  ASSERT_EQ(match.outcome, Outcome::kFound);
  ASSERT_NE(match.route, nullptr);
  EXPECT_EQ(match.route->path, "/healthz");
  EXPECT_TRUE(match.params.empty());
}

TEST_F(RouterTest, MatchesParamRouteAndCapturesValue) {
  Add(Method::kGet, "/api/hubs/{key}/entries/{id}");
  const auto match = Find(Method::kGet, "/api/hubs/hr/entries/42");
  ASSERT_EQ(match.outcome, Outcome::kFound);
  EXPECT_EQ(match.route->path, "/api/hubs/{key}/entries/{id}");
  ASSERT_EQ(match.params.size(), 2u);
  EXPECT_EQ(match.params[0].first, "key");
  EXPECT_EQ(match.params[0].second, "hr");
  EXPECT_EQ(match.params[1].first, "id");
  EXPECT_EQ(match.params[1].second, "42");
}

TEST_F(RouterTest, LiteralWinsOverParamAtSameDepth) {
  Add(Method::kGet, "/api/users/{id}");
  Add(Method::kGet, "/api/users/me");
  const auto me = Find(Method::kGet, "/api/users/me");
  ASSERT_EQ(me.outcome, Outcome::kFound);
  EXPECT_EQ(me.route->path, "/api/users/me");
  EXPECT_TRUE(me.params.empty());

  const auto other = Find(Method::kGet, "/api/users/abc");
  ASSERT_EQ(other.outcome, Outcome::kFound);
  EXPECT_EQ(other.route->path, "/api/users/{id}");
  EXPECT_EQ(Param(other, "id"), "abc");
}

TEST_F(RouterTest, BacktracksFromLiteralToParamWhenLiteralBranchDeadEnds) {
  Add(Method::kGet, "/a/b/c");
  Add(Method::kGet, "/a/{x}/d");
  const auto literal = Find(Method::kGet, "/a/b/c");
  ASSERT_EQ(literal.outcome, Outcome::kFound);
  EXPECT_EQ(literal.route->path, "/a/b/c");

  const auto param = Find(Method::kGet, "/a/b/d");
  ASSERT_EQ(param.outcome, Outcome::kFound);
  EXPECT_EQ(param.route->path, "/a/{x}/d");
  EXPECT_EQ(Param(param, "x"), "b");
}

TEST_F(RouterTest, BacktracksWhenLiteralPrefixHasNoHandlers) {
  Add(Method::kGet, "/a/b/c");
  Add(Method::kGet, "/a/{x}");
  const auto match = Find(Method::kGet, "/a/b");
  ASSERT_EQ(match.outcome, Outcome::kFound);
  EXPECT_EQ(match.route->path, "/a/{x}");
  EXPECT_EQ(Param(match, "x"), "b");
}

TEST_F(RouterTest, PercentDecodesParams) {
  Add(Method::kGet, "/api/hubs/{key}");
  const auto match = Find(Method::kGet, "/api/hubs/caf%C3%A9%20menu");
  ASSERT_EQ(match.outcome, Outcome::kFound);
  EXPECT_EQ(Param(match, "key"), "caf\xC3\xA9 menu");
}

TEST_F(RouterTest, PlusInPathIsNotASpace) {
  Add(Method::kGet, "/api/hubs/{key}");
  const auto match = Find(Method::kGet, "/api/hubs/a+b");
  ASSERT_EQ(match.outcome, Outcome::kFound);
  EXPECT_EQ(Param(match, "key"), "a+b");
}

TEST_F(RouterTest, EncodedSlashStaysInOneSegment) {
  Add(Method::kGet, "/api/trust/sources/{sourceId}");
  const auto match = Find(Method::kGet, "/api/trust/sources/https%3A%2F%2Fx.com%2Fa");
  ASSERT_EQ(match.outcome, Outcome::kFound);
  EXPECT_EQ(Param(match, "sourceId"), "https://x.com/a");
}

TEST_F(RouterTest, EncodedSlashDoesNotReachADeeperRoute) {
  Add(Method::kGet, "/api/trust/sources/{sourceId}");
  Add(Method::kGet, "/api/trust/sources/{sourceId}/history");
  const auto match = Find(Method::kGet, "/api/trust/sources/a%2Fhistory");
  ASSERT_EQ(match.outcome, Outcome::kFound);
  EXPECT_EQ(match.route->path, "/api/trust/sources/{sourceId}");
  EXPECT_EQ(Param(match, "sourceId"), "a/history");
}

TEST_F(RouterTest, ColonsStayInsideASegment) {
  Add(Method::kGet, "/api/trust/sources/{sourceId}");
  const auto match = Find(Method::kGet, "/api/trust/sources/confluence:SPACE:12:3");
  ASSERT_EQ(match.outcome, Outcome::kFound);
  EXPECT_EQ(Param(match, "sourceId"), "confluence:SPACE:12:3");
}

TEST_F(RouterTest, UnknownPathIsNotFound) {
  Add(Method::kGet, "/api/users/{id}");
  EXPECT_EQ(Find(Method::kGet, "/api/groups").outcome, Outcome::kNotFound);
  EXPECT_EQ(Find(Method::kGet, "/nothing").outcome, Outcome::kNotFound);
  EXPECT_EQ(Find(Method::kGet, "").outcome, Outcome::kNotFound);
  EXPECT_EQ(Find(Method::kGet, "api/users/1").outcome, Outcome::kNotFound);
}

TEST_F(RouterTest, NotFoundCarriesNoRoute) {
  Add(Method::kGet, "/a");
  const auto match = Find(Method::kGet, "/b");
  EXPECT_EQ(match.outcome, Outcome::kNotFound);
  EXPECT_EQ(match.route, nullptr);
  EXPECT_TRUE(match.params.empty());
}

TEST_F(RouterTest, TrailingExtraSegmentIsNotFound) {
  Add(Method::kGet, "/api/users/{id}");
  EXPECT_EQ(Find(Method::kGet, "/api/users/1/extra").outcome, Outcome::kNotFound);
  EXPECT_EQ(Find(Method::kGet, "/api/users/1/").outcome, Outcome::kNotFound);
}

TEST_F(RouterTest, PrefixOfARouteIsNotFound) {
  Add(Method::kGet, "/api/users/{id}");
  EXPECT_EQ(Find(Method::kGet, "/api/users").outcome, Outcome::kNotFound);
  EXPECT_EQ(Find(Method::kGet, "/api").outcome, Outcome::kNotFound);
}

TEST_F(RouterTest, LiteralSegmentsAreCaseSensitive) {
  Add(Method::kGet, "/healthz");
  EXPECT_EQ(Find(Method::kGet, "/HEALTHZ").outcome, Outcome::kNotFound);
}

TEST_F(RouterTest, EmptySegmentDoesNotMatchAParam) {
  Add(Method::kGet, "/api/users/{id}/groups");
  Add(Method::kGet, "/api/users/{id}");
  EXPECT_EQ(Find(Method::kGet, "/api/users//groups").outcome, Outcome::kNotFound);
  EXPECT_EQ(Find(Method::kGet, "/api/users/").outcome, Outcome::kNotFound);
  EXPECT_EQ(Find(Method::kGet, "/api//users/1").outcome, Outcome::kNotFound);
}

TEST_F(RouterTest, WrongMethodIsMethodNotAllowedWithAllowList) {
  Add(Method::kGet, "/api/hubs");
  Add(Method::kPost, "/api/hubs");
  const auto match = Find(Method::kDelete, "/api/hubs");
  EXPECT_EQ(match.outcome, Outcome::kMethodNotAllowed);
  EXPECT_EQ(match.route, nullptr);
  EXPECT_EQ(match.allow, "GET, HEAD, POST");
}

TEST_F(RouterTest, AllowListFollowsMethodOrderNotRegistrationOrder) {
  Add(Method::kDelete, "/api/hubs/{key}");
  Add(Method::kPut, "/api/hubs/{key}");
  Add(Method::kGet, "/api/hubs/{key}");
  const auto match = Find(Method::kPost, "/api/hubs/x");
  EXPECT_EQ(match.outcome, Outcome::kMethodNotAllowed);
  EXPECT_EQ(match.allow, "GET, HEAD, PUT, DELETE");
}

// DELETE /api/users/me is not a method of the literal "me" route, but the
// parameter route /api/users/{id} serves DELETE: it must be found.
TEST_F(RouterTest, MethodMismatchOnLiteralBacktracksToParameterRoute) {
  Add(Method::kGet, "/api/users/me");
  Add(Method::kDelete, "/api/users/{id}");
  const auto match = Find(Method::kDelete, "/api/users/me");
  ASSERT_EQ(match.outcome, Outcome::kFound);
  EXPECT_EQ(match.route->path, "/api/users/{id}");
  EXPECT_EQ(Param(match, "id"), "me");
  const auto wrong = Find(Method::kPost, "/api/users/me");
  EXPECT_EQ(wrong.outcome, Outcome::kMethodNotAllowed);
  EXPECT_EQ(wrong.allow, "GET, HEAD");
}

TEST_F(RouterTest, HeadFallsBackToGet) {
  Add(Method::kGet, "/api/hubs/{key}");
  const auto match = Find(Method::kHead, "/api/hubs/x");
  ASSERT_EQ(match.outcome, Outcome::kFound);
  EXPECT_EQ(match.route->method, Method::kGet);
  EXPECT_EQ(Param(match, "key"), "x");
}

TEST_F(RouterTest, ExplicitHeadRouteWinsOverGet) {
  Add(Method::kGet, "/files/{id}");
  Add(Method::kHead, "/files/{id}");
  const auto match = Find(Method::kHead, "/files/1");
  ASSERT_EQ(match.outcome, Outcome::kFound);
  EXPECT_EQ(match.route->method, Method::kHead);
}

TEST_F(RouterTest, HeadWithoutGetIsMethodNotAllowed) {
  Add(Method::kPost, "/api/hubs");
  const auto match = Find(Method::kHead, "/api/hubs");
  EXPECT_EQ(match.outcome, Outcome::kMethodNotAllowed);
  EXPECT_EQ(match.allow, "POST");
}

TEST_F(RouterTest, MalformedEscapeInParamIsBadPath) {
  Add(Method::kGet, "/api/hubs/{key}");
  EXPECT_EQ(Find(Method::kGet, "/api/hubs/%zz").outcome, Outcome::kBadPath);
  EXPECT_EQ(Find(Method::kGet, "/api/hubs/abc%2").outcome, Outcome::kBadPath);
  EXPECT_EQ(Find(Method::kGet, "/api/hubs/%").outcome, Outcome::kBadPath);
}

TEST_F(RouterTest, BadPathCarriesNoRoute) {
  Add(Method::kGet, "/api/hubs/{key}");
  const auto match = Find(Method::kGet, "/api/hubs/%zz");
  EXPECT_EQ(match.route, nullptr);
}

TEST_F(RouterTest, DuplicateRouteThrows) {
  Add(Method::kGet, "/api/hubs/{key}");
  EXPECT_THROW(Add(Method::kGet, "/api/hubs/{key}"), std::logic_error);
}

TEST_F(RouterTest, SamePathWithAnotherMethodIsNotADuplicate) {
  Add(Method::kGet, "/api/hubs/{key}");
  EXPECT_NO_THROW(Add(Method::kDelete, "/api/hubs/{key}"));
}

TEST_F(RouterTest, EachRouteNamesItsOwnParametersAtASharedPosition) {
  Add(Method::kGet, "/api/hubs/{key}");
  Add(Method::kGet, "/api/hubs/{hubId}/memberships");
  const auto hub = Find(Method::kGet, "/api/hubs/docs");
  ASSERT_EQ(hub.outcome, Outcome::kFound);
  EXPECT_EQ(Param(hub, "key"), "docs");
  const auto memberships = Find(Method::kGet, "/api/hubs/42/memberships");
  ASSERT_EQ(memberships.outcome, Outcome::kFound);
  EXPECT_EQ(Param(memberships, "hubId"), "42");
}

TEST_F(RouterTest, TemplateWithoutLeadingSlashThrows) {
  EXPECT_THROW(Add(Method::kGet, "api/hubs"), std::logic_error);
  EXPECT_THROW(Add(Method::kGet, ""), std::logic_error);
}

TEST_F(RouterTest, RoutesListsEveryAddedRoute) {
  Add(Method::kGet, "/a");
  Add(Method::kPost, "/a");
  Add(Method::kGet, "/b/{x}");
  ASSERT_EQ(router_.routes().size(), 3u);
  EXPECT_EQ(router_.routes()[2]->path, "/b/{x}");
}

TEST_F(RouterTest, FailedAddLeavesExistingRoutesIntact) {
  Add(Method::kGet, "/a/{x}");
  EXPECT_THROW(Add(Method::kGet, "/a/{x}"), std::logic_error);
  EXPECT_EQ(router_.routes().size(), 1u);
  EXPECT_EQ(Find(Method::kGet, "/a/1").outcome, Outcome::kFound);
}

TEST_F(RouterTest, AliasesServeTheSameRoute) {
  router_.Add(Aliased({"/groups/{groupId}/members"}, MakeRoute(Method::kGet, "/api/groups/{groupId}/members")));
  ASSERT_EQ(router_.routes().size(), 1u);
  for (const char* path : {"/api/groups/g1/members", "/groups/g1/members"}) {
    const auto match = Find(Method::kGet, path);
    ASSERT_EQ(match.outcome, Outcome::kFound) << path;
    EXPECT_EQ(match.route, router_.routes().front().get());
    EXPECT_EQ(Param(match, "groupId"), "g1");
    EXPECT_EQ(match.path_template,
              std::string(path).find("/api") == 0 ? "/api/groups/{groupId}/members" : "/groups/{groupId}/members");
  }
  EXPECT_EQ(Find(Method::kHead, "/groups/g1/members").path_template, "/groups/{groupId}/members");
  EXPECT_EQ(Find(Method::kPost, "/groups/g1/members").outcome, Outcome::kMethodNotAllowed);
}

TEST_F(RouterTest, AliasMustNameTheSameParametersAndNotCollide) {
  EXPECT_THROW(router_.Add(Aliased({"/groups/{id}"}, MakeRoute(Method::kGet, "/api/groups/{groupId}"))),
               std::logic_error);
  // A refused route leaves nothing behind.
  EXPECT_EQ(Find(Method::kGet, "/api/groups/x").outcome, Outcome::kNotFound);
  Add(Method::kGet, "/groups");
  EXPECT_THROW(router_.Add(Aliased({"/groups"}, MakeRoute(Method::kGet, "/api/groups"))), std::logic_error);
  EXPECT_EQ(Find(Method::kGet, "/api/groups").outcome, Outcome::kNotFound);
  EXPECT_EQ(router_.routes().size(), 1u);
}

TEST(RequestContext, PathParamReturnsDecodedValueOrEmpty) {
  HttpRequest request;
  RequestContext ctx(request, "rid");
  ctx.path_params = {{"id", "a/b"}};
  EXPECT_EQ(ctx.PathParam("id"), "a/b");
  EXPECT_EQ(ctx.PathParam("missing"), "");
}

TEST(PercentDecode, DecodesEscapesAndOptionallyPlus) {
  EXPECT_EQ(PercentDecode("a%20b%2Fc"), "a b/c");
  EXPECT_EQ(PercentDecode("a+b"), "a+b");
  EXPECT_EQ(PercentDecode("a+b", true), "a b");
  EXPECT_FALSE(PercentDecode("%zz"));
  EXPECT_FALSE(PercentDecode("%4"));
  EXPECT_FALSE(PercentDecode("abc%"));
}

TEST(HttpRequest, QueryParamIsDecoded) {
  HttpRequest request;
  request.target = "/api/search?q=caf%C3%A9+menu&empty&limit=10";
  EXPECT_EQ(request.path(), "/api/search");
  EXPECT_EQ(request.QueryParam("q"), "caf\xC3\xA9 menu");
  EXPECT_EQ(request.QueryParam("limit"), "10");
  EXPECT_EQ(request.QueryParam("empty"), "");
  EXPECT_FALSE(request.QueryParam("missing"));
}

}  // namespace
}  // namespace credence::http
