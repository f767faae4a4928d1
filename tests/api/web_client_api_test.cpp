// `credence serve --web-dir DIR` (docs/web-client.md): the built web client
// at `/`, over real HTTP against a small fixture site (tests/web/site_fixture)
// copied next to a secret file the server must never hand out. Requests with
// `..` go over a raw connection: libcurl would remove the dot segments.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include <boost/json/parse.hpp>

#include "support/api_fixture.h"

namespace credence::test {
namespace {

namespace fs = std::filesystem;
namespace json = boost::json;

constexpr const char* kCsp =
    "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "img-src 'self' data:; font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'none'";

std::string StatusLine(const std::string& raw) { return raw.substr(0, raw.find("\r\n")); }
std::string RawBody(const std::string& raw) {
  const auto at = raw.find("\r\n\r\n");
  return at == std::string::npos ? std::string() : raw.substr(at + 4);
}

class WebClient : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (BackendUnavailable()) return;
    dir_ = new std::string(fs::temp_directory_path() / ("credence-web-" + std::to_string(getpid())));
    fs::remove_all(*dir_);
    fs::create_directories(*dir_);
    fs::copy(std::string(CREDENCE_TESTS_DIR) + "/web/site_fixture", *dir_ + "/site", fs::copy_options::recursive);
    std::ofstream(*dir_ + "/secret.txt") << "credence-secret-outside-the-root";
    std::ofstream(*dir_ + "/site/.env") << "credence-dot-file";
    fs::create_symlink(*dir_ + "/secret.txt", *dir_ + "/site/link-out.txt");
    // Precompressed siblings as a build makes them (their bytes only need to
    // be told apart here; Chromium decodes the real ones in the e2e test),
    // and a text file with none, big enough to be gzipped on the fly.
    std::ofstream(*dir_ + "/site/assets/app-3f9a1c2b.js.br") << "credence-br-variant";
    std::ofstream(*dir_ + "/site/assets/app-3f9a1c2b.js.gz") << "credence-gz-variant";
    std::ofstream notes(*dir_ + "/site/notes.txt");
    for (int i = 0; i < 200; ++i) notes << "credence notes line " << i << "\n";
    server_ = new ServerProcess(ServerOptions{.extra_args = {"--web-dir", *dir_ + "/site"}});
  }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
    if (dir_ != nullptr) fs::remove_all(*dir_);
    delete dir_;
    dir_ = nullptr;
  }
  void SetUp() override {
    if (BackendUnavailable()) GTEST_SKIP() << "backend unavailable";
    client_ = std::make_unique<HttpClient>(server_->base_url());
  }
  Response Get(const std::string& path, const std::string& accept = "text/html,application/xhtml+xml,*/*;q=0.8") {
    return client_->Send("GET", path, "", "", {{"Accept", accept}});
  }
  std::string Raw(const std::string& target, const std::string& accept = "text/html") {
    return RawExchange(server_->port(), "GET " + target + " HTTP/1.1\r\nHost: localhost\r\nAccept: " + accept +
                                            "\r\nConnection: close\r\n\r\n");
  }
  static void ExpectNotServedSecret(const std::string& raw) {
    EXPECT_EQ(raw.find("credence-secret-outside-the-root"), std::string::npos) << raw;
    EXPECT_EQ(raw.find("credence-dot-file"), std::string::npos) << raw;
    EXPECT_EQ(raw.find("root:x:0"), std::string::npos) << raw;
  }
  static void ExpectIndex(const Response& r) {
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.Header("content-type"), "text/html; charset=utf-8");
    EXPECT_NE(r.body.find("credence-web-fixture"), std::string::npos) << r.body;
    EXPECT_EQ(r.Header("cache-control"), "no-cache");
    EXPECT_EQ(r.Header("content-security-policy"), kCsp);
    EXPECT_EQ(r.Header("x-content-type-options"), "nosniff");
  }

  static std::string* dir_;
  static ServerProcess* server_;
  std::unique_ptr<HttpClient> client_;
};

std::string* WebClient::dir_ = nullptr;
ServerProcess* WebClient::server_ = nullptr;

TEST_F(WebClient, RootServesIndexHtmlUncachedUnderAStrictCsp) {
  ExpectIndex(Get("/"));
  ExpectIndex(Get("/index.html"));
  ExpectIndex(Get("/", "*/*"));  // `/` is the site whatever the client accepts
}

TEST_F(WebClient, HashedAssetsAreImmutableWithTheirContentTypes) {
  auto js = Get("/assets/app-3f9a1c2b.js", "*/*");
  EXPECT_EQ(js.status, 200);
  EXPECT_EQ(js.Header("content-type"), "text/javascript; charset=utf-8");
  EXPECT_EQ(js.Header("cache-control"), "public, max-age=31536000, immutable");
  EXPECT_EQ(js.Header("x-content-type-options"), "nosniff");
  EXPECT_NE(js.body.find("credence-fixture-app"), std::string::npos);
  auto css = Get("/assets/app-77de01aa.css", "text/css,*/*;q=0.1");
  EXPECT_EQ(css.status, 200);
  EXPECT_EQ(css.Header("content-type"), "text/css; charset=utf-8");
  EXPECT_EQ(css.Header("cache-control"), "public, max-age=31536000, immutable");
  auto svg = Get("/favicon.svg", "image/*");
  EXPECT_EQ(svg.status, 200);
  EXPECT_EQ(svg.Header("content-type"), "image/svg+xml");
  EXPECT_EQ(svg.Header("cache-control"), "no-cache");  // not hashed: revalidated
  auto head = client_->Send("HEAD", "/assets/app-3f9a1c2b.js");
  EXPECT_EQ(head.status, 200);
  EXPECT_TRUE(head.body.empty());
}

TEST_F(WebClient, PrecompressedFilesFollowAcceptEncoding) {
  const std::string js = "/assets/app-3f9a1c2b.js";
  auto with = [&](const std::string& path, const std::string& accept_encoding) {
    Headers headers = {{"Accept", "*/*"}};
    if (!accept_encoding.empty()) headers.emplace_back("Accept-Encoding", accept_encoding);
    return client_->Send("GET", path, "", "", headers);
  };
  auto expect_variant = [&](const Response& r, const std::string& coding, const std::string& marker) {
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.Header("content-encoding"), coding);
    EXPECT_EQ(r.Header("vary"), "Accept-Encoding");
    EXPECT_EQ(r.Header("content-type"), "text/javascript; charset=utf-8");
    EXPECT_EQ(r.Header("cache-control"), "public, max-age=31536000, immutable");
    EXPECT_NE(r.body.find(marker), std::string::npos) << coding << ": " << r.body;
  };
  expect_variant(with(js, "gzip, deflate, br, zstd"), "br", "credence-br-variant");  // Chromium's header
  expect_variant(with(js, "gzip, deflate"), "gzip", "credence-gz-variant");
  expect_variant(with(js, "br;q=0.5, gzip;q=0.9"), "gzip", "credence-gz-variant");
  expect_variant(with(js, "br;q=0.5"), "br", "credence-br-variant");  // identity unlisted: not preferred
  expect_variant(with(js, "br;q=0, *"), "gzip", "credence-gz-variant");
  expect_variant(with(js, "*"), "br", "credence-br-variant");
  expect_variant(with(js, "identity;q=0.5, gzip;q=0.2"), "", "credence-fixture-app");
  expect_variant(with(js, "identity"), "", "credence-fixture-app");
  expect_variant(with(js, ""), "", "credence-fixture-app");  // never br (or gzip) unasked
  expect_variant(with(js, "br;q=0, gzip;q=0"), "", "credence-fixture-app");
  // HEAD: the headers of the coded GET.
  auto head = client_->Send("HEAD", js, "", "", {{"Accept-Encoding", "br"}});
  EXPECT_EQ(head.Header("content-encoding"), "br");
  EXPECT_EQ(head.Header("content-length"), std::to_string(std::string("credence-br-variant").size()));
  // A text file with no sibling is gzipped on the fly; a small one is not.
  auto notes = with("/notes.txt", "gzip, deflate, br");
  EXPECT_EQ(notes.status, 200);
  EXPECT_EQ(notes.Header("content-encoding"), "gzip");
  EXPECT_EQ(notes.Header("vary"), "Accept-Encoding");
  ASSERT_GT(notes.body.size(), 2U);
  EXPECT_EQ(static_cast<unsigned char>(notes.body[0]), 0x1f);
  EXPECT_EQ(static_cast<unsigned char>(notes.body[1]), 0x8b);
  EXPECT_EQ(with("/notes.txt", "br").Header("content-encoding"), "");
  auto css = with("/assets/app-77de01aa.css", "gzip, br");
  EXPECT_EQ(css.Header("content-encoding"), "");
  EXPECT_EQ(css.Header("vary"), "Accept-Encoding");
  EXPECT_EQ(css.body.find('\x1f'), std::string::npos);
}

TEST_F(WebClient, ClientRoutesFallBackToIndexHtmlForBrowsersOnly) {
  ExpectIndex(Get("/hubs"));
  ExpectIndex(Get("/hubs/engineering/entries/01J0000000000000000000000"));
  ExpectIndex(Get("/sign-in?next=%2Fhubs"));
  // Not a browser: the router's 404.
  ExpectProblem(Get("/hubs", "application/json"), 404, "route_not_found");
  // A missing asset is a 404, never the page (a stale bundle must fail loudly).
  ExpectProblem(Get("/assets/app-00000000.js"), 404, "route_not_found");
  // Only GET and HEAD.
  ExpectProblem(client_->Send("POST", "/hubs", "{}", "", {{"Content-Type", "application/json"}, {"Accept", "text/html"}}),
                404, "route_not_found");
}

TEST_F(WebClient, ApiPathsNeverFallBack) {
  for (const std::string path :
       {"/api/nope", "/api", "/auth/nope", "/trust-admin/nope", "/admin/x", "/apikeys/x/y/z", "/connect/x",
        "/users/x/y/z/w", "/groups/x/y/z", "/webhooks/x/y/z", "/tenant/x/y", "/plugins/x/y/z", "/dev/nope",
        "/openapi.json/x", "/healthz/x", "/readyz/x", "/metrics/x", "/.well-known/nope", "/categories/x/y/z",
        "/tags/x/y/z", "/review-checklists/x/y/z", "/block-type-heuristics/x/y/z",
        "/notification-channels/x/y/z", "/%61pi/nope"}) {
    auto r = Get(path);
    EXPECT_TRUE(r.status == 404 || r.status == 405) << path << " " << r.status;  // the router's own answer
    EXPECT_EQ(r.Header("content-type"), "application/problem+json") << path;
    EXPECT_EQ(r.body.find("credence-web-fixture"), std::string::npos) << path;
  }
  // The API itself is untouched.
  auto health = Get("/healthz", "application/json");
  EXPECT_EQ(health.status, 200);
  auto doc = Get("/openapi.json", "application/json");
  EXPECT_EQ(doc.status, 200);
  EXPECT_EQ(doc.Header("content-security-policy"), "");
}

TEST_F(WebClient, PathTraversalIsRefused) {
  for (const std::string target :
       {"/../secret.txt", "/assets/../../secret.txt", "/%2e%2e/secret.txt", "/assets/%2e%2e/%2e%2e/secret.txt",
        "/%2E%2E%2Fsecret.txt", "/..%2fsecret.txt", "/assets/..%5c..%5csecret.txt", "//etc/passwd",
        "/%2fetc%2fpasswd", "/assets//etc/passwd", "/.env", "/link-out.txt", "/%00index.html",
        "/index.html%00.js"}) {
    for (const std::string accept : {"text/html", "*/*"}) {
      const std::string raw = Raw(target, accept);
      ExpectNotServedSecret(raw);
      // Either the plain 404, or (for a browser) the page itself.
      const std::string status = StatusLine(raw);
      if (status == "HTTP/1.1 200 OK") {
        EXPECT_EQ(accept, "text/html") << target;
        EXPECT_NE(RawBody(raw).find("credence-web-fixture"), std::string::npos) << target << raw;
      } else {
        EXPECT_TRUE(status == "HTTP/1.1 404 Not Found" || status == "HTTP/1.1 400 Bad Request") << target << raw;
      }
    }
  }
  // Absolute paths in the request target are not file names either.
  ExpectNotServedSecret(Raw("http://localhost/../secret.txt"));
}

TEST_F(WebClient, WithoutWebDirNothingIsServed) {
  HttpClient shared(SharedServer().base_url());
  ExpectProblem(shared.Send("GET", "/", "", "", {{"Accept", "text/html"}}), 404, "route_not_found");
  ExpectProblem(shared.Send("GET", "/hubs", "", "", {{"Accept", "text/html"}}), 404, "route_not_found");
}

}  // namespace
}  // namespace credence::test
