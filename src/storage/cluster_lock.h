#pragma once
// Start-up work that several nodes must not do at once (the development
// seed): run under a lock that every node of one PostgreSQL deployment
// shares (a session advisory lock, held on a connection of its own for the
// duration). On SQLite one process owns the store, and it just runs.
#include <functional>
#include <string_view>

namespace credence::storage {

class Database;

// Runs `work` while holding the deployment-wide lock named `name`; waits
// for a node holding it. Rethrows what `work` throws, after unlocking.
void RunExclusively(Database& db, std::string_view name, const std::function<void()>& work);

}  // namespace credence::storage
