#include "app/application.h"

#include <sys/resource.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <vector>

#include "app/background_jobs.h"
#include "app/dev_seed.h"
#include "app/service_set.h"
#include "app/migrations.h"
#include "connectors/secret_box.h"
#include "core/logging.h"
#include "http/dispatcher.h"
#include "http/handlers/routes.h"
#include "http/metrics.h"
#include "http/rate_limiter.h"
#include "http/router.h"
#include "http/server/server.h"
#include "http/static_site.h"
#include "identity/access_token.h"
#include "identity/authenticator.h"
#include "integrity/signing_key.h"
#include "storage/database.h"
#include "storage/cluster_lock.h"
#include "storage/migrations.h"

namespace credence::app {
namespace {

constexpr const char* kVersion = "0.1.0";

// host:pid, which names this process in job leases.
std::string NodeId() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return std::string(host) + ":" + std::to_string(getpid());
}

// Raises the soft open-files limit to the hard one, as Go's runtime and
// nginx's worker_rlimit_nofile do: systemd gives a service a soft limit of
// 1,024 (hard 524,288), and each connection takes a descriptor, so 1,024
// slow clients would otherwise take the service offline. Returns the soft
// limit in force.
uint64_t RaiseOpenFilesLimit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return 1024;
  const uint64_t before = limit.rlim_cur;
  if (limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &limit) != 0) limit.rlim_cur = before;
  }
  LogLine(LogLevel::kInfo, "open files limit")
      .Int("soft", static_cast<int64_t>(limit.rlim_cur))
      .Int("hard", static_cast<int64_t>(limit.rlim_max))
      .Int("softBefore", static_cast<int64_t>(before));
  return limit.rlim_cur;
}

// The connection cap derived from the open-files limit: what is left after
// the database pool and a reserve for the files, outbound requests and
// listening socket a node also opens.
size_t DerivedMaxConnections(uint64_t open_files, int pool_size) {
  const uint64_t reserve = static_cast<uint64_t>(pool_size) + 64;
  return static_cast<size_t>(open_files > reserve + 16 ? open_files - reserve : 16);
}

}  // namespace

int Serve(const Config& config) {
  const uint64_t open_files = RaiseOpenFilesLimit();
  const int threads = config.EffectiveThreads();
  storage::DatabaseOptions db_options;
  db_options.pool_size = config.db_pool_size > 0 ? config.db_pool_size : threads + 2;
  db_options.sqlite_wal_restart_bytes = config.sqlite_wal_restart_mb << 20;

  SystemClock system_clock;
  SettableClock test_clock;
  const Clock& clock = config.test_clock ? static_cast<const Clock&>(test_clock) : system_clock;

  std::unique_ptr<storage::Database> db;
  std::string signing_key;
  // The chain-signing key lives outside the database (docs/trust.md).
  auto chain_key = integrity::SigningKey::LoadOrCreate(config.EffectiveChainSigningKey());
  if (!chain_key) {
    LogLine(LogLevel::kError, "cannot load the chain-signing key").Str("error", chain_key.error().detail);
    return 1;
  }
  // So is the key that seals connector credentials (docs/connectors.md).
  auto connector_secrets = connectors::SecretBox::LoadOrCreate(config.EffectiveSecretsKeyFile());
  if (!connector_secrets) {
    LogLine(LogLevel::kError, "cannot load the connector secrets key").Str("error", connector_secrets.error().detail);
    return 1;
  }
  // The archive directory must be there and writable: archiving deletes
  // records only after their archive is written, and a typo should stop
  // the start, not every archiving pass (docs/retention.md).
  if (!config.archive_dir.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(config.archive_dir, ec)) {
      LogLine(LogLevel::kError, "--archive-dir is not a directory").Str("archiveDir", config.archive_dir);
      return 1;
    }
    if (::access(config.archive_dir.c_str(), W_OK | X_OK) != 0) {
      LogLine(LogLevel::kError, "--archive-dir is not writable by this process").Str("archiveDir", config.archive_dir);
      return 1;
    }
  }
  try {
    db = storage::OpenDatabase(config.EffectiveDatabaseUrl(), db_options);
    const auto migrations = AllMigrations();
    storage::ApplyMigrations(*db, migrations);
    // Every node reads the same key, so a token issued by one is accepted by all.
    signing_key = identity::LoadOrCreateSigningKey(*db, clock);
  } catch (const std::exception& e) {
    LogLine(LogLevel::kError, "cannot open the database").Str("error", e.what());
    return 1;
  }

  ServiceSetOptions set_options;
  if (!config.oidc_config.empty()) {
    auto providers = identity::oidc::LoadProviderConfig(config.oidc_config);
    if (!providers) {
      LogLine(LogLevel::kError, "cannot read the sign-in providers (--oidc-config)")
          .Str("error", providers.error().detail);
      return 1;
    }
    set_options.oidc_providers = std::move(*providers);
  }
  set_options.public_url = config.EffectivePublicUrl();
  set_options.mcp_allowed_origins = config.mcp_allowed_origins;
  set_options.sessions.idle_ms = config.session_idle_minutes * 60'000;
  set_options.sessions.absolute_ms = config.session_max_hours * 3'600'000;
  set_options.tenant_creations_per_day = config.tenant_creations_per_day;
  set_options.dev = config.dev;
  set_options.version = kVersion;
  set_options.node_id = NodeId();
  set_options.delivery.smtp_url = config.smtp_url;
  set_options.delivery.outbound = {config.allow_private_outbound, /*allow_loopback=*/config.dev};
  set_options.delivery.smtp_from = config.smtp_from;
  set_options.test_clock = config.test_clock ? &test_clock : nullptr;
  set_options.signing_key = signing_key;
  set_options.token_ttl_seconds = config.token_ttl_seconds;
  set_options.app_key_max_days = config.app_key_max_days;
  set_options.invitations.lifetime_days = config.invitation_days;
  set_options.invitations.public_url = set_options.public_url;
  for (const auto& p : set_options.oidc_providers) set_options.invitations.providers.push_back(p.name);
  set_options.connector_sync.data_dir = config.data_dir;
  set_options.connector_sync.secrets = *connector_secrets;
  set_options.connector_sync.allow_local_repositories = config.allow_local_repositories.value_or(config.dev);
  set_options.repositories = {set_options.connector_sync.allow_local_repositories, config.data_dir};
  set_options.connector_sync.lease_ms = config.connector_lease_seconds * 1000;
  set_options.connector_sync.batch_size = config.connector_batch_size;
  set_options.connector_sync.batch_pause_ms = config.dev ? config.connector_batch_pause_ms : 0;
  set_options.chain_key = std::make_shared<const integrity::SigningKey>(std::move(*chain_key));
  set_options.record_reads = config.record_reads;
  set_options.archive_dir = config.archive_dir;
  set_options.machine_translation = {.apertium_url = config.mt_apertium_url,
                                     .libretranslate_url = config.mt_libretranslate_url,
                                     .libretranslate_key = config.mt_libretranslate_key,
                                     .deepl_url = config.mt_deepl_url,
                                     .deepl_key = config.mt_deepl_key,
                                     .default_provider = config.mt_default_provider,
                                     .timeout_ms = static_cast<long>(config.mt_timeout_ms),
                                     .jobs_per_tenant = config.mt_jobs_per_tenant};
  set_options.checkpoint_interval_seconds = config.chain_head_interval_seconds;
  ServiceSet set(*db, clock, set_options);
  try {
    set.chain_heads.RegisterKey();
  } catch (const std::exception& e) {
    LogLine(LogLevel::kError, "cannot register the chain-signing key").Str("error", e.what());
    return 1;
  }
  if (config.dev) {
    try {
      // Nodes starting together on one fresh database seed one after the
      // other; the seed finds what an earlier node made (by slug).
      storage::RunExclusively(*db, "dev-seed", [&] {
        SeedDevelopmentData({set.tenants, set.groups, set.hubs, set.entries, set.translations, set.memberships});
      });
    } catch (const std::exception& e) {
      LogLine(LogLevel::kError, "development seed failed").Str("error", e.what());
      return 1;
    }
  }

  const auto router = http::BuildRouter(set.services());
  // Outside development mode the jobs always run; 0 there means the default.
  int64_t jobs_interval_ms = config.jobs_interval_ms;
  if (jobs_interval_ms == 0 && !config.dev) jobs_interval_ms = Config{}.jobs_interval_ms;
  std::optional<BackgroundJobs> jobs;
  if (jobs_interval_ms > 0)
    jobs.emplace(set.scheduler, set.outbox, set.reports, jobs_interval_ms, &set.chain_heads,
                 config.chain_head_interval_seconds * 1000, &set.connector_syncer, &set.analytics, &set.translation_jobs,
                 set.archiver.get(), config.archive_interval_minutes * 60'000, &set.merkle_logs);
  // Sync-now starts its run on this node at once rather than at the next
  // pass. Without the jobs (development, interval 0) it only queues, and
  // POST /dev/connectors/run runs it.
  if (jobs) set.connectors.SetSyncWaker(&*jobs);

  identity::Authenticator authenticator(*db, config.dev, &set.api_keys, &set.sessions);
  http::Dispatcher dispatcher(*router, authenticator, set.metrics(), config.dev, &set.audit);
  // The web client's sessions (docs/sign-in.md, "Browser sessions"); the
  // sign-in routes set the same cookie (Secure when the public URL is https).
  dispatcher.AcceptSessionCookie(http::SessionCookie::ForPublicUrl(set_options.public_url));
  // Rate limits (docs/operations.md, "Rate limits"); burst 0 is twice the rps.
  auto limit_of = [](int64_t rps, int64_t burst) {
    return http::RateLimit{static_cast<double>(rps), burst > 0 ? burst : 2 * rps};
  };
  http::RateLimiter rate_limiter(
      {limit_of(config.rate_limit_key_rps, config.rate_limit_key_burst),
       limit_of(config.rate_limit_user_rps, config.rate_limit_user_burst),
       limit_of(config.rate_limit_address_rps, config.rate_limit_address_burst), config.rate_limit_nodes},
      [&apps = set.apps](const std::string& tenant_id, const std::string& app_id) -> std::optional<http::RateLimit> {
        const auto limit = apps.RateLimitOf(tenant_id, app_id);
        if (!limit) return std::nullopt;
        return http::RateLimit{limit->requests_per_second, limit->burst};
      });
  dispatcher.LimitRates(&rate_limiter);
  std::optional<http::StaticSite> site;
  if (!config.web_dir.empty()) {
    std::error_code ec;
    if (!std::filesystem::is_directory(config.web_dir, ec) ||
        !std::filesystem::is_regular_file(std::filesystem::path(config.web_dir) / "index.html", ec)) {
      LogLine(LogLevel::kError, "--web-dir is not a directory with an index.html (build the client: web/)")
          .Str("webDir", config.web_dir);
      return 1;
    }
    site.emplace(config.web_dir, http::ApiPrefixes(*router));
    dispatcher.ServeStaticSite(&*site);
    set.sign_in.ReturnBrowsersTo("/sign-in/callback");
  }
  http::ServerOptions options{config.listen_host,    config.listen_port,     threads,
                              config.max_body_bytes, config.max_header_bytes, config.read_timeout_ms,
                              config.idle_timeout_ms, config.shutdown_timeout_ms};
  options.max_connections = config.max_connections > 0 ? static_cast<size_t>(config.max_connections)
                                                       : DerivedMaxConnections(open_files, db_options.pool_size);
  options.max_connections_per_address = static_cast<size_t>(config.max_connections_per_address);
  http::Server server(options, dispatcher);
  uint16_t port = 0;
  try {
    port = server.Listen();
  } catch (const std::exception& e) {
    LogLine(LogLevel::kError, "cannot listen").Str("error", e.what());
    return 1;
  }
  LogLine(LogLevel::kInfo, "listening")
      .Str("address", config.listen_host)
      .Int("port", port)
      .Str("database", db->Describe())
      .Bool("dev", config.dev)
      .Int("threads", threads)
      .Int("maxConnections", static_cast<int64_t>(options.max_connections))
      .Int("routes", static_cast<int64_t>(router->routes().size()));
  server.Run();
  set.connectors.SetSyncWaker(nullptr);  // no request is in flight any more
  jobs.reset();
  set.analytics.Shutdown();  // the buffered reads, before the store closes
  db.reset();  // close the store cleanly (SQLite checkpoints its WAL)
  LogLine(LogLevel::kInfo, "stopped");  // NOLINT(bugprone-unused-raii): emitted on destruction
  return 0;
}

}  // namespace credence::app
