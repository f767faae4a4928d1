#include "core/config.h"

#include <charconv>
#include <cstdlib>
#include <thread>

namespace credence {
namespace {

enum class FlagType { kString, kBool, kInt };

struct FlagSpec {
  const char* name;  // flag without dashes; env name is CREDENCE_ + upper snake
  FlagType type;
  const char* help;
};

constexpr FlagSpec kFlags[] = {
    {"listen", FlagType::kString, "HOST:PORT to listen on (default 127.0.0.1:8080)"},
    {"database", FlagType::kString, "sqlite:<path> or postgresql://... (default sqlite:<data-dir>/credence.db)"},
    {"data-dir", FlagType::kString, "directory for the SQLite file and other state (default ./data)"},
    {"dev", FlagType::kBool, "development mode: dev sign-in and a seeded demo tenant"},
    {"threads", FlagType::kInt, "HTTP worker threads (default: two per core)"},
    {"db-pool-size", FlagType::kInt, "database connections (default: threads + 2)"},
    {"max-body-bytes", FlagType::kInt, "largest request body accepted (default 1048576)"},
    {"max-header-bytes", FlagType::kInt, "largest request header block accepted (default 16384)"},
    {"read-timeout-ms", FlagType::kInt, "time to receive a whole request (default 30000)"},
    {"idle-timeout-ms", FlagType::kInt, "keep-alive idle time before closing (default 60000)"},
    {"shutdown-timeout-ms", FlagType::kInt, "grace period for in-flight requests on SIGTERM (default 10000)"},
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
    {"public-url", FlagType::kString, "externally visible base URL (default http://<listen address>)"},
    {"session-idle-minutes", FlagType::kInt, "a session unused this long ends (default 720)"},
    {"session-max-hours", FlagType::kInt, "a session ends this long after sign-in (default 168)"},
    {"tenant-creations-per-day", FlagType::kInt,
     "tenants one signed-in user may create per day outside --dev (default 3; 0: none)"},
    {"chain-signing-key", FlagType::kString,
     "PEM file of the Ed25519 key that signs chain heads (default <data-dir>/chain-signing-key.pem; created if "
     "absent)"},
    {"chain-head-interval-seconds", FlagType::kInt, "how often moved chain heads are signed (default 60)"},
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
  } else if (name == "session-idle-minutes") {
    if (number < 1 || number > 525'600) return FlagError(name, "expected 1 to 525600 minutes");
    c.session_idle_minutes = number;
  } else if (name == "session-max-hours") {
    if (number < 1 || number > 8'760) return FlagError(name, "expected 1 to 8760 hours");
    c.session_max_hours = number;
  } else if (name == "tenant-creations-per-day") {
    if (number > 1000) return FlagError(name, "at most 1000");
    c.tenant_creations_per_day = number;
  } else if (name == "chain-signing-key") {
    if (value.empty()) return FlagError(name, "must not be empty");
    c.chain_signing_key = value;
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

}  // namespace

std::string Config::EffectiveDatabaseUrl() const {
  if (!database_url.empty()) return database_url;
  return "sqlite:" + data_dir + "/credence.db";
}

std::string Config::EffectiveChainSigningKey() const {
  if (!chain_signing_key.empty()) return chain_signing_key;
  return data_dir + "/chain-signing-key.pem";
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

Result<Config> ParseConfig(const std::vector<std::string>& args, const EnvLookup& env) {
  Config config;
  for (const auto& f : kFlags) {
    if (auto value = env(EnvName(f.name))) CR_TRY(Apply(config, f, *value));
  }
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
    CR_TRY(Apply(config, *f, *value));
  }
  if (config.test_clock && !config.dev)
    return FlagError("test-clock", "only with --dev (it lets any caller move the server's time)");
  return config;
}

std::string ConfigUsage() {
  std::string out = "usage: credence serve [flags]\n\nflags (each also read from CREDENCE_<NAME>):\n";
  for (const auto& f : kFlags) {
    std::string left = std::string("  --") + f.name + (f.type == FlagType::kBool ? "" : " VALUE");
    left.resize(std::max<size_t>(left.size() + 2, 30), ' ');
    out += left + f.help + "\n";
  }
  return out;
}

}  // namespace credence
