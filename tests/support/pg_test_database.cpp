#include "support/pg_test_database.h"

#include <libpq-fe.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>

namespace credence::test {
namespace {

std::string RandomHex(size_t digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::random_device device;
  std::string out;
  out.reserve(digits);
  for (size_t i = 0; i < digits; ++i) out += kHex[device() % 16];
  return out;
}

// Runs one statement on a short-lived connection to `url`. Returns "" on
// success, else the error.
std::string RunOnServer(const std::string& url, const std::string& sql) {
  PGconn* conn = PQconnectdb(url.c_str());
  std::string error;
  if (PQstatus(conn) != CONNECTION_OK) {
    error = PQerrorMessage(conn);
  } else {
    PGresult* res = PQexec(conn, sql.c_str());
    if (PQresultStatus(res) != PGRES_COMMAND_OK) error = PQresultErrorMessage(res);
    PQclear(res);
  }
  PQfinish(conn);
  return error.empty() ? error : sql + ": " + error;
}

}  // namespace

std::optional<std::string> PgServerUrlFromEnv() {
  const char* url = std::getenv("CREDENCE_TEST_PG_URL");
  if (url == nullptr || url[0] == '\0') return std::nullopt;
  return std::string(url);
}

std::string PgUrlWithDatabase(const std::string& url, const std::string& database) {
  const size_t scheme = url.find("://");
  if (scheme == std::string::npos) throw std::invalid_argument("not a postgresql:// URL");
  // The path starts at the first '/' after the authority; query parameters
  // (after '?') are kept.
  const size_t authority_end = url.find_first_of("/?", scheme + 3);
  const size_t query = url.find('?', scheme + 3);
  const std::string base = url.substr(0, authority_end == std::string::npos ? url.size() : authority_end);
  const std::string rest = query == std::string::npos ? "" : url.substr(query);
  return base + "/" + database + rest;
}

PgTestDatabase::PgTestDatabase(std::string server_url)
    : server_url_(std::move(server_url)), name_("t_" + RandomHex(16)), url_(PgUrlWithDatabase(server_url_, name_)) {
  // The name is ours (letters and digits), so no quoting is needed.
  if (std::string error = RunOnServer(server_url_, "CREATE DATABASE " + name_); !error.empty())
    throw std::runtime_error("cannot create test database: " + error);
}

PgTestDatabase::~PgTestDatabase() {
  if (std::string error = RunOnServer(server_url_, "DROP DATABASE IF EXISTS " + name_ + " WITH (FORCE)");
      !error.empty())
    std::fprintf(stderr, "warning: cannot drop test database: %s\n", error.c_str());
}

ScratchStore::ScratchStore(const std::string& backend, const std::string& name_prefix) {
  if (backend == "sqlite") {
    dir_ = std::filesystem::temp_directory_path() / (name_prefix + "-" + RandomHex(16));
    std::filesystem::create_directories(dir_);
    url_ = "sqlite:" + (dir_ / "test.db").string();
    return;
  }
  if (const auto server = PgServerUrlFromEnv()) {
    pg_ = std::make_unique<PgTestDatabase>(*server);
    url_ = pg_->url();
  }
}

ScratchStore::~ScratchStore() {
  pg_.reset();
  std::error_code ec;
  if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
}

}  // namespace credence::test
