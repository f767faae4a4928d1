#include "storage/migrations.h"

#include <set>
#include <stdexcept>
#include <string>

#include "core/clock.h"
#include "core/logging.h"

namespace credence::storage {
namespace {

constexpr std::string_view kCreateTable =
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    " version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)";
// An arbitrary constant shared by every node of one deployment.
constexpr std::string_view kLockId = "7250911";

}  // namespace

const std::vector<Migration>& Migrations() {
  static const std::vector<Migration> kMigrations = {
      {10, "storage: write probe",
       "CREATE TABLE storage_write_probe (id INTEGER PRIMARY KEY, probed_at BIGINT NOT NULL)", ""},
  };
  return kMigrations;
}

int ApplyMigrations(Database& db, std::span<const Migration> migrations) {
  for (size_t i = 1; i < migrations.size(); ++i)
    if (migrations[i].version <= migrations[i - 1].version)
      throw std::logic_error("migration versions must strictly increase");

  auto conn = db.Acquire();
  const bool postgres = conn->dialect() == Dialect::kPostgres;
  if (postgres) conn->ExecuteScript("SELECT pg_advisory_lock(" + std::string(kLockId) + ")");
  int applied = 0;
  try {
    conn->ExecuteScript(kCreateTable);
    // Versions are per module (identity 1xx, kb 2xx, ...), so a module can
    // gain a migration numbered below another module's newest one: every
    // version not recorded yet is applied, in order.
    std::set<int64_t> done;
    for (const auto& row : conn->Execute("migrations.applied", "SELECT version FROM schema_migrations", {}))
      done.insert(row.Int(0));
    const int64_t version = done.empty() ? 0 : *done.rbegin();
    if (!migrations.empty() && version > migrations.back().version)
      throw std::logic_error("database schema version " + std::to_string(version) +
                             " is newer than this binary knows (" + std::to_string(migrations.back().version) + ")");
    for (const Migration& m : migrations) {
      if (done.count(m.version)) continue;
      conn->Begin(TxMode::kWrite);
      try {
        conn->ExecuteScript(postgres && !m.postgres.empty() ? m.postgres : m.sqlite);
        const Param params[] = {static_cast<int64_t>(m.version), m.name, SystemClock().Now()};
        conn->Execute("migrations.record",
                      "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)", params);
        conn->Commit();
      } catch (...) {
        conn->Rollback();
        throw;
      }
      LogLine(LogLevel::kInfo, "migration applied").Int("version", m.version).Str("name", m.name);
      ++applied;
    }
  } catch (...) {
    if (postgres) conn->ExecuteScript("SELECT pg_advisory_unlock(" + std::string(kLockId) + ")");
    throw;
  }
  if (postgres) conn->ExecuteScript("SELECT pg_advisory_unlock(" + std::string(kLockId) + ")");
  return applied;
}

}  // namespace credence::storage
