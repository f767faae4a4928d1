#include "storage/postgres/postgres_tools.h"

#include <libpq-fe.h>

#include <string_view>
#include <vector>

#include "storage/postgres/postgres_database.h"

namespace credence::storage {

namespace {

// Objects of the user's schemas: not PostgreSQL's own, not an extension's
// (pg_depend 'e'), not another session's temporary ones.
constexpr char kUserSchemas[] =
    "n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_toast%' "
    "AND n.nspname NOT LIKE 'pg\\_temp\\_%' ";

// A value of a key=value connection string: quoted, with \ and ' escaped.
std::string ConninfoValue(std::string_view value) {
  std::string out = "'";
  for (char c : value) {
    if (c == '\\' || c == '\'') out += '\\';
    out += c;
  }
  return out + "'";
}

}  // namespace

PostgresToolLogin ToolLogin(const std::string& url) {
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse(url.c_str(), &error);
  if (options == nullptr) {
    std::string message = error != nullptr ? error : "out of memory";
    PQfreemem(error);
    while (!message.empty() && message.back() == '\n') message.pop_back();
    throw StorageError(StorageError::Kind::kOther, "cannot parse the database URL: " + message);
  }
  PostgresToolLogin login;
  for (const PQconninfoOption* o = options; o->keyword != nullptr; ++o) {
    if (o->val == nullptr) continue;
    if (std::string_view(o->keyword) == "password") {
      login.password = o->val;
      continue;
    }
    if (!login.conninfo.empty()) login.conninfo += ' ';
    login.conninfo += std::string(o->keyword) + "=" + ConninfoValue(o->val);
  }
  PQconninfoFree(options);
  return login;
}

std::string FirstUserObject(Connection& pg) {
  const std::string sql =
      std::string(
          "SELECT kind || ' ' || name FROM ("
          " SELECT CASE c.relkind WHEN 'v' THEN 'view' WHEN 'm' THEN 'materialized view'"
          "   WHEN 'S' THEN 'sequence' ELSE 'table' END AS kind,"
          "   quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS name"
          " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
          " WHERE c.relkind IN ('r', 'p', 'f', 'v', 'm', 'S') AND ") +
      kUserSchemas +
      " AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid"
      "   AND d.deptype = 'e')"
      " UNION ALL"
      " SELECT 'function', p.oid::regprocedure::text"
      " FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE " +
      kUserSchemas +
      " AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid"
      "   AND d.deptype = 'e')"
      ") objects ORDER BY kind = 'function', name LIMIT 1";
  const Rows rows = pg.Execute("tools.first_user_object", sql, {});
  return rows.empty() ? "" : rows.front().Text(0);
}

void DropUserObjects(Connection& pg) {
  // Tables first: CASCADE takes their views, owned sequences, indexes and
  // triggers along; then whatever is left of each kind.
  const std::string relations =
      std::string(
          "SELECT CASE c.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'"
          "   WHEN 'S' THEN 'SEQUENCE' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END,"
          "   quote_ident(n.nspname) || '.' || quote_ident(c.relname)"
          " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
          " WHERE c.relkind IN ('r', 'p', 'f', 'v', 'm', 'S') AND ") +
      kUserSchemas +
      " AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid"
      "   AND d.deptype = 'e')"
      " ORDER BY c.relkind NOT IN ('r', 'p', 'f'), 2";
  const std::string functions =
      std::string(
          "SELECT p.oid::regprocedure::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
          " WHERE ") +
      kUserSchemas +
      " AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid"
      "   AND d.deptype = 'e')";
  pg.Begin(TxMode::kWrite);
  try {
    for (const auto& row : pg.Execute("tools.user_relations", relations, {}))
      pg.ExecuteScript("DROP " + row.Text(0) + " IF EXISTS " + row.Text(1) + " CASCADE");
    for (const auto& row : pg.Execute("tools.user_functions", functions, {}))
      pg.ExecuteScript("DROP FUNCTION IF EXISTS " + row.Text(0) + " CASCADE");
    pg.Commit();
  } catch (...) {
    pg.Rollback();
    throw;
  }
}

}  // namespace credence::storage
