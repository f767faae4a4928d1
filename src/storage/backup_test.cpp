// What `credence admin backup` and `restore` need from storage/: SQLite's
// online backup of one read transaction's snapshot (whole and consistent
// while another connection writes between its steps, never restarted),
// the login handed to pg_dump and pg_restore (no password on their command
// line), and a PostgreSQL database's own objects found and dropped (those
// of extensions left alone). The PostgreSQL part needs CREDENCE_TEST_PG_URL.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include "storage/database.h"
#include "storage/postgres/postgres_tools.h"
#include "storage/session.h"
#include "storage/sqlite/sqlite_database.h"
#include "support/pg_test_database.h"

namespace credence::storage {
namespace {

namespace fs = std::filesystem;

struct TempDir {
  TempDir() {
    char tmpl[] = "/tmp/credence-storage-backup-XXXXXX";
    if (::mkdtemp(tmpl) == nullptr) throw std::runtime_error("mkdtemp failed");
    path = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string path;
};

int64_t Count(Database& db, const std::string& sql) {
  Session session(db);
  return session.connection().Execute("test.count", sql, {}).front().Int(0);
}

TEST(SqliteBackup, CopiesTheSnapshotOfItsTransactionWhileAnotherConnectionWrites) {
  TempDir dir;
  DatabaseOptions options;
  options.pool_size = 2;
  auto db = OpenDatabase("sqlite:" + dir.path + "/source.db", options);
  {
    Session session(*db);
    // Rows large enough for the copy to take many steps of one page.
    session.connection().ExecuteScript(
        "CREATE TABLE t (id INTEGER PRIMARY KEY, body TEXT NOT NULL);"
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)"
        " INSERT INTO t SELECT i, printf('%.500c', 'x') FROM n;");
  }
  const std::string dest = dir.path + "/copy.db";
  int64_t steps_seen = 0;
  {
    Session snapshot(*db, TxMode::kRead);
    snapshot.connection().Execute("test.read", "SELECT count(*) FROM t", {});
    const auto stats = BackupSqliteSnapshot(snapshot.connection(), dest, 8, [&](int64_t copied, int64_t total) {
      EXPECT_LE(copied, total);
      ++steps_seen;
      // A writer on another connection between the steps: not waiting for
      // the copy, and not in it.
      Session writer(*db, TxMode::kWrite);
      writer.connection().ExecuteScript("INSERT INTO t (body) VALUES ('later'); DELETE FROM t WHERE id = " +
                                        std::to_string(steps_seen));
      writer.Commit();
    });
    EXPECT_GT(stats.steps, 10);
    EXPECT_EQ(stats.steps, steps_seen);
    EXPECT_EQ(stats.page_size, 4096);
    EXPECT_GT(stats.pages, 200);
  }
  auto copy = OpenDatabase("sqlite:" + dest, options);
  EXPECT_EQ(Count(*copy, "SELECT count(*) FROM t"), 2000);
  EXPECT_EQ(Count(*copy, "SELECT count(*) FROM t WHERE body = 'later'"), 0);
  EXPECT_EQ(Count(*copy, "SELECT min(id) FROM t"), 1);
  {
    Session session(*copy);
    EXPECT_EQ(session.connection().Execute("test.check", "PRAGMA integrity_check", {}).front().Text(0), "ok");
  }
  EXPECT_EQ(Count(*db, "SELECT count(*) FROM t"), 2000);  // as many written as deleted
  EXPECT_EQ(Count(*db, "SELECT count(*) FROM t WHERE body = 'later'"), steps_seen);
}

TEST(SqliteBackup, NeedsAReadTransactionOnASqliteConnection) {
  TempDir dir;
  auto db = OpenDatabase("sqlite:" + dir.path + "/source.db", {});
  Session outside(*db);
  EXPECT_THROW(BackupSqliteSnapshot(outside.connection(), dir.path + "/copy.db", 8, {}), std::invalid_argument);
  EXPECT_FALSE(fs::exists(dir.path + "/copy.db"));
}

TEST(PostgresTools, TheLoginKeepsThePasswordOffTheCommandLine) {
  auto login = ToolLogin("postgresql://credence:s3cr%27t@db.example.com:5433/cred?sslmode=require");
  EXPECT_EQ(login.password, "s3cr't");
  EXPECT_EQ(login.conninfo.find("s3cr"), std::string::npos) << login.conninfo;
  EXPECT_NE(login.conninfo.find("host='db.example.com'"), std::string::npos) << login.conninfo;
  EXPECT_NE(login.conninfo.find("port='5433'"), std::string::npos) << login.conninfo;
  EXPECT_NE(login.conninfo.find("dbname='cred'"), std::string::npos) << login.conninfo;
  EXPECT_NE(login.conninfo.find("user='credence'"), std::string::npos) << login.conninfo;
  EXPECT_NE(login.conninfo.find("sslmode='require'"), std::string::npos) << login.conninfo;
  login = ToolLogin("postgresql://127.0.0.1/o'brien");
  EXPECT_FALSE(login.password);
  EXPECT_NE(login.conninfo.find("dbname='o\\'brien'"), std::string::npos) << login.conninfo;
  EXPECT_THROW(ToolLogin("postgresql://[broken"), StorageError);
}

TEST(PostgresTools, FindsAndDropsTheDatabasesOwnObjectsOnly) {
  const auto server = test::PgServerUrlFromEnv();
  if (!server) GTEST_SKIP() << "CREDENCE_TEST_PG_URL is not set";
  test::PgTestDatabase pg(*server);
  auto db = OpenDatabase(pg.url(), {});
  auto conn = db->Acquire();
  EXPECT_EQ(FirstUserObject(*conn), "");
  // An extension's objects are not the database's own.
  conn->ExecuteScript("CREATE EXTENSION IF NOT EXISTS pg_trgm");
  EXPECT_EQ(FirstUserObject(*conn), "");
  conn->ExecuteScript(
      "CREATE FUNCTION bump() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;"
      "CREATE TABLE parent (id BIGINT PRIMARY KEY);"
      "CREATE TABLE child (id BIGSERIAL PRIMARY KEY, parent_id BIGINT REFERENCES parent (id));"
      "CREATE TRIGGER child_bump BEFORE INSERT ON child FOR EACH ROW EXECUTE FUNCTION bump();"
      "CREATE VIEW children AS SELECT * FROM child;"
      "CREATE SEQUENCE loose;"
      "INSERT INTO parent VALUES (1); INSERT INTO child (parent_id) VALUES (1);");
  EXPECT_EQ(FirstUserObject(*conn), "table public.child");
  DropUserObjects(*conn);
  EXPECT_EQ(FirstUserObject(*conn), "");
  EXPECT_EQ(
      conn->Execute("test.extension", "SELECT count(*) FROM pg_extension WHERE extname = 'pg_trgm'", {}).front().Int(0),
      1);
  conn->ExecuteScript("CREATE TABLE again (id BIGINT)");  // the schema is still usable
  EXPECT_EQ(FirstUserObject(*conn), "table public.again");
}

}  // namespace
}  // namespace credence::storage
