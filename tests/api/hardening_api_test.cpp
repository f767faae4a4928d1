// What a new user met first (issue 12, "small corrections"), over real HTTP:
// Host is required on HTTP/1.1 (RFC 9112 section 3.2), every answer is
// nosniff and not stored by caches unless its route says otherwise, and a
// full disk answers 503 storage_full with Retry-After, makes /readyz not
// ready, and recovers without a restart once space is free again, with the
// acknowledged data intact. The disk is a real tmpfs mounted by the test
// (SQLite); the PostgreSQL SQLSTATE mapping is unit-tested
// (src/storage/storage_test.cpp).
#include <sys/mount.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <boost/json/parse.hpp>

#include "support/api_fixture.h"
#include "support/kb_fixture.h"

namespace credence::test {
namespace {

namespace json = boost::json;

class Hardening : public ApiTest {};

// The status line of a raw answer.
std::string StatusLine(const std::string& raw) { return raw.substr(0, raw.find("\r\n")); }

// A header of a raw answer (name matched case-insensitively), or empty.
std::string RawHeader(const std::string& raw, std::string name) {
  std::string lower = raw.substr(0, raw.find("\r\n\r\n"));
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  const auto at = lower.find("\r\n" + name + ":");
  if (at == std::string::npos) return {};
  const auto start = raw.find_first_not_of(' ', at + 3 + name.size());
  return raw.substr(start, raw.find("\r\n", start) - start);
}

std::string RawBody(const std::string& raw) {
  const auto at = raw.find("\r\n\r\n");
  return at == std::string::npos ? std::string() : raw.substr(at + 4);
}

TEST_F(Hardening, Http11WithoutHostIs400MissingHost) {
  const int port = SharedServer().port();
  auto raw = RawExchange(port, "GET /healthz HTTP/1.1\r\n\r\n");
  EXPECT_EQ(StatusLine(raw), "HTTP/1.1 400 Bad Request") << raw;
  EXPECT_EQ(RawHeader(raw, "content-type"), "application/problem+json");
  EXPECT_EQ(RawHeader(raw, "x-content-type-options"), "nosniff");
  auto body = json::parse(RawBody(raw));
  EXPECT_EQ(Str(body, "code"), "missing_host");
  EXPECT_EQ(Str(body, "requestId"), RawHeader(raw, "x-request-id"));

  // A body the refused request carried does not leak into a next request.
  raw = RawExchange(port,
                    "POST /api/tenant/create HTTP/1.1\r\nContent-Type: application/json\r\n"
                    "Content-Length: 2\r\n\r\n{}");
  EXPECT_EQ(StatusLine(raw), "HTTP/1.1 400 Bad Request") << raw;
  EXPECT_EQ(Str(json::parse(RawBody(raw)), "code"), "missing_host");

  // Two Host headers are refused on any version.
  raw = RawExchange(port, "GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n");
  EXPECT_EQ(StatusLine(raw), "HTTP/1.1 400 Bad Request") << raw;
  EXPECT_EQ(Str(json::parse(RawBody(raw)), "code"), "invalid_host");

  // HTTP/1.0 predates Host: still served; and so is HTTP/1.1 with an empty
  // Host (allowed when the target has no authority).
  raw = RawExchange(port, "GET /healthz HTTP/1.0\r\n\r\n");
  EXPECT_EQ(StatusLine(raw), "HTTP/1.0 200 OK") << raw;
  raw = RawExchange(port, "GET /healthz HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n");
  EXPECT_EQ(StatusLine(raw), "HTTP/1.1 200 OK") << raw;
  raw = RawExchange(port, "GET /healthz HTTP/1.1\r\nHost: example.org\r\nConnection: close\r\n\r\n");
  EXPECT_EQ(StatusLine(raw), "HTTP/1.1 200 OK") << raw;
  EXPECT_EQ(api().Get("/healthz").status, 200);
}

TEST_F(Hardening, EveryAnswerIsNosniffAndSignedInAnswersAreNoStore) {
  auto t = CreateTenant(api(), "hdr");
  const std::string token = t.token("admin");
  std::vector<std::pair<std::string, Response>> answers = {
      {"signed-in GET", api().Get("/api/users/me", token)},
      {"signed-in POST", api().Post("/api/hubs", {{"key", "kb"}, {"name", "KB"}}, token)},
      {"signed-in 404", api().Get("/api/hubs/00000000-0000-7000-8000-000000000000", token)},
      {"signed-in 400", api().Post("/api/hubs", json::object{}, token)},
      {"401", api().Get("/api/users/me")},
      {"route 404", api().Get("/no/such/route")},
      {"healthz", api().Get("/healthz")},
      {"readyz", api().Get("/readyz")},
      {"metrics", api().Get("/metrics")},
      {"dev-login", api().Post("/auth/dev-login", {{"persona", "admin"}, {"tenantId", t.id}})},
      {"413", api().Send("POST", "/api/hubs", std::string(2 << 20, 'x'), token)},
  };
  for (const auto& [what, r] : answers) {
    SCOPED_TRACE(what);
    EXPECT_NE(r.status, 0);
    EXPECT_EQ(r.Header("x-content-type-options"), "nosniff") << r.status;
    EXPECT_EQ(r.Header("cache-control"), "no-store") << r.status;
  }
  // The one route that may be cached: the same document for everyone.
  for (const auto& r : {api().Get("/openapi.json"), api().Get("/openapi.json", token)}) {
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.Header("cache-control"), "public, max-age=300");
    EXPECT_EQ(r.Header("x-content-type-options"), "nosniff");
  }
  // Answers the server layer gives itself: 431, malformed.
  auto raw = RawExchange(SharedServer().port(),
                         "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(64 * 1024, 'h') + "\r\n\r\n");
  EXPECT_EQ(raw.rfind("HTTP/1.1 431", 0), 0u) << raw.substr(0, 200);
  EXPECT_EQ(RawHeader(raw, "x-content-type-options"), "nosniff");
  EXPECT_EQ(RawHeader(raw, "cache-control"), "no-store");
  raw = RawExchange(SharedServer().port(), "THIS IS NOT HTTP\r\n\r\n");
  EXPECT_EQ(raw.rfind("HTTP/1.1 400", 0), 0u) << raw;
  EXPECT_EQ(RawHeader(raw, "x-content-type-options"), "nosniff");
}

// A tmpfs of `size` mounted on a fresh directory; unmounted on destruction.
class Tmpfs {
 public:
  explicit Tmpfs(const std::string& size) {
    char tmpl[] = "/tmp/credence-tmpfs-XXXXXX";
    if (::mkdtemp(tmpl) == nullptr) return;
    dir_ = tmpl;
    const std::string options = "size=" + size;
    if (::mount("tmpfs", dir_.c_str(), "tmpfs", 0, options.c_str()) == 0) {
      mounted_ = true;
    } else {
      error_ = std::strerror(errno);
    }
  }
  ~Tmpfs() {
    if (mounted_) ::umount2(dir_.c_str(), MNT_DETACH);
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove(dir_, ec);
  }
  bool mounted() const { return mounted_; }
  const std::string& error() const { return error_; }
  const std::string& dir() const { return dir_; }

  // Writes a file until the file system refuses more; returns bytes written.
  size_t Fill(const std::string& name) {
    const std::string path = dir_ + "/" + name;
    FILE* f = std::fopen(path.c_str(), "wb");
    if (f == nullptr) return 0;
    std::setvbuf(f, nullptr, _IONBF, 0);
    const std::string block(4096, 'f');
    size_t written = 0;
    while (std::fwrite(block.data(), 1, block.size(), f) == block.size()) written += block.size();
    std::fclose(f);
    return written;
  }

 private:
  std::string dir_;
  std::string error_;
  bool mounted_ = false;
};

TEST_F(Hardening, FullDiskIs503StorageFullAndNotReadyUntilSpaceIsFreed) {
  if (TestBackend() != "sqlite")
    GTEST_SKIP() << "the disk is a tmpfs under SQLite; PostgreSQL's SQLSTATEs are unit-tested";
  Tmpfs disk("16m");
  if (!disk.mounted()) GTEST_SKIP() << "cannot mount a tmpfs here: " << disk.error();
  const std::string filler = disk.dir() + "/filler";
  {
    // The database on the small disk; the log and the rest of the data dir
    // stay where they were.
    ServerProcess server(
        ServerOptions{.dev = true, .extra_args = {"--database", "sqlite:" + disk.dir() + "/credence.db"}});
    HttpClient client(server.base_url());
    auto t = CreateTenant(client, "full");
    const std::string admin = t.token("admin");
    const std::string editor = t.token("editor");
    ASSERT_EQ(client
                  .Post("/api/hubs",
                        {{"key", "kb"}, {"name", "KB"}, {"defaultExpiryDays", 90}, {"defaultOrgRole", "Editor"}}, admin)
                  .status,
              201);
    std::vector<std::string> acknowledged;
    const std::string paragraph(4000, 'p');
    auto make_entry = [&](const std::string& slug) {
      return client.Post("/api/entries",
                         {{"hubKey", "kb"},
                          {"key", slug},
                          {"originalLanguage", "en"},
                          {"title", "Entry " + slug},
                          {"content", Doc({paragraph, paragraph})}},
                         editor);
    };
    for (int i = 0; i < 5; ++i) {
      auto r = make_entry("before-" + std::to_string(i));
      ASSERT_EQ(r.status, 201) << r.body;
      acknowledged.push_back(Str(r.Json(), "id"));
    }
    ASSERT_EQ(client.Get("/readyz").status, 200);

    // Fill the disk, then write until the store refuses (what is left in
    // the WAL may take a few writes first). Every answer is a 201 or a 503
    // storage_full: never a 500.
    ASSERT_GT(disk.Fill("filler"), 0u);
    Response refused;
    // Up to the disk's whole size in entries: the WAL may hold that much reusable space.
    for (int i = 0; i < 2000 && refused.status == 0; ++i) {
      auto r = make_entry("during-" + std::to_string(i));
      if (r.status == 201) {
        acknowledged.push_back(Str(r.Json(), "id"));
        continue;
      }
      refused = r;
    }
    ExpectProblem(refused, 503, "storage_full");
    EXPECT_EQ(refused.Header("retry-after"), "30");
    EXPECT_EQ(refused.body.find("disk is full"), std::string::npos) << refused.body;

    // Not ready while writes cannot succeed; reads still answer.
    auto ready = client.Get("/readyz");
    EXPECT_EQ(ready.status, 503) << ready.body;
    EXPECT_EQ(Str(ready.Json(), "status"), "storage_full");
    EXPECT_FALSE(ready.Header("retry-after").empty());
    EXPECT_EQ(client.Get("/healthz").status, 200);
    EXPECT_EQ(client.Get("/api/entries/" + acknowledged.front(), editor).status, 200);
    // Other writes get the same answer: a trust decision (the ledger's
    // writer thread), a hub.
    for (int i = 0; i < 3; ++i) {
      auto evaluated =
          client.Post("/api/trust/evaluate", {{"sources", json::array{"entry:" + acknowledged[0]}}}, t.token("viewer"));
      if (evaluated.status == 200) continue;  // fitted in what the WAL had left
      ExpectProblem(evaluated, 503, "storage_full");
      EXPECT_EQ(evaluated.Header("retry-after"), "30");
      break;
    }
    // A write smaller than an entry may still fit in what a failed write
    // freed (SQLite returns its pages): write hubs until one is refused.
    bool hub_refused = false;
    for (int i = 0; i < 200 && !hub_refused; ++i) {
      auto hub = client.Post("/api/hubs", {{"key", "full-" + std::to_string(i)}, {"name", "Full"}, {"defaultExpiryDays", 90}},
                             admin);
      if (hub.status == 201) continue;
      ExpectProblem(hub, 503, "storage_full");
      hub_refused = true;
    }
    EXPECT_TRUE(hub_refused);
    EXPECT_EQ(client.Get("/readyz").status, 503);

    // Space again: ready without a restart, and writes succeed.
    std::filesystem::remove(filler);
    auto again = client.Get("/readyz");
    EXPECT_EQ(again.status, 200) << again.body;
    EXPECT_EQ(Str(again.Json(), "status"), "ready");
    auto after = make_entry("after");
    ASSERT_EQ(after.status, 201) << after.body;
    acknowledged.push_back(Str(after.Json(), "id"));
    EXPECT_EQ(client.Post("/api/hubs", {{"key", "kb2"}, {"name", "KB2"}, {"defaultExpiryDays", 90}}, admin).status,
              201);
    for (const auto& id : acknowledged) EXPECT_EQ(client.Get("/api/entries/" + id, editor).status, 200) << id;

    // And after a crash: everything acknowledged is still there.
    server.Kill();
    server.Restart();
    HttpClient fresh(server.base_url());
    for (const auto& id : acknowledged) EXPECT_EQ(fresh.Get("/api/entries/" + id, editor).status, 200) << id;
    EXPECT_EQ(fresh.Get("/readyz").status, 200);
    EXPECT_EQ(server.ReadLog().find("\"status\":500"), std::string::npos) << "a request answered 500";
  }
}

}  // namespace
}  // namespace credence::test
