// The storage contract, run the same way on SQLite and on PostgreSQL.
// PostgreSQL runs need a server: scripts/pg-test-server start DIR, then
// CREDENCE_TEST_PG_URL=<the URL it prints>; without it they are skipped.
#include <gtest/gtest.h>

#include <sqlite3.h>

#include <chrono>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "storage/database.h"
#include "storage/migrations.h"
#include "storage/postgres/postgres_database.h"
#include "storage/query.h"
#include "storage/session.h"
#include "storage/sqlite/sqlite_database.h"
#include "support/pg_test_database.h"

namespace credence::storage {
namespace {

using Kind = StorageError::Kind;

// One schema for both backends: SQLite gives BOOLEAN and DOUBLE PRECISION
// numeric affinity; PostgreSQL returns booleans as t/f, which Row::Bool reads.
constexpr std::string_view kSchema =
    "CREATE TABLE tenants (id TEXT PRIMARY KEY);"
    "CREATE TABLE items ("
    " tenant_id TEXT NOT NULL REFERENCES tenants (id),"
    " id TEXT NOT NULL,"
    " n BIGINT, r DOUBLE PRECISION, flag BOOLEAN, note TEXT,"
    " PRIMARY KEY (tenant_id, id));"
    "CREATE TABLE counters (name TEXT PRIMARY KEY, value BIGINT NOT NULL);"
    "INSERT INTO counters (name, value) VALUES ('hits', 0);";

constexpr GlobalQuery kInsertTenant{"test.insert_tenant", "INSERT INTO tenants (id) VALUES ($1)"};
constexpr GlobalQuery kCountTenants{"test.count_tenants", "SELECT COUNT(*) FROM tenants"};
constexpr GlobalQuery kInsertAnyItem{
    "test.insert_any_item", "INSERT INTO items (tenant_id, id, n, r, flag, note) VALUES ($1, $2, $3, $4, $5, $6)"};
constexpr GlobalQuery kGetAnyItem{"test.get_any_item",
                                  "SELECT n, r, flag, note FROM items WHERE tenant_id = $1 AND id = $2"};
constexpr GlobalQuery kIncrement{"test.increment", "UPDATE counters SET value = value + 1 WHERE name = 'hits'"};
constexpr GlobalQuery kCounter{"test.counter", "SELECT value FROM counters WHERE name = 'hits'"};
constexpr GlobalQuery kMigrations{"test.migrations", "SELECT version, name FROM schema_migrations ORDER BY version"};

constexpr TenantQuery kInsertItem{
    "test.insert_item", "INSERT INTO items (tenant_id, id, n, r, flag, note) VALUES ($1, $2, $3, $4, $5, $6)"};
constexpr TenantQuery kGetItem{"test.get_item",
                               "SELECT id, n, r, flag, note FROM items WHERE tenant_id = $1 AND id = $2"};
constexpr TenantQuery kListItems{"test.list_items", "SELECT id, n, note FROM items WHERE tenant_id = $1 ORDER BY id"};
// $3 is bound before $2, and $2 is used twice.
constexpr TenantQuery kInsertShuffled{"test.insert_shuffled",
                                      "INSERT INTO items (tenant_id, n, id, note) VALUES ($1, $3, $2, $2)"};
constexpr TenantQuery kFindInRange{"test.find_in_range",
                                   "SELECT id FROM items WHERE tenant_id = $1 AND n <= $3 AND n >= $2 ORDER BY id"};
constexpr TenantQuery kAddToN{"test.add_to_n", "UPDATE items SET n = n + $2 WHERE tenant_id = $1 AND n >= $3"};
constexpr TenantQuery kDeleteItems{"test.delete_items", "DELETE FROM items WHERE tenant_id = $1"};

// The kind of StorageError `f` throws, or nullopt when it does not throw.
template <class F>
std::optional<Kind> ErrorKindOf(F&& f) {
  try {
    f();
  } catch (const StorageError& e) {
    return e.kind();
  }
  return std::nullopt;
}

std::string RandomHex() {
  std::random_device device;
  return std::to_string(device()) + std::to_string(device());
}

int64_t CountTenants(Database& db) {
  Session session(db);
  return session.Run(kCountTenants).front().Int(0);
}

class StorageTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (GetParam() == "sqlite") {
      dir_ = std::filesystem::temp_directory_path() / ("credence-storage-test-" + RandomHex());
      url_ = "sqlite:" + (dir_ / "test.db").string();
      return;
    }
    const std::optional<std::string> server = test::PgServerUrlFromEnv();
    if (!server) GTEST_SKIP() << "CREDENCE_TEST_PG_URL is not set (see scripts/pg-test-server)";
    pg_ = std::make_unique<test::PgTestDatabase>(*server);
    url_ = pg_->url();
  }

  void TearDown() override {
    db_.reset();  // closes connections before the PostgreSQL database is dropped
    pg_.reset();
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
  }

  Database& Open(DatabaseOptions options = {}) {
    db_ = OpenDatabase(url_, options);
    return *db_;
  }

  // Opens the database and creates the test tables, plus tenants "a" and "b".
  Database& OpenWithSchema(DatabaseOptions options = {}) {
    Database& db = Open(options);
    Session session(db);
    session.connection().ExecuteScript(kSchema);
    session.Run(kInsertTenant, {"a"});
    session.Run(kInsertTenant, {"b"});
    return db;
  }

  bool postgres() const { return GetParam() == "postgres"; }

  std::filesystem::path dir_;

 private:
  std::unique_ptr<test::PgTestDatabase> pg_;
  std::string url_;
  std::unique_ptr<Database> db_;
};

TEST(StorageErrorKinds, SqliteFullAndEveryIoErrorHaveTheirKinds) {
  EXPECT_EQ(SqliteErrorKind(SQLITE_FULL), Kind::kStorageFull);
  for (int code : {SQLITE_IOERR, SQLITE_IOERR_WRITE, SQLITE_IOERR_FSYNC, SQLITE_IOERR_SHORT_READ, SQLITE_IOERR_TRUNCATE,
                   SQLITE_IOERR_SHMSIZE})
    EXPECT_EQ(SqliteErrorKind(code), Kind::kIoError) << code;
  EXPECT_EQ(SqliteErrorKind(SQLITE_BUSY), Kind::kBusy);
  EXPECT_EQ(SqliteErrorKind(SQLITE_BUSY_SNAPSHOT), Kind::kBusy);
  EXPECT_EQ(SqliteErrorKind(SQLITE_LOCKED), Kind::kBusy);
  EXPECT_EQ(SqliteErrorKind(SQLITE_CANTOPEN), Kind::kUnavailable);
  EXPECT_EQ(SqliteErrorKind(SQLITE_CONSTRAINT_UNIQUE), Kind::kUniqueViolation);
  EXPECT_EQ(SqliteErrorKind(SQLITE_CONSTRAINT_PRIMARYKEY), Kind::kUniqueViolation);
  EXPECT_EQ(SqliteErrorKind(SQLITE_CONSTRAINT_FOREIGNKEY), Kind::kForeignKeyViolation);
  EXPECT_EQ(SqliteErrorKind(SQLITE_CONSTRAINT_NOTNULL), Kind::kOther);
  EXPECT_EQ(SqliteErrorKind(SQLITE_ERROR), Kind::kOther);
}

TEST(StorageErrorKinds, PostgresSqlStates) {
  EXPECT_EQ(PostgresErrorKind("53100"), Kind::kStorageFull);  // disk_full
  EXPECT_EQ(PostgresErrorKind("58030"), Kind::kIoError);      // io_error
  // The rest of class 53, insufficient resources: passes with time.
  for (const char* code : {"53000", "53200", "53300", "53400"})
    EXPECT_EQ(PostgresErrorKind(code), Kind::kUnavailable) << code;
  EXPECT_EQ(PostgresErrorKind("23505"), Kind::kUniqueViolation);
  EXPECT_EQ(PostgresErrorKind("23503"), Kind::kForeignKeyViolation);
  for (const char* code : {"40001", "40P01", "55P03"}) EXPECT_EQ(PostgresErrorKind(code), Kind::kBusy) << code;
  for (const char* code : {"08006", "08001", "57P01", "57P03"})
    EXPECT_EQ(PostgresErrorKind(code), Kind::kUnavailable) << code;
  for (const char* code : {"42P01", "22001", "58000", "58P01", "23502"})
    EXPECT_EQ(PostgresErrorKind(code), Kind::kOther) << code;
}

// A disk-full or I/O error seen by a Session marks the store not ready;
// Readiness() clears it once its probe write commits, and not before.
TEST_P(StorageTest, WriteFailureMakesTheStoreNotReadyUntilAProbeWriteCommits) {
  Database& db = Open();
  EXPECT_EQ(db.Readiness(), Database::Health::kReady);
  db.NoteError(StorageError(Kind::kBusy, "busy"));  // passes by itself: not a write failure
  EXPECT_EQ(db.WriteFailure(), Database::Health::kReady);
  db.NoteError(StorageError(Kind::kStorageFull, "database or disk is full"));
  EXPECT_EQ(db.WriteFailure(), Database::Health::kFull);
  // Without the probe's table the probe cannot write: still not ready.
  EXPECT_EQ(db.Readiness(), Database::Health::kFull);
  ApplyMigrations(db, Migrations());
  EXPECT_EQ(db.Readiness(), Database::Health::kReady);
  EXPECT_EQ(db.WriteFailure(), Database::Health::kReady);
  db.NoteError(StorageError(Kind::kIoError, "disk I/O error"));
  EXPECT_EQ(db.WriteFailure(), Database::Health::kIoError);
  EXPECT_EQ(db.Readiness(), Database::Health::kReady);
}

TEST_P(StorageTest, SessionsNoteWriteFailuresOnTheirDatabase) {
  Database& db = OpenWithSchema();
  // An ordinary failure (a unique violation) is not a write failure.
  Session session(db, TxMode::kWrite);
  EXPECT_EQ(ErrorKindOf([&] { session.Run(kInsertTenant, {"a"}); }), Kind::kUniqueViolation);
  EXPECT_EQ(db.WriteFailure(), Database::Health::kReady);
}

TEST_P(StorageTest, DialectPingAndDescribe) {
  Database& db = Open();
  EXPECT_EQ(db.dialect(), postgres() ? Dialect::kPostgres : Dialect::kSqlite);
  EXPECT_TRUE(db.Ping());
  EXPECT_FALSE(db.Describe().empty());
  Session session(db);
  EXPECT_EQ(session.dialect(), db.dialect());
  EXPECT_EQ(session.connection().dialect(), db.dialect());
}

TEST_P(StorageTest, RunBindsEveryParameterType) {
  Database& db = OpenWithSchema();
  Session session(db);
  const std::string owned = "owned";
  const std::optional<int64_t> some = 7;
  const std::optional<std::string> none;
  const double sum = 0.1 + 0.2;  // needs all 17 digits to round-trip
  const int64_t big = std::numeric_limits<int64_t>::max();
  const int64_t small = std::numeric_limits<int64_t>::min();

  session.Run(kInsertAnyItem, {"a", "int", 42, -1.5, true, "const char*"});
  session.Run(kInsertAnyItem, {"a", "int64", big, sum, false, owned});
  session.Run(kInsertAnyItem, {"a", "min", small, 1e300, some.has_value(), std::string_view("view")});
  session.Run(kInsertAnyItem, {"a", "opt", some, nullptr, std::nullopt, none});
  session.Run(kInsertAnyItem, {"a", "text", 0, 0.0, false, "O'Brien; -- \"quoted\" h\xc3\xa9llo \xe2\x9c\x93"});

  Rows row = session.Run(kGetAnyItem, {"a", "int"});
  ASSERT_EQ(row.size(), 1u);
  EXPECT_EQ(row.front().Int(0), 42);
  EXPECT_EQ(row.front().Real(1), -1.5);
  EXPECT_TRUE(row.front().Bool(2));
  EXPECT_EQ(row.front().Text(3), "const char*");

  row = session.Run(kGetAnyItem, {"a", "int64"});
  EXPECT_EQ(row.front().Int(0), big);
  EXPECT_EQ(row.front().Real(1), sum);
  EXPECT_FALSE(row.front().Bool(2));
  EXPECT_EQ(row.front().Text(3), "owned");

  row = session.Run(kGetAnyItem, {"a", "min"});
  EXPECT_EQ(row.front().Int(0), small);
  EXPECT_EQ(row.front().Real(1), 1e300);
  EXPECT_TRUE(row.front().Bool(2));
  EXPECT_EQ(row.front().Text(3), "view");

  row = session.Run(kGetAnyItem, {"a", "opt"});
  EXPECT_EQ(row.front().OptInt(0), 7);
  EXPECT_TRUE(row.front().IsNull(1));
  EXPECT_TRUE(row.front().IsNull(2));
  EXPECT_EQ(row.front().OptText(3), std::nullopt);

  row = session.Run(kGetAnyItem, {"a", "text"});
  EXPECT_EQ(row.front().Text(3), "O'Brien; -- \"quoted\" h\xc3\xa9llo \xe2\x9c\x93");
}

TEST_P(StorageTest, NullRoundTripsAndDiffersFromEmptyText) {
  Database& db = OpenWithSchema();
  Session session(db);
  session.Run(kInsertAnyItem, {"a", "null", nullptr, nullptr, nullptr, nullptr});
  session.Run(kInsertAnyItem, {"a", "empty", 0, 0.0, false, std::string()});

  Rows rows = session.Run(kGetAnyItem, {"a", "null"});
  ASSERT_EQ(rows.size(), 1u);
  const Row row = rows.front();
  for (int c = 0; c < 4; ++c) EXPECT_TRUE(row.IsNull(c)) << "column " << c;
  EXPECT_EQ(row.OptInt(0), std::nullopt);
  EXPECT_EQ(row.Int(0), 0);
  EXPECT_EQ(row.Real(1), 0.0);
  EXPECT_FALSE(row.Bool(2));
  EXPECT_EQ(row.OptText(3), std::nullopt);
  EXPECT_EQ(row.Text(3), "");

  rows = session.Run(kGetAnyItem, {"a", "empty"});
  EXPECT_FALSE(rows.front().IsNull(3));
  EXPECT_EQ(rows.front().OptText(3), std::optional<std::string>(""));
  EXPECT_EQ(rows.front().OptInt(0), std::optional<int64_t>(0));
}

TEST_P(StorageTest, TenantSessionBindsTheTenantAsFirstParameter) {
  Database& db = OpenWithSchema();
  Session session(db);
  TenantSession a(session, "a");
  TenantSession b(session, "b");
  EXPECT_EQ(a.tenant_id(), "a");

  a.Run(kInsertItem, {"x", 1, 0.5, true, "from a"});
  b.Run(kInsertItem, {"x", 2, 0.25, false, "from b"});

  Rows rows = a.Run(kGetItem, {"x"});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows.front().Text(0), "x");
  EXPECT_EQ(rows.front().Int(1), 1);
  EXPECT_EQ(rows.front().Real(2), 0.5);
  EXPECT_TRUE(rows.front().Bool(3));
  EXPECT_EQ(rows.front().Text(4), "from a");

  rows = b.Run(kGetItem, {"x"});
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows.front().Text(4), "from b");
  EXPECT_TRUE(TenantSession(session, "nobody").Run(kListItems).empty());
}

TEST_P(StorageTest, ParametersMayBeReusedAndReferencedOutOfOrder) {
  Database& db = OpenWithSchema();
  Session session(db);
  TenantSession tenant(session, "a");
  // kInsertShuffled: ($1 tenant, $3 n, $2 id, $2 note).
  tenant.Run(kInsertShuffled, {"p", 10});
  tenant.Run(kInsertShuffled, {"q", 20});
  tenant.Run(kInsertShuffled, {"r", 30});
  TenantSession(session, "b").Run(kInsertShuffled, {"p", 15});

  Rows rows = tenant.Run(kListItems);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].Text(0), "p");
  EXPECT_EQ(rows[0].Int(1), 10);
  EXPECT_EQ(rows[0].Text(2), "p");  // the second use of $2
  EXPECT_EQ(rows[2].Text(2), "r");
  EXPECT_EQ(rows[2].Int(1), 30);

  // kFindInRange: n <= $3 AND n >= $2.
  rows = tenant.Run(kFindInRange, {15, 30});
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].Text(0), "q");
  EXPECT_EQ(rows[1].Text(0), "r");
}

// A what-if replay streams its pages through a named statement with
// parameters: the same rows as Run, and the statement
// reusable at once (it is reset after each walk).
TEST_P(StorageTest, SqliteStreamsANamedStatementWithParametersAsRunReadsIt) {
  Database& db = OpenWithSchema();
  Session session(db);
  TenantSession tenant(session, "a");
  for (auto [id, n] : {std::pair{"p", 10}, {"q", 20}, {"r", 30}, {"s", 40}}) tenant.Run(kInsertShuffled, {id, n});
  const Param params[] = {std::string_view("a"), 15, 30};
  if (postgres()) {
    EXPECT_THROW(ForEachSqliteRow(session.connection(), kFindInRange.name, kFindInRange.postgres, params,
                                  [](std::span<const SqliteValue>) {}),
                 std::invalid_argument);
    return;
  }
  for (int walk = 0; walk < 2; ++walk) {
    std::vector<std::string> ids;
    ForEachSqliteRow(session.connection(), kFindInRange.name, kFindInRange.sqlite, params,
                     [&](std::span<const SqliteValue> row) {
                       ASSERT_EQ(row[0].type, SqliteValue::Type::kText);
                       ids.emplace_back(row[0].bytes);
                     });
    EXPECT_EQ(ids, (std::vector<std::string>{"q", "r"})) << "walk " << walk;
  }
  const Param too_few[] = {std::string_view("a")};
  EXPECT_THROW(ForEachSqliteRow(session.connection(), kFindInRange.name, kFindInRange.sqlite, too_few,
                                [](std::span<const SqliteValue>) {}),
               StorageError);
  EXPECT_EQ(tenant.Run(kFindInRange, {15, 30}).size(), 2u) << "the cached statement still runs";
}

TEST_P(StorageTest, RowsAccessors) {
  Database& db = OpenWithSchema();
  Session session(db);
  TenantSession tenant(session, "a");
  tenant.Run(kInsertItem, {"i1", 1, 1.25, true, "one"});
  tenant.Run(kInsertItem, {"i2", 2, 2.5, false, nullptr});
  tenant.Run(kInsertItem, {"i3", 3, 3.75, true, "three"});

  Rows none = tenant.Run(kGetItem, {"missing"});
  EXPECT_TRUE(none.empty());
  EXPECT_EQ(none.size(), 0u);

  Rows rows = tenant.Run(kListItems);
  EXPECT_FALSE(rows.empty());
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows.columns(), 3);
  EXPECT_EQ(rows.front().Text(0), "i1");
  EXPECT_EQ(rows[1].OptText(2), std::nullopt);
  EXPECT_EQ(rows[2].OptText(2), std::optional<std::string>("three"));
  // Numbers read as text and as reals on both backends.
  EXPECT_EQ(rows[2].Text(1), "3");
  EXPECT_EQ(rows[2].Real(1), 3.0);

  std::vector<std::string> ids;
  int64_t total = 0;
  for (const Row row : rows) {
    ids.push_back(row.Text(0));
    total += row.Int(1);
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"i1", "i2", "i3"}));
  EXPECT_EQ(total, 6);

  Rows item = tenant.Run(kGetItem, {"i3"});
  EXPECT_EQ(item.columns(), 5);
  EXPECT_EQ(item.front().Real(2), 3.75);
  EXPECT_TRUE(item.front().Bool(3));
  EXPECT_FALSE(tenant.Run(kGetItem, {"i2"}).front().Bool(3));
}

TEST_P(StorageTest, AffectedCountsChangedRows) {
  Database& db = OpenWithSchema();
  Session session(db);
  TenantSession tenant(session, "a");
  EXPECT_EQ(tenant.Run(kInsertItem, {"i1", 1, 0.0, false, nullptr}).affected(), 1);
  tenant.Run(kInsertItem, {"i2", 2, 0.0, false, nullptr});
  tenant.Run(kInsertItem, {"i3", 3, 0.0, false, nullptr});
  TenantSession(session, "b").Run(kInsertItem, {"i9", 9, 0.0, false, nullptr});

  Rows updated = tenant.Run(kAddToN, {100, 2});
  EXPECT_EQ(updated.affected(), 2);
  EXPECT_TRUE(updated.empty());
  EXPECT_EQ(tenant.Run(kAddToN, {1, 1000}).affected(), 0);
  EXPECT_EQ(tenant.Run(kGetItem, {"i3"}).front().Int(1), 103);
  EXPECT_EQ(tenant.Run(kDeleteItems).affected(), 3);
  EXPECT_EQ(TenantSession(session, "b").Run(kListItems).size(), 1u);
}

TEST_P(StorageTest, UniqueViolation) {
  Database& db = OpenWithSchema();
  Session session(db);
  EXPECT_EQ(ErrorKindOf([&] { session.Run(kInsertTenant, {"a"}); }), Kind::kUniqueViolation);
  TenantSession tenant(session, "a");
  tenant.Run(kInsertItem, {"dup", 1, 0.0, false, nullptr});
  EXPECT_EQ(ErrorKindOf([&] { tenant.Run(kInsertItem, {"dup", 2, 0.0, false, nullptr}); }), Kind::kUniqueViolation);
  // The connection is still usable after the error.
  EXPECT_EQ(CountTenants(db), 2);
  EXPECT_EQ(tenant.Run(kGetItem, {"dup"}).front().Int(1), 1);
}

TEST_P(StorageTest, ForeignKeyViolation) {
  Database& db = OpenWithSchema();
  Session session(db);
  EXPECT_EQ(ErrorKindOf([&] {
              TenantSession(session, "ghost").Run(kInsertItem, {"x", 1, 0.0, false, nullptr});
            }),
            Kind::kForeignKeyViolation);
  EXPECT_TRUE(TenantSession(session, "ghost").Run(kListItems).empty());
}

TEST_P(StorageTest, MissingParameterIsAnError) {
  Database& db = OpenWithSchema();
  Session session(db);
  EXPECT_EQ(ErrorKindOf([&] { session.Run(kGetAnyItem, {"a"}); }), Kind::kOther);
  EXPECT_EQ(ErrorKindOf([&] { session.Run(kInsertTenant); }), Kind::kOther);
  EXPECT_EQ(CountTenants(db), 2);
}

TEST_P(StorageTest, SyntaxErrorIsKindOther) {
  Database& db = Open();
  Session session(db);
  EXPECT_EQ(ErrorKindOf([&] { session.connection().Execute("bad", "SELEKT 1", {}); }), Kind::kOther);
  EXPECT_EQ(ErrorKindOf([&] { session.connection().ExecuteScript("SELECT 1; SELEKT 2"); }), Kind::kOther);
  EXPECT_TRUE(db.Ping());
}

TEST_P(StorageTest, OneNameWithDifferentSqlOnOneConnection) {
  Database& db = Open({.pool_size = 1});
  auto conn = db.Acquire();
  EXPECT_EQ(conn->Execute("same", "SELECT 1", {}).front().Int(0), 1);
  EXPECT_EQ(conn->Execute("same", "SELECT 2", {}).front().Int(0), 2);
  EXPECT_EQ(conn->Execute("same", "SELECT 1", {}).front().Int(0), 1);
  EXPECT_EQ(conn->Execute("", "SELECT 3", {}).front().Int(0), 3);
  // PostgreSQL keys statement names on their first 63 bytes.
  const std::string long_name(80, 'n');
  EXPECT_EQ(conn->Execute(long_name + "a", "SELECT 4", {}).front().Int(0), 4);
  EXPECT_EQ(conn->Execute(long_name + "b", "SELECT 5", {}).front().Int(0), 5);
}

TEST_P(StorageTest, TransactionRollsBackWithoutCommit) {
  // One connection, so the next Session reuses the one the transaction ran on.
  Database& db = OpenWithSchema({.pool_size = 1});
  {
    Session session(db, TxMode::kWrite);
    session.Run(kInsertTenant, {"c"});
    TenantSession(session, "c").Run(kInsertItem, {"x", 1, 0.0, false, nullptr});
    EXPECT_EQ(session.Run(kCountTenants).front().Int(0), 3);  // visible inside
  }
  EXPECT_EQ(CountTenants(db), 2);
  {
    // The connection left the transaction: this autocommit insert persists.
    Session session(db);
    session.Run(kInsertTenant, {"d"});
  }
  EXPECT_EQ(CountTenants(db), 3);
  Session session(db);
  EXPECT_TRUE(TenantSession(session, "c").Run(kListItems).empty());
}

TEST_P(StorageTest, CommitPersists) {
  Database& db = OpenWithSchema({.pool_size = 2});
  {
    Session session(db, TxMode::kWrite);
    session.Run(kInsertTenant, {"c"});
    // Not visible to another connection before the commit.
    EXPECT_EQ(CountTenants(db), 2);
    session.Commit();
    session.Commit();  // a second Commit is a no-op
  }
  EXPECT_EQ(CountTenants(db), 3);
  {
    Session session(db, TxMode::kRead);
    EXPECT_EQ(session.Run(kCountTenants).front().Int(0), 3);
    session.Commit();
  }
  {
    // Explicit transaction control on the connection.
    auto conn = db.Acquire();
    conn->Begin(TxMode::kWrite);
    const Param params[] = {"e"};
    conn->Execute(kInsertTenant.name, postgres() ? kInsertTenant.postgres : kInsertTenant.sqlite, params);
    conn->Rollback();
    conn->Rollback();  // nothing left to roll back: must not throw
    EXPECT_TRUE(conn->healthy());
  }
  EXPECT_EQ(CountTenants(db), 3);
}

// SQLite: the background checkpointer really copies the WAL into the
// database while the store is open (not only on close), so that after a
// pause writers start the WAL over instead of growing the file.
constexpr GlobalQuery kInsertBlob{"test.insert_blob", "INSERT INTO blobs (body) VALUES ($1)"};

TEST_P(StorageTest, SqliteCheckpointsWhileOpenAndReusesTheWalAfterAPause) {
  if (postgres()) GTEST_SKIP() << "SQLite only";
  Database& db = Open();
  {
    Session session(db);
    session.connection().ExecuteScript("CREATE TABLE blobs (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  }
  const std::string body(4000, 'x');
  auto write_mb = [&](int megabytes) {
    for (int t = 0; t < megabytes * 25; ++t) {  // 10 rows of 4 KB per transaction
      Session session(db, TxMode::kWrite);
      for (int i = 0; i < 10; ++i) session.Run(kInsertBlob, {body});
      session.Commit();
    }
  };
  const std::filesystem::path file = dir_ / "test.db";
  const std::filesystem::path wal = dir_ / "test.db-wal";
  auto wait_for = [](const std::function<bool()>& done) {
    for (int i = 0; i < 60 && !done(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    return done();
  };
  write_mb(4);
  EXPECT_TRUE(wait_for([&] { return std::filesystem::file_size(file) > 3'000'000; }))
      << "the database file holds " << std::filesystem::file_size(file) << " bytes: nothing was checkpointed";

  write_mb(20);
  ASSERT_GT(std::filesystem::file_size(wal), 16u << 20);
  // After a pause every frame has been copied back: new writes reuse the
  // file from its start, so it does not grow. The checkpointer copies in
  // the background; on a loaded machine one pause may not be enough, so a
  // few are allowed (the file never shrinks, so each try compares with
  // its own start).
  bool reused = false;
  for (int pause = 0; pause < 8 && !reused; ++pause) {
    std::this_thread::sleep_for(std::chrono::milliseconds(600));
    const auto before = std::filesystem::file_size(wal);
    write_mb(2);
    reused = std::filesystem::file_size(wal) <= before;
  }
  EXPECT_TRUE(reused) << "the WAL grew after every pause: it was never copied back while the store was open";
}

// Writes without pauses never leave the WAL fully copied back, so it never
// restarts by itself; past the bound the checkpointer restarts it. A restart
// shows in the WAL header's checkpoint sequence number (bytes 12-15).
TEST_P(StorageTest, SqliteRestartsTheWalUnderWritesWithoutPauses) {
  if (postgres()) GTEST_SKIP() << "SQLite only";
  auto checkpoint_sequence = [&] {
    std::ifstream in(dir_ / "test.db-wal", std::ios::binary);
    unsigned char header[16] = {};
    in.read(reinterpret_cast<char*>(header), sizeof header);
    return (uint32_t{header[12]} << 24) | (uint32_t{header[13]} << 16) | (uint32_t{header[14]} << 8) | header[15];
  };
  const std::string body(4000, 'x');
  auto write_without_pauses = [&](Database& db, std::chrono::milliseconds how_long) {
    const auto until = std::chrono::steady_clock::now() + how_long;
    while (std::chrono::steady_clock::now() < until) {
      Session session(db, TxMode::kWrite);
      for (int i = 0; i < 4; ++i) session.Run(kInsertBlob, {body});
      session.Commit();
    }
  };
  DatabaseOptions options;
  options.sqlite_wal_restart_bytes = 2 << 20;
  Database& db = Open(options);
  {
    Session session(db);
    session.connection().ExecuteScript("CREATE TABLE blobs (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  }
  const uint32_t before = checkpoint_sequence();
  write_without_pauses(db, std::chrono::milliseconds(1500));
  EXPECT_GT(checkpoint_sequence(), before) << "the WAL was never restarted";
}

// --- Migrations ---

constexpr std::string_view kNotesTable = "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)";
constexpr std::string_view kFirstNote = "INSERT INTO notes (id, body) VALUES (1, 'first')";
constexpr std::string_view kNotesColumn = "ALTER TABLE notes ADD COLUMN author TEXT";
constexpr GlobalQuery kNoteBodies{"test.note_bodies", "SELECT body, author FROM notes ORDER BY id"};

std::vector<std::pair<int64_t, std::string>> Recorded(Database& db) {
  Session session(db);
  std::vector<std::pair<int64_t, std::string>> out;
  for (const Row row : session.Run(kMigrations)) out.emplace_back(row.Int(0), row.Text(1));
  return out;
}

TEST_P(StorageTest, MigrationsApplyInOrderOnce) {
  Database& db = Open();
  // Each migration needs the one before it.
  const std::vector<Migration> migrations = {
      {1, "notes", kNotesTable, ""},
      {2, "first_note", kFirstNote, ""},
      {5, "note_author", kNotesColumn, ""},
  };
  EXPECT_EQ(ApplyMigrations(db, migrations), 3);
  EXPECT_EQ(Recorded(db),
            (std::vector<std::pair<int64_t, std::string>>{{1, "notes"}, {2, "first_note"}, {5, "note_author"}}));
  {
    Session session(db);
    Rows notes = session.Run(kNoteBodies);
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_EQ(notes.front().Text(0), "first");
    EXPECT_TRUE(notes.front().IsNull(1));
  }

  EXPECT_EQ(ApplyMigrations(db, migrations), 0);
  EXPECT_EQ(Recorded(db).size(), 3u);

  // A later binary brings one more.
  std::vector<Migration> more = migrations;
  more.push_back({6, "second_note", "INSERT INTO notes (id, body, author) VALUES (2, 'second', 'me')", ""});
  EXPECT_EQ(ApplyMigrations(db, more), 1);
  EXPECT_EQ(ApplyMigrations(db, more), 0);
  Session session(db);
  EXPECT_EQ(session.Run(kNoteBodies).size(), 2u);
}

TEST_P(StorageTest, MigrationsRejectVersionsThatDoNotIncrease) {
  Database& db = Open();
  const std::vector<Migration> decreasing = {{2, "two", kNotesTable, ""}, {1, "one", kFirstNote, ""}};
  const std::vector<Migration> repeated = {{1, "one", kNotesTable, ""}, {1, "again", kFirstNote, ""}};
  EXPECT_THROW(ApplyMigrations(db, decreasing), std::logic_error);
  EXPECT_THROW(ApplyMigrations(db, repeated), std::logic_error);
  // Rejected before anything ran.
  Session session(db);
  EXPECT_NE(ErrorKindOf([&] { session.Run(kNoteBodies); }), std::nullopt);
}

TEST_P(StorageTest, MigrationsRefuseADatabaseNewerThanTheBinary) {
  Database& db = Open();
  const std::vector<Migration> newer = {{1, "notes", kNotesTable, ""}, {2, "first_note", kFirstNote, ""}};
  const std::vector<Migration> older = {{1, "notes", kNotesTable, ""}};
  EXPECT_EQ(ApplyMigrations(db, newer), 2);
  EXPECT_THROW(ApplyMigrations(db, older), std::logic_error);
  // The refusal left the database as it was, and the lock (PostgreSQL) free.
  EXPECT_EQ(ApplyMigrations(db, newer), 0);
}

// A module that gains a migration numbered below another module's newest
// one (identity 102 after kb 200 exists) still gets it on an existing
// database.
TEST_P(StorageTest, MigrationsApplyAMissingLowerVersion) {
  Database& db = Open();
  const std::vector<Migration> before = {{1, "notes", kNotesTable, ""}, {5, "first_note", kFirstNote, ""}};
  EXPECT_EQ(ApplyMigrations(db, before), 2);
  const std::vector<Migration> after = {{1, "notes", kNotesTable, ""},
                                        {2, "second_note", "INSERT INTO notes (id, body) VALUES (2, 'two')", ""},
                                        {5, "first_note", kFirstNote, ""}};
  EXPECT_EQ(ApplyMigrations(db, after), 1);
  EXPECT_EQ(ApplyMigrations(db, after), 0);
  constexpr GlobalQuery kCount{"test.count_notes_after", "SELECT COUNT(*) FROM notes"};
  Session session(db);
  EXPECT_EQ(session.Run(kCount).front().Int(0), 2);
}

TEST_P(StorageTest, MigrationsUseThePostgresScriptOnPostgres) {
  Database& db = Open();
  const std::vector<Migration> migrations = {
      {1, "dialect", "CREATE TABLE d (id INTEGER, v TEXT); INSERT INTO d (id, v) VALUES (1, 'sqlite')",
       "CREATE TABLE d (id INTEGER, v TEXT); INSERT INTO d (id, v) VALUES (1, 'postgres')"},
      // An empty postgres script means the SQLite one serves both.
      {2, "shared", "INSERT INTO d (id, v) VALUES (2, 'shared')", ""},
  };
  EXPECT_EQ(ApplyMigrations(db, migrations), 2);
  constexpr GlobalQuery kValues{"test.d_values", "SELECT v FROM d ORDER BY id"};
  Session session(db);
  Rows rows = session.Run(kValues);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].Text(0), GetParam());
  EXPECT_EQ(rows[1].Text(0), "shared");
}

TEST_P(StorageTest, FailedMigrationRollsBackAndStops) {
  Database& db = Open();
  const std::vector<Migration> migrations = {
      {1, "notes", kNotesTable, ""},
      {2, "broken", "CREATE TABLE half (x INTEGER); INSERT INTO nowhere (x) VALUES (1)", ""},
      {3, "never", kFirstNote, ""},
  };
  EXPECT_THROW(ApplyMigrations(db, migrations), StorageError);
  EXPECT_EQ(Recorded(db), (std::vector<std::pair<int64_t, std::string>>{{1, "notes"}}));
  constexpr GlobalQuery kHalf{"test.half", "SELECT x FROM half"};
  Session session(db);
  EXPECT_NE(ErrorKindOf([&] { session.Run(kHalf); }), std::nullopt);  // its CREATE TABLE was rolled back
  constexpr GlobalQuery kNotes{"test.notes", "SELECT body FROM notes"};
  EXPECT_TRUE(session.Run(kNotes).empty());
}

// --- Concurrency ---

// A hung or exhausted store must not hang every request: once all
// connections are leased, the next Acquire gives up after the timeout.
TEST_P(StorageTest, ExhaustedPoolTimesOutInsteadOfHanging) {
  DatabaseOptions options;
  options.pool_size = 2;
  options.acquire_timeout_ms = 100;
  Database& db = Open(options);
  auto first = db.Acquire();
  auto second = db.Acquire();
  const auto start = std::chrono::steady_clock::now();
  try {
    auto third = db.Acquire();
    FAIL() << "a third connection was handed out from a pool of two";
  } catch (const StorageError& e) {
    EXPECT_EQ(e.kind(), StorageError::Kind::kUnavailable);
  }
  const auto waited = std::chrono::steady_clock::now() - start;
  EXPECT_GE(waited, std::chrono::milliseconds(90));
  EXPECT_LT(waited, std::chrono::seconds(2));
  EXPECT_FALSE(db.Ping());  // health checks answer instead of hanging
  { auto released = std::move(second); }
  EXPECT_TRUE(db.Ping());
}

TEST_P(StorageTest, ConcurrentWriteTransactions) {
  constexpr int kThreads = 4;
  constexpr int kTransactionsPerThread = 200;
  Database& db = OpenWithSchema({.pool_size = kThreads});

  std::mutex mu;
  std::vector<std::string> failures;  // guarded by mu
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kTransactionsPerThread; ++i) {
        try {
          Session session(db, TxMode::kWrite);
          session.Run(kIncrement);
          session.Commit();
        } catch (const std::exception& e) {
          std::lock_guard lock(mu);
          failures.push_back(e.what());
        }
      }
    });
  }
  for (std::thread& thread : threads) thread.join();

  EXPECT_TRUE(failures.empty()) << failures.size() << " failed, first: " << failures.front();
  Session session(db);
  EXPECT_EQ(session.Run(kCounter).front().Int(0), kThreads * kTransactionsPerThread);
}

INSTANTIATE_TEST_SUITE_P(Backends, StorageTest, ::testing::Values("sqlite", "postgres"),
                         [](const ::testing::TestParamInfo<std::string>& backend) { return backend.param; });

// --- PostgreSQL only: the pool and connection handling of the libpq backend ---

TEST(PostgresOpenTest, UnreachableServerFailsAtOpenWithoutLeakingThePassword) {
  try {
    OpenPostgres("postgresql://someone:hunter2@127.0.0.1:1/nothing?connect_timeout=5", {});
    FAIL() << "OpenPostgres succeeded";
  } catch (const StorageError& e) {
    EXPECT_EQ(e.kind(), Kind::kUnavailable);
    EXPECT_EQ(std::string(e.what()).find("hunter2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("127.0.0.1"), std::string::npos) << e.what();
  }
}

class PostgresTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::optional<std::string> server = test::PgServerUrlFromEnv();
    if (!server) GTEST_SKIP() << "CREDENCE_TEST_PG_URL is not set (see scripts/pg-test-server)";
    pg_ = std::make_unique<test::PgTestDatabase>(*server);
  }
  void TearDown() override { pg_.reset(); }

  std::unique_ptr<test::PgTestDatabase> pg_;
};

TEST_F(PostgresTest, DescribeHidesThePassword) {
  // The test server trusts every local connection, so any password works.
  std::string url = pg_->url();
  url.insert(url.find('@'), ":s3cret");
  url += "?application_name=credence_test&password=s3cret";
  auto db = OpenPostgres(url, {});
  EXPECT_TRUE(db->Ping());
  const std::string described = db->Describe();
  EXPECT_EQ(described.find("s3cret"), std::string::npos) << described;
  EXPECT_NE(described.find(pg_->name()), std::string::npos) << described;
  EXPECT_NE(described.find("application_name=credence_test"), std::string::npos) << described;
}

TEST_F(PostgresTest, BrokenConnectionIsDroppedFromThePool) {
  auto db = OpenPostgres(pg_->url(), {.pool_size = 2});
  {
    auto victim = db->Acquire();
    const Param pid[] = {victim->Execute("pid", "SELECT pg_backend_pid()", {}).front().Int(0)};
    {
      auto killer = db->Acquire();
      // Waits (up to 5 s) until the backend is gone.
      EXPECT_TRUE(killer->Execute("kill", "SELECT pg_terminate_backend($1, 5000)", pid).front().Bool(0));
    }
    EXPECT_EQ(ErrorKindOf([&] { victim->Execute("after", "SELECT 1", {}); }), Kind::kUnavailable);
    EXPECT_FALSE(victim->healthy());
    victim->Rollback();  // must not throw on a broken connection
  }
  // Both slots work again: the broken connection gave its slot back.
  auto first = db->Acquire();
  auto second = db->Acquire();
  EXPECT_EQ(first->Execute("one", "SELECT 1", {}).front().Int(0), 1);
  EXPECT_EQ(second->Execute("one", "SELECT 1", {}).front().Int(0), 1);
}

TEST_F(PostgresTest, CommitAfterAFailedStatementThrows) {
  // PostgreSQL aborts the whole transaction on an error and answers COMMIT
  // with ROLLBACK; the backend must not report that as a successful commit.
  auto db = OpenPostgres(pg_->url(), {.pool_size = 1});
  {
    Session session(*db);
    session.connection().ExecuteScript("CREATE TABLE t (id TEXT PRIMARY KEY)");
  }
  constexpr GlobalQuery kInsert{"t.insert", "INSERT INTO t (id) VALUES ($1)"};
  constexpr GlobalQuery kCount{"t.count", "SELECT COUNT(*) FROM t"};
  {
    Session session(*db, TxMode::kWrite);
    session.Run(kInsert, {"x"});
    EXPECT_EQ(ErrorKindOf([&] { session.Run(kInsert, {"x"}); }), Kind::kUniqueViolation);
    EXPECT_EQ(ErrorKindOf([&] { session.Commit(); }), Kind::kOther);
  }
  Session session(*db);
  EXPECT_EQ(session.Run(kCount).front().Int(0), 0);
}

TEST_F(PostgresTest, TransactionLeftOpenIsRolledBackOnRelease) {
  auto db = OpenPostgres(pg_->url(), {.pool_size = 1});
  int64_t pid = 0;
  {
    auto conn = db->Acquire();
    pid = conn->Execute("pid", "SELECT pg_backend_pid()", {}).front().Int(0);
    conn->ExecuteScript("CREATE TABLE t (id TEXT)");
    conn->Begin(TxMode::kWrite);
    conn->ExecuteScript("INSERT INTO t VALUES ('x')");
  }  // returned to the pool inside the transaction
  auto conn = db->Acquire();
  // The same connection, rolled back and reused rather than replaced.
  EXPECT_EQ(conn->Execute("pid", "SELECT pg_backend_pid()", {}).front().Int(0), pid);
  EXPECT_EQ(conn->Execute("count", "SELECT COUNT(*) FROM t", {}).front().Int(0), 0);
  conn->ExecuteScript("INSERT INTO t VALUES ('y')");  // autocommit again
  EXPECT_EQ(conn->Execute("count", "SELECT COUNT(*) FROM t", {}).front().Int(0), 1);
}

TEST_F(PostgresTest, ExtraParametersAreIgnoredLikeOnSqlite) {
  auto db = OpenPostgres(pg_->url(), {});
  auto conn = db->Acquire();
  const Param params[] = {int64_t{41}, "unused"};
  EXPECT_EQ(conn->Execute("plus_one", "SELECT $1::BIGINT + 1", params).front().Int(0), 42);
}

}  // namespace
}  // namespace credence::storage
