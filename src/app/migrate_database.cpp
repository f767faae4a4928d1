#include "app/migrate_database.h"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <variant>

#include "app/chain_checks.h"
#include "app/command_report.h"
#include "app/migrations.h"
#include "core/clock.h"
#include "core/json_text.h"
#include "core/logging.h"
#include "integrity/chain_heads.h"
#include "integrity/signing_key.h"
#include "kb/search_schema.h"
#include "platform/audit_log.h"
#include "storage/database.h"
#include "storage/migrations.h"
#include "storage/postgres/postgres_database.h"
#include "storage/session.h"
#include "storage/table_copy.h"
#include "trust/ledger.h"

namespace credence::app {

const char* const kMigrateDatabaseUsage =
    "       credence admin migrate-database --from sqlite:PATH --to postgresql://...\n"
    "         [--chain-signing-key FILE]\n"
    "  Copies a SQLite installation into an empty PostgreSQL database (docs/migrate-database.md):\n"
    "  every table, in one transaction, from one snapshot of the SQLite file; then checks row\n"
    "  counts, both hash chains and their signed heads on the target (with FILE, default the\n"
    "  chain-signing-key.pem beside the SQLite file) and prints a JSON summary.\n";

namespace {

namespace fs = std::filesystem;
using Clk = std::chrono::steady_clock;

// Tables neither copied nor compared: each side's own.
//   schema_migrations: both sides are migrated by this binary first, so
//     each records the same versions already (and its own times).
//   storage_write_probe: the readiness probe's scratch row (storage/
//     migrations.cpp), not data.
const std::set<std::string>& NotCopied() {
  static const std::set<std::string> kTables = {"schema_migrations", "storage_write_probe"};
  return kTables;
}

std::string Json(std::string_view s) {
  std::string out;
  AppendJsonString(out, s);
  return out;
}

int ReportMigrateFailure(const Failure& f) { return app::Report("migrate-database", kMigrateDatabaseUsage, f); }

struct Flags {
  std::string from_path;  // the SQLite file
  std::string to_url;
  std::string key_path;
};

std::optional<Failure> ParseFlags(const std::vector<std::string>& args, Flags& flags) {
  std::map<std::string, std::string> values;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    if (arg.rfind("--", 0) != 0) return Failure{2, "unexpected argument '" + arg + "'"};
    arg = arg.substr(2);
    std::optional<std::string> value;
    if (const auto eq = arg.find('='); eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    }
    if (arg != "from" && arg != "to" && arg != "chain-signing-key") return Failure{2, "unknown flag --" + arg};
    if (!value) {
      if (i + 1 >= args.size()) return Failure{2, "--" + arg + " needs a value"};
      value = args[++i];
    }
    values[arg] = *value;
  }
  const std::string from = values["from"];
  if (from.empty()) return Failure{2, "--from is required: sqlite:PATH of the database to copy"};
  if (from.rfind("sqlite:", 0) != 0)
    return Failure{2, "--from: expected sqlite:PATH (the SQLite file of the installation to move), got '" + from + "'"};
  flags.from_path = from.substr(7);
  std::error_code ec;
  if (flags.from_path.empty() || !fs::is_regular_file(flags.from_path, ec))
    return Failure{2, "--from: there is no SQLite database at '" + flags.from_path + "'"};
  flags.from_path = fs::absolute(flags.from_path, ec).string();

  flags.to_url = values["to"];
  if (flags.to_url.empty()) return Failure{2, "--to is required: postgresql://... of the empty target database"};
  if (flags.to_url.rfind("postgresql://", 0) != 0 && flags.to_url.rfind("postgres://", 0) != 0)
    return Failure{
        2, "--to: expected a postgresql:// URL, got '" + flags.to_url.substr(0, flags.to_url.find(':')) + ":...'"};

  // The key a SQLite installation signs with sits in its data directory,
  // which is where its SQLite file is by default (core/config.cpp).
  flags.key_path = values["chain-signing-key"];
  if (flags.key_path.empty())
    flags.key_path = (fs::path(flags.from_path).parent_path() / "chain-signing-key.pem").string();
  flags.key_path = fs::absolute(flags.key_path, ec).string();
  return std::nullopt;
}

// Not LoadOrCreate: a key made here would sign nothing the database holds.
std::optional<Failure> LoadKey(const std::string& path, std::shared_ptr<const integrity::SigningKey>& key) {
  std::string error;
  key = ReadChainSigningKey(path, error);
  if (key) return std::nullopt;
  if (error.rfind("there is no key file", 0) == 0)
    return Failure{2, "--chain-signing-key: " + error +
                          " (the chain heads in the database are signed with the key of the SQLite server's data"
                          " directory; name it with --chain-signing-key)"};
  return Failure{2, "--chain-signing-key: " + error};
}

// What happens to each table.
struct Plan {
  struct Copy {
    std::string table;
    std::vector<storage::PostgresColumn> columns;  // written, in the select's order
  };
  std::vector<Copy> copies;
  std::vector<storage::PostgresTable> target_tables;
  bool search = false;                                          // entry_search is made from the SQLite full-text index
  std::vector<std::pair<std::string, std::string>> not_copied;  // table, why
  std::vector<std::string> defaulted;  // "table.column": only on PostgreSQL, left to its default
};

std::string SelectOf(const Plan::Copy& copy) {
  std::string sql = "SELECT ";
  for (size_t i = 0; i < copy.columns.size(); ++i)
    sql += (i > 0 ? ", " : "") + storage::QuoteIdentifier(copy.columns[i].name);
  return sql + " FROM " + storage::QuoteIdentifier(copy.table);
}

// The tables of both sides, matched by name. Generic, with the few cases
// whose shape differs between the backends named here: full-text search
// (kb/search_schema.h) and each side's own bookkeeping.
std::variant<Plan, Failure> MakePlan(storage::Connection& source, storage::Connection& target) {
  Plan plan;
  plan.target_tables = storage::ListPostgresTables(target);
  std::map<std::string, const storage::PostgresTable*> on_target;
  for (const auto& t : plan.target_tables) on_target[t.name] = &t;
  std::set<std::string> seen;
  std::vector<std::string> problems;
  for (const auto& t : storage::ListSqliteTables(source)) {
    seen.insert(t.name);
    if (NotCopied().count(t.name)) {
      plan.not_copied.push_back({t.name, "each database's own (written by this binary on both)"});
      continue;
    }
    if (t.kind == storage::SqliteTable::Kind::kShadow) {
      plan.not_copied.push_back({t.name, "SQLite's storage of a virtual table"});
      continue;
    }
    if (t.name == kb::kSearchTable || t.name == kb::kSqliteSearchDocs) {
      // The FTS5 table and its rowid map: read together to make the
      // PostgreSQL search rows.
      plan.not_copied.push_back(
          {t.name, "SQLite full-text search; the PostgreSQL " + std::string(kb::kSearchTable) + " is made from it"});
      if (t.name == kb::kSearchTable) plan.search = true;
      continue;
    }
    if (t.kind == storage::SqliteTable::Kind::kVirtual) {
      problems.push_back("the SQLite virtual table " + t.name + " has no PostgreSQL counterpart this command knows");
      continue;
    }
    const auto target_table = on_target.find(t.name);
    if (target_table == on_target.end()) {
      problems.push_back("the table " + t.name + " exists only in the SQLite database");
      continue;
    }
    Plan::Copy copy{t.name, {}};
    const std::set<std::string> source_columns(t.columns.begin(), t.columns.end());
    std::set<std::string> target_columns;
    for (const auto& c : target_table->second->columns) {
      target_columns.insert(c.name);
      if (c.generated) continue;  // computed by the server
      if (source_columns.count(c.name)) {
        copy.columns.push_back(c);
      } else {
        plan.defaulted.push_back(t.name + "." + c.name);
      }
    }
    // Copying the intersection alone would drop these values without a word.
    for (const auto& c : t.columns)
      if (!target_columns.count(c))
        problems.push_back("the column " + t.name + "." + c + " exists only in the SQLite database");
    plan.copies.push_back(std::move(copy));
  }
  for (const auto& t : plan.target_tables) {
    if (seen.count(t.name) || NotCopied().count(t.name)) continue;
    problems.push_back("the table " + t.name + " exists only in the PostgreSQL database");
  }
  if (on_target.count(std::string(kb::kSearchTable)) && !plan.search)
    problems.push_back("the PostgreSQL table " + std::string(kb::kSearchTable) +
                       " has no SQLite full-text index to be made from");
  if (!problems.empty()) {
    std::string message = "the two schemas do not match (both were migrated to this binary's version):";
    for (const auto& p : problems) message += "\n  " + p;
    return Failure{1, message};
  }
  return plan;
}

// The first table of the target that holds a row, or "".
std::string FirstTableWithRows(storage::Connection& target) {
  for (const auto& t : storage::ListPostgresTables(target))
    if (!NotCopied().count(t.name) && storage::HasRows(target, t.name)) return t.name;
  return "";
}

struct Copied {
  std::string table;
  int64_t rows = 0;
  double seconds = 0;
};

// Everything, in one transaction of the target and one read snapshot of
// the source; the counts of the source are taken in that snapshot.
//
// Foreign keys: dropped at the start and added back at the end, inside the
// transaction (pg_get_constraintdef keeps their exact definitions), rather
// than copying the tables in an order computed from pg_constraint. The
// order would have to be derived and kept right for every schema change
// (and breaks on a cycle or a table that refers to itself), while checking
// each constraint once over the loaded table is one join instead of a
// lookup per row, which is also faster. Their CASCADE actions play no part:
// nothing is deleted.
//
// Triggers: the schema's own (trust generations, the reports' usage queue,
// the analytics clean-up) are disabled for the copy and enabled again in
// the same transaction, because what they would write is itself among the
// rows copied (and would collide with them).
std::vector<Copied> CopyAll(storage::Connection& source, storage::Connection& target, const Plan& plan,
                            std::map<std::string, int64_t>& source_counts) {
  std::vector<Copied> out;
  std::vector<std::string> tables;
  for (const auto& t : plan.target_tables) tables.push_back(t.name);
  const auto keys = storage::ListForeignKeys(target);
  storage::DropForeignKeys(target, keys);
  const auto indexes = storage::ListIndexes(target);
  storage::DropIndexes(target, indexes);
  storage::SetUserTriggersEnabled(target, tables, false);
  for (const auto& copy : plan.copies) {
    const auto start = Clk::now();
    Copied c{copy.table, storage::CopyRows(source, SelectOf(copy), target, copy.table, copy.columns), 0};
    c.seconds = SecondsSince(start);
    source_counts[copy.table] = storage::CountRows(source, copy.table);
    std::fprintf(stderr, "copied %s: %lld rows in %.2f s\n", copy.table.c_str(), static_cast<long long>(c.rows),
                 c.seconds);
    out.push_back(std::move(c));
  }
  if (plan.search) {
    const auto start = Clk::now();
    target.ExecuteScript(kb::kPostgresCreateSearchText);
    std::vector<storage::PostgresColumn> text_columns;
    for (const char* name : {"tenant_id", "entry_id", "hub_id", "title", "body"})
      text_columns.push_back(storage::PostgresColumn{name, "text", false, ""});
    Copied c{std::string(kb::kSearchTable),
             storage::CopyRows(source, kb::kSqliteSearchText, target, kb::kPostgresSearchTextTable, text_columns), 0};
    target.ExecuteScript(kb::kPostgresSearchFromText);
    c.seconds = SecondsSince(start);
    source_counts[c.table] = source.Execute("migrate.search_count", kb::kSqliteSearchCount, {}).front().Int(0);
    std::fprintf(stderr, "made %s from the SQLite full-text index: %lld entries in %.2f s\n", c.table.c_str(),
                 static_cast<long long>(c.rows), c.seconds);
    out.push_back(std::move(c));
  }
  storage::SetUserTriggersEnabled(target, tables, true);
  auto start = Clk::now();
  // Index builds sort; give them room (this transaction only).
  target.ExecuteScript("SET LOCAL maintenance_work_mem = '256MB'");
  storage::CreateIndexes(target, indexes);
  std::fprintf(stderr, "indexes and unique constraints made in %.2f s\n", SecondsSince(start));
  start = Clk::now();
  storage::AddForeignKeys(target, keys);
  for (const auto& t : plan.target_tables) storage::ResetSequences(target, t);
  std::fprintf(stderr, "foreign keys checked and sequences set in %.2f s\n", SecondsSince(start));
  return out;
}

// Leaves the target with its schema and no data, as before the copy.
void EmptyTarget(storage::Database& db, const std::vector<Copied>& copied) {
  if (copied.empty()) return;
  std::string sql = "TRUNCATE ";
  for (size_t i = 0; i < copied.size(); ++i) sql += (i > 0 ? ", " : "") + storage::QuoteIdentifier(copied[i].table);
  auto conn = db.Acquire();
  conn->ExecuteScript(sql + " RESTART IDENTITY CASCADE");
}

int Run(const Flags& flags) {
  const auto started = Clk::now();
  SystemClock clock;
  std::shared_ptr<const integrity::SigningKey> key;
  if (auto failed = LoadKey(flags.key_path, key)) return ReportMigrateFailure(*failed);
  const auto migrations = AllMigrations();

  std::unique_ptr<storage::Database> source, target;
  try {
    source = storage::OpenDatabase("sqlite:" + flags.from_path, storage::DatabaseOptions{});
    const int applied = storage::ApplyMigrations(*source, migrations);
    if (applied > 0) std::fprintf(stderr, "the SQLite database brought to this version: %d migrations\n", applied);
  } catch (const std::exception& e) {
    return ReportMigrateFailure({1, "--from: cannot open the SQLite database " + flags.from_path + ": " + e.what()});
  }
  // The key must be one the database knows, or no signed head will verify.
  const integrity::ChainHeads source_heads(*source, clock, key, {trust::LedgerChain(), platform::AuditChain()});
  const auto known = source_heads.Keys();
  bool key_known = known.empty();
  std::string key_ids;
  for (const auto& k : known) {
    key_known = key_known || k.key_id == key->key_id();
    key_ids += (key_ids.empty() ? "" : ", ") + k.key_id;
  }
  if (!key_known)
    return ReportMigrateFailure({2, "--chain-signing-key: '" + flags.key_path + "' holds key " + key->key_id() +
                                        ", which never signed in this database (its keys: " + key_ids +
                                        "); give the chain-signing-key.pem of the SQLite server's data directory"});

  std::string target_name;
  try {
    target = storage::OpenDatabase(flags.to_url, storage::DatabaseOptions{});
    target_name = target->Describe();
    // Refused before this binary's tables are made in someone else's database.
    if (const auto table = FirstTableWithRows(*target->Acquire()); !table.empty())
      return ReportMigrateFailure({1, "--to: " + target_name + " is not empty (the table " + table +
                                          " has rows); migrate-database copies into an empty database only"});
    const int applied = storage::ApplyMigrations(*target, migrations);
    std::fprintf(stderr, "the schema made in %s: %d migrations\n", target_name.c_str(), applied);
  } catch (const std::exception& e) {
    return ReportMigrateFailure({1, "--to: " + std::string(e.what())});
  }

  Plan plan;
  std::vector<Copied> copied;
  std::map<std::string, int64_t> source_counts;
  const auto copy_start = Clk::now();
  try {
    auto from = source->Acquire();
    auto to = target->Acquire();
    // Checked again now that every table exists, in the copy's transaction.
    if (const auto table = FirstTableWithRows(*to); !table.empty())
      return ReportMigrateFailure({1, "--to: " + target_name + " is not empty (the table " + table +
                                          " has rows); migrate-database copies into an empty database only"});
    // One snapshot: a server still writing the SQLite file does not tear
    // the copy (WAL readers see the database as of their first read).
    from->Begin(storage::TxMode::kRead);
    to->Begin(storage::TxMode::kWrite);
    try {
      auto made = MakePlan(*from, *to);
      if (auto* failed = std::get_if<Failure>(&made)) {
        to->Rollback();
        from->Rollback();
        return ReportMigrateFailure(*failed);
      }
      plan = std::move(std::get<Plan>(made));
      copied = CopyAll(*from, *to, plan, source_counts);
      to->Commit();
    } catch (...) {
      to->Rollback();
      from->Rollback();
      throw;
    }
    from->Rollback();  // the read snapshot ends
  } catch (const std::exception& e) {
    return ReportMigrateFailure(
        {1,
         "the copy failed and was rolled back (the target holds the schema and no data; run the command"
         " again once the cause is fixed): " +
             std::string(e.what())});
  }
  const double copy_seconds = SecondsSince(copy_start);

  // The checks, on the target as the PostgreSQL nodes will read it.
  const auto verify_start = Clk::now();
  std::vector<std::string> problems;
  std::vector<ChainCheck> chains;
  int64_t total_rows = 0;
  try {
    target->Acquire()->ExecuteScript("ANALYZE");  // statistics for the planner, before anything reads
    auto conn = target->Acquire();
    for (const auto& c : copied) {
      total_rows += c.rows;
      const int64_t on_target = storage::CountRows(*conn, c.table);
      const int64_t on_source = source_counts[c.table];
      if (on_target != on_source || c.rows != on_source)
        problems.push_back(c.table + ": " + std::to_string(on_source) + " rows in the SQLite database, " +
                           std::to_string(c.rows) + " copied, " + std::to_string(on_target) + " in PostgreSQL");
    }
    const integrity::ChainHeads target_heads(*target, clock, key, {trust::LedgerChain(), platform::AuditChain()});
    chains = VerifyChains(*target, target_heads);
    for (const auto& c : chains)
      if (!c.ok)
        problems.push_back("the " + c.chain + " chain of tenant " + c.tenant_id + " does not verify: " + c.problem);
  } catch (const std::exception& e) {
    problems.push_back(std::string("the check failed: ") + e.what());
  }
  const double verify_seconds = SecondsSince(verify_start);
  if (!problems.empty()) {
    std::string message = "the copy does not match its source:";
    for (const auto& p : problems) message += "\n  " + p;
    try {
      EmptyTarget(*target, copied);
      message += "\nthe copied rows were deleted again: the target holds the schema and no data";
    } catch (const std::exception& e) {
      message += std::string("\nand deleting the copied rows failed too (") + e.what() +
                 "): empty the target database by hand before running the command again";
    }
    return ReportMigrateFailure({1, message});
  }

  // The summary.
  std::string out = "{\"ok\":true,\"from\":" + Json("sqlite:" + flags.from_path) + ",\"to\":" + Json(target_name) +
                    ",\"rows\":" + std::to_string(total_rows) + ",\"seconds\":" + Fixed(SecondsSince(started)) +
                    ",\"copySeconds\":" + Fixed(copy_seconds) + ",\"verifySeconds\":" + Fixed(verify_seconds) +
                    ",\"tables\":[";
  for (size_t i = 0; i < copied.size(); ++i)
    out += std::string(i > 0 ? "," : "") + "{\"table\":" + Json(copied[i].table) +
           ",\"rows\":" + std::to_string(copied[i].rows) + ",\"seconds\":" + Fixed(copied[i].seconds) + "}";
  out += "],\"notCopied\":[";
  for (size_t i = 0; i < plan.not_copied.size(); ++i)
    out += std::string(i > 0 ? "," : "") + "{\"table\":" + Json(plan.not_copied[i].first) +
           ",\"why\":" + Json(plan.not_copied[i].second) + "}";
  out += "],\"defaultedColumns\":" + StringListToJson(plan.defaulted) + ",\"chains\":[";
  for (size_t i = 0; i < chains.size(); ++i)
    out += std::string(i > 0 ? "," : "") + "{\"chain\":" + Json(chains[i].chain) +
           ",\"tenantId\":" + Json(chains[i].tenant_id) + ",\"records\":" + std::to_string(chains[i].records) +
           ",\"signedHeads\":" + std::to_string(chains[i].heads) + ",\"verified\":true}";
  out += "],\"chainSigningKey\":{\"path\":" + Json(flags.key_path) + ",\"keyId\":" + Json(key->key_id()) + "}}";
  std::printf("%s\n", out.c_str());

  std::fprintf(stderr,
               "\nThe PostgreSQL nodes must sign with the same chain-signing key: give each of them %s\n"
               "(--chain-signing-key, or as chain-signing-key.pem in its --data-dir), or the signed chain heads\n"
               "will not verify. Start them with the same --oidc-config and other flags as the SQLite server.\n",
               flags.key_path.c_str());
  const auto connectors = source_counts.find("connectors");
  if (connectors != source_counts.end() && connectors->second > 0)
    std::fprintf(stderr,
                 "Git connectors keep working copies under <data-dir>/connectors/: caches, not copied; the nodes\n"
                 "clone them again on their next sync. A repository given by a local path must exist on the nodes.\n");
  return 0;
}

}  // namespace

int MigrateDatabase(const std::vector<std::string>& args) {
  // This command reports its own progress; the storage layer's info lines
  // (one per migration applied) would bury it.
  SetLogLevel(LogLevel::kWarn);
  Flags flags;
  if (auto failed = ParseFlags(args, flags)) return ReportMigrateFailure(*failed);
  try {
    return Run(flags);
  } catch (const std::exception& e) {
    return ReportMigrateFailure({1, e.what()});
  }
}

}  // namespace credence::app
