#include "http/static_site.h"

#include <gtest/gtest.h>

#include "http/route.h"
#include "http/router.h"

namespace credence::http {
namespace {

Route MakeRoute(Method method, std::string path) {
  return Route{method, std::move(path), Auth::kPublic, "", [](RequestContext&) { return HttpResponse{}; }, {}};
}

TEST(ApiPrefixes, FirstSegmentsOfTheRouteTableAndTheReservedOnes) {
  Router router;
  router.Add(MakeRoute(Method::kGet, "/api/hubs"));
  router.Add(MakeRoute(Method::kGet, "/brand-new/{id}"));
  const ApiPrefixes api(router);
  EXPECT_TRUE(api.IsApiPath("/api/hubs"));
  EXPECT_TRUE(api.IsApiPath("/api"));
  EXPECT_TRUE(api.IsApiPath("/brand-new/x"));  // from the route table, no list to update
  EXPECT_TRUE(api.IsApiPath("/trust-admin/anything"));  // reserved, with or without routes
  EXPECT_TRUE(api.IsApiPath("/.well-known/x"));
  EXPECT_TRUE(api.IsApiPath("/openapi.json?x=1"));
  EXPECT_TRUE(api.IsApiPath("/%61pi/hubs"));  // decoded like the router
  EXPECT_TRUE(api.IsApiPath("/%zz"));  // malformed: never a page
  EXPECT_FALSE(api.IsApiPath("/"));
  EXPECT_FALSE(api.IsApiPath("/hubs/handbook"));
  EXPECT_FALSE(api.IsApiPath("/apis"));
  EXPECT_FALSE(api.IsApiPath("/assets/index-1.js"));
}

TEST(StaticSite, ContentTypesByExtension) {
  EXPECT_EQ(ContentTypeFor("/x/index.html"), "text/html; charset=utf-8");
  EXPECT_EQ(ContentTypeFor("/x/a-1.JS"), "text/javascript; charset=utf-8");
  EXPECT_EQ(ContentTypeFor("a.css"), "text/css; charset=utf-8");
  EXPECT_EQ(ContentTypeFor("a.svg"), "image/svg+xml");
  EXPECT_EQ(ContentTypeFor("a.woff2"), "font/woff2");
  EXPECT_EQ(ContentTypeFor("a.unknown"), "application/octet-stream");
  EXPECT_EQ(ContentTypeFor("dir.d/file"), "application/octet-stream");
}

}  // namespace
}  // namespace credence::http
