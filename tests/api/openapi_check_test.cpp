// The response check every API test runs (support/openapi_check.h), on a
// small document of its own: what it accepts, what it refuses and how it
// says so. No server needed.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include "support/openapi_check.h"

namespace credence::test {
namespace {

constexpr char kDocument[] = R"({
  "openapi": "3.1.0",
  "components": {
    "schemas": {
      "Problem": {"type": "object", "additionalProperties": false, "required": ["code"],
                  "properties": {"code": {"type": "string"}, "status": {"type": "integer"}}},
      "Item": {"type": "object", "additionalProperties": false, "required": ["id", "state"],
               "properties": {"id": {"type": "string", "format": "uuid"},
                              "state": {"type": "string", "enum": ["open", "closed"]},
                              "note": {"type": ["string", "null"]},
                              "count": {"type": "integer", "minimum": 0},
                              "tags": {"type": "array", "items": {"type": "string"}},
                              "meta": {"type": "object"}}}
    },
    "responses": {
      "Status503": {"description": "busy", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}
    }
  },
  "paths": {
    "/items": {"get": {"responses": {
      "200": {"description": "ok", "content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Item"}}},
                                               "text/csv": {"schema": {"type": "string"}}}},
      "503": {"$ref": "#/components/responses/Status503"}}}},
    "/items/{id}": {"get": {"responses": {
      "200": {"description": "ok", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Item"}}}},
      "404": {"description": "no", "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}}}},
                    "delete": {"responses": {"204": {"description": "gone"}}}},
    "/items/special": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object"}}}}}}}
  }
})";

class OpenApiCheck : public ::testing::Test {
 protected:
  OpenApiDocument doc{boost::json::parse(kDocument)};
  std::string Check(const char* method, const char* target, int status, const char* type, const char* body) {
    return doc.Check(method, target, status, type, body);
  }
};

TEST_F(OpenApiCheck, AcceptsDocumentedResponses) {
  EXPECT_EQ(Check("GET", "/items?take=2", 200, "application/json",
                  R"([{"id":"x","state":"open","note":null,"count":3,"tags":["a"],"meta":{"any":1}}])"),
            "");
  EXPECT_EQ(Check("GET", "/items", 200, "text/csv; charset=utf-8", "id,state\n"), "");
  EXPECT_EQ(Check("GET", "/items", 503, "application/problem+json", R"({"code":"storage_unavailable"})"), "");
  EXPECT_EQ(Check("DELETE", "/items/1", 204, "", ""), "");
  EXPECT_EQ(Check("HEAD", "/items/1", 200, "application/json", ""), "");
}

TEST_F(OpenApiCheck, RefusesAnUndocumentedStatusListingTheDocumentedOnes) {
  const std::string e = Check("GET", "/items/1", 409, "application/problem+json", R"({"code":"conflict"})");
  EXPECT_NE(e.find("GET /items/{id} does not document status 409"), std::string::npos) << e;
  EXPECT_NE(e.find("200, 404"), std::string::npos) << e;
}

TEST_F(OpenApiCheck, RefusesAnUndocumentedContentType) {
  const std::string e = Check("GET", "/items/1", 200, "text/plain", "hi");
  EXPECT_NE(e.find("not as \"text/plain\""), std::string::npos) << e;
}

TEST_F(OpenApiCheck, NamesTheJsonPointerOfAnUndeclaredMember) {
  const std::string e = Check("GET", "/items", 200, "application/json",
                              R"([{"id":"x","state":"open"},{"id":"y","state":"open","extra":1}])");
  EXPECT_NE(e.find("at \"/1/extra\""), std::string::npos) << e;
  EXPECT_NE(e.find("additionalProperties"), std::string::npos) << e;
}

TEST_F(OpenApiCheck, RefusesAnUndocumentedEnumValueAWrongTypeAndAMissingMember) {
  EXPECT_NE(Check("GET", "/items/1", 200, "application/json", R"({"id":"x","state":"app"})").find("at \"/state\""),
            std::string::npos);
  EXPECT_NE(Check("GET", "/items/1", 200, "application/json", R"({"id":"x","state":"open","count":-1})")
                .find("below minimum"),
            std::string::npos);
  EXPECT_NE(
      Check("GET", "/items/1", 200, "application/json", R"({"id":"x","state":"open","note":5})").find("string or null"),
      std::string::npos);
  EXPECT_NE(Check("GET", "/items/1", 200, "application/json", R"({"id":"x"})").find("required member \"state\""),
            std::string::npos);
  EXPECT_NE(Check("GET", "/items/1", 404, "application/problem+json", R"({"code":"x","scope":"y"})").find("/scope"),
            std::string::npos);
  EXPECT_NE(Check("GET", "/items/1", 200, "application/json", "not json").find("not JSON"), std::string::npos);
  EXPECT_NE(Check("DELETE", "/items/1", 204, "application/json", "{}").find("documents no body"), std::string::npos);
}

TEST_F(OpenApiCheck, LiteralSegmentsWinOverParametersLikeTheRouter) {
  EXPECT_EQ(Check("GET", "/items/special", 200, "application/json", R"({"free":true})"), "");
  EXPECT_NE(Check("GET", "/items/other", 200, "application/json", R"({"free":true})"), "");
}

TEST_F(OpenApiCheck, UnmatchedRequestsMustBeTheRoutersProblems) {
  EXPECT_EQ(Check("GET", "/nowhere", 404, "application/problem+json", R"({"code":"route_not_found"})"), "");
  EXPECT_EQ(Check("PUT", "/items", 405, "application/problem+json", R"({"code":"method_not_allowed"})"), "");
  EXPECT_NE(Check("GET", "/nowhere", 200, "application/json", "{}").find("no documented operation"), std::string::npos);
}

// The web client (--web-dir, docs/web-client.md) is served outside the API:
// its pages and assets are not API answers, but nothing under a documented
// path's first segment, and no JSON, escapes the check.
TEST_F(OpenApiCheck, WebClientFilesOutsideTheApiAreNotApiAnswers) {
  EXPECT_EQ(Check("GET", "/hubs/x", 200, "text/html; charset=utf-8", "<!doctype html>"), "");
  EXPECT_EQ(Check("HEAD", "/assets/app-1.js", 200, "text/javascript", ""), "");
  EXPECT_NE(Check("GET", "/items/a/b", 200, "text/html", "<!doctype html>"), "");
  EXPECT_NE(Check("POST", "/hubs", 200, "text/html", "<!doctype html>"), "");
  EXPECT_NE(Check("GET", "/hubs", 200, "application/manifest+json", "{}"), "");
}

}  // namespace
}  // namespace credence::test
