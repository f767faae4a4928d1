#include "app/application.h"

#include <memory>
#include <vector>

#include "app/dev_seed.h"
#include "app/migrations.h"
#include "core/logging.h"
#include "http/dispatcher.h"
#include "http/handlers/routes.h"
#include "http/metrics.h"
#include "http/router.h"
#include "http/server/server.h"
#include "identity/authenticator.h"
#include "identity/group_service.h"
#include "identity/invitation_service.h"
#include "identity/schema.h"
#include "identity/tenant_service.h"
#include "identity/user_service.h"
#include "kb/entry_service.h"
#include "kb/hub_service.h"
#include "kb/membership_service.h"
#include "kb/schema.h"
#include "kb/translation_service.h"
#include "lifecycle/expiry_service.h"
#include "lifecycle/expiry_template_service.h"
#include "lifecycle/review_checklist_service.h"
#include "storage/database.h"
#include "storage/migrations.h"

namespace credence::app {
namespace {

constexpr const char* kVersion = "0.1.0";

}  // namespace

int Serve(const Config& config) {
  const int threads = config.EffectiveThreads();
  storage::DatabaseOptions db_options;
  db_options.pool_size = config.db_pool_size > 0 ? config.db_pool_size : threads + 2;

  std::unique_ptr<storage::Database> db;
  try {
    db = storage::OpenDatabase(config.EffectiveDatabaseUrl(), db_options);
    const auto migrations = AllMigrations();
    storage::ApplyMigrations(*db, migrations);
  } catch (const std::exception& e) {
    LogLine(LogLevel::kError, "cannot open the database").Str("error", e.what());
    return 1;
  }

  SystemClock clock;
  identity::TenantService tenants(*db, clock, config.dev);
  identity::UserService users(*db);
  identity::GroupService groups(*db, clock);
  identity::InvitationService invitations(*db, clock);
  kb::HubService hubs(*db, clock);
  kb::EntryService entries(*db, clock);
  kb::TranslationService translations(*db, clock);
  kb::MembershipService memberships(*db, clock);
  lifecycle::ExpiryTemplateService expiry_templates(*db, clock);
  lifecycle::ReviewChecklistService review_checklists(*db, clock);
  lifecycle::ExpiryService expiry(*db, clock);
  if (config.dev) {
    try {
      SeedDevelopmentData({tenants, groups, hubs, entries, translations, memberships});
    } catch (const std::exception& e) {
      LogLine(LogLevel::kError, "development seed failed").Str("error", e.what());
      return 1;
    }
  }

  http::Metrics metrics;
  http::Services services{*db, tenants, users, groups, invitations, hubs, entries, translations, metrics, config.dev, kVersion, memberships,
                          expiry_templates, review_checklists, expiry};
  const auto router = http::BuildRouter(services);

  identity::Authenticator authenticator(*db, config.dev);
  http::Dispatcher dispatcher(*router, authenticator, metrics, config.dev);
  http::ServerOptions options{config.listen_host,    config.listen_port,     threads,
                              config.max_body_bytes, config.max_header_bytes, config.read_timeout_ms,
                              config.idle_timeout_ms, config.shutdown_timeout_ms};
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
      .Int("routes", static_cast<int64_t>(router->routes().size()));
  server.Run();
  db.reset();  // close the store cleanly (SQLite checkpoints its WAL)
  LogLine(LogLevel::kInfo, "stopped");  // NOLINT(bugprone-unused-raii): emitted on destruction
  return 0;
}

}  // namespace credence::app
