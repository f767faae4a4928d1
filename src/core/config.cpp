#include "core/config.h"

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <thread>

#include "core/text.h"

namespace credence {
namespace {

enum class FlagType { kString, kBool, kInt };

struct FlagSpec {
  const char* name;  // flag without dashes; env name is CREDENCE_ + upper snake
  FlagType type;
  const char* help;
};

constexpr FlagSpec kFlags[] = {
    {"config", FlagType::kString,
     "read settings from this file first: `name = value` lines, # comments (docs/packaging.md); the environment "
     "and flags override it"},
    {"listen", FlagType::kString, "HOST:PORT to listen on (default 127.0.0.1:8080)"},
    {"database", FlagType::kString, "sqlite:<path> or postgresql://... (default sqlite:<data-dir>/credence.db)"},
    {"data-dir", FlagType::kString, "directory for the SQLite file and other state (default ./data)"},
    {"dev", FlagType::kBool, "development mode: dev sign-in and a seeded demo tenant"},
    {"threads", FlagType::kInt, "HTTP worker threads (default: two per core)"},
    {"db-pool-size", FlagType::kInt, "database connections (default: threads + 2)"},
    {"max-body-bytes", FlagType::kInt, "largest request body accepted (default 1048576)"},
    {"max-header-bytes", FlagType::kInt, "largest request header block accepted (default 16384)"},
    {"read-timeout-ms", FlagType::kInt, "time to receive a whole request, header and body (default 10000)"},
    {"idle-timeout-ms", FlagType::kInt, "keep-alive idle time before closing (default 60000)"},
    {"shutdown-timeout-ms", FlagType::kInt, "grace period for in-flight requests on SIGTERM (default 10000)"},
    {"max-connections", FlagType::kInt,
     "open connections at most; past it the oldest incomplete, then idle, connections are shed"
     " (default 0: derived from the open-files limit)"},
    {"max-connections-per-address", FlagType::kInt,
     "open connections one client address may hold; past it its oldest incomplete or idle one is shed"
     " (default 0: no cap, as behind a proxy every client shares its address)"},
    {"allow-private-outbound", FlagType::kBool,
     "notification channels and webhooks may call private and unique-local addresses (docs/outbound.md)"},
    {"test-clock", FlagType::kBool, "with --dev: the clock can be set with PUT /dev/clock (for tests)"},
    {"jobs-interval-ms", FlagType::kInt, "how often background jobs run (default 5000; 0: only on demand in dev)"},
    {"smtp-url", FlagType::kString, "outbound mail server, smtp://host:port (email channels)"},
    {"smtp-from", FlagType::kString, "sender address of outbound mail (default credence@localhost)"},
    {"invitation-days", FlagType::kInt, "how long an invitation can be accepted, in days (default 14)"},
    {"token-ttl-seconds", FlagType::kInt, "lifetime of access tokens from /connect/token (default 3600)"},
    {"app-key-max-days", FlagType::kInt, "longest lifetime of an app-bound key, in days (default 365)"},
    {"sqlite-wal-restart-mb", FlagType::kInt,
     "SQLite: restart the write-ahead log once this many MB of it are in use (default 4096)"},
    {"web-dir", FlagType::kString,
     "serve the built web client from this directory at / (docs/web-client.md; default: none)"},
    {"oidc-config", FlagType::kString, "JSON file of OpenID Connect providers for sign-in (docs/sign-in.md)"},
    {"public-url", FlagType::kString, "externally visible base URL (default http://<listen address>); https makes cookies Secure"},
    {"mcp-allowed-origins", FlagType::kString,
     "comma-separated origins besides the public URL's whose requests /mcp takes (docs/agents.md; default none)"},
    {"session-idle-minutes", FlagType::kInt, "a session unused this long ends (default 720)"},
    {"session-max-hours", FlagType::kInt, "a session ends this long after sign-in (default 168)"},
    {"tenant-creations-per-day", FlagType::kInt,
     "tenants one signed-in user may create per day outside --dev (default 3; 0: none)"},
    {"rate-limit-key-rps", FlagType::kInt,
     "requests per second per API key (tenant and app-bound keys; default 100; 0: no limit; docs/operations.md)"},
    {"rate-limit-key-burst", FlagType::kInt, "requests an API key may send at once (default 200; 0: twice the rps)"},
    {"rate-limit-user-rps", FlagType::kInt,
     "requests per second per signed-in user (sessions, development tokens; default 100; 0: no limit)"},
    {"rate-limit-user-burst", FlagType::kInt, "requests a signed-in user may send at once (default 1000; 0: twice the rps)"},
    {"rate-limit-address-rps", FlagType::kInt,
     "requests per second per client address to the token endpoint, sign-in starts and dev login (default 50; 0: no "
     "limit)"},
    {"rate-limit-address-burst", FlagType::kInt,
     "requests a client address may send at once to those routes (default 500; 0: twice the rps)"},
    {"rate-limit-nodes", FlagType::kInt,
     "nodes behind the load balancer: each enforces 1/N of every rate limit (default 1)"},
    {"chain-signing-key", FlagType::kString,
     "PEM file of the Ed25519 key that signs chain heads (default <data-dir>/chain-signing-key.pem; created if "
     "absent)"},
    {"secrets-key-file", FlagType::kString,
     "file of the AES-256 keys that seal connector credentials (default <data-dir>/connector-secrets.key; created "
     "if absent; docs/connectors.md)"},
    {"chain-head-interval-seconds", FlagType::kInt, "how often moved chain heads are signed (default 60)"},
    {"archive-dir", FlagType::kString,
     "directory the records past each tenant's retention are archived to, then deleted (default: none, nothing is "
     "archived; docs/retention.md)"},
    {"archive-interval-minutes", FlagType::kInt, "how often the archiver looks for records past retention (default 60)"},
    {"connector-lease-seconds", FlagType::kInt,
     "how long a connector sync holds its connector without committing a batch (default 120)"},
    {"connector-batch-size", FlagType::kInt, "documents a connector sync commits per batch (default 200)"},
    {"connector-batch-pause-ms", FlagType::kInt, "with --dev: a pause after each connector batch (tests; default 0)"},
    {"record-reads", FlagType::kBool,
     "record a DocumentRead analytics event for each entry read by a signed-in user (default true; "
     "docs/analytics.md)"},
    {"mt-apertium-url", FlagType::kString,
     "machine translation: base URL of an Apertium APY server, e.g. http://127.0.0.1:2737 "
     "(docs/machine-translation.md)"},
    {"mt-libretranslate-url", FlagType::kString, "machine translation: base URL of a LibreTranslate server"},
    {"mt-libretranslate-key", FlagType::kString, "machine translation: LibreTranslate API key (api_key)"},
    {"mt-deepl-url", FlagType::kString,
     "machine translation: DeepL API base URL (https://api.deepl.com or https://api-free.deepl.com)"},
    {"mt-deepl-key", FlagType::kString, "machine translation: DeepL authentication key"},
    {"mt-default-provider", FlagType::kString,
     "machine translation: apertium, libretranslate or deepl (default apertium; else the first configured)"},
    {"mt-timeout-ms", FlagType::kInt, "machine translation: time allowed for one provider request (default 15000)"},
    {"mt-jobs-per-tenant", FlagType::kInt,
     "machine translation: the triggers' jobs of one tenant translated at once (default 2)"},
    {"allow-local-repositories", FlagType::kBool,
     "git connectors may read repositories on this server's disk by path or file:// (default: only with --dev)"},
};

std::string EnvName(std::string_view flag) {
  std::string out = "CREDENCE_";
  for (char c : flag) out.push_back(c == '-' ? '_' : static_cast<char>(std::toupper(c)));
  return out;
}

const FlagSpec* FindFlag(std::string_view name) {
  for (const auto& f : kFlags)
    if (name == f.name) return &f;
  return nullptr;
}

std::optional<bool> ParseBool(std::string_view v) {
  if (v == "1" || v == "true" || v == "yes" || v == "on") return true;
  if (v == "0" || v == "false" || v == "no" || v == "off") return false;
  return std::nullopt;
}

std::optional<int64_t> ParseInt(std::string_view v) {
  int64_t out = 0;
  auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec != std::errc() || ptr != v.data() + v.size()) return std::nullopt;
  return out;
}

Error FlagError(std::string_view flag, std::string message) {
  std::string detail = "--" + std::string(flag) + ": " + message;
  return Error::InvalidArgument("invalid_flag", std::move(detail), {{std::string(flag), std::move(message)}});
}

Status Apply(Config& c, const FlagSpec& f, const std::string& value) {
  const std::string_view name = f.name;
  int64_t number = 0;
  if (f.type == FlagType::kInt) {
    auto parsed = ParseInt(value);
    if (!parsed || *parsed < 0) return FlagError(name, "expected a non-negative integer, got '" + value + "'");
    number = *parsed;
  }
  if (name == "listen") {
    const auto colon = value.rfind(':');
    if (colon == std::string::npos) return FlagError(name, "expected HOST:PORT, got '" + value + "'");
    auto port = ParseInt(std::string_view(value).substr(colon + 1));
    if (!port || *port < 0 || *port > 65535) return FlagError(name, "invalid port in '" + value + "'");
    std::string host = value.substr(0, colon);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
    c.listen_host = host.empty() ? "0.0.0.0" : host;
    c.listen_port = static_cast<uint16_t>(*port);
  } else if (name == "database") {
    if (value.rfind("sqlite:", 0) != 0 && value.rfind("postgresql://", 0) != 0 &&
        value.rfind("postgres://", 0) != 0)
      return FlagError(name, "expected sqlite:<path> or postgresql://..., got '" + value + "'");
    c.database_url = value;
  } else if (name == "data-dir") {
    if (value.empty()) return FlagError(name, "must not be empty");
    c.data_dir = value;
  } else if (name == "dev") {
    auto b = ParseBool(value);
    if (!b) return FlagError(name, "expected true or false, got '" + value + "'");
    c.dev = *b;
  } else if (name == "threads") {
    if (number > 256) return FlagError(name, "at most 256");
    c.threads = static_cast<int>(number);
  } else if (name == "db-pool-size") {
    if (number > 1024) return FlagError(name, "at most 1024");
    c.db_pool_size = static_cast<int>(number);
  } else if (name == "max-body-bytes") {
    if (number < 1024) return FlagError(name, "at least 1024");
    c.max_body_bytes = static_cast<size_t>(number);
  } else if (name == "max-header-bytes") {
    if (number < 1024) return FlagError(name, "at least 1024");
    c.max_header_bytes = static_cast<size_t>(number);
  } else if (name == "read-timeout-ms") {
    if (number < 10) return FlagError(name, "at least 10");
    c.read_timeout_ms = number;
  } else if (name == "idle-timeout-ms") {
    if (number < 10) return FlagError(name, "at least 10");
    c.idle_timeout_ms = number;
  } else if (name == "shutdown-timeout-ms") {
    c.shutdown_timeout_ms = number;
  } else if (name == "max-connections") {
    if (number != 0 && number < 16) return FlagError(name, "0 (derived) or at least 16");
    c.max_connections = number;
  } else if (name == "max-connections-per-address") {
    c.max_connections_per_address = number;
  } else if (name == "allow-private-outbound") {
    auto b = ParseBool(value);
    if (!b) return FlagError(name, "expected true or false, got '" + value + "'");
    c.allow_private_outbound = *b;
  } else if (name == "test-clock") {
    auto b = ParseBool(value);
    if (!b) return FlagError(name, "expected true or false, got '" + value + "'");
    c.test_clock = *b;
  } else if (name == "jobs-interval-ms") {
    c.jobs_interval_ms = number;
  } else if (name == "smtp-url") {
    if (!value.empty() && value.rfind("smtp://", 0) != 0) return FlagError(name, "expected smtp://host:port");
    c.smtp_url = value;
  } else if (name == "smtp-from") {
    if (value.find('@') == std::string::npos) return FlagError(name, "expected an email address");
    c.smtp_from = value;
  } else if (name == "invitation-days") {
    if (number < 1 || number > 365) return FlagError(name, "expected 1 to 365 days");
    c.invitation_days = number;
  } else if (name == "token-ttl-seconds") {
    if (number < 1 || number > 86'400) return FlagError(name, "expected 1 to 86400 seconds");
    c.token_ttl_seconds = number;
  } else if (name == "app-key-max-days") {
    if (number < 1 || number > 3650) return FlagError(name, "expected 1 to 3650 days");
    c.app_key_max_days = number;
  } else if (name == "sqlite-wal-restart-mb") {
    if (number < 1 || number > 1'048'576) return FlagError(name, "expected 1 to 1048576 MB");
    c.sqlite_wal_restart_mb = number;
  } else if (name == "web-dir") {
    c.web_dir = value;
  } else if (name == "oidc-config") {
    c.oidc_config = value;
  } else if (name == "public-url") {
    std::string url = value;
    while (!url.empty() && url.back() == '/') url.pop_back();
    if (url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0)
      return FlagError(name, "expected an http:// or https:// URL, got '" + value + "'");
    c.public_url = url;
  } else if (name == "mcp-allowed-origins") {
    c.mcp_allowed_origins.clear();
    size_t start = 0;
    while (start <= value.size()) {
      const size_t comma = value.find(',', start);
      std::string origin = value.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      while (!origin.empty() && origin.front() == ' ') origin.erase(origin.begin());
      while (!origin.empty() && (origin.back() == ' ' || origin.back() == '/')) origin.pop_back();
      if (!origin.empty()) {
        if (origin.rfind("http://", 0) != 0 && origin.rfind("https://", 0) != 0)
          return FlagError(name, "expected http:// or https:// origins separated by commas, got '" + origin + "'");
        c.mcp_allowed_origins.push_back(std::move(origin));
      }
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  } else if (name == "session-idle-minutes") {
    if (number < 1 || number > 525'600) return FlagError(name, "expected 1 to 525600 minutes");
    c.session_idle_minutes = number;
  } else if (name == "session-max-hours") {
    if (number < 1 || number > 8'760) return FlagError(name, "expected 1 to 8760 hours");
    c.session_max_hours = number;
  } else if (name == "tenant-creations-per-day") {
    if (number > 1000) return FlagError(name, "at most 1000");
    c.tenant_creations_per_day = number;
  } else if (name.rfind("rate-limit-", 0) == 0) {
    const bool burst = name.size() > 6 && name.substr(name.size() - 6) == "-burst";
    if (name == "rate-limit-nodes") {
      if (number < 1 || number > 1000) return FlagError(name, "expected 1 to 1000");
      c.rate_limit_nodes = number;
    } else if (burst ? number > 10'000'000 : number > 1'000'000) {
      return FlagError(name, burst ? "at most 10000000" : "at most 1000000");
    } else {
      int64_t& field = name == "rate-limit-key-rps"     ? c.rate_limit_key_rps
                       : name == "rate-limit-key-burst" ? c.rate_limit_key_burst
                       : name == "rate-limit-user-rps"  ? c.rate_limit_user_rps
                       : name == "rate-limit-user-burst" ? c.rate_limit_user_burst
                       : name == "rate-limit-address-rps" ? c.rate_limit_address_rps
                                                          : c.rate_limit_address_burst;
      field = number;
    }
  } else if (name == "chain-signing-key") {
    if (value.empty()) return FlagError(name, "must not be empty");
    c.chain_signing_key = value;
  } else if (name == "secrets-key-file") {
    if (value.empty()) return FlagError(name, "must not be empty");
    c.secrets_key_file = value;
  } else if (name == "archive-dir") {
    if (value.empty()) return FlagError(name, "must not be empty");
    c.archive_dir = value;
  } else if (name == "archive-interval-minutes") {
    if (number < 1 || number > 10'080) return FlagError(name, "expected 1 to 10080 minutes");
    c.archive_interval_minutes = number;
  } else if (name == "chain-head-interval-seconds") {
    if (number < 1 || number > 86'400) return FlagError(name, "expected 1 to 86400 seconds");
    c.chain_head_interval_seconds = number;
  } else if (name == "connector-lease-seconds") {
    if (number < 1 || number > 86'400) return FlagError(name, "expected 1 to 86400 seconds");
    c.connector_lease_seconds = number;
  } else if (name == "connector-batch-size") {
    if (number < 1 || number > 10'000) return FlagError(name, "expected 1 to 10000");
    c.connector_batch_size = number;
  } else if (name == "record-reads") {
    auto b = ParseBool(value);
    if (!b) return FlagError(name, "expected true or false, got '" + value + "'");
    c.record_reads = *b;
  } else if (name == "allow-local-repositories") {
    auto b = ParseBool(value);
    if (!b) return FlagError(name, "expected true or false, got '" + value + "'");
    c.allow_local_repositories = *b;
  } else if (name == "mt-apertium-url" || name == "mt-libretranslate-url" || name == "mt-deepl-url") {
    std::string url = value;
    while (!url.empty() && url.back() == '/') url.pop_back();
    if (!url.empty() && url.rfind("http://", 0) != 0 && url.rfind("https://", 0) != 0)
      return FlagError(name, "expected an http:// or https:// URL, got '" + value + "'");
    (name == "mt-apertium-url" ? c.mt_apertium_url
     : name == "mt-deepl-url"  ? c.mt_deepl_url
                               : c.mt_libretranslate_url) = url;
  } else if (name == "mt-libretranslate-key") {
    c.mt_libretranslate_key = value;
  } else if (name == "mt-deepl-key") {
    c.mt_deepl_key = value;
  } else if (name == "mt-default-provider") {
    if (value != "apertium" && value != "libretranslate" && value != "deepl")
      return FlagError(name, "expected apertium, libretranslate or deepl");
    c.mt_default_provider = value;
  } else if (name == "mt-timeout-ms") {
    if (number < 100 || number > 600'000) return FlagError(name, "expected 100 to 600000");
    c.mt_timeout_ms = number;
  } else if (name == "mt-jobs-per-tenant") {
    if (number < 1 || number > 100) return FlagError(name, "expected 1 to 100");
    c.mt_jobs_per_tenant = number;
  } else if (name == "connector-batch-pause-ms") {
    if (number > 60'000) return FlagError(name, "at most 60000");
    c.connector_batch_pause_ms = number;
  }
  return Ok();
}

// The name of the flag that names the configuration file: read before the
// others, never set from inside a file.
constexpr std::string_view kConfigFlag = "config";

Error ConfigFileError(const std::string& path, int line, std::string_view key, const std::string& message) {
  std::string detail =
      path + ":" + std::to_string(line) + ": " + (key.empty() ? "" : std::string(key) + ": ") + message;
  return Error::InvalidArgument("invalid_config_file", std::move(detail),
                                {{key.empty() ? std::string(kConfigFlag) : std::string(key), message}});
}

// Applies a configuration file's text (docs/packaging.md, "The
// configuration file"): `name = value` per line, surrounding blanks
// trimmed, the value taken as it stands up to the end of the line (no
// quoting, so '#' and '=' may appear in it); blank lines and lines whose
// first non-blank character is '#' are skipped. Every setting goes through
// the same Apply as its flag, so the file accepts exactly what flags do.
Status ApplyConfigFile(Config& c, const std::string& path, std::string_view text) {
  // A byte-order mark, as some editors write, is skipped.
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::map<std::string, int, std::less<>> seen;  // name -> the line that set it
  int line_number = 0;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    std::string_view raw = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    start = end == std::string_view::npos ? text.size() : end + 1;
    ++line_number;
    const std::string line = Trim(raw);  // also drops the '\r' of a CRLF line
    if (line.empty() || line.front() == '#') continue;
    const size_t eq = line.find('=');
    if (eq == std::string::npos)
      return ConfigFileError(path, line_number, "", "expected `name = value`, got '" + line + "'");
    const std::string name = Trim(std::string_view(line).substr(0, eq));
    const std::string value = Trim(std::string_view(line).substr(eq + 1));
    if (name.empty()) return ConfigFileError(path, line_number, "", "expected `name = value`, got '" + line + "'");
    if (name == kConfigFlag)
      return ConfigFileError(path, line_number, name, "a configuration file cannot name another");
    const FlagSpec* f = FindFlag(name);
    if (f == nullptr) {
      const bool dashed = name.rfind("--", 0) == 0 && FindFlag(std::string_view(name).substr(2)) != nullptr;
      return ConfigFileError(path, line_number, name,
                             dashed ? "unknown name; write it without the dashes" : "unknown name");
    }
    if (auto [it, fresh] = seen.emplace(name, line_number); !fresh)
      return ConfigFileError(path, line_number, name, "set twice (first on line " + std::to_string(it->second) + ")");
    if (auto applied = Apply(c, *f, value); !applied) {
      const Error& e = applied.error();
      return ConfigFileError(path, line_number, name, e.fields.empty() ? e.detail : e.fields[0].message);
    }
    c.origins[name] = path + ":" + std::to_string(line_number);
  }
  return Ok();
}

}  // namespace

Result<std::string> ReadConfigFile(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return Error::InvalidArgument("unreadable_file", std::strerror(errno));
  std::string text;
  char buffer[4096];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, file)) > 0) text.append(buffer, n);
  const int read_errno = std::ferror(file) != 0 ? errno : 0;  // a directory fails here (EISDIR)
  std::fclose(file);
  if (read_errno != 0) return Error::InvalidArgument("unreadable_file", std::strerror(read_errno));
  return text;
}

std::string Config::EffectiveDatabaseUrl() const {
  if (!database_url.empty()) return database_url;
  return "sqlite:" + data_dir + "/credence.db";
}

std::string Config::EffectiveChainSigningKey() const {
  if (!chain_signing_key.empty()) return chain_signing_key;
  return data_dir + "/chain-signing-key.pem";
}

std::string Config::EffectiveSecretsKeyFile() const {
  if (!secrets_key_file.empty()) return secrets_key_file;
  return data_dir + "/connector-secrets.key";
}

int Config::EffectiveThreads() const {
  if (threads > 0) return threads;
  // Handlers block on storage (SQLite's single writer, the ledger's group
  // commit, PostgreSQL round trips), so more threads than cores keep the
  // cores busy; many more make CPU-heavy writes queue longer
  // (docs/performance.md, "Server threads").
  const unsigned n = std::thread::hardware_concurrency();
  return 2 * (n == 0 ? 2 : static_cast<int>(n));
}

std::string Config::EffectivePublicUrl() const {
  if (!public_url.empty()) return public_url;
  const bool v6 = listen_host.find(':') != std::string::npos;
  return "http://" + (v6 ? "[" + listen_host + "]" : listen_host) + ":" + std::to_string(listen_port);
}

std::optional<std::string> ProcessEnv(const std::string& name) {
  const char* v = std::getenv(name.c_str());
  if (v == nullptr) return std::nullopt;
  return std::string(v);
}

Result<Config> ParseConfig(const std::vector<std::string>& args, const EnvLookup& env, const FileReader& read_file) {
  // The flags are read first but applied last: the file they may name is
  // applied before the environment, and the environment before them.
  struct Given {
    const FlagSpec* flag;
    std::string value;
  };
  std::vector<Given> given;
  std::optional<std::string> config_path;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view arg = args[i];
    if (arg.rfind("--", 0) != 0)
      return Error::InvalidArgument("invalid_flag", "unexpected argument '" + args[i] + "'");
    arg.remove_prefix(2);
    std::optional<std::string> value;
    if (auto eq = arg.find('='); eq != std::string_view::npos) {
      value = std::string(arg.substr(eq + 1));
      arg = arg.substr(0, eq);
    }
    const FlagSpec* f = FindFlag(arg);
    if (f == nullptr) return Error::InvalidArgument("invalid_flag", "unknown flag --" + std::string(arg));
    if (!value) {
      if (f->type == FlagType::kBool) {
        value = "true";
      } else {
        if (i + 1 >= args.size()) return FlagError(f->name, "needs a value");
        value = args[++i];
      }
    }
    if (f->name == kConfigFlag) {
      if (config_path) return FlagError(kConfigFlag, "given twice; name one file");
      config_path = *value;
    } else {
      given.push_back({f, std::move(*value)});
    }
  }
  if (!config_path) config_path = env(EnvName(kConfigFlag));

  Config config;
  if (config_path) {
    if (config_path->empty()) return FlagError(kConfigFlag, "must not be empty");
    auto text = read_file(*config_path);
    if (!text) return FlagError(kConfigFlag, "cannot read " + *config_path + ": " + text.error().detail);
    CR_TRY(ApplyConfigFile(config, *config_path, *text));
    config.config_file = *config_path;
  }
  for (const auto& f : kFlags) {
    if (f.name == kConfigFlag) continue;
    if (auto value = env(EnvName(f.name))) {
      CR_TRY(Apply(config, f, *value));
      config.origins[f.name] = EnvName(f.name);
    }
  }
  for (const auto& g : given) {
    CR_TRY(Apply(config, *g.flag, g.value));
    config.origins[g.flag->name] = std::string("--") + g.flag->name;
  }
  if (config.test_clock && !config.dev)
    return FlagError("test-clock", "only with --dev (it lets any caller move the server's time)");
  return config;
}

bool IsFlagName(std::string_view name) { return FindFlag(name) != nullptr; }

std::string ConfigUsage() {
  std::string out =
      "usage: credence serve [flags]\n"
      "       credence check-config [--require NAME]... [flags]   (read the settings, start nothing)\n"
      "       credence admin ...\n"
      "       credence verify-receipt RECEIPT [--key KEY]... [--checkpoint OLDER]   (offline; docs/receipts.md)\n\n"
      "flags (each also read from CREDENCE_<NAME> and from the --config file;\n"
      "a flag wins over the environment, the environment over the file):\n";
  for (const auto& f : kFlags) {
    std::string left = std::string("  --") + f.name + (f.type == FlagType::kBool ? "" : " VALUE");
    left.resize(std::max<size_t>(left.size() + 2, 30), ' ');
    out += left + f.help + "\n";
  }
  return out;
}

}  // namespace credence
