#include "storage/table_copy.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "storage/postgres/postgres_database.h"

namespace credence::storage {
namespace {

// Statements built from catalog names run through Execute like the
// query constants do; the connection's statement cache copies their text.
Rows Query(Connection& conn, std::string_view name, const std::string& sql, std::span<const Param> params = {}) {
  return conn.Execute(name, sql, params);
}

void AppendInt(std::string& out, int64_t n) {
  char buffer[24];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, n).ptr;
  out.append(buffer, static_cast<size_t>(end - buffer));
}

void AppendReal(std::string& out, double d) {
  if (std::isnan(d)) {
    out += "NaN";
  } else if (std::isinf(d)) {
    out += d > 0 ? "Infinity" : "-Infinity";
  } else {
    char buffer[32];
    const int n = std::snprintf(buffer, sizeof buffer, "%.17g", d);  // round-trips every double
    out.append(buffer, static_cast<size_t>(n));
  }
}

}  // namespace

std::vector<SqliteTable> ListSqliteTables(Connection& sqlite) {
  // pragma_table_list (SQLite 3.37) tells virtual tables and their shadow
  // tables apart from ordinary ones.
  static constexpr std::string_view kTables =
      "SELECT name, type FROM pragma_table_list WHERE schema = 'main' AND type IN ('table', 'virtual', 'shadow')"
      " AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name";
  static constexpr std::string_view kColumns = "SELECT name FROM pragma_table_info($1) ORDER BY cid";
  std::vector<SqliteTable> out;
  for (const auto& row : sqlite.Execute("copy.sqlite_tables", kTables, {})) {
    SqliteTable t;
    t.name = row.Text(0);
    const std::string type = row.Text(1);
    t.kind = type == "virtual"  ? SqliteTable::Kind::kVirtual
             : type == "shadow" ? SqliteTable::Kind::kShadow
                                : SqliteTable::Kind::kTable;
    const Param params[] = {t.name};
    for (const auto& c : sqlite.Execute("copy.sqlite_columns", kColumns, params)) t.columns.push_back(c.Text(0));
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<PostgresTable> ListPostgresTables(Connection& pg) {
  static constexpr std::string_view kColumns =
      "SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attgenerated <> '',"
      " COALESCE(pg_get_serial_sequence(quote_ident(n.nspname) || '.' || quote_ident(c.relname), a.attname), '')"
      " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
      " JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped"
      " WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition"
      " ORDER BY c.relname, a.attnum";
  std::vector<PostgresTable> out;
  for (const auto& row : pg.Execute("copy.postgres_columns", kColumns, {})) {
    const std::string table = row.Text(0);
    if (out.empty() || out.back().name != table) out.push_back(PostgresTable{table, {}});
    out.back().columns.push_back(PostgresColumn{row.Text(1), row.Text(2), row.Text(3) == "t", row.Text(4)});
  }
  return out;
}

CopyKind CopyKindOf(std::string_view type) {
  if (type == "bigint" || type == "integer" || type == "smallint") return CopyKind::kInteger;
  if (type == "double precision" || type == "real" || type.starts_with("numeric")) return CopyKind::kFloat;
  if (type == "boolean") return CopyKind::kBoolean;
  if (type == "bytea") return CopyKind::kBytea;
  // text, character varying, json, jsonb, uuid, timestamps...: the server
  // parses the text.
  return CopyKind::kText;
}

void AppendCopyValue(std::string& out, const SqliteValue& v, CopyKind kind) {
  using Type = SqliteValue::Type;
  if (v.type == Type::kNull) {
    out += "\\N";
    return;
  }
  switch (kind) {
    case CopyKind::kInteger:
      if (v.type == Type::kInteger) return AppendInt(out, v.integer);
      if (v.type == Type::kReal) {
        // SQLite keeps 3.0 in a BIGINT column as a real when it was bound as one.
        if (std::isfinite(v.real) && v.real == std::trunc(v.real) && std::fabs(v.real) < 9.2e18)
          return AppendInt(out, static_cast<int64_t>(v.real));
        throw std::invalid_argument("the real value " + std::to_string(v.real) + " in an integer column");
      }
      if (v.type == Type::kBlob) throw std::invalid_argument("a blob in an integer column");
      return AppendCopyText(out, v.bytes);  // text: the server parses it, or refuses it naming the column
    case CopyKind::kFloat:
      if (v.type == Type::kInteger) return AppendInt(out, v.integer);
      if (v.type == Type::kReal) return AppendReal(out, v.real);
      if (v.type == Type::kBlob) throw std::invalid_argument("a blob in a numeric column");
      return AppendCopyText(out, v.bytes);
    case CopyKind::kBoolean:
      // Booleans are 0/1 on SQLite (docs/architecture.md, "The two backends").
      if (v.type == Type::kInteger) {
        out += v.integer != 0 ? 't' : 'f';
        return;
      }
      if (v.type == Type::kReal) {
        out += v.real != 0 ? 't' : 'f';
        return;
      }
      if (v.type == Type::kBlob) throw std::invalid_argument("a blob in a boolean column");
      return AppendCopyText(out, v.bytes);  // 'true', 't', ...
    case CopyKind::kBytea: {
      if (v.type == Type::kInteger || v.type == Type::kReal) throw std::invalid_argument("a number in a bytea column");
      // The bytea hex form, \x..., its backslash escaped for COPY.
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\\\x";
      for (const char c : v.bytes) {
        const auto b = static_cast<unsigned char>(c);
        out += kHex[b >> 4];
        out += kHex[b & 15];
      }
      return;
    }
    case CopyKind::kText:
      if (v.type == Type::kInteger) return AppendInt(out, v.integer);
      if (v.type == Type::kReal) return AppendReal(out, v.real);
      return AppendCopyText(out, v.bytes);
  }
}

int64_t CopyRows(Connection& sqlite, std::string_view select_sql, Connection& pg, std::string_view table,
                 std::span<const PostgresColumn> columns) {
  std::vector<std::string> names;
  std::vector<CopyKind> kinds;
  for (const auto& c : columns) {
    names.push_back(c.name);
    kinds.push_back(CopyKindOf(c.type));
  }
  auto copy = BeginCopyIn(pg, table, names);
  std::string rows;
  rows.reserve(size_t{1} << 17);
  int64_t sent = 0;
  ForEachSqliteRow(sqlite, select_sql, [&](std::span<const SqliteValue> row) {
    if (row.size() != kinds.size())
      throw std::invalid_argument("copying " + std::string(table) + ": the select reads " + std::to_string(row.size()) +
                                  " columns for " + std::to_string(kinds.size()));
    for (size_t i = 0; i < row.size(); ++i) {
      if (i > 0) rows += '\t';
      try {
        AppendCopyValue(rows, row[i], kinds[i]);
      } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(std::string(table) + "." + names[i] + ", row " + std::to_string(sent + 1) + ": " +
                                    e.what());
      }
    }
    rows += '\n';
    ++sent;
    if (rows.size() >= (size_t{1} << 16)) {
      copy->Put(rows);
      rows.clear();
    }
  });
  copy->Put(rows);
  try {
    return copy->Finish();
  } catch (const StorageError& e) {
    throw StorageError(e.kind(), "copying " + std::string(table) + ": " + e.what());
  }
}

int64_t CountRows(Connection& conn, std::string_view table) {
  const auto rows = Query(conn, "copy.count", "SELECT count(*) FROM " + QuoteIdentifier(table));
  return rows.empty() ? 0 : rows.front().Int(0);
}

bool HasRows(Connection& conn, std::string_view table) {
  return !Query(conn, "copy.has_rows", "SELECT 1 FROM " + QuoteIdentifier(table) + " LIMIT 1").empty();
}

std::vector<ForeignKey> ListForeignKeys(Connection& pg) {
  static constexpr std::string_view kKeys =
      "SELECT t.relname, k.conname, pg_get_constraintdef(k.oid) FROM pg_constraint k"
      " JOIN pg_class t ON t.oid = k.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace"
      " WHERE k.contype = 'f' AND n.nspname = current_schema() ORDER BY t.relname, k.conname";
  std::vector<ForeignKey> out;
  for (const auto& row : pg.Execute("copy.foreign_keys", kKeys, {}))
    out.push_back(ForeignKey{row.Text(0), row.Text(1), row.Text(2)});
  return out;
}

void DropForeignKeys(Connection& pg, std::span<const ForeignKey> keys) {
  std::string script;
  for (const auto& k : keys)
    script += "ALTER TABLE " + QuoteIdentifier(k.table) + " DROP CONSTRAINT " + QuoteIdentifier(k.name) + ";\n";
  if (!script.empty()) pg.ExecuteScript(script);
}

void AddForeignKeys(Connection& pg, std::span<const ForeignKey> keys) {
  // One ALTER TABLE per key, so that a violation names its constraint.
  for (const auto& k : keys)
    pg.ExecuteScript("ALTER TABLE " + QuoteIdentifier(k.table) + " ADD CONSTRAINT " + QuoteIdentifier(k.name) + " " +
                     k.definition);
}

std::vector<Index> ListIndexes(Connection& pg) {
  static constexpr std::string_view kIndexes =
      "SELECT t.relname, COALESCE(k.conname, i.relname),"
      " COALESCE(pg_get_constraintdef(k.oid), pg_get_indexdef(x.indexrelid)), k.oid IS NOT NULL"
      " FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid"
      " JOIN pg_namespace n ON n.oid = t.relnamespace"
      " LEFT JOIN pg_constraint k ON k.conindid = x.indexrelid AND k.conrelid = x.indrelid"
      "  AND k.contype IN ('p', 'u', 'x')"
      " WHERE n.nspname = current_schema() AND t.relkind = 'r' ORDER BY t.relname, 2";
  std::vector<Index> out;
  for (const auto& row : pg.Execute("copy.indexes", kIndexes, {}))
    out.push_back(Index{row.Text(0), row.Text(1), row.Text(2), row.Text(3) == "t"});
  return out;
}

void DropIndexes(Connection& pg, std::span<const Index> indexes) {
  std::string script;
  for (const auto& x : indexes)
    script += x.constraint
                  ? "ALTER TABLE " + QuoteIdentifier(x.table) + " DROP CONSTRAINT " + QuoteIdentifier(x.name) + ";\n"
                  : "DROP INDEX " + QuoteIdentifier(x.name) + ";\n";
  if (!script.empty()) pg.ExecuteScript(script);
}

void CreateIndexes(Connection& pg, std::span<const Index> indexes) {
  // One statement each, so that a failure (a duplicate key) names its index.
  for (const auto& x : indexes)
    pg.ExecuteScript(x.constraint ? "ALTER TABLE " + QuoteIdentifier(x.table) + " ADD CONSTRAINT " +
                                        QuoteIdentifier(x.name) + " " + x.definition
                                  : x.definition);
}

void SetUserTriggersEnabled(Connection& pg, std::span<const std::string> tables, bool enabled) {
  std::string script;
  for (const auto& t : tables)
    script += "ALTER TABLE " + QuoteIdentifier(t) + (enabled ? " ENABLE" : " DISABLE") + " TRIGGER USER;\n";
  if (!script.empty()) pg.ExecuteScript(script);
}

void ResetSequences(Connection& pg, const PostgresTable& table) {
  for (const auto& c : table.columns) {
    if (c.sequence.empty()) continue;
    const std::string column = QuoteIdentifier(c.name);
    const std::string from = QuoteIdentifier(table.name);
    // setval(seq, n, true): the next value is n + 1; an empty table starts
    // at 1 again (setval(seq, 1, false)).
    const Param params[] = {c.sequence};
    Query(pg, "copy.setval",
          "SELECT setval(CAST($1 AS TEXT)::regclass, COALESCE((SELECT max(" + column + ") FROM " + from +
              "), 1), (SELECT max(" + column + ") FROM " + from + ") IS NOT NULL)",
          params);
  }
}

}  // namespace credence::storage
