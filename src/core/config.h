#pragma once
// Server configuration: command-line flags, each also readable from the
// environment as CREDENCE_<NAME> and from a configuration file (--config,
// `name = value` lines). Precedence: flag > environment > file > default.
// decisions.md section 1; the file's format: docs/packaging.md.
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace credence {

struct Config {
  std::string listen_host = "127.0.0.1";
  uint16_t listen_port = 8080;
  std::string data_dir = "./data";
  std::string database_url;  // empty: sqlite:<data_dir>/credence.db
  bool dev = false;
  int threads = 0;  // 0: two per core
  int db_pool_size = 0;  // 0: derived from threads
  size_t max_body_bytes = 1 << 20;
  size_t max_header_bytes = 16 << 10;
  int64_t read_timeout_ms = 10'000;  // to receive a whole request once it started
  // Open connections at most (0: derived from the open-files limit at
  // start), and per client address (0: no cap); docs/operations.md.
  int64_t max_connections = 0;
  int64_t max_connections_per_address = 0;
  int64_t idle_timeout_ms = 60'000;  // keep-alive connection with no request
  int64_t shutdown_timeout_ms = 10'000;  // in-flight requests get this long on SIGTERM
  // Development only: the clock can be set over HTTP (PUT /dev/clock).
  bool test_clock = false;
  // Background jobs (expiry scheduler, notification outbox) run this often;
  // 0 runs them only on demand (POST /dev/jobs/run, development only).
  int64_t jobs_interval_ms = 5'000;
  // Outbound email: smtp://host:port (empty: email channels fail to deliver).
  std::string smtp_url;
  std::string smtp_from = "credence@localhost";
  // Notification channels and webhooks may call private and unique-local
  // addresses (docs/outbound.md); development mode also allows loopback.
  bool allow_private_outbound = false;
  // How long an invitation can be accepted, in days (docs/sign-in.md).
  int64_t invitation_days = 14;
  // Lifetime of access tokens from POST /connect/token (docs/credentials.md).
  int64_t token_ttl_seconds = 3600;
  // The longest lifetime of an app-bound key, in days (docs/apps.md).
  int64_t app_key_max_days = 365;
  // SQLite: the write-ahead log is restarted once this much of it is in use
  // (docs/performance.md, "Sustained load and the WAL restart").
  int64_t sqlite_wal_restart_mb = 4096;
  // Sign-in (docs/sign-in.md): the OpenID Connect providers' file, the
  // externally visible base URL (redirect URIs and links in emails; empty:
  // http://<listen address>), and the sessions' idle and absolute lifetimes.
  std::string oidc_config;
  // The built web client (web/dist); empty: no static files are served.
  std::string web_dir;
  std::string public_url;
  // Origins besides the public URL's whose requests /mcp takes.
  std::vector<std::string> mcp_allowed_origins;
  int64_t session_idle_minutes = 720;
  int64_t session_max_hours = 168;
  // Tenants a signed-in user may create per day through POST
  // /api/tenant/create outside development mode (0: none).
  int64_t tenant_creations_per_day = 3;
  // Rate limits (docs/operations.md, "Rate limits"): requests per second
  // and burst per API key, per signed-in user, and per client address on
  // the routes that need no credential; rps 0 disables one, burst 0 is
  // twice the rps. Each node enforces its share: every limit is divided by
  // rate_limit_nodes.
  int64_t rate_limit_key_rps = 100;
  int64_t rate_limit_key_burst = 200;
  int64_t rate_limit_user_rps = 100;
  int64_t rate_limit_user_burst = 1000;
  int64_t rate_limit_address_rps = 50;
  int64_t rate_limit_address_burst = 500;
  int64_t rate_limit_nodes = 1;

  // The Ed25519 key that signs chain heads (docs/trust.md, "Signed chain
  // heads"); empty: <data_dir>/chain-signing-key.pem, created on first start.
  std::string chain_signing_key;
  // Connector credentials' keys (docs/connectors.md, "Credentials"); empty: <data_dir>/connector-secrets.key.
  std::string secrets_key_file;
  // How often the background jobs sign the chain heads that moved.
  int64_t chain_head_interval_seconds = 60;
  // Retention (docs/retention.md): where archives are written (empty:
  // nothing is archived or deleted) and how often the archiver runs.
  std::string archive_dir;
  int64_t archive_interval_minutes = 60;
  // Connector syncs (docs/connectors.md): the lease a sync holds on its
  // connector (renewed with every batch), the documents per committed
  // batch, and (development only) a pause after each batch for tests.
  int64_t connector_lease_seconds = 120;
  int64_t connector_batch_size = 200;
  int64_t connector_batch_pause_ms = 0;
  // Git connectors may read local repositories (a path, file://): the
  // server's own files. Default: only in development mode.
  std::optional<bool> allow_local_repositories;
  // Reading analytics: DocumentRead events (off only to measure their cost).
  bool record_reads = true;
  // Machine translation (docs/machine-translation.md): provider base URLs
  // (empty: not configured), keys, the default provider, the timeout.
  std::string mt_apertium_url;
  std::string mt_libretranslate_url;
  std::string mt_libretranslate_key;
  std::string mt_deepl_url;
  std::string mt_deepl_key;
  std::string mt_default_provider = "apertium";
  int64_t mt_timeout_ms = 15'000;
  int64_t mt_jobs_per_tenant = 2;  // machine-translation jobs of one tenant at once

  // The configuration file that was read (--config or CREDENCE_CONFIG);
  // empty when none.
  std::string config_file;
  // Where each setting that is not a default came from, by flag name:
  // "FILE:LINE", "CREDENCE_<NAME>" or "--<name>" (the last one applied).
  std::map<std::string, std::string> origins;

  std::string EffectiveDatabaseUrl() const;
  int EffectiveThreads() const;
  std::string EffectivePublicUrl() const;
  std::string EffectiveChainSigningKey() const;
  std::string EffectiveSecretsKeyFile() const;
};

using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;

// The process environment.
std::optional<std::string> ProcessEnv(const std::string& name);

// The whole text of a file, or an error whose detail says why not
// (e.g. "No such file or directory").
using FileReader = std::function<Result<std::string>(const std::string& path)>;

// Reads a file from disk.
Result<std::string> ReadConfigFile(const std::string& path);

// Parses `serve` flags (args exclude the program and command names). Unknown
// flags and malformed values are errors naming the flag. With --config FILE
// (at most once; else CREDENCE_CONFIG), FILE is read through `read_file`
// and applied first: one `name = value` per line, names as the flags'
// without the dashes, blank lines and lines starting with '#' ignored.
// A missing or unreadable file, a line without '=', an unknown or repeated
// name and a bad value are errors whose detail names the file, the line and
// the name. The environment then overrides the file, and flags override both.
Result<Config> ParseConfig(const std::vector<std::string>& args, const EnvLookup& env,
                           const FileReader& read_file = ReadConfigFile);

// Whether `name` (without dashes) is a flag of `credence serve`.
bool IsFlagName(std::string_view name);

// Usage text for `credence --help`.
std::string ConfigUsage();

}  // namespace credence
