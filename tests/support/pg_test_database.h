#pragma once
// A fresh, empty PostgreSQL database on a test server, for tests that must
// not see each other's tables. The server is one started by
// scripts/pg-test-server; its URL comes from CREDENCE_TEST_PG_URL.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

namespace credence::test {

// The value of CREDENCE_TEST_PG_URL, or nullopt when it is unset or empty
// (tests then skip their PostgreSQL runs).
std::optional<std::string> PgServerUrlFromEnv();

// `url` with its database (the URL path) replaced by `database`; the user,
// host, port and query parameters are kept.
std::string PgUrlWithDatabase(const std::string& url, const std::string& database);

// Creates `t_<16 random hex digits>` on the server at construction and drops
// it (WITH (FORCE), so connections still open are cut) on destruction.
// Construction throws std::runtime_error when the server cannot be reached;
// a failed drop is reported on stderr, never thrown. Not copyable.
class PgTestDatabase {
 public:
  explicit PgTestDatabase(std::string server_url);
  ~PgTestDatabase();
  PgTestDatabase(const PgTestDatabase&) = delete;
  PgTestDatabase& operator=(const PgTestDatabase&) = delete;

  const std::string& name() const { return name_; }
  // A URL for OpenDatabase that connects to the fresh database.
  const std::string& url() const { return url_; }

 private:
  std::string server_url_;
  std::string name_;
  std::string url_;
};

// A fresh store for a test parameterized by backend: "sqlite" (a file in a
// new temporary directory) or "postgres" (a PgTestDatabase on the server of
// CREDENCE_TEST_PG_URL). Removed on destruction.
class ScratchStore {
 public:
  ScratchStore(const std::string& backend, const std::string& name_prefix);
  ~ScratchStore();
  ScratchStore(const ScratchStore&) = delete;
  ScratchStore& operator=(const ScratchStore&) = delete;

  // False for postgres without a server: the test should skip.
  bool available() const { return !url_.empty(); }
  // A URL for OpenDatabase.
  const std::string& url() const { return url_; }

 private:
  std::filesystem::path dir_;
  std::unique_ptr<PgTestDatabase> pg_;
  std::string url_;
};

}  // namespace credence::test
