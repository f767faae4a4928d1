#include "app/backup_restore.h"

#include <fcntl.h>
#include <openssl/evp.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <variant>

#include "app/chain_checks.h"
#include "app/command_report.h"
#include "app/migrations.h"
#include "core/clock.h"
#include "core/config.h"
#include "core/json_text.h"
#include "core/logging.h"
#include "integrity/chain_heads.h"
#include "platform/audit_log.h"
#include "storage/database.h"
#include "storage/migrations.h"
#include "storage/postgres/postgres_tools.h"
#include "storage/session.h"
#include "storage/sqlite/sqlite_database.h"
#include "storage/table_copy.h"
#include "trust/ledger.h"

extern char** environ;

namespace credence::app {

const char* const kBackupUsage =
    "       credence admin backup --out DIR [--database URL] [--data-dir DIR] [--pg-bin DIR]\n"
    "  Makes DIR (new; its parent must exist) with one consistent snapshot of the store while the\n"
    "  server keeps serving (docs/backup.md): SQLite through its online backup API, PostgreSQL\n"
    "  with pg_dump -Fc (from PATH, or --pg-bin DIR), and manifest.json (chain heads, row counts,\n"
    "  key ids). The chain-signing key is not in it: keep a copy of the key file apart.\n";

const char* const kRestoreUsage =
    "       credence admin restore --from DIR [--database URL] [--data-dir DIR]\n"
    "         [--chain-signing-key FILE] [--pg-bin DIR]\n"
    "  Restores a backup into an empty store (SQLite: no file yet; PostgreSQL: a new database, with\n"
    "  pg_restore), brings it to this binary's schema and checks it against the manifest: row counts,\n"
    "  both hash chains of every tenant and their signed heads with the key (default: the server's,\n"
    "  <data-dir>/chain-signing-key.pem). A failed check leaves the target empty.\n";

namespace {

namespace fs = std::filesystem;
namespace json = boost::json;
using Clk = std::chrono::steady_clock;

constexpr char kFormat[] = "credence-backup";
constexpr int64_t kFormatVersion = 1;
constexpr char kManifestFile[] = "manifest.json";
constexpr char kSqliteFile[] = "credence.db";
constexpr char kPostgresFile[] = "credence.pgdump";
constexpr char kSqlite[] = "sqlite";
constexpr char kPostgres[] = "postgres";
// Pages per step of SQLite's backup API: 16 MiB at the default page size.
// The step size does not hold writers back (the copy reads one WAL
// snapshot; docs/backup.md): it only sets how often progress is reported.
constexpr int kPagesPerStep = 4096;

constexpr storage::GlobalQuery kSchemaVersion{"backup.schema_version",
                                              "SELECT coalesce(max(version), 0) FROM schema_migrations"};
constexpr storage::GlobalQuery kKeys{"backup.keys",
                                     "SELECT key_id, retired_at FROM chain_signing_keys ORDER BY created_at, key_id"};





// --flag VALUE or --flag=VALUE, each flag among `known`, at most once.
std::optional<Failure> ParseFlags(const std::vector<std::string>& args, const std::set<std::string>& known,
                                  std::map<std::string, std::string>& values) {
  for (size_t i = 0; i < args.size(); ++i) {
    std::string arg = args[i];
    if (arg.rfind("--", 0) != 0) return Failure{2, "unexpected argument '" + arg + "'"};
    arg = arg.substr(2);
    std::optional<std::string> value;
    if (const auto eq = arg.find('='); eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    }
    if (!known.count(arg)) return Failure{2, "unknown flag --" + arg};
    if (!value) {
      if (i + 1 >= args.size()) return Failure{2, "--" + arg + " needs a value"};
      value = args[++i];
    }
    if (value->empty()) return Failure{2, "--" + arg + " needs a value"};
    if (values.count(arg)) return Failure{2, "--" + arg + " is given twice"};
    values[arg] = *value;
  }
  return std::nullopt;
}

// The store as `credence serve` would choose it from the same flags (and
// CREDENCE_DATABASE, CREDENCE_DATA_DIR, ...).
struct Store {
  std::string url;
  std::string backend;      // kSqlite or kPostgres
  std::string sqlite_path;  // for SQLite
  std::string flag;         // the flag that named it, for messages
  std::string key_path;     // the server's chain-signing key by default
};

std::variant<Store, Failure> ResolveStore(std::map<std::string, std::string>& flags) {
  std::vector<std::string> serve_args;
  for (const char* name : {"database", "data-dir", "chain-signing-key"})
    if (flags.count(name)) serve_args.insert(serve_args.end(), {std::string("--") + name, flags[name]});
  auto config = ParseConfig(serve_args, ProcessEnv);
  if (!config) return Failure{2, config.error().detail};
  Store store;
  store.url = config->EffectiveDatabaseUrl();
  store.flag = flags.count("database") || config->database_url.size() > 0 ? "--database" : "--data-dir";
  store.key_path = config->EffectiveChainSigningKey();
  if (store.url.rfind("sqlite:", 0) == 0) {
    store.backend = kSqlite;
    std::error_code ec;
    store.sqlite_path = fs::absolute(store.url.substr(7), ec).string();
    store.url = "sqlite:" + store.sqlite_path;
  } else if (store.url.rfind("postgresql://", 0) == 0 || store.url.rfind("postgres://", 0) == 0) {
    store.backend = kPostgres;
  } else {
    return Failure{2, "--database: expected sqlite:PATH or postgresql://..., got '" +
                          store.url.substr(0, store.url.find(':')) + ":...'"};
  }
  return store;
}

// --- Files ---

// fsync of a file or a directory (its entries); errors ignored where the
// file system cannot sync a directory.
void SyncPath(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// SHA-256 of a file, hex; throws std::runtime_error when it cannot be read.
std::string FileSha256(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr);
  std::vector<char> buffer(1 << 20);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    if (in.gcount() > 0) EVP_DigestUpdate(ctx.get(), buffer.data(), static_cast<size_t>(in.gcount()));
  }
  if (in.bad()) throw std::runtime_error("cannot read " + path.string());
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_DigestFinal_ex(ctx.get(), digest, &length);
  static const char* kHex = "0123456789abcdef";
  std::string out;
  for (unsigned int i = 0; i < length; ++i) {
    out += kHex[digest[i] >> 4];
    out += kHex[digest[i] & 0xf];
  }
  return out;
}

// A SQLite file and the WAL and shared-memory files beside it.
void RemoveSqliteFiles(const fs::path& path) {
  std::error_code ec;
  for (const char* suffix : {"", "-wal", "-shm", "-journal"}) fs::remove(path.string() + suffix, ec);
}

// --- pg_dump and pg_restore ---

struct ToolRun {
  int exit_code = -1;
  std::string err;  // its stderr
};

// Runs `program` (from `bin_dir`, or found on PATH) with `args`, the
// password (if any) in PGPASSWORD, stdout discarded, stderr collected.
// Failure{1} when it cannot be started.
std::variant<ToolRun, Failure> RunTool(const std::string& program, const std::string& bin_dir,
                                       const std::vector<std::string>& args,
                                       const std::optional<std::string>& password) {
  const std::string path = bin_dir.empty() ? program : (fs::path(bin_dir) / program).string();
  std::vector<std::string> argv_text = {path};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_text) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_text;
  for (char** e = environ; *e != nullptr; ++e)
    if (std::strncmp(*e, "PGPASSWORD=", 11) != 0 || !password) env_text.emplace_back(*e);
  if (password) env_text.push_back("PGPASSWORD=" + *password);
  std::vector<char*> envp;
  for (auto& e : env_text) envp.push_back(e.data());
  envp.push_back(nullptr);

  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return Failure{1, std::string("cannot make a pipe: ") + std::strerror(errno)};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], STDERR_FILENO);
  pid_t pid = -1;
  const int spawned = bin_dir.empty() ? ::posix_spawnp(&pid, path.c_str(), &actions, nullptr, argv.data(), envp.data())
                                      : ::posix_spawn(&pid, path.c_str(), &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fds[1]);
  if (spawned != 0) {
    ::close(pipe_fds[0]);
    return Failure{1, "cannot run " + path + ": " + std::strerror(spawned) +
                          (spawned == ENOENT ? " (install Debian's postgresql-client-15, or the client of the"
                                               " server's major version, or name its directory with --pg-bin)"
                                             : "")};
  }
  ToolRun run;
  char buffer[4096];
  ssize_t n;
  while ((n = ::read(pipe_fds[0], buffer, sizeof buffer)) != 0) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    run.err.append(buffer, static_cast<size_t>(n));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  while (!run.err.empty() && (run.err.back() == '\n' || run.err.back() == ' ')) run.err.pop_back();
  return run;
}

// --- The manifest ---

struct ChainHeadAt {
  std::string chain, tenant_id;
  int64_t seq = 0;
  std::string hash;
};

struct KeyInfo {
  std::string key_id;
  bool current = false;
};

struct Manifest {
  int64_t format_version = kFormatVersion;
  std::string backend;
  std::string created_at;
  std::string source;
  int64_t schema_version = 0;
  std::string file;
  int64_t file_bytes = 0;
  std::string file_sha256;
  std::map<std::string, int64_t> rows;
  std::vector<ChainHeadAt> chains;
  std::vector<KeyInfo> keys;
};

std::string ToJson(const Manifest& m) {
  json::object o;
  o["format"] = kFormat;
  o["formatVersion"] = m.format_version;
  o["backend"] = m.backend;
  o["createdAt"] = m.created_at;
  o["source"] = m.source;
  o["schemaVersion"] = m.schema_version;
  o["file"] = m.file;
  o["fileBytes"] = m.file_bytes;
  o["fileSha256"] = m.file_sha256;
  json::object rows;
  for (const auto& [table, n] : m.rows) rows[table] = n;
  o["rows"] = std::move(rows);
  json::array chains;
  for (const auto& c : m.chains)
    chains.push_back(json::object{{"chain", c.chain}, {"tenantId", c.tenant_id}, {"seq", c.seq}, {"hash", c.hash}});
  o["chains"] = std::move(chains);
  json::array keys;
  for (const auto& k : m.keys) keys.push_back(json::object{{"keyId", k.key_id}, {"current", k.current}});
  o["chainSigningKeys"] = std::move(keys);
  return json::serialize(o);
}

// Reads a manifest; on a problem, `error` says what (the member).
std::optional<Manifest> FromJson(const std::string& text, std::string& error) {
  std::error_code ec;
  const json::value v = json::parse(text, ec);
  if (ec) {
    error = "not JSON (" + ec.message() + ")";
    return std::nullopt;
  }
  const json::object* o = v.if_object();
  const json::value* format = o != nullptr ? o->if_contains("format") : nullptr;
  if (format == nullptr || !format->is_string() || format->get_string() != kFormat) {
    error = std::string("no \"format\": \"") + kFormat + "\"";
    return std::nullopt;
  }
  Manifest m;
  auto str = [&](const json::object& in, const char* key, std::string& out) {
    const json::value* f = in.if_contains(key);
    if (f == nullptr || !f->is_string()) {
      if (error.empty()) error = std::string("\"") + key + "\" is missing or not a string";
      return;
    }
    out = std::string(f->get_string());
  };
  auto num = [&](const json::object& in, const char* key, int64_t& out) {
    const json::value* f = in.if_contains(key);
    if (f == nullptr || !f->is_int64() || f->get_int64() < 0) {
      if (error.empty()) error = std::string("\"") + key + "\" is missing or not a count";
      return;
    }
    out = f->get_int64();
  };
  num(*o, "formatVersion", m.format_version);
  if (error.empty() && m.format_version > kFormatVersion) {
    error = "format version " + std::to_string(m.format_version) + ": made by a newer Credence (this one reads " +
            std::to_string(kFormatVersion) + ")";
    return std::nullopt;
  }
  str(*o, "backend", m.backend);
  str(*o, "createdAt", m.created_at);
  str(*o, "source", m.source);
  num(*o, "schemaVersion", m.schema_version);
  str(*o, "file", m.file);
  num(*o, "fileBytes", m.file_bytes);
  str(*o, "fileSha256", m.file_sha256);
  if (error.empty() && m.backend != kSqlite && m.backend != kPostgres)
    error = "\"backend\" is '" + m.backend + "', neither sqlite nor postgres";
  if (error.empty() && (m.file.empty() || m.file.find('/') != std::string::npos || m.file[0] == '.'))
    error = "\"file\" must name a file in the backup's directory";
  const json::value* rows = o->if_contains("rows");
  if (error.empty() && (rows == nullptr || !rows->is_object())) error = "\"rows\" is missing or not an object";
  if (error.empty())
    for (const auto& [table, n] : rows->get_object()) {
      if (!n.is_int64() || n.get_int64() < 0) {
        error = "\"rows\": the count of " + std::string(table) + " is not a count";
        break;
      }
      m.rows[std::string(table)] = n.get_int64();
    }
  const json::value* chains = o->if_contains("chains");
  if (error.empty() && (chains == nullptr || !chains->is_array())) error = "\"chains\" is missing or not an array";
  if (error.empty())
    for (const auto& c : chains->get_array()) {
      if (!c.is_object()) {
        error = "\"chains\": an item is not an object";
        break;
      }
      ChainHeadAt head;
      str(c.get_object(), "chain", head.chain);
      str(c.get_object(), "tenantId", head.tenant_id);
      num(c.get_object(), "seq", head.seq);
      str(c.get_object(), "hash", head.hash);
      if (!error.empty()) {
        error = "\"chains\": " + error;
        break;
      }
      m.chains.push_back(std::move(head));
    }
  const json::value* keys = o->if_contains("chainSigningKeys");
  if (error.empty() && (keys == nullptr || !keys->is_array()))
    error = "\"chainSigningKeys\" is missing or not an array";
  if (error.empty())
    for (const auto& k : keys->get_array()) {
      const json::value* current = k.is_object() ? k.get_object().if_contains("current") : nullptr;
      if (current == nullptr || !current->is_bool()) {
        error = "\"chainSigningKeys\": an item has no \"keyId\" and \"current\"";
        break;
      }
      KeyInfo key{"", current->get_bool()};
      str(k.get_object(), "keyId", key.key_id);
      m.keys.push_back(std::move(key));
    }
  if (!error.empty()) return std::nullopt;
  return m;
}

// The tables whose rows are counted: every ordinary table (on SQLite the
// storage of a full-text index too, not the virtual table itself).
std::vector<std::string> CountedTables(storage::Connection& conn) {
  std::vector<std::string> out;
  if (conn.dialect() == storage::Dialect::kSqlite) {
    for (const auto& t : storage::ListSqliteTables(conn))
      if (t.kind != storage::SqliteTable::Kind::kVirtual) out.push_back(t.name);
  } else {
    for (const auto& t : storage::ListPostgresTables(conn)) out.push_back(t.name);
  }
  return out;
}

std::map<std::string, int64_t> CountRows(storage::Session& session) {
  std::map<std::string, int64_t> out;
  for (const auto& table : CountedTables(session.connection()))
    out[table] = storage::CountRows(session.connection(), table);
  return out;
}

const integrity::ChainSource& SourceOf(const std::string& chain) {
  static const integrity::ChainSource kLedger = trust::LedgerChain();
  static const integrity::ChainSource kAudit = platform::AuditChain();
  return chain == kLedger.name ? kLedger : kAudit;
}

// What the snapshot of `session`'s transaction holds.
void DescribeSnapshot(storage::Session& session, Manifest& m) {
  m.schema_version = session.Run(kSchemaVersion).front().Int(0);
  m.rows = CountRows(session);
  const std::vector<std::pair<std::string, std::vector<std::string>>> chains = {
      {trust::kLedgerChain, trust::LedgerChain().tenants(session)},
      {platform::AuditChain().name, platform::AuditChainTenants(session)}};
  for (const auto& [chain, tenants] : chains)
    for (const auto& tenant_id : tenants) {
      storage::TenantSession tenant(session, tenant_id);
      if (const auto head = SourceOf(chain).head(tenant)) m.chains.push_back({chain, tenant_id, head->seq, head->hash});
    }
  for (const auto& row : session.Run(kKeys)) m.keys.push_back({row.Text(0), row.IsNull(1)});
}

// The schema version of a store this binary reads as it is: its own.
std::optional<Failure> CheckSchemaVersion(storage::Session& session, const std::string& flag,
                                          const std::string& described) {
  int64_t version = 0;
  try {
    version = session.Run(kSchemaVersion).front().Int(0);
  } catch (const storage::StorageError&) {
    version = 0;
  }
  if (version == 0)
    return Failure{2, flag + ": " + described + " is not a Credence database (it has no schema_migrations)"};
  const int64_t ours = AllMigrations().back().version;
  if (version != ours)
    return Failure{1, described + " is at schema version " + std::to_string(version) + ", this binary's is " +
                          std::to_string(ours) + ": back it up with the binary its server runs"};
  return std::nullopt;
}

// ---------------------------------------------------------------- backup

struct BackupFlags {
  fs::path out;
  Store store;
  std::string pg_bin;
};

std::variant<BackupFlags, Failure> ParseBackupFlags(const std::vector<std::string>& args) {
  std::map<std::string, std::string> values;
  if (auto failed = ParseFlags(args, {"out", "database", "data-dir", "pg-bin"}, values)) return *failed;
  BackupFlags flags;
  if (!values.count("out")) return Failure{2, "--out is required: the new directory to write the backup in"};
  std::error_code ec;
  flags.out = fs::absolute(values["out"], ec).lexically_normal();
  if (flags.out.filename().empty()) flags.out = flags.out.parent_path();  // a trailing slash
  const fs::path parent = flags.out.parent_path();
  if (!fs::is_directory(parent, ec))
    return Failure{2, "--out: the directory '" + parent.string() + "' does not exist (the backup is made in a new" +
                          " directory inside it)"};
  if (fs::exists(flags.out, ec) || fs::is_symlink(flags.out, ec))
    return Failure{2, "--out: '" + flags.out.string() + "' already exists; name a new directory"};
  auto store = ResolveStore(values);
  if (auto* failed = std::get_if<Failure>(&store)) return *failed;
  flags.store = std::get<Store>(store);
  if (flags.store.backend == kSqlite && !fs::is_regular_file(flags.store.sqlite_path, ec))
    return Failure{2, flags.store.flag + ": there is no SQLite database at '" + flags.store.sqlite_path + "'"};
  flags.pg_bin = values["pg-bin"];
  return flags;
}

// Writes the data file into `dir` and fills `m` from the same snapshot.
std::optional<Failure> SnapshotSqlite(storage::Database& db, const BackupFlags& flags, const fs::path& dir,
                                      Manifest& m) {
  storage::Session session(db, storage::TxMode::kRead);
  if (auto failed = CheckSchemaVersion(session, flags.store.flag, flags.store.url)) return failed;
  auto step_start = Clk::now();
  DescribeSnapshot(session, m);
  std::fprintf(stderr, "the snapshot described (row counts, chain heads, keys) in %.2f s\n", SecondsSince(step_start));
  step_start = Clk::now();
  auto last_report = Clk::now();
  const auto stats = storage::BackupSqliteSnapshot(
      session.connection(), (dir / kSqliteFile).string(), kPagesPerStep, [&](int64_t copied, int64_t total) {
        if (SecondsSince(last_report) < 1 && copied < total) return;
        last_report = Clk::now();
        std::fprintf(stderr, "copied %lld of %lld pages\n", static_cast<long long>(copied),
                     static_cast<long long>(total));
      });
  std::fprintf(stderr, "the SQLite snapshot copied: %lld pages of %lld bytes in %lld steps, %.2f s\n",
               static_cast<long long>(stats.pages), static_cast<long long>(stats.page_size),
               static_cast<long long>(stats.steps), SecondsSince(step_start));
  m.file = kSqliteFile;
  return std::nullopt;
}

// pg_dump of the snapshot this transaction exported, while it is open.
std::optional<Failure> SnapshotPostgres(storage::Database& db, const BackupFlags& flags, const fs::path& dir,
                                        const std::string& described, Manifest& m) {
  storage::Session session(db, storage::TxMode::kRead);
  if (auto failed = CheckSchemaVersion(session, flags.store.flag, described)) return failed;
  const std::string snapshot =
      session.Execute("backup.export_snapshot", "SELECT pg_export_snapshot()", {}).front().Text(0);
  const auto describe_start = Clk::now();
  DescribeSnapshot(session, m);
  std::fprintf(stderr, "the snapshot described (row counts, chain heads, keys) in %.2f s\n", SecondsSince(describe_start));
  const auto login = storage::ToolLogin(flags.store.url);
  const auto started = Clk::now();
  auto run = RunTool("pg_dump", flags.pg_bin,
                     {"--format=custom", "--snapshot=" + snapshot, "--file=" + (dir / kPostgresFile).string(),
                      "--dbname=" + login.conninfo},
                     login.password);
  if (auto* failed = std::get_if<Failure>(&run)) return *failed;
  const auto& done = std::get<ToolRun>(run);
  if (done.exit_code != 0)
    return Failure{1, "pg_dump failed (exit " + std::to_string(done.exit_code) + "): " + done.err +
                          "\n(pg_dump must be of the server's major version or newer; name its directory with"
                          " --pg-bin)"};
  std::fprintf(stderr, "pg_dump wrote the snapshot in %.2f s\n", SecondsSince(started));
  m.file = kPostgresFile;
  return std::nullopt;
}

int RunBackup(const BackupFlags& flags) {
  const auto started = Clk::now();
  Manifest m;
  m.backend = flags.store.backend;
  m.created_at = FormatTimestamp(SystemClock().Now());
  // Made under a name of its own and renamed once complete: DIR exists only
  // as a whole backup.
  const fs::path partial = flags.out.string() + ".partial-" + std::to_string(::getpid());
  std::error_code ec;
  if (!fs::create_directory(partial, ec))
    return Report("backup", kBackupUsage,
                  {1, "--out: cannot make " + partial.string() + ": " + (ec ? ec.message() : "it exists")});
  // The backup holds what the database holds (the access-token signing
  // key, API key hashes, sessions): readable by its owner only.
  fs::permissions(partial, fs::perms::owner_all, fs::perm_options::replace, ec);
  auto fail = [&](const Failure& f) {
    fs::remove_all(partial, ec);
    return Report("backup", kBackupUsage, f);
  };
  double copy_seconds = 0;
  try {
    storage::DatabaseOptions options;
    options.pool_size = 2;
    auto db = storage::OpenDatabase(flags.store.url, options);
    m.source = db->Describe();
    const auto copy_start = Clk::now();
    auto failed = m.backend == kSqlite ? SnapshotSqlite(*db, flags, partial, m)
                                       : SnapshotPostgres(*db, flags, partial, m.source, m);
    if (failed) return fail(*failed);
    copy_seconds = SecondsSince(copy_start);
    // The chains, row counts and keys are the snapshot's; the file is what
    // restore finds it to be.
    const fs::path file = partial / m.file;
    m.file_bytes = static_cast<int64_t>(fs::file_size(file));
    const auto hash_start = Clk::now();
    m.file_sha256 = FileSha256(file);
    std::fprintf(stderr, "SHA-256 of %lld bytes in %.2f s\n", static_cast<long long>(m.file_bytes),
                 SecondsSince(hash_start));
    SyncPath(file);
    std::ofstream manifest(partial / kManifestFile);
    manifest << ToJson(m) << "\n";
    manifest.close();
    if (!manifest) throw std::runtime_error("cannot write " + (partial / kManifestFile).string());
    SyncPath(partial / kManifestFile);
    SyncPath(partial);
  } catch (const std::exception& e) {
    return fail({1, std::string("the backup failed (nothing was left at --out): ") + e.what()});
  }
  fs::rename(partial, flags.out, ec);
  if (ec)
    return fail({1, "--out: cannot rename " + partial.string() + " to " + flags.out.string() + ": " + ec.message()});
  SyncPath(flags.out.parent_path());

  int64_t rows = 0;
  for (const auto& [table, n] : m.rows) rows += n;
  std::string current_key;
  for (const auto& k : m.keys)
    if (k.current) current_key = k.key_id;
  std::string out;
  JsonObjectWriter summary(out);
  summary.Bool("ok", true).Str("out", flags.out.string()).Str("backend", m.backend).Str("source", m.source);
  summary.Str("createdAt", m.created_at).Int("schemaVersion", m.schema_version);
  summary.Str("file", (flags.out / m.file).string()).Int("bytes", m.file_bytes).Int("rows", rows);
  summary.Int("chains", static_cast<int64_t>(m.chains.size()));
  summary.Raw("seconds", Fixed(SecondsSince(started))).Raw("copySeconds", Fixed(copy_seconds));
  std::vector<std::string> key_ids;
  for (const auto& k : m.keys) key_ids.push_back(k.key_id);
  summary.Raw("chainSigningKeyIds", StringListToJson(key_ids));
  summary.Close();
  std::printf("%s\n", out.c_str());
  std::fprintf(stderr,
               "\nThe chain-signing key is not in the backup (it is a secret kept outside the database). Keep a copy\n"
               "of the key file (key id %s; by default <data-dir>/chain-signing-key.pem) apart from the backups:\n"
               "restore checks the chains with it, and a server on the restored store must sign with it.\n",
               current_key.empty() ? "(none yet)" : current_key.c_str());
  return 0;
}

// ---------------------------------------------------------------- restore

struct RestoreFlags {
  fs::path from;
  Store store;
  std::string key_path;
  std::string pg_bin;
};

std::variant<RestoreFlags, Failure> ParseRestoreFlags(const std::vector<std::string>& args) {
  std::map<std::string, std::string> values;
  if (auto failed = ParseFlags(args, {"from", "database", "data-dir", "chain-signing-key", "pg-bin"}, values))
    return *failed;
  RestoreFlags flags;
  if (!values.count("from")) return Failure{2, "--from is required: the directory `credence admin backup --out` made"};
  std::error_code ec;
  flags.from = fs::absolute(values["from"], ec).lexically_normal();
  if (flags.from.filename().empty()) flags.from = flags.from.parent_path();
  auto store = ResolveStore(values);
  if (auto* failed = std::get_if<Failure>(&store)) return *failed;
  flags.store = std::get<Store>(store);
  std::error_code key_ec;
  flags.key_path = fs::absolute(flags.store.key_path, key_ec).string();
  flags.pg_bin = values["pg-bin"];
  return flags;
}

// The backup at --from, read and checked against its own manifest.
std::variant<Manifest, Failure> ReadBackup(const fs::path& from) {
  std::error_code ec;
  const std::string where = "--from: '" + from.string() + "'";
  if (!fs::exists(from, ec)) return Failure{2, where + " does not exist"};
  if (!fs::is_directory(from, ec))
    return Failure{2, where + " is not a Credence backup: a backup is the directory `credence admin backup --out`" +
                          " made, with manifest.json in it"};
  const fs::path manifest_path = from / kManifestFile;
  if (!fs::is_regular_file(manifest_path, ec))
    return Failure{2, where + " is not a Credence backup (it has no manifest.json)"};
  std::ifstream in(manifest_path);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) return Failure{2, "--from: cannot read " + manifest_path.string()};
  std::string error;
  auto m = FromJson(text.str(), error);
  if (!m) return Failure{2, where + " is not a Credence backup: manifest.json: " + error};
  const fs::path file = from / m->file;
  if (!fs::is_regular_file(file, ec))
    return Failure{1, "--from: the backup is incomplete: " + file.string() + " is missing"};
  const auto bytes = static_cast<int64_t>(fs::file_size(file, ec));
  if (bytes != m->file_bytes)
    return Failure{1, "--from: the backup is damaged: " + file.string() + " has " + std::to_string(bytes) +
                          " bytes, the manifest says " + std::to_string(m->file_bytes)};
  try {
    if (FileSha256(file) != m->file_sha256)
      return Failure{
          1, "--from: the backup is damaged: the SHA-256 of " + file.string() + " is not the one in the manifest"};
  } catch (const std::exception& e) {
    return Failure{1, "--from: " + std::string(e.what())};
  }
  return *m;
}

// Whether the target holds nothing; Failure{1} naming what it holds.
std::optional<Failure> CheckTargetEmpty(const RestoreFlags& flags, storage::Database* pg,
                                        const std::string& described) {
  const std::string refusal =
      flags.store.backend == kSqlite
          ? "; restore puts a backup into an empty store only (a data directory or path without a database yet)"
          : "; restore puts a backup into an empty database only (CREATE DATABASE a new one)";
  if (flags.store.backend == kSqlite) {
    std::error_code ec;
    for (const char* suffix : {"", "-wal"}) {
      const std::string path = flags.store.sqlite_path + suffix;
      if (fs::exists(path, ec) && (!fs::is_regular_file(path, ec) || fs::file_size(path, ec) > 0))
        return Failure{1, flags.store.flag + ": " + path + " exists and is not empty" + refusal};
    }
    return std::nullopt;
  }
  auto conn = pg->Acquire();
  const std::string object = storage::FirstUserObject(*conn);
  if (object.empty()) return std::nullopt;
  std::string what = "it has the " + object;
  for (const auto& t : storage::ListPostgresTables(*conn))
    if (storage::HasRows(*conn, t.name)) {
      what = "the table " + t.name + " has rows";
      break;
    }
  return Failure{1, "--database: " + described + " is not empty (" + what + ")" + refusal};
}

// The checks of a restored store, before and after the migrations; the
// problems found (none: it is whole).
struct Checked {
  std::vector<std::string> problems;
  std::vector<ChainCheck> chains;
  int migrations = 0;
  int64_t rows = 0;
};

Checked CheckRestored(storage::Database& db, const Manifest& m,
                      const std::shared_ptr<const integrity::SigningKey>& key) {
  Checked out;
  // The rows as restored: the same snapshot the manifest describes, so the
  // same counts, table by table.
  {
    storage::Session session(db, storage::TxMode::kRead);
    const auto rows = CountRows(session);
    for (const auto& [table, n] : m.rows) {
      const auto found = rows.find(table);
      if (found == rows.end()) {
        out.problems.push_back("the table " + table + " (" + std::to_string(n) + " rows in the manifest) is missing");
      } else if (found->second != n) {
        out.problems.push_back(table + ": " + std::to_string(found->second) + " rows, the manifest says " +
                               std::to_string(n));
      }
    }
    for (const auto& [table, n] : rows) {
      out.rows += n;
      if (!m.rows.count(table)) out.problems.push_back("the table " + table + " is not in the manifest");
    }
  }
  if (!out.problems.empty()) return out;
  out.migrations = storage::ApplyMigrations(db, AllMigrations());
  if (out.migrations > 0)
    std::fprintf(stderr, "the restored store brought to this version: %d migrations\n", out.migrations);
  if (db.dialect() == storage::Dialect::kPostgres) db.Acquire()->ExecuteScript("ANALYZE");
  SystemClock clock;
  const integrity::ChainHeads heads(db, clock, key, {trust::LedgerChain(), platform::AuditChain()});
  out.chains = VerifyChains(db, heads);
  for (const auto& c : out.chains)
    if (!c.ok)
      out.problems.push_back("the " + c.chain + " chain of tenant " + c.tenant_id + " does not verify: " + c.problem);
  // Each chain reaches the head the manifest saw, with its hash there.
  for (const auto& h : m.chains) {
    storage::Session session(db, storage::TxMode::kRead);
    storage::TenantSession tenant(session, h.tenant_id);
    const auto& source = SourceOf(h.chain);
    const auto head = source.head(tenant);
    const std::string which = "the " + h.chain + " chain of tenant " + h.tenant_id;
    if (!head || head->seq < h.seq) {
      out.problems.push_back(which + " ends at " + std::to_string(head ? head->seq : 0) +
                             ", before the manifest's head " + std::to_string(h.seq));
    } else if (source.hash_at(tenant, h.seq).value_or("") != h.hash) {
      out.problems.push_back(which + " has another hash at " + std::to_string(h.seq) + " than the manifest's head");
    }
  }
  return out;
}

int RunRestore(const RestoreFlags& flags) {
  const auto started = Clk::now();
  auto read = ReadBackup(flags.from);
  if (auto* failed = std::get_if<Failure>(&read)) return Report("restore", kRestoreUsage, *failed);
  const Manifest m = std::get<Manifest>(read);
  if (m.backend != flags.store.backend)
    return Report("restore", kRestoreUsage,
                  {2, m.backend == kSqlite
                          ? flags.store.flag + ": the backup is of a SQLite store and restores into SQLite only (give" +
                                " --data-dir or --database sqlite:PATH; to move it to PostgreSQL afterwards, use" +
                                " migrate-database)"
                          : flags.store.flag + ": the backup is of a PostgreSQL database and restores into" +
                                " PostgreSQL only (give --database postgresql://...)"});
  const int64_t ours = AllMigrations().back().version;
  if (m.schema_version > ours)
    return Report(
        "restore", kRestoreUsage,
        {1, "the backup is at schema version " + std::to_string(m.schema_version) + ", newer than this binary's (" +
                std::to_string(ours) + "): restore it with the binary that made it"});

  // The key: one that signed in the backed-up store, and still its current
  // one (a server started with a retired key signs nothing).
  std::string key_error;
  const auto key = ReadChainSigningKey(flags.key_path, key_error);
  std::string current;
  for (const auto& k : m.keys)
    if (k.current) current = k.key_id;
  if (!key)
    return Report("restore", kRestoreUsage,
                  {2, "--chain-signing-key: " + key_error +
                          (current.empty() ? std::string()
                                           : "; the backup's chain heads are signed with key " + current +
                                                 ", whose file is kept apart from the backups: name it with"
                                                 " --chain-signing-key")});
  if (!m.keys.empty() && key->key_id() != current) {
    bool retired = false;
    for (const auto& k : m.keys) retired = retired || k.key_id == key->key_id();
    return Report(
        "restore", kRestoreUsage,
        {2, "--chain-signing-key: '" + flags.key_path + "' holds key " + key->key_id() +
                (retired ? ", which the backed-up store had retired" : ", which never signed in the backed-up store") +
                " (its current key: " + current + ")"});
  }

  std::unique_ptr<storage::Database> pg;
  std::string described = flags.store.url;
  try {
    if (flags.store.backend == kPostgres) {
      pg = storage::OpenDatabase(flags.store.url, storage::DatabaseOptions{});
      described = pg->Describe();
    }
    if (auto failed = CheckTargetEmpty(flags, pg.get(), described)) return Report("restore", kRestoreUsage, *failed);
  } catch (const std::exception& e) {
    return Report("restore", kRestoreUsage, {1, flags.store.flag + ": " + e.what()});
  }

  // Restored under a name of its own on SQLite, moved into place once it
  // checked out; in one transaction on PostgreSQL.
  const fs::path data_file = flags.from / m.file;
  const fs::path staging = flags.store.backend == kSqlite
                               ? fs::path(flags.store.sqlite_path + ".restoring-" + std::to_string(::getpid()))
                               : fs::path();
  const auto restore_start = Clk::now();
  try {
    if (flags.store.backend == kSqlite) {
      fs::create_directories(staging.parent_path());
      RemoveSqliteFiles(staging);
      fs::copy_file(data_file, staging);
      SyncPath(staging);
    } else {
      const auto login = storage::ToolLogin(flags.store.url);
      auto run = RunTool("pg_restore", flags.pg_bin,
                         {"--no-owner", "--no-privileges", "--single-transaction", "--exit-on-error",
                          "--dbname=" + login.conninfo, data_file.string()},
                         login.password);
      if (auto* failed = std::get_if<Failure>(&run)) return Report("restore", kRestoreUsage, *failed);
      const auto& done = std::get<ToolRun>(run);
      if (done.exit_code != 0)
        return Report("restore", kRestoreUsage,
                      {1, "pg_restore failed (exit " + std::to_string(done.exit_code) + "; in one transaction, so " +
                              described + " is as empty as before): " + done.err});
    }
  } catch (const std::exception& e) {
    RemoveSqliteFiles(staging);
    return Report("restore", kRestoreUsage, {1, std::string("the restore failed: ") + e.what()});
  }
  const double restore_seconds = SecondsSince(restore_start);
  std::fprintf(stderr, "the backup of %s restored in %.2f s; checking it\n", m.created_at.c_str(), restore_seconds);

  const auto verify_start = Clk::now();
  Checked checked;
  try {
    std::unique_ptr<storage::Database> restored =
        flags.store.backend == kSqlite ? storage::OpenDatabase("sqlite:" + staging.string(), storage::DatabaseOptions{})
                                       : std::move(pg);
    checked = CheckRestored(*restored, m, key);
    if (flags.store.backend == kPostgres) pg = std::move(restored);
  } catch (const std::exception& e) {
    checked.problems.push_back(std::string("the check failed: ") + e.what());
  }
  const double verify_seconds = SecondsSince(verify_start);

  // Into place (SQLite): the database is closed, its WAL folded back in.
  if (checked.problems.empty() && flags.store.backend == kSqlite) {
    std::error_code ec;
    if (fs::exists(staging.string() + "-wal", ec)) {
      checked.problems.push_back("the restored file's WAL was not folded back in when it was closed");
    } else if (auto failed = CheckTargetEmpty(flags, nullptr, described)) {
      checked.problems.push_back("meanwhile " + failed->message);
    } else {
      fs::remove(flags.store.sqlite_path + "-shm", ec);
      fs::rename(staging, flags.store.sqlite_path, ec);
      if (ec) checked.problems.push_back("cannot move the restored file into place: " + ec.message());
      SyncPath(staging.parent_path());
    }
  }
  if (!checked.problems.empty()) {
    std::string message = "the restored store does not match the backup:";
    for (const auto& p : checked.problems) message += "\n  " + p;
    if (flags.store.backend == kSqlite) {
      RemoveSqliteFiles(staging);
      message += "\nnothing was left at " + flags.store.sqlite_path;
    } else {
      try {
        if (!pg) pg = storage::OpenDatabase(flags.store.url, storage::DatabaseOptions{});
        storage::DropUserObjects(*pg->Acquire());
        message += "\nwhat was restored was dropped again: " + described + " is empty";
      } catch (const std::exception& e) {
        message += std::string("\nand dropping what was restored failed too (") + e.what() +
                   "): drop and create the database again before the next attempt";
      }
    }
    return Report("restore", kRestoreUsage, {1, message});
  }

  std::map<std::pair<std::string, std::string>, int64_t> manifest_heads;
  for (const auto& h : m.chains) manifest_heads[{h.chain, h.tenant_id}] = h.seq;
  std::string chains = "[";
  for (const auto& c : checked.chains) {
    const auto at = manifest_heads.find({c.chain, c.tenant_id});
    if (chains.size() > 1) chains += ',';
    JsonObjectWriter chain(chains);
    chain.Str("chain", c.chain).Str("tenantId", c.tenant_id).Int("records", c.records).Int("signedHeads", c.heads);
    chain.Int("manifestSeq", at == manifest_heads.end() ? 0 : at->second).Bool("verified", true);
    chain.Close();
  }
  chains += ']';
  std::string out;
  JsonObjectWriter summary(out);
  summary.Bool("ok", true).Str("from", flags.from.string()).Str("to", described).Str("backend", m.backend);
  summary.Str("backupCreatedAt", m.created_at).Str("backupSource", m.source);
  summary.Raw("schemaVersion",
              "{\"backup\":" + std::to_string(m.schema_version) + ",\"now\":" + std::to_string(ours) + "}");
  summary.Int("migrationsApplied", checked.migrations).Int("rows", checked.rows);
  summary.Raw("seconds", Fixed(SecondsSince(started))).Raw("restoreSeconds", Fixed(restore_seconds));
  summary.Raw("verifySeconds", Fixed(verify_seconds)).Raw("chains", chains);
  std::string key_json;
  JsonObjectWriter key_writer(key_json);
  key_writer.Str("path", flags.key_path).Str("keyId", key->key_id());
  key_writer.Close();
  summary.Raw("chainSigningKey", key_json);
  summary.Close();
  std::printf("%s\n", out.c_str());
  std::fprintf(stderr,
               "\nStart the server on the restored store with this chain-signing key (--chain-signing-key %s,\n"
               "or as chain-signing-key.pem in its --data-dir), and with the same --oidc-config and other flags.\n",
               flags.key_path.c_str());
  return 0;
}

}  // namespace

int BackupDatabase(const std::vector<std::string>& args) {
  // This command reports its own progress; the storage layer's info lines
  // would bury it.
  SetLogLevel(LogLevel::kWarn);
  auto flags = ParseBackupFlags(args);
  if (auto* failed = std::get_if<Failure>(&flags)) return Report("backup", kBackupUsage, *failed);
  try {
    return RunBackup(std::get<BackupFlags>(flags));
  } catch (const std::exception& e) {
    return Report("backup", kBackupUsage, {1, e.what()});
  }
}

int RestoreDatabase(const std::vector<std::string>& args) {
  SetLogLevel(LogLevel::kWarn);
  auto flags = ParseRestoreFlags(args);
  if (auto* failed = std::get_if<Failure>(&flags)) return Report("restore", kRestoreUsage, *failed);
  try {
    return RunRestore(std::get<RestoreFlags>(flags));
  } catch (const std::exception& e) {
    return Report("restore", kRestoreUsage, {1, e.what()});
  }
}

}  // namespace credence::app
