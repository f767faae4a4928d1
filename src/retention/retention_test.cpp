// Retention and archival (docs/retention.md): the months, the archive file
// and its offline verification (a line altered, a file cut short, the wrong
// key), and the archiver on both backends: records past retention leave the
// database for a sealed file that verifies, the chains that stay verify
// from the archive boundary, and new records go on from it.
#include <gtest/gtest.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "app/migrations.h"
#include "core/clock.h"
#include "core/ids.h"
#include "core/logging.h"
#include "identity/audit.h"
#include "integrity/archive_boundary.h"
#include "integrity/chain_heads.h"
#include "integrity/signing_key.h"
#include "platform/audit_log.h"
#include "retention/archive_file.h"
#include "retention/archiver.h"
#include "retention/periods.h"
#include "retention/retention_service.h"
#include "retention/verify_archive.h"
#include "storage/database.h"
#include "storage/migrations.h"
#include "storage/session.h"
#include "support/pg_test_database.h"
#include "support/seed.h"
#include "trust/ledger.h"

namespace credence::retention {
namespace {

namespace fs = std::filesystem;

TimeMs At(const char* text) { return *ParseTimestamp(text); }

TEST(RetentionPeriods, MonthsAreUtcCalendarMonths) {
  EXPECT_EQ(MonthStart(At("2026-03-17T10:11:12.000Z")), At("2026-03-01T00:00:00.000Z"));
  EXPECT_EQ(MonthName(At("2026-03-17T10:11:12.000Z")), "2026-03");
  // The day is clamped to the month's end; the time of day kept.
  EXPECT_EQ(AddMonths(At("2026-03-31T08:00:00.000Z"), -1), At("2026-02-28T08:00:00.000Z"));
  EXPECT_EQ(AddMonths(At("2024-03-31T08:00:00.000Z"), -1), At("2024-02-29T08:00:00.000Z"));
  EXPECT_EQ(AddMonths(At("2026-01-15T00:00:00.000Z"), -13), At("2024-12-15T00:00:00.000Z"));
  // Kept at least the retention: on 2026-11-28 with 13 months, records from
  // 2025-10-01 stay, September 2025 is due.
  EXPECT_EQ(ArchiveDueBefore(At("2026-11-28T12:00:00.000Z"), 13), At("2025-10-01T00:00:00.000Z"));
  EXPECT_EQ(ArchiveDueBefore(At("2026-11-28T12:00:00.000Z"), 6), At("2026-05-01T00:00:00.000Z"));
}

class ArchiveFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("credence-archive-test-" + std::to_string(std::random_device{}()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  std::string WriteUsage(const std::vector<std::string>& ids) {
    const std::string path = (dir_ / "t" / "usage-2025-01.jsonl.gz").string();
    ArchiveWriter w(path);
    w.Line(R"({"type":"archive","format":"credence-archive/1","tenantId":"t","kind":"usage","period":"2025-01"})");
    for (const auto& id : ids) w.Line(R"({"type":"usage","id":")" + id + R"("})");
    auto sealed = w.Seal(key_, "t", "usage", "2025-01", static_cast<int64_t>(ids.size()), At("2026-02-01T00:00:00.000Z"));
    EXPECT_EQ(sealed.sha256.size(), 64u);
    EXPECT_GT(sealed.bytes, 0);
    return path;
  }
  std::vector<std::string> Lines(const std::string& path) {
    std::vector<std::string> out;
    ReadArchiveLines(path, [&](std::string_view l) { out.emplace_back(l); });
    return out;
  }
  void Rewrite(const std::string& path, const std::vector<std::string>& lines) {
    gzFile gz = gzopen(path.c_str(), "wb");
    for (const auto& l : lines) gzprintf(gz, "%s\n", l.c_str());
    gzclose(gz);
  }

  fs::path dir_;
  integrity::SigningKey key_ = integrity::SigningKey::Generate();
};

TEST_F(ArchiveFileTest, ASealedFileVerifiesWithItsKeyOnly) {
  const auto path = WriteUsage({"a", "b", "c"});
  EXPECT_FALSE(fs::exists(path + ".tmp"));
  auto ok = VerifyArchive(path, {{"", key_.public_key()}});
  EXPECT_TRUE(ok.ok) << ok.problem;
  EXPECT_EQ(ok.records, 3);
  EXPECT_EQ(ok.kind, "usage");
  EXPECT_EQ(ok.sealed_by, key_.key_id());
  auto other = VerifyArchive(path, {{"", integrity::SigningKey::Generate().public_key()}});
  EXPECT_FALSE(other.ok);
  EXPECT_NE(other.problem.find("not a trusted key"), std::string::npos) << other.problem;
}

TEST_F(ArchiveFileTest, AnAlteredRemovedOrReorderedLineIsFound) {
  const auto path = WriteUsage({"a", "b", "c"});
  const auto lines = Lines(path);
  ASSERT_EQ(lines.size(), 5u);
  auto altered = lines;
  altered[2] = R"({"type":"usage","id":"B"})";
  Rewrite(path, altered);
  EXPECT_FALSE(VerifyArchive(path, {{"", key_.public_key()}}).ok);
  auto removed = lines;
  removed.erase(removed.begin() + 2);
  Rewrite(path, removed);
  EXPECT_FALSE(VerifyArchive(path, {{"", key_.public_key()}}).ok);
  auto swapped = lines;
  std::swap(swapped[1], swapped[2]);
  Rewrite(path, swapped);
  EXPECT_FALSE(VerifyArchive(path, {{"", key_.public_key()}}).ok);
  Rewrite(path, lines);
  EXPECT_TRUE(VerifyArchive(path, {{"", key_.public_key()}}).ok);
}

TEST_F(ArchiveFileTest, ACutShortOrForeignFileIsAClearError) {
  const auto path = WriteUsage({"a", "b"});
  const auto size = fs::file_size(path);
  fs::resize_file(path, size - 12);
  auto cut = VerifyArchive(path, {{"", key_.public_key()}});
  EXPECT_FALSE(cut.ok);
  EXPECT_FALSE(cut.problem.empty());
  std::ofstream(path, std::ios::trunc) << "{\"type\":\"archive\"}\n";
  auto plain = VerifyArchive(path, {{"", key_.public_key()}});
  EXPECT_FALSE(plain.ok);
  EXPECT_NE(plain.problem.find("not a gzip file"), std::string::npos) << plain.problem;
  auto missing = VerifyArchive((dir_ / "none.gz").string(), {{"", key_.public_key()}});
  EXPECT_FALSE(missing.ok);
  EXPECT_NE(missing.problem.find("cannot read"), std::string::npos) << missing.problem;
}

class ArchiverTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    SetLogLevel(LogLevel::kError);
    store_ = std::make_unique<test::ScratchStore>(GetParam(), "credence-retention-test");
    if (!store_->available()) GTEST_SKIP() << "CREDENCE_TEST_PG_URL is not set (see scripts/pg-test-server)";
    db_ = storage::OpenDatabase(store_->url(), {});
    storage::ApplyMigrations(*db_, app::AllMigrations());
    tenant_ = test::SeedTenant(*db_, "retention").tenant_id;
    dir_ = fs::temp_directory_path() / ("credence-archiver-test-" + std::to_string(std::random_device{}()));
    fs::create_directories(dir_);
    key_ = std::make_shared<const integrity::SigningKey>(integrity::SigningKey::Generate());
    heads_ = std::make_unique<integrity::ChainHeads>(*db_, clock_, key_,
                                                     std::vector<integrity::ChainSource>{trust::LedgerChain(),
                                                                                         platform::AuditChain()});
    heads_->RegisterKey();
    audit_ = std::make_unique<platform::AuditLog>(*db_, clock_);
    audit_->SetChainHeads(heads_.get());
  }
  void TearDown() override {
    audit_.reset();
    heads_.reset();
    db_.reset();
    store_.reset();
    fs::remove_all(dir_);
  }

  // A decision at `at` naming two sources (one of them the same each time).
  void Decide(TimeMs at, int n) {
    storage::Session session(*db_, storage::TxMode::kWrite);
    storage::TenantSession tx(session, tenant_);
    trust::LedgerRecord r;
    r.decision_id = NewId();
    r.evaluated_at = at;
    r.endpoint = "Evaluate";
    r.actor_kind = "machine";
    r.actor_label = "bot";
    r.overall = "allow";
    r.counts = {2, 2, 0, 0, 0};
    r.evidence = {R"({"result":"allow","source":"shared"})", R"({"result":"allow","n":)" + std::to_string(n) + "}"};
    trust::AppendDecision(tx, r);
    session.Commit();
  }
  int64_t Count(const char* table) {
    storage::Session session(*db_);
    auto rows = session.connection().Execute("count", std::string("SELECT COUNT(*) FROM ") + table, {});
    return rows.front().Int(0);
  }
  trust::VerifyResult VerifyLedger() {
    storage::Session session(*db_);
    storage::TenantSession tenant(session, tenant_);
    return trust::VerifyChain(tenant, 1, 0);
  }
  integrity::HeadCheck CheckHeads() {
    storage::Session session(*db_);
    storage::TenantSession tenant(session, tenant_);
    return heads_->Check(tenant, trust::kLedgerChain, 1, 0, std::nullopt);
  }

  std::unique_ptr<test::ScratchStore> store_;
  std::unique_ptr<storage::Database> db_;
  std::string tenant_;
  fs::path dir_;
  ManualClock clock_{At("2025-01-10T00:00:00.000Z")};
  std::shared_ptr<const integrity::SigningKey> key_;
  std::unique_ptr<integrity::ChainHeads> heads_;
  std::unique_ptr<platform::AuditLog> audit_;
};

TEST_P(ArchiverTest, RecordsPastRetentionMoveToAVerifiableArchiveAndTheChainGoesOn) {
  // January and February 2025, then March; signed heads along the way.
  for (int i = 0; i < 30; ++i) Decide(At("2025-01-10T00:00:00.000Z") + i * 3'600'000, i);
  heads_->SignMovedHeads();
  for (int i = 0; i < 20; ++i) Decide(At("2025-02-10T00:00:00.000Z") + i * 3'600'000, 100 + i);
  heads_->SignMovedHeads();
  for (int i = 0; i < 5; ++i) Decide(At("2025-03-10T00:00:00.000Z") + i * 3'600'000, 200 + i);
  heads_->SignMovedHeads();
  audit_->RecordAlone(tenant_, identity::AuditEvent{identity::SystemActor("test"), "test.done", {"tenant", tenant_}});

  // 2026-04-02 with 13 months: January and February 2025 are due (all of
  // February is older than 13 months), March stays.
  clock_.Set(At("2026-04-02T00:00:00.000Z"));
  Archiver archiver(*db_, clock_, *heads_, *audit_, dir_.string());
  const auto run = archiver.RunTenant(tenant_);
  EXPECT_EQ(run.archives, 3);  // two months of decisions, January's audit entry
  EXPECT_EQ(run.decisions, 50);
  EXPECT_EQ(run.audit, 1);
  EXPECT_EQ(Count("trust_decisions"), 5);

  // Each file verifies offline with the public key, and the second goes on
  // from the first.
  std::vector<std::string> decision_files;
  for (const auto& f : run.files)
    if (fs::path(f).filename().string().rfind("decisions-", 0) == 0) decision_files.push_back(f);
  ASSERT_EQ(decision_files.size(), 2u);
  auto jan = VerifyArchive(decision_files[0], {{"", key_->public_key()}});
  auto feb = VerifyArchive(decision_files[1], {{"", key_->public_key()}});
  ASSERT_TRUE(jan.ok) << jan.problem;
  ASSERT_TRUE(feb.ok) << feb.problem;
  EXPECT_EQ(jan.period, "2025-01");
  EXPECT_EQ(jan.records, 30);
  EXPECT_EQ(*jan.from_seq, 1);
  EXPECT_EQ(*feb.to_seq, 50);
  EXPECT_EQ(ContinuityProblem(jan, feb), "");
  EXPECT_NE(ContinuityProblem(feb, jan), "");
  EXPECT_GE(feb.heads, 1);

  // What stays verifies from the boundary, against the heads that remain,
  // and links to the archive's last hash.
  auto v = VerifyLedger();
  EXPECT_TRUE(v.ok) << v.problem;
  EXPECT_EQ(v.checked, 5);
  EXPECT_EQ(v.archived_through, 50);
  auto h = CheckHeads();
  EXPECT_TRUE(h.ok) << h.problem;
  {
    storage::Session session(*db_);
    storage::TenantSession tenant(session, tenant_);
    auto boundary = integrity::ArchivedThrough(tenant, trust::kLedgerChain);
    ASSERT_TRUE(boundary);
    EXPECT_EQ(boundary->seq, 50);
    EXPECT_EQ(boundary->hash, feb.last_hash);
  }

  // A second run finds nothing more; new decisions go on from the chain.
  EXPECT_EQ(archiver.RunTenant(tenant_).archives, 0);
  Decide(clock_.Now(), 300);
  EXPECT_TRUE(VerifyLedger().ok);

  // Everything archived (an idle tenant): the next decision still links to
  // the archive's last record, not to the genesis.
  clock_.Set(At("2027-06-01T00:00:00.000Z"));
  const auto all = archiver.RunTenant(tenant_);
  EXPECT_EQ(Count("trust_decisions"), 0);
  Decide(clock_.Now(), 400);
  auto after = VerifyLedger();
  EXPECT_TRUE(after.ok) << after.problem;
  EXPECT_EQ(after.archived_through, 56);
  EXPECT_EQ(after.checked, 1);
  heads_->SignMovedHeads();
  EXPECT_TRUE(CheckHeads().ok) << CheckHeads().problem;
  // The audit log was archived too, with its own chain.
  EXPECT_GE(all.audit, 1);
  for (const auto& f : all.files) EXPECT_TRUE(VerifyArchive(f, {{"", key_->public_key()}}).ok) << f;
}

TEST_P(ArchiverTest, AChainThatDoesNotVerifyIsNotArchived) {
  for (int i = 0; i < 10; ++i) Decide(At("2025-01-10T00:00:00.000Z") + i * 60'000, i);
  {
    storage::Session session(*db_, storage::TxMode::kWrite);
    session.connection().Execute("tamper", "UPDATE trust_decisions SET overall = 'block' WHERE seq = 4", {});
    session.Commit();
  }
  clock_.Set(At("2026-06-01T00:00:00.000Z"));
  Archiver archiver(*db_, clock_, *heads_, *audit_, dir_.string());
  EXPECT_THROW(archiver.RunTenant(tenant_), std::runtime_error);
  EXPECT_EQ(Count("trust_decisions"), 10);
}

INSTANTIATE_TEST_SUITE_P(Backends, ArchiverTest, ::testing::Values("sqlite", "postgres"),
                         [](const ::testing::TestParamInfo<std::string>& backend) { return backend.param; });

}  // namespace
}  // namespace credence::retention
