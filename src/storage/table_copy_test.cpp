// storage/table_copy: the value conversions, and a SQLite table copied
// into PostgreSQL through COPY with the values that need escaping or
// converting (tabs, backslashes, newlines, NUL bytes, booleans, reals,
// bytea, JSON), a generated column, a serial column's sequence, foreign
// keys and indexes set aside and made again, and how SQLite's virtual and
// shadow tables are told apart. The PostgreSQL part needs
// CREDENCE_TEST_PG_URL.
#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "storage/database.h"
#include "storage/postgres/postgres_database.h"
#include "storage/table_copy.h"
#include "support/pg_test_database.h"

namespace credence::storage {
namespace {

using Type = SqliteValue::Type;

std::string Field(SqliteValue v, CopyKind kind) {
  std::string out;
  AppendCopyValue(out, v, kind);
  return out;
}

SqliteValue Int(int64_t n) { return {Type::kInteger, n, 0, {}}; }
SqliteValue Real(double d) { return {Type::kReal, 0, d, {}}; }
SqliteValue Text(std::string_view s) { return {Type::kText, 0, 0, s}; }
SqliteValue Blob(std::string_view s) { return {Type::kBlob, 0, 0, s}; }

TEST(TableCopy, ValuesBecomeCopyTextFieldsOfTheTargetType) {
  EXPECT_EQ(CopyKindOf("bigint"), CopyKind::kInteger);
  EXPECT_EQ(CopyKindOf("double precision"), CopyKind::kFloat);
  EXPECT_EQ(CopyKindOf("numeric(10,2)"), CopyKind::kFloat);
  EXPECT_EQ(CopyKindOf("boolean"), CopyKind::kBoolean);
  EXPECT_EQ(CopyKindOf("bytea"), CopyKind::kBytea);
  EXPECT_EQ(CopyKindOf("jsonb"), CopyKind::kText);
  EXPECT_EQ(CopyKindOf("tsvector"), CopyKind::kText);

  EXPECT_EQ(Field({}, CopyKind::kText), "\\N");
  EXPECT_EQ(Field({}, CopyKind::kInteger), "\\N");
  EXPECT_EQ(Field(Int(-9223372036854775807 - 1), CopyKind::kInteger), "-9223372036854775808");
  EXPECT_EQ(Field(Real(3.0), CopyKind::kInteger), "3");
  EXPECT_THROW(Field(Real(1.5), CopyKind::kInteger), std::invalid_argument);
  EXPECT_THROW(Field(Blob("x"), CopyKind::kInteger), std::invalid_argument);
  EXPECT_EQ(Field(Text("12"), CopyKind::kInteger), "12");  // the server parses (or refuses) it
  EXPECT_EQ(Field(Real(0.1), CopyKind::kFloat), "0.10000000000000001");
  EXPECT_EQ(Field(Real(NAN), CopyKind::kFloat), "NaN");
  EXPECT_EQ(Field(Real(-INFINITY), CopyKind::kFloat), "-Infinity");
  EXPECT_EQ(Field(Int(0), CopyKind::kBoolean), "f");
  EXPECT_EQ(Field(Int(1), CopyKind::kBoolean), "t");
  EXPECT_EQ(Field(Blob(std::string("\0\xff", 2)), CopyKind::kBytea), "\\\\x00ff");
  EXPECT_EQ(Field(Text("ab"), CopyKind::kBytea), "\\\\x6162");
  EXPECT_EQ(Field(Text("a\tb\\c\nd\re"), CopyKind::kText), "a\\tb\\\\c\\nd\\re");
  EXPECT_EQ(Field(Int(7), CopyKind::kText), "7");
  EXPECT_EQ(Field(Real(2.5), CopyKind::kText), "2.5");
}

class TableCopyPg : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto server = test::PgServerUrlFromEnv();
    if (!server) GTEST_SKIP() << "CREDENCE_TEST_PG_URL is not set (see scripts/pg-test-server)";
    pg_store_ = std::make_unique<test::PgTestDatabase>(*server);
    pg_ = OpenDatabase(pg_store_->url(), {});
    sqlite_ = std::make_unique<test::ScratchStore>("sqlite", "table-copy");
    lite_ = OpenDatabase(sqlite_->url(), {});
  }
  std::unique_ptr<test::PgTestDatabase> pg_store_;
  std::unique_ptr<test::ScratchStore> sqlite_;
  std::unique_ptr<Database> pg_, lite_;
};

TEST_F(TableCopyPg, CopiesEveryKindOfValueAndSetsAsideWhatABulkLoadMust) {
  auto from = lite_->Acquire();
  from->ExecuteScript(
      "CREATE TABLE parents (id TEXT PRIMARY KEY);"
      "CREATE TABLE items (id INTEGER, parent TEXT, name TEXT, flag INTEGER, score REAL, data BLOB, doc TEXT,"
      " only_here TEXT);"
      "CREATE VIRTUAL TABLE search USING fts5(body);"
      "INSERT INTO parents VALUES ('p1');"
      "INSERT INTO items VALUES (1, 'p1', 'a' || char(9) || 'b\\c' || char(10) || 'd' || char(13) || 'é', 1, 0.1,"
      " x'00ff10', '{\"k\": [1, \"x\"]}', 'z');"
      "INSERT INTO items VALUES (2, 'p1', '', 0, -2, NULL, 'null', NULL);"
      "INSERT INTO items VALUES (3, 'p1', NULL, NULL, NULL, x'', NULL, NULL);");

  const auto lite_tables = ListSqliteTables(*from);
  std::map<std::string, SqliteTable::Kind> kinds;
  for (const auto& t : lite_tables) kinds[t.name] = t.kind;
  EXPECT_EQ(kinds["items"], SqliteTable::Kind::kTable);
  EXPECT_EQ(kinds["search"], SqliteTable::Kind::kVirtual);
  EXPECT_EQ(kinds["search_data"], SqliteTable::Kind::kShadow);
  EXPECT_EQ(kinds["search_content"], SqliteTable::Kind::kShadow);
  for (const auto& t : lite_tables)
    if (t.name == "items") {
      EXPECT_EQ(t.columns,
                (std::vector<std::string>{"id", "parent", "name", "flag", "score", "data", "doc", "only_here"}));
    }

  auto to = pg_->Acquire();
  to->ExecuteScript(
      "CREATE TABLE parents (id TEXT PRIMARY KEY);"
      "CREATE TABLE items (id BIGINT PRIMARY KEY, parent TEXT REFERENCES parents (id) ON DELETE CASCADE,"
      " name TEXT, flag BOOLEAN, score DOUBLE PRECISION, data BYTEA, doc JSONB,"
      " twice BIGINT GENERATED ALWAYS AS (id * 2) STORED, n BIGSERIAL);"
      "CREATE UNIQUE INDEX items_name ON items (name) WHERE name <> '';"
      "CREATE INDEX items_parent ON items (parent, score DESC);"
      "CREATE FUNCTION no_inserts() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
      " RAISE EXCEPTION 'the trigger ran'; END $$;"
      "CREATE TRIGGER items_guard BEFORE INSERT ON items FOR EACH ROW EXECUTE FUNCTION no_inserts();");
  const auto tables = ListPostgresTables(*to);
  ASSERT_EQ(tables.size(), 2u);
  const PostgresTable& items = tables[0];
  ASSERT_EQ(items.name, "items");
  std::vector<PostgresColumn> written;
  for (const auto& c : items.columns) {
    if (c.name == "twice") {
      EXPECT_TRUE(c.generated);
    }
    if (c.name == "n") {
      EXPECT_EQ(c.sequence, "public.items_n_seq");
    }
    if (c.name == "id") {
      EXPECT_EQ(c.type, "bigint");
    }
    if (!c.generated && c.name != "n") written.push_back(c);
  }
  ASSERT_EQ(written.size(), 7u);

  to->Begin(TxMode::kWrite);
  const auto keys = ListForeignKeys(*to);
  ASSERT_EQ(keys.size(), 1u);
  EXPECT_EQ(keys[0].table, "items");
  EXPECT_EQ(keys[0].definition, "FOREIGN KEY (parent) REFERENCES parents(id) ON DELETE CASCADE");
  DropForeignKeys(*to, keys);
  // The indexes go too (the foreign key that needs parents' key is gone).
  const auto indexes = ListIndexes(*to);
  std::map<std::string, Index> by_name;
  for (const auto& x : indexes) by_name[x.name] = x;
  ASSERT_EQ(by_name.size(), 4u);
  EXPECT_TRUE(by_name["items_pkey"].constraint);
  EXPECT_EQ(by_name["items_pkey"].definition, "PRIMARY KEY (id)");
  EXPECT_TRUE(by_name["parents_pkey"].constraint);
  EXPECT_FALSE(by_name["items_name"].constraint);
  EXPECT_EQ(by_name["items_name"].definition,
            "CREATE UNIQUE INDEX items_name ON public.items USING btree (name) WHERE (name <> ''::text)");
  EXPECT_EQ(by_name["items_parent"].definition,
            "CREATE INDEX items_parent ON public.items USING btree (parent, score DESC)");
  DropIndexes(*to, indexes);
  EXPECT_TRUE(ListIndexes(*to).empty());
  const std::vector<std::string> names = {"parents", "items"};
  SetUserTriggersEnabled(*to, names, false);
  // The child first: no foreign key is in the way.
  EXPECT_EQ(CopyRows(*from, "SELECT id, parent, name, flag, score, data, doc FROM items", *to, "items", written), 3);
  EXPECT_EQ(
      CopyRows(*from, "SELECT id FROM parents", *to, "parents", std::vector<PostgresColumn>{tables[1].columns[0]}), 1);
  SetUserTriggersEnabled(*to, names, true);
  CreateIndexes(*to, indexes);
  AddForeignKeys(*to, keys);
  ResetSequences(*to, items);
  to->Commit();
  {
    const auto made = ListIndexes(*to);
    ASSERT_EQ(made.size(), indexes.size());
    for (size_t i = 0; i < made.size(); ++i) {
      EXPECT_EQ(made[i].name, indexes[i].name);
      EXPECT_EQ(made[i].definition, indexes[i].definition);
    }
  }
  EXPECT_EQ(CountRows(*to, "items"), 3);
  EXPECT_EQ(CountRows(*from, "items"), 3);
  EXPECT_TRUE(HasRows(*to, "parents"));

  const auto rows = to->Execute("test.read",
                                "SELECT id, name, flag, score, encode(data, 'hex'), doc::text, twice, n"
                                " FROM items ORDER BY id",
                                {});
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].Text(1), "a\tb\\c\nd\r\xc3\xa9");
  EXPECT_EQ(rows[0].Text(2), "t");
  EXPECT_EQ(rows[0].Real(3), 0.1);
  EXPECT_EQ(rows[0].Text(4), "00ff10");
  EXPECT_EQ(rows[0].Text(5), "{\"k\": [1, \"x\"]}");
  EXPECT_EQ(rows[0].Int(6), 2);
  EXPECT_EQ(rows[1].Text(1), "");
  EXPECT_FALSE(rows[1].IsNull(1));
  EXPECT_EQ(rows[1].Text(2), "f");
  EXPECT_EQ(rows[1].Real(3), -2);
  EXPECT_TRUE(rows[1].IsNull(4));
  EXPECT_EQ(rows[1].Text(5), "null");  // JSON null, not SQL NULL
  EXPECT_TRUE(rows[2].IsNull(1));
  EXPECT_TRUE(rows[2].IsNull(2));
  EXPECT_EQ(rows[2].Text(4), "");
  EXPECT_TRUE(rows[2].IsNull(5));
  // n was numbered by its sequence during the copy (1..3), and the sequence
  // stands at the largest value: the next row gets 4.
  const auto seq = to->Execute("test.seq", "SELECT last_value, is_called FROM items_n_seq", {});
  EXPECT_EQ(seq.front().Int(0), 3);
  EXPECT_EQ(seq.front().Text(1), "t");
  // The trigger is back.
  EXPECT_THROW(to->ExecuteScript("INSERT INTO items (id, parent) VALUES (4, 'p1')"), StorageError);
  to->ExecuteScript("DROP TRIGGER items_guard ON items");
  to->ExecuteScript("INSERT INTO items (id, parent) VALUES (4, 'p1')");

  // A foreign key added back is checked against every row.
  to->Begin(TxMode::kWrite);
  DropForeignKeys(*to, keys);
  to->ExecuteScript("INSERT INTO items (id, parent) VALUES (5, 'nobody')");
  try {
    AddForeignKeys(*to, keys);
    ADD_FAILURE() << "an orphan row passed the foreign key";
  } catch (const StorageError& e) {
    EXPECT_EQ(e.kind(), StorageError::Kind::kForeignKeyViolation) << e.what();
  }
  to->Rollback();
  EXPECT_EQ(ListForeignKeys(*to).size(), 1u);

  // A unique index made again over a duplicate fails.
  to->Begin(TxMode::kWrite);
  DropForeignKeys(*to, keys);
  DropIndexes(*to, indexes);
  to->ExecuteScript("INSERT INTO items (id, parent) VALUES (4, 'p1')");
  EXPECT_THROW(CreateIndexes(*to, indexes), StorageError);
  to->Rollback();

  // A value the column's type refuses fails the copy, naming the table.
  to->Begin(TxMode::kWrite);
  from->ExecuteScript("CREATE TABLE bad (id INTEGER); INSERT INTO bad VALUES ('not a number')");
  to->ExecuteScript("CREATE TABLE bad (id BIGINT)");
  try {
    CopyRows(*from, "SELECT id FROM bad", *to, "bad", std::vector<PostgresColumn>{{"id", "bigint", false, ""}});
    ADD_FAILURE() << "the copy took a text in a bigint column";
  } catch (const StorageError& e) {
    EXPECT_NE(std::string(e.what()).find("copying bad"), std::string::npos) << e.what();
  }
  to->Rollback();
  // The connection is usable again.
  EXPECT_EQ(CountRows(*to, "items"), 4);
}

}  // namespace
}  // namespace credence::storage
