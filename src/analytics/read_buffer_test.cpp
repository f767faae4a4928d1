// The read buffer and the edit hook over a real store (SQLite, and
// PostgreSQL when CREDENCE_TEST_PG_URL is set): reads reach the store only
// when flushed, a shutdown writes what is pending, reads of a deleted entry
// are skipped, and edits are recorded in the edit's transaction.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "analytics/analytics_service.h"
#include "analytics/read_buffer.h"
#include "app/migrations.h"
#include "core/clock.h"
#include "core/logging.h"
#include "kb/entry_service.h"
#include "kb/hub_service.h"
#include "platform/audit_log.h"
#include "storage/database.h"
#include "storage/migrations.h"
#include "storage/session.h"
#include "support/pg_test_database.h"
#include "support/seed.h"

namespace credence::analytics {
namespace {

constexpr TimeMs kStart = 1'900'000'000'000;
// A writer that never wakes by itself during a test: flushes are explicit.
constexpr int64_t kHour = 3'600'000;

class ReadBufferTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    SetLogLevel(LogLevel::kError);
    store_ = std::make_unique<test::ScratchStore>(GetParam(), "credence-analytics-test");
    if (!store_->available()) GTEST_SKIP() << "CREDENCE_TEST_PG_URL is not set (see scripts/pg-test-server)";
    db_ = storage::OpenDatabase(store_->url(), {});
    storage::ApplyMigrations(*db_, app::AllMigrations());
    audit_ = std::make_unique<platform::AuditLog>(*db_, clock_);
    owner_ = test::SeedTenant(*db_, "one");
    auto hub = kb::HubService(*db_, clock_).Create(owner_, {"kb", "KB", 365});
    ASSERT_TRUE(hub.ok());
  }

  void TearDown() override {
    audit_.reset();
    db_.reset();
    store_.reset();
  }

  std::string MakeEntry(const kb::EntryService& entries, const std::string& key) {
    kb::NewEntry e;
    e.hub_key = "kb";
    e.key = key;
    e.original_language = "en";
    e.title = "Title";
    e.content = R"({"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"One."}]}]})";
    auto entry = entries.Create(owner_, e);
    EXPECT_TRUE(entry.ok()) << (entry.ok() ? "" : entry.error().detail);
    return entry.ok() ? entry->entry.id : "";
  }

  int64_t Reads(const AnalyticsService& analytics, const std::string& entry) {
    auto s = analytics.GetSummary(owner_, entry);
    EXPECT_TRUE(s.ok());
    return s.ok() ? s->total_reads : -1;
  }

  ManualClock clock_{kStart};
  std::unique_ptr<test::ScratchStore> store_;
  std::unique_ptr<storage::Database> db_;
  std::unique_ptr<platform::AuditLog> audit_;
  identity::Principal owner_;
};

TEST_P(ReadBufferTest, ReadsAreWrittenWhenFlushedAndAtShutdown) {
  std::string kept, gone;
  {
    AnalyticsService analytics(*db_, clock_, *audit_, true, kHour);
    kb::EntryService entries(*db_, clock_, kb::kIgnoreContent, identity::kNoEvents, kb::kNoGuards, analytics);
    kept = MakeEntry(entries, "kept");
    gone = MakeEntry(entries, "gone");
    ASSERT_TRUE(entries.Get(owner_, kept, "").ok());
    ASSERT_TRUE(entries.Get(owner_, gone, "").ok());
    EXPECT_EQ(Reads(analytics, kept), 0);  // buffered, not written
    EXPECT_EQ(analytics.FlushReads(), 2);
    EXPECT_EQ(Reads(analytics, kept), 1);

    // Pending at shutdown: written by the destructor; the deleted entry's
    // read is skipped, not an error.
    ASSERT_TRUE(entries.Get(owner_, kept, "").ok());
    ASSERT_TRUE(entries.Get(owner_, gone, "").ok());
    ASSERT_TRUE(entries.Delete(owner_, gone).ok());
  }
  AnalyticsService after(*db_, clock_, *audit_, true, kHour);
  EXPECT_EQ(Reads(after, kept), 2);
  auto s = after.GetSummary(owner_, kept);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->last_read_at, kStart);
}

TEST_P(ReadBufferTest, WithRecordingOffNoReadIsCounted) {
  AnalyticsService off(*db_, clock_, *audit_, /*record_reads=*/false, kHour);
  kb::EntryService entries(*db_, clock_, kb::kIgnoreContent, identity::kNoEvents, kb::kNoGuards, off);
  const std::string id = MakeEntry(entries, "e");
  ASSERT_TRUE(entries.Get(owner_, id, "").ok());
  EXPECT_EQ(off.FlushReads(), 0);
  EXPECT_EQ(Reads(off, id), 0);
}

TEST_P(ReadBufferTest, AnEditIsRecordedOnlyWithItsTransaction) {
  AnalyticsService analytics(*db_, clock_, *audit_, true, kHour);
  kb::EntryService entries(*db_, clock_, kb::kIgnoreContent, identity::kNoEvents, kb::kNoGuards, analytics);
  const std::string id = MakeEntry(entries, "e");
  {
    storage::Session session(*db_, storage::TxMode::kWrite);
    storage::TenantSession tx(session, owner_.tenant_id);
    analytics.EntryEdited(tx, id, owner_.user_id, "", kStart);
    // Not committed: rolled back with the session.
  }
  auto s = analytics.GetSummary(owner_, id);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->total_edits, 0);
  kb::EntryUpdate update{
      "Title", R"({"type":"doc","content":[{"type":"paragraph","content":[{"type":"text","text":"Two."}]}]})"};
  ASSERT_TRUE(entries.Update(owner_, id, "", update).ok());
  s = analytics.GetSummary(owner_, id);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->total_edits, 1);
  EXPECT_EQ(s->unique_editors, 1);
}

INSTANTIATE_TEST_SUITE_P(Backends, ReadBufferTest, ::testing::Values("sqlite", "postgres"),
                         [](const ::testing::TestParamInfo<std::string>& backend) { return backend.param; });

}  // namespace
}  // namespace credence::analytics
