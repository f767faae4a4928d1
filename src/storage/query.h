#pragma once
// Named SQL statements. Every statement that touches tenant data is a
// TenantQuery: its first parameter ($1) is the tenant id, bound by
// TenantSession from the request's tenant, never by the caller. The
// constructor is consteval, so a TenantQuery whose SQL does not mention
// tenant_id and $1 fails to compile.
//
// Parameters are written $1, $2, ... on both backends (SQLite accepts them as
// named parameters; the SQLite backend binds by name).
#include <string_view>

namespace credence::storage {

namespace internal {
consteval bool Contains(std::string_view haystack, std::string_view needle) {
  return haystack.find(needle) != std::string_view::npos;
}
// A compile-time failure: calling a non-constexpr function in a consteval context.
inline void TenantQueryMustFilterOnTenantId() {}
}  // namespace internal

struct GlobalQuery {
  consteval GlobalQuery(const char* query_name, const char* common_sql)
      : name(query_name), sqlite(common_sql), postgres(common_sql) {}
  consteval GlobalQuery(const char* query_name, const char* sqlite_sql, const char* postgres_sql)
      : name(query_name), sqlite(sqlite_sql), postgres(postgres_sql) {}
  std::string_view name;
  std::string_view sqlite;
  std::string_view postgres;
};

struct TenantQuery {
  consteval TenantQuery(const char* query_name, const char* common_sql)
      : TenantQuery(query_name, common_sql, common_sql) {}
  consteval TenantQuery(const char* query_name, const char* sqlite_sql, const char* postgres_sql)
      : name(query_name), sqlite(sqlite_sql), postgres(postgres_sql) {
    // A dialect may be left empty by SqliteOnly/PostgresOnly; running it there throws.
    if ((!sqlite.empty() && (!internal::Contains(sqlite, "tenant_id") || !internal::Contains(sqlite, "$1"))) ||
        (!postgres.empty() && (!internal::Contains(postgres, "tenant_id") || !internal::Contains(postgres, "$1"))) ||
        (sqlite.empty() && postgres.empty()))
      internal::TenantQueryMustFilterOnTenantId();
  }
  // A statement that exists in one dialect only (the caller branches on
  // Session::dialect()).
  static consteval TenantQuery SqliteOnly(const char* query_name, const char* sql) {
    return TenantQuery(query_name, sql, "");
  }
  static consteval TenantQuery PostgresOnly(const char* query_name, const char* sql) {
    return TenantQuery(query_name, "", sql);
  }
  std::string_view name;
  std::string_view sqlite;
  std::string_view postgres;
};

}  // namespace credence::storage
