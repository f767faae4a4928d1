// A backend plugin registers its guard and event handler with its manifest
// (plugin_module.h), and the pipeline and the event bus run it without
// knowing it: test-only plugins registered beside the shipped ones, against
// a real store (SQLite, and PostgreSQL when CREDENCE_TEST_PG_URL is set).
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/json/serialize.hpp>

#include "app/migrations.h"
#include "core/clock.h"
#include "core/logging.h"
#include "plugins/event_bus.h"
#include "plugins/guard_pipeline.h"
#include "plugins/internal/queries.h"
#include "plugins/shipped_plugins.h"
#include "storage/database.h"
#include "storage/migrations.h"
#include "storage/session.h"
#include "support/pg_test_database.h"

namespace credence::plugins {
namespace {

namespace json = boost::json;

Manifest TestManifest(std::string id, std::vector<GuardBinding> guards, std::vector<std::string> events = {}) {
  Manifest m;
  m.id = std::move(id);
  m.name = "Test";
  m.version = "1.0.0";
  m.category = "test";
  m.guards = std::move(guards);
  m.events = std::move(events);
  return m;
}

// What a test guard saw.
struct Calls {
  int count = 0;
  std::string last_settings;
};

// Denies when its settings say {"deny": true}; throws when {"throw": true}.
PluginModule RecordingGuard(const std::string& id, Calls& calls, std::vector<GuardBinding> guards) {
  return {
      .manifest = TestManifest(id, std::move(guards)),
      .guard = GuardOf([&calls](const GuardCall& call) -> std::optional<kb::GuardDenial> {
        ++calls.count;
        calls.last_settings = json::serialize(call.settings);
        if (call.settings.contains("throw")) throw std::runtime_error("a test guard that throws");
        if (!call.settings.contains("deny")) return std::nullopt;
        return kb::GuardDenial{"", "test_denied", "denied by " + call.plugin_id, {{"entity", call.context.entity_id}}};
      })};
}

class PluginModuleTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    SetLogLevel(LogLevel::kError);
    store_ = std::make_unique<test::ScratchStore>(GetParam(), "credence-plugin-module-test");
    if (!store_->available()) GTEST_SKIP() << "CREDENCE_TEST_PG_URL is not set (see scripts/pg-test-server)";
    db_ = storage::OpenDatabase(store_->url(), {});
    storage::ApplyMigrations(*db_, app::AllMigrations());
  }

  void TearDown() override {
    db_.reset();
    store_.reset();
  }

  void Install(const std::string& tenant, const std::string& plugin_id, const json::object& settings = {}) {
    storage::Session session(*db_, storage::TxMode::kWrite);
    storage::TenantSession tx(session, tenant);
    tx.Run(internal::kInsertInstallation, {plugin_id, clock_.Now()});
    tx.Run(internal::kSetSettings, {plugin_id, json::serialize(settings), clock_.Now()});
    session.Commit();
  }

  std::optional<kb::GuardDenial> Check(const GuardPipeline& pipeline, const std::string& tenant,
                                       const std::string& action) {
    storage::Session session(*db_, storage::TxMode::kWrite);
    storage::TenantSession tx(session, tenant);
    return pipeline.Check(tx, {action, tenant, "user", "entity-1", {}});
  }

  SystemClock clock_;
  std::unique_ptr<test::ScratchStore> store_;
  std::unique_ptr<storage::Database> db_;
};

// The point of the module interface: a plugin the pipeline has never heard
// of is asked, after the shipped ones and in registration order, only for
// its action and only where its tenant enabled it.
TEST_P(PluginModuleTest, ANewGuardPluginIsAskedWithoutChangingThePipeline) {
  Calls first, second;
  Registry registry = ShippedRegistry({clock_, {}, false});
  registry.Register(RecordingGuard("test-first", first, {{"Entry.Delete"}}));
  registry.Register(RecordingGuard("test-second", second, {{""}}));
  const GuardPipeline pipeline(registry, clock_);

  Install("tenant-a", "test-first", {{"deny", true}, {"note", "a"}});
  Install("tenant-a", "test-second");
  Install("tenant-b", "test-second");

  auto denial = Check(pipeline, "tenant-a", "Entry.Delete");
  ASSERT_TRUE(denial);
  EXPECT_EQ(denial->plugin_id, "test-first");
  EXPECT_EQ(denial->reason_code, "test_denied");
  EXPECT_EQ(denial->message, "denied by test-first");
  EXPECT_EQ(denial->metadata.at("entity"), json::value("entity-1"));
  EXPECT_EQ(first.count, 1);
  EXPECT_EQ(first.last_settings, R"({"deny":true,"note":"a"})");
  EXPECT_EQ(second.count, 0);  // the first denial stops the action

  // Bound to Entry.Delete only: not asked for a publish; the second, bound
  // to every action, is.
  EXPECT_FALSE(Check(pipeline, "tenant-a", "Entry.Publish"));
  EXPECT_EQ(first.count, 1);
  EXPECT_EQ(second.count, 1);

  // Another tenant, which never installed test-first.
  EXPECT_FALSE(Check(pipeline, "tenant-b", "Entry.Delete"));
  EXPECT_EQ(first.count, 1);
  EXPECT_EQ(second.count, 2);
  EXPECT_NE(pipeline.RenderPrometheus().find(R"(plugin="test-first",outcome="deny"} 1)"), std::string::npos);
}

// The pipeline supervises a new guard as it does the shipped ones.
TEST_P(PluginModuleTest, ANewGuardThatThrowsCountsAsAllowAndIsReported) {
  Calls calls;
  Registry registry;
  registry.Register(RecordingGuard("test-throws", calls, {{""}}));
  const GuardPipeline pipeline(registry, clock_);
  Install("tenant-a", "test-throws", {{"throw", true}, {"deny", true}});

  EXPECT_FALSE(Check(pipeline, "tenant-a", "Hub.Delete"));
  EXPECT_EQ(calls.count, 1);
  const GuardHealth health = pipeline.Health("tenant-a", "test-throws");
  EXPECT_EQ(health.failures, 1);
  EXPECT_EQ(health.last_error, "throw: a test guard that throws");
}

// A new plugin's event handler runs once the emitting transaction commits,
// with the tenant's settings, and never for a rolled-back one.
TEST_P(PluginModuleTest, ANewEventHandlerRunsAfterCommit) {
  std::vector<std::string> seen;
  Registry registry;
  registry.Register({.manifest = TestManifest("test-events", {}, {"entry.deleted"}),
                     .on_event = [&seen](storage::TenantSession& tx, const json::object& settings,
                                         const std::string& type, const json::object& data) {
                       seen.push_back(tx.tenant_id() + " " + type + " " + json::serialize(data) + " " +
                                      json::serialize(settings));
                     }});
  const EventBus bus(*db_, registry, identity::kNoEvents);
  Install("tenant-a", "test-events", {{"k", 1}});

  {
    storage::Session session(*db_, storage::TxMode::kWrite);
    storage::TenantSession tx(session, "tenant-a");
    bus.Emit(tx, "entry.deleted", {{"entryId", "e1"}});
    bus.Emit(tx, "entry.published", {{"entryId", "e1"}});  // not declared: not delivered
    EXPECT_TRUE(seen.empty());
    session.Commit();
  }
  EXPECT_EQ(seen, (std::vector<std::string>{R"(tenant-a entry.deleted {"entryId":"e1"} {"k":1})"}));
  {
    storage::Session session(*db_, storage::TxMode::kWrite);
    storage::TenantSession tx(session, "tenant-a");
    bus.Emit(tx, "entry.deleted", {{"entryId", "e2"}});
  }  // rolled back
  EXPECT_EQ(seen.size(), 1u);
}

INSTANTIATE_TEST_SUITE_P(Backends, PluginModuleTest, ::testing::Values("sqlite", "postgres"),
                         [](const auto& info) { return info.param; });

// What a manifest declares must be registered, and nothing else.
TEST(PluginModules, RegistrationRefusesAModuleThatDisagreesWithItsManifest) {
  Registry registry;
  EXPECT_THROW(registry.Register({.manifest = TestManifest("no-guard", {{"Entry.Publish"}})}), std::logic_error);
  EXPECT_THROW(registry.Register({.manifest = TestManifest("stray-guard", {}),
                                  .guard = GuardOf([](const GuardCall&) { return std::nullopt; })}),
               std::logic_error);
  EXPECT_THROW(registry.Register({.manifest = TestManifest("no-handler", {}, {"entry.deleted"})}), std::logic_error);
  registry.Register({.manifest = TestManifest("plain", {})});
  EXPECT_THROW(registry.Register({.manifest = TestManifest("plain", {})}), std::logic_error);
  EXPECT_EQ(registry.All().size(), 1u);
}

}  // namespace
}  // namespace credence::plugins
