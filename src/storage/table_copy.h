#pragma once
// Copying tables from a SQLite database into a PostgreSQL database of the
// same schema, as `credence admin migrate-database` does (app/
// migrate_database.h, docs/migrate-database.md). Generic: nothing here knows
// which tables exist or what they mean. Which tables to copy, and how to
// fill one whose shape differs between the backends, is the caller's.
//
// The PostgreSQL functions run on one connection, normally inside the
// caller's transaction; they throw StorageError like Connection::Execute.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "storage/database.h"
#include "storage/sqlite/sqlite_database.h"

namespace credence::storage {

// --- What is there ---

struct SqliteTable {
  // kVirtual: CREATE VIRTUAL TABLE (FTS5, ...); kShadow: the tables a
  // virtual table keeps its own data in (FTS5's _data, _idx, _content, ...).
  enum class Kind { kTable, kVirtual, kShadow };
  std::string name;
  Kind kind = Kind::kTable;
  std::vector<std::string> columns;  // in declaration order; generated columns left out
};
// Every table of the main schema except SQLite's own (sqlite_*), by name.
std::vector<SqliteTable> ListSqliteTables(Connection& sqlite);

struct PostgresColumn {
  std::string name;
  std::string type;  // format_type: "bigint", "text", "boolean", "bytea", "jsonb", "double precision", ...
  // GENERATED ALWAYS AS (...) STORED: computed by the server, never written.
  bool generated = false;
  // The sequence behind a serial or identity column (schema-qualified), or "".
  std::string sequence;
};
struct PostgresTable {
  std::string name;
  std::vector<PostgresColumn> columns;  // in declaration order
};
// Every ordinary table of the current schema (partitions left out), by name.
std::vector<PostgresTable> ListPostgresTables(Connection& pg);

// --- Values ---

// How a SQLite value is written for a PostgreSQL column, from its type.
enum class CopyKind { kInteger, kFloat, kBoolean, kBytea, kText };
CopyKind CopyKindOf(std::string_view postgres_type);

// Appends `v` as one field of COPY's text format for a column of `kind`:
// NULL as \N; integers and reals as decimal text (a real with a fraction is
// refused for an integer column); 0/1 as f/t for booleans; bytes as \x hex
// for bytea; text escaped. Throws std::invalid_argument for a value the
// column cannot hold (a blob for an integer, 1.5 for a bigint).
void AppendCopyValue(std::string& out, const SqliteValue& v, CopyKind kind);

// --- Copying ---

// Streams the rows `select_sql` reads on `sqlite` into `table` on `pg` with
// COPY FROM STDIN; the select's columns are, in order, the values of
// `columns`. Returns the rows the server stored. Throws StorageError (the
// message names the table), and std::invalid_argument for a value that
// cannot be converted (naming table and column).
int64_t CopyRows(Connection& sqlite, std::string_view select_sql, Connection& pg, std::string_view table,
                 std::span<const PostgresColumn> columns);

// `SELECT count(*)` of a table, on either backend.
int64_t CountRows(Connection& conn, std::string_view table);
// Whether a table has at least one row, on either backend.
bool HasRows(Connection& conn, std::string_view table);

// --- PostgreSQL: what a bulk load sets aside ---

struct ForeignKey {
  std::string table, name;
  std::string definition;  // pg_get_constraintdef: "FOREIGN KEY (a, b) REFERENCES t(a, b) ON DELETE CASCADE"
};
// Every foreign key of the current schema's tables.
std::vector<ForeignKey> ListForeignKeys(Connection& pg);
void DropForeignKeys(Connection& pg, std::span<const ForeignKey> keys);
// Adds them back; each is checked against every row then (a violation
// throws kForeignKeyViolation).
void AddForeignKeys(Connection& pg, std::span<const ForeignKey> keys);

// An index of the current schema's tables: a primary key, unique or
// exclusion constraint (re-made with ALTER TABLE ... ADD CONSTRAINT), or a
// plain index (its CREATE INDEX statement).
struct Index {
  std::string table, name;  // name: the constraint's, or the index's
  std::string definition;   // pg_get_constraintdef, or pg_get_indexdef
  bool constraint = false;
};
std::vector<Index> ListIndexes(Connection& pg);
// Dropped before a bulk load and made again after it, each index is built
// once from sorted rows instead of being updated row by row. Foreign keys
// that rely on a unique index must be dropped first and added back after.
void DropIndexes(Connection& pg, std::span<const Index> indexes);
void CreateIndexes(Connection& pg, std::span<const Index> indexes);

// ALTER TABLE ... ENABLE / DISABLE TRIGGER USER: the triggers the schema
// defined, not the ones PostgreSQL keeps foreign keys with.
void SetUserTriggersEnabled(Connection& pg, std::span<const std::string> tables, bool enabled);

// Moves the sequence of each serial or identity column of `table` past the
// largest value in it, so the next row the server numbers does not collide
// with a copied one.
void ResetSequences(Connection& pg, const PostgresTable& table);

}  // namespace credence::storage
