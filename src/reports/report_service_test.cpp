// The reports module without HTTP: CSV quoting, evidence facts, and the
// rollup against a real store (SQLite, and PostgreSQL when
// CREDENCE_TEST_PG_URL is set): idempotent, exact under concurrent folds,
// and the window's edges at UTC midnight.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "app/migrations.h"
#include "core/clock.h"
#include "core/ids.h"
#include "core/logging.h"
#include "identity/principal.h"
#include "reports/csv.h"
#include "reports/internal/facts.h"
#include "reports/report_service.h"
#include "reports/rollup.h"
#include "storage/database.h"
#include "storage/migrations.h"
#include "storage/query.h"
#include "storage/session.h"
#include "support/pg_test_database.h"
#include "support/seed.h"
#include "trust/ledger.h"

namespace credence::reports {
namespace {

// ---- CSV.

TEST(ReportCsv, QuotesOnlyWhatRfc4180Requires) {
  std::string out;
  AppendCsvField(out, "plain");
  EXPECT_EQ(out, "plain");
  for (const auto& [in, want] : std::vector<std::pair<std::string, std::string>>{{"a,b", "\"a,b\""},
                                                                                 {"say \"hi\"", "\"say \"\"hi\"\"\""},
                                                                                 {"two\nlines", "\"two\nlines\""},
                                                                                 {"cr\rhere", "\"cr\rhere\""},
                                                                                 {"", ""}}) {
    out.clear();
    AppendCsvField(out, in);
    EXPECT_EQ(out, want) << in;
  }
}

TEST(ReportCsv, HeaderRowCrlfAndTypedCells) {
  const std::vector<Column> columns = {{"name", ColumnType::kString},
                                       {"n", ColumnType::kInteger},
                                       {"share", ColumnType::kNumber},
                                       {"ok", ColumnType::kBoolean},
                                       {"at", ColumnType::kTimestamp}};
  const std::vector<ReportRow> rows = {
      {std::string("x, y"), int64_t{-3}, 0.25, true, int64_t{0}},
      {std::monostate{}, std::monostate{}, std::monostate{}, false, std::monostate{}},
  };
  EXPECT_EQ(ToCsv(columns, rows),
            "name,n,share,ok,at\r\n"
            "\"x, y\",-3,0.25,true,1970-01-01T00:00:00.000Z\r\n"
            ",,,false,\r\n");
}

TEST(ReportCsv, StringsThatASpreadsheetWouldRunAreNeutralized) {
  for (const char* s : {"=1+1", "+1", "-1", "@SUM(A1)", "\tx"})
    EXPECT_EQ(CellText(Cell(std::string(s)), ColumnType::kString), std::string("'") + s);
  EXPECT_EQ(CellText(Cell(std::string("a=b")), ColumnType::kString), "a=b");
  EXPECT_EQ(CellText(Cell(int64_t{-5}), ColumnType::kInteger), "-5");  // numbers keep their sign
}

// ---- Evidence facts.

TEST(ReportFacts, ReadsTheDecisionObjectAndTheStateItWasDecidedOn) {
  const auto f = internal::ExtractFacts(
      R"({"result":{"sourceId":"entry:abc","resolved":true,"entryId":"abc","title":"T","origin":"Native",)"
      R"("decision":"block","escalated":false,"reasons":[{"code":"expired","dimension":"freshness","severity":"block"},)"
      R"({"code":"no_owner","dimension":"ownership","severity":"warn"}],"classification":"Expired","sensitivity":"Public"},)"
      R"("state":{"resolved":true,"expiryDate":"2030-01-01T00:00:00.000Z","ownerId":"u1","ownerActive":true}})");
  EXPECT_EQ(f.source_id, "entry:abc");
  EXPECT_EQ(f.entry_id, "abc");
  EXPECT_EQ(f.origin, "Native");
  EXPECT_EQ(f.decision, "block");
  EXPECT_TRUE(f.stale);
  EXPECT_EQ(f.expiry_at, ParseTimestamp("2030-01-01T00:00:00Z"));
  EXPECT_EQ(f.owner_id, "u1");
  EXPECT_TRUE(f.owner_active);
  EXPECT_EQ(f.block_reasons, std::vector<std::string>{"expired"});
}

TEST(ReportFacts, UnresolvedAndMalformedBodies) {
  const auto u = internal::ExtractFacts(
      R"({"result":{"sourceId":"x:1","resolved":false,"entryId":null,"decision":"block",)"
      R"("reasons":[{"code":"source_unresolved","severity":"block"}],"classification":"Unresolved"},"state":{"resolved":false}})");
  EXPECT_EQ(u.entry_id, "");
  EXPECT_FALSE(u.origin);
  EXPECT_EQ(u.block_reasons, std::vector<std::string>{"source_unresolved"});
  const auto bad = internal::ExtractFacts("not json");
  EXPECT_EQ(bad.decision, "");
  EXPECT_TRUE(bad.block_reasons.empty());
}

// ---- The rollup on a real store.

constexpr storage::GlobalQuery kInsertApp{
    "reports_test.insert_app",
    "INSERT INTO trust_apps (tenant_id, id, name, channel, risk, default_policy, created_at, updated_at)"
    " VALUES ($1, $2, $3, 'public_support_chat', 'high', '{}', 0, 0)"};
constexpr storage::TenantQuery kInsertUsage{
    "reports_test.insert_usage",
    "INSERT INTO trust_usage (tenant_id, id, decision_id, sources, outcome, app_id, created_at)"
    " VALUES ($1, $2, $3, $4, 'answer_sent', $5, $6)"};
constexpr storage::TenantQuery kSums{
    "reports_test.sums",
    "SELECT (SELECT COALESCE(SUM(evaluations), 0) FROM report_sources_daily WHERE tenant_id = $1 AND app_id <> '*'),"
    " (SELECT COALESCE(SUM(blocked), 0) FROM report_blocked_daily WHERE tenant_id = $1),"
    " (SELECT COALESCE(SUM(decisions), 0) FROM report_decisions_daily WHERE tenant_id = $1),"
    " (SELECT COALESCE(SUM(uses), 0) FROM report_usage_daily WHERE tenant_id = $1 AND app_id <> '*'),"
    " (SELECT COUNT(*) FROM report_evidence_facts WHERE tenant_id = $1)"};

std::string Evidence(const std::string& entry, const std::string& decision, const std::string& reason) {
  std::string reasons = reason.empty() ? "[]" : R"([{"code":")" + reason + R"(","severity":"block"}])";
  return R"({"result":{"sourceId":"entry:)" + entry + R"(","resolved":true,"entryId":")" + entry +
         R"(","title":"Doc )" + entry + R"(","origin":"Native","decision":")" + decision + R"(","reasons":)" + reasons +
         R"(,"classification":"Published"},"state":{"resolved":true,"ownerId":null,"ownerActive":false}})";
}

class RollupTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    SetLogLevel(LogLevel::kError);
    store_ = std::make_unique<test::ScratchStore>(GetParam(), "credence-reports-test");
    if (!store_->available()) GTEST_SKIP() << "CREDENCE_TEST_PG_URL is not set (see scripts/pg-test-server)";
    db_ = storage::OpenDatabase(store_->url(), {});
    storage::ApplyMigrations(*db_, app::AllMigrations());
    admin_ = test::SeedTenant(*db_, "t");
    app_ = NewId();
    storage::Session session(*db_);
    session.Run(kInsertApp, {admin_.tenant_id, app_, "Bot"});
  }
  void TearDown() override {
    db_.reset();
    store_.reset();
  }

  // One decision over `evidence`, at `at`, by the app when `by_app`.
  std::string Append(TimeMs at, const std::vector<std::string>& evidence, bool by_app) {
    trust::LedgerRecord r;
    r.decision_id = NewId();
    r.evaluated_at = at;
    r.endpoint = "Evaluate";
    r.actor_kind = "machine";
    r.channel = "public_support_chat";
    if (by_app) r.app_id = app_;
    r.overall = "allow";
    r.evidence = evidence;
    r.counts.total = static_cast<int64_t>(evidence.size());
    for (;;) {
      try {
        storage::Session session(*db_, storage::TxMode::kWrite);
        storage::TenantSession tx(session, admin_.tenant_id);
        trust::AppendDecision(tx, r);
        session.Commit();
        return r.decision_id;
      } catch (const storage::StorageError& e) {
        if (e.kind() != storage::StorageError::Kind::kUniqueViolation) throw;
      }
    }
  }

  std::vector<int64_t> Sums() {
    storage::Session session(*db_, storage::TxMode::kRead);
    storage::TenantSession tx(session, admin_.tenant_id);
    const auto rows = tx.Run(kSums);
    const auto r = rows.front();
    return {r.Int(0), r.Int(1), r.Int(2), r.Int(3), r.Int(4)};
  }

  std::unique_ptr<test::ScratchStore> store_;
  std::unique_ptr<storage::Database> db_;
  SettableClock clock_;
  identity::Principal admin_;
  std::string app_;
};

constexpr TimeMs kDay = kMsPerDay;
const TimeMs kJan10 = *ParseTimestamp("2030-01-10T00:00:00Z");

TEST_P(RollupTest, FoldsOnceHoweverOftenItRuns) {
  const auto ok = Evidence("a", "allow", "");
  const auto blocked = Evidence("b", "block", "not_ai_retrievable");
  const std::string d1 = Append(kJan10 + 1000, {ok, blocked, ok}, true);
  Append(kJan10 + kDay + 1000, {blocked}, false);
  Rollup rollup(*db_, clock_, /*batch_decisions=*/1);  // one decision per batch: the watermark moves twice
  const auto first = rollup.CatchUp(admin_.tenant_id);
  EXPECT_EQ(first.decisions, 2);
  EXPECT_EQ(first.evidence, 2);
  EXPECT_EQ(Sums(), (std::vector<int64_t>{4, 2, 2, 0, 2}));
  EXPECT_EQ(rollup.CatchUp(admin_.tenant_id).decisions, 0);
  EXPECT_EQ(rollup.RunOnce().decisions, 0);
  EXPECT_EQ(Sums(), (std::vector<int64_t>{4, 2, 2, 0, 2}));

  // Usage: linked to its decision's evidence, counted once per record.
  {
    storage::Session session(*db_);
    storage::TenantSession tx(session, admin_.tenant_id);
    tx.Run(kInsertUsage, {NewId(), d1, R"(["entry:a","entry:b","entry:a"])", app_, kJan10 + 2000});
  }
  const auto again = rollup.RunOnce();
  EXPECT_EQ(again.usage, 1);
  EXPECT_EQ(again.tenants, 1);
  EXPECT_EQ(Sums(), (std::vector<int64_t>{4, 2, 2, 2, 2}));
  EXPECT_EQ(rollup.RunOnce().usage, 0);
}

TEST_P(RollupTest, ConcurrentFoldsCountEveryDecisionExactlyOnce) {
  const auto ok = Evidence("a", "allow", "");
  for (int i = 0; i < 40; ++i) Append(kJan10 + i, {ok, ok}, i % 2 == 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&] {
      Rollup rollup(*db_, clock_, /*batch_decisions=*/7);
      rollup.CatchUp(admin_.tenant_id);
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(Sums(), (std::vector<int64_t>{80, 0, 40, 0, 1}));
}

TEST_P(RollupTest, TheWindowIsWholeUtcDaysBothEndsInclusive) {
  const auto blocked = Evidence("b", "block", "not_ai_retrievable");
  Append(kJan10 - 1, {blocked}, true);          // 2030-01-09T23:59:59.999Z
  Append(kJan10, {blocked}, true);              // 2030-01-10T00:00:00.000Z
  Append(kJan10 + kDay - 1, {blocked}, false);  // 2030-01-10T23:59:59.999Z
  Append(kJan10 + kDay, {blocked}, true);       // 2030-01-11T00:00:00.000Z
  clock_.Set(kJan10 + 5 * kDay);
  ReportService reports(*db_, clock_);
  auto count = [&](const char* from, const char* to, std::optional<std::string> app) {
    auto r = reports.Run(admin_, "docs-blocked", {from, to, std::move(app)});
    EXPECT_TRUE(r.ok());
    int64_t n = 0;
    if (r.ok())
      for (const auto& row : r->rows) n += std::get<int64_t>(row[8]);
    return n;
  };
  EXPECT_EQ(count("2030-01-10", "2030-01-10", std::nullopt), 2);
  EXPECT_EQ(count("2030-01-10", "2030-01-10", app_), 1);
  EXPECT_EQ(count("2030-01-09", "2030-01-11", std::nullopt), 4);
  EXPECT_EQ(count("2030-01-11", "2030-01-11", std::nullopt), 1);
  auto bad = reports.Run(admin_, "docs-blocked", {"2030-01-11", "2030-01-10", std::nullopt});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().kind, ErrorKind::kInvalidArgument);
  EXPECT_EQ(reports.Run(admin_, "nope", {}).error().kind, ErrorKind::kNotFound);
  EXPECT_EQ(reports.Run(admin_, "docs-blocked", {std::nullopt, std::nullopt, "x"}).error().kind,
            ErrorKind::kInvalidArgument);
  EXPECT_EQ(reports.Run(admin_, "docs-blocked", {std::nullopt, std::nullopt, NewId()}).error().kind,
            ErrorKind::kNotFound);
  identity::Principal member = admin_;
  member.role = identity::TenantRole::kMember;
  EXPECT_EQ(reports.Run(member, "docs-blocked", {}).error().kind, ErrorKind::kPermissionDenied);
}

INSTANTIATE_TEST_SUITE_P(Backends, RollupTest, ::testing::Values("sqlite", "postgres"),
                         [](const auto& param) { return param.param; });

}  // namespace
}  // namespace credence::reports
