#include "storage/cluster_lock.h"

#include <string>

#include "storage/database.h"

namespace credence::storage {

void RunExclusively(Database& db, std::string_view name, const std::function<void()>& work) {
  if (db.dialect() != Dialect::kPostgres) {
    work();
    return;
  }
  auto conn = db.Acquire();
  const std::string lock_name = "credence:" + std::string(name);
  const Param key[] = {lock_name};
  conn->Execute("cluster_lock.lock", "SELECT pg_advisory_lock(hashtext($1))", key);
  try {
    work();
  } catch (...) {
    if (conn->healthy()) conn->Execute("cluster_lock.unlock", "SELECT pg_advisory_unlock(hashtext($1))", key);
    throw;
  }
  conn->Execute("cluster_lock.unlock", "SELECT pg_advisory_unlock(hashtext($1))", key);
}

}  // namespace credence::storage
