#include "http/static_site.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include "http/route.h"
#include "http/router.h"

namespace credence::http {
namespace {

Route StaticSiteMakeRoute(Method method, std::string path) {
  return Route{method, std::move(path), Auth::kPublic, "", [](RequestContext&) { return HttpResponse{}; }, {}};
}

TEST(ApiPrefixes, FirstSegmentsOfTheRouteTableAndTheReservedOnes) {
  Router router;
  router.Add(StaticSiteMakeRoute(Method::kGet, "/api/hubs"));
  router.Add(StaticSiteMakeRoute(Method::kGet, "/brand-new/{id}"));
  const ApiPrefixes api(router);
  EXPECT_TRUE(api.IsApiPath("/api/hubs"));
  EXPECT_TRUE(api.IsApiPath("/api"));
  EXPECT_TRUE(api.IsApiPath("/brand-new/x"));           // from the route table, no list to update
  EXPECT_TRUE(api.IsApiPath("/trust-admin/anything"));  // reserved, with or without routes
  EXPECT_TRUE(api.IsApiPath("/.well-known/x"));
  EXPECT_TRUE(api.IsApiPath("/openapi.json?x=1"));
  EXPECT_TRUE(api.IsApiPath("/%61pi/hubs"));  // decoded like the router
  EXPECT_TRUE(api.IsApiPath("/%zz"));         // malformed: never a page
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

TEST(StaticSite, AcceptEncodingQualities) {
  // Chromium's header: every listed coding at 1, identity implied.
  const std::string_view chromium = "gzip, deflate, br, zstd";
  EXPECT_EQ(CodingQuality(chromium, "br"), 1);
  EXPECT_EQ(CodingQuality(chromium, "gzip"), 1);
  EXPECT_EQ(CodingQuality(chromium, "identity"), 1);
  // No header, or an empty one: identity only; never br unasked.
  EXPECT_EQ(CodingQuality("", "br"), 0);
  EXPECT_EQ(CodingQuality("", "gzip"), 0);
  EXPECT_EQ(CodingQuality("", "identity"), 1);
  EXPECT_EQ(CodingQuality("gzip", "br"), 0);
  // q-values, case, whitespace, x-gzip.
  EXPECT_EQ(CodingQuality("br;q=0.5, GZIP ; Q=0.8", "br"), 0.5);
  EXPECT_EQ(CodingQuality("br;q=0.5, GZIP ; Q=0.8", "gzip"), 0.8);
  EXPECT_EQ(CodingQuality("x-gzip", "gzip"), 1);
  EXPECT_EQ(CodingQuality("br;q=0", "br"), 0);
  // `*` covers what is not listed; an explicit entry wins over it.
  EXPECT_EQ(CodingQuality("*", "br"), 1);
  EXPECT_EQ(CodingQuality("*;q=0.3, br;q=0", "br"), 0);
  EXPECT_EQ(CodingQuality("*;q=0.3, br;q=0", "gzip"), 0.3);
  // identity excluded explicitly or through `*`.
  EXPECT_EQ(CodingQuality("gzip, identity;q=0", "identity"), 0);
  EXPECT_EQ(CodingQuality("gzip, *;q=0", "identity"), 0);
  EXPECT_EQ(CodingQuality("*;q=0, identity", "identity"), 1);
  // A malformed q is not acceptance.
  EXPECT_EQ(CodingQuality("br;q=2", "br"), 0);
  EXPECT_EQ(CodingQuality("br;q=abc", "br"), 0);
  EXPECT_EQ(CodingQuality("br;q=0.1234", "br"), 0);
}

TEST(StaticSite, CompressibleTypesAndGzip) {
  EXPECT_TRUE(IsCompressible("text/javascript; charset=utf-8"));
  EXPECT_TRUE(IsCompressible("image/svg+xml"));
  EXPECT_TRUE(IsCompressible("application/json"));
  EXPECT_FALSE(IsCompressible("image/png"));
  EXPECT_FALSE(IsCompressible("font/woff2"));
  std::string text;
  for (int i = 0; i < 200; ++i) text += "const credence = " + std::to_string(i) + ";\n";
  const auto gz = GzipCompress(text);
  ASSERT_TRUE(gz.has_value());
  ASSERT_GT(gz->size(), 2U);
  EXPECT_EQ(static_cast<unsigned char>((*gz)[0]), 0x1f);
  EXPECT_EQ(static_cast<unsigned char>((*gz)[1]), 0x8b);
  EXPECT_LT(gz->size(), text.size() / 3);
  // It inflates back to the text.
  z_stream z{};
  ASSERT_EQ(inflateInit2(&z, 15 + 16), Z_OK);
  std::string back(text.size() + 16, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(gz->data()));
  z.avail_in = static_cast<uInt>(gz->size());
  z.next_out = reinterpret_cast<Bytef*>(back.data());
  z.avail_out = static_cast<uInt>(back.size());
  EXPECT_EQ(inflate(&z, Z_FINISH), Z_STREAM_END);
  back.resize(back.size() - z.avail_out);
  inflateEnd(&z);
  EXPECT_EQ(back, text);
}

}  // namespace
}  // namespace credence::http
