#pragma once
// Changes a server's store behind its back, with the server stopped: tamper
// tests, and rows as an older version wrote them. One script, no
// parameters, on either backend (a SQLite file or a PostgreSQL URL).
#include <string>

#include "storage/database.h"
#include "storage/session.h"

namespace credence::test {

inline void RunSqlBehindTheServer(const std::string& database_url, const std::string& sql) {
  auto db = storage::OpenDatabase(database_url, {});
  storage::Session session(*db);
  session.connection().ExecuteScript(sql);
}

}  // namespace credence::test
