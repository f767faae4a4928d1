// The audit log's chain against a real store (SQLite, and PostgreSQL when
// CREDENCE_TEST_PG_URL is set): appends link up, every stored column is
// covered by the hash (each altered directly in the database is found by
// the verifier), removed and reordered entries are found, a rolled-back
// transaction leaves nothing, and concurrent writers of one tenant do not
// fork the chain.
#include "platform/audit_log.h"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "app/migrations.h"
#include "core/clock.h"
#include "core/logging.h"
#include "integrity/chain_heads.h"
#include "integrity/signing_key.h"
#include "storage/database.h"
#include "storage/migrations.h"
#include "storage/session.h"
#include "support/pg_test_database.h"
#include "support/seed.h"

namespace credence::platform {
namespace {

class AuditLogTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    SetLogLevel(LogLevel::kError);
    store_ = std::make_unique<test::ScratchStore>(GetParam(), "credence-audit-test");
    if (!store_->available()) GTEST_SKIP() << "CREDENCE_TEST_PG_URL is not set (see scripts/pg-test-server)";
    db_ = storage::OpenDatabase(store_->url(), {});
    storage::ApplyMigrations(*db_, app::AllMigrations());
    log_ = std::make_unique<AuditLog>(*db_, clock_);
    admin_ = test::SeedTenant(*db_, "one");
    admin_.email = "ada@example.com";
    admin_.request = {"req-1", "192.0.2.7", "curl/8.0"};
  }

  void TearDown() override {
    log_.reset();
    db_.reset();
    store_.reset();
  }

  void Append(const std::string& tenant_id, const std::string& action, int n = 1) {
    for (int i = 0; i < n; ++i) {
      clock_.Advance(1000);
      log_->RecordAlone(tenant_id, identity::AuditOf(admin_, action, {"group", "g-" + std::to_string(i)},
                                                     {{"name", "Group " + std::to_string(i)}}));
    }
  }

  AuditVerifyResult Verify(const std::string& tenant_id) {
    storage::Session session(*db_, storage::TxMode::kRead);
    storage::TenantSession tenant(session, tenant_id);
    return VerifyAuditChain(tenant);
  }

  ChainHead Head(const std::string& tenant_id) {
    storage::Session session(*db_);
    storage::TenantSession tenant(session, tenant_id);
    return ReadChainHead(tenant);
  }

  void Sql(const std::string& sql) {
    storage::Session session(*db_);
    session.connection().ExecuteScript(sql);
  }

  ManualClock clock_{*ParseTimestamp("2030-01-01T00:00:00Z")};
  std::unique_ptr<test::ScratchStore> store_;
  std::unique_ptr<storage::Database> db_;
  std::unique_ptr<AuditLog> log_;
  identity::Principal admin_;
};

TEST_P(AuditLogTest, AppendsChainAndVerify) {
  EXPECT_EQ(Head(admin_.tenant_id).seq, 0);
  EXPECT_EQ(Head(admin_.tenant_id).hash, kAuditGenesisHash);
  Append(admin_.tenant_id, "group.created", 3);
  const auto v = Verify(admin_.tenant_id);
  EXPECT_TRUE(v.ok) << v.problem;
  EXPECT_EQ(v.checked, 3);

  const ChainHead head = Head(admin_.tenant_id);
  EXPECT_EQ(head.seq, 3);
  storage::Session session(*db_);
  storage::TenantSession tenant(session, admin_.tenant_id);
  EXPECT_EQ(ChainHashAt(tenant, 3), head.hash);
  EXPECT_EQ(ChainHashAt(tenant, 0), std::string(kAuditGenesisHash));
  EXPECT_FALSE(ChainHashAt(tenant, 4).has_value());
  // Entry 3 links to entry 2.
  auto page = log_->List(admin_, {});
  ASSERT_TRUE(page.ok());
  ASSERT_EQ(page->entries.size(), 3u);
  EXPECT_EQ(page->entries[0].seq, 3);
  EXPECT_EQ(page->entries[0].prev_hash, ChainHashAt(tenant, 2));
  EXPECT_EQ(page->entries[0].actor.label, "ada@example.com");
  EXPECT_EQ(page->entries[0].request_id, "req-1");
  EXPECT_EQ(page->entries[0].client_address, "192.0.2.7");
  EXPECT_EQ(page->entries[0].user_agent, "curl/8.0");
  EXPECT_EQ(EntryHash(admin_.tenant_id, page->entries[0]), head.hash);
}

TEST_P(AuditLogTest, EveryColumnIsCoveredByTheHash) {
  // Each column of entry 2 altered in turn (and restored): the verifier
  // names entry 2 (or, for the hash columns, entry 2 or 3 by the link).
  const std::vector<std::pair<std::string, std::string>> alterations = {
      {"id", "'00000000-0000-7000-8000-000000000000'"},
      {"at", "at - 86400000"},
      {"actor_type", "'system'"},
      {"actor_id", "'someone-else'"},
      {"actor_label", "'eve@example.com'"},
      {"action", "'group.deleted'"},
      {"target_type", "'app'"},
      {"target_id", "'g-x'"},
      {"outcome", "'failure'"},
      {"request_id", "'req-2'"},
      {"client_address", "'198.51.100.1'"},
      {"user_agent", "'Mozilla/5.0'"},
      {"details", "'{\"name\":\"Group X\"}'"},
      {"prev_hash", "'" + std::string(64, 'a') + "'"},
      {"hash", "'" + std::string(64, 'b') + "'"},
  };
  Append(admin_.tenant_id, "group.created", 3);
  for (const auto& [column, value] : alterations) {
    SCOPED_TRACE(column);
    Sql("CREATE TABLE audit_backup AS SELECT * FROM audit_log WHERE seq = 2 AND tenant_id = '" + admin_.tenant_id +
        "'");
    Sql("UPDATE audit_log SET " + column + " = " + value + " WHERE seq = 2 AND tenant_id = '" + admin_.tenant_id +
        "'");
    const auto v = Verify(admin_.tenant_id);
    EXPECT_FALSE(v.ok);
    ASSERT_TRUE(v.first_invalid_seq.has_value());
    EXPECT_EQ(*v.first_invalid_seq, 2);
    Sql("DELETE FROM audit_log WHERE seq = 2 AND tenant_id = '" + admin_.tenant_id + "'");
    Sql("INSERT INTO audit_log SELECT * FROM audit_backup");
    Sql("DROP TABLE audit_backup");
    EXPECT_TRUE(Verify(admin_.tenant_id).ok);
  }
  // Moving seq itself: a gap at 2.
  Sql("UPDATE audit_log SET seq = 7 WHERE seq = 2 AND tenant_id = '" + admin_.tenant_id + "'");
  auto v = Verify(admin_.tenant_id);
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.first_invalid_seq, std::optional<int64_t>(2));
}

TEST_P(AuditLogTest, RemovedTailAndReorderingAreFound) {
  Append(admin_.tenant_id, "apikey.created", 4);
  // Entries 3 and 4 swapped (their contents, not their places).
  Sql("UPDATE audit_log SET seq = 100 WHERE seq = 3 AND tenant_id = '" + admin_.tenant_id + "'");
  Sql("UPDATE audit_log SET seq = 3 WHERE seq = 4 AND tenant_id = '" + admin_.tenant_id + "'");
  Sql("UPDATE audit_log SET seq = 4 WHERE seq = 100 AND tenant_id = '" + admin_.tenant_id + "'");
  auto v = Verify(admin_.tenant_id);
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.first_invalid_seq, std::optional<int64_t>(3));
  // The tail removed: the chain head still says 4.
  Sql("DELETE FROM audit_log WHERE seq >= 3 AND tenant_id = '" + admin_.tenant_id + "'");
  v = Verify(admin_.tenant_id);
  EXPECT_FALSE(v.ok);
  EXPECT_EQ(v.first_invalid_seq, std::optional<int64_t>(3));
  EXPECT_FALSE(v.first_invalid_id.has_value());
  EXPECT_NE(v.problem.find("missing"), std::string::npos) << v.problem;
}

// What the entries' own hashes cannot show: someone with write access who
// rewrites an entry and recomputes every hash after it, or cuts the tail
// and moves the head row with it. The signed heads show both; a head an
// auditor kept shows them even when the stored heads are deleted too.
TEST_P(AuditLogTest, SignedHeadsCatchARecomputedChainAndACutTail) {
  integrity::ChainHeads heads(*db_, clock_, std::make_shared<const integrity::SigningKey>(integrity::SigningKey::Generate()),
                              {AuditChain()});
  heads.RegisterKey();
  log_->SetChainHeads(&heads);
  const std::string t = admin_.tenant_id;
  Append(t, "apikey.created", 5);
  clock_.Advance(1000);
  EXPECT_EQ(heads.SignMovedHeads().signed_heads, 1);
  auto clean = log_->Verify(admin_);
  ASSERT_TRUE(clean.ok());
  EXPECT_TRUE(clean->ok());
  ASSERT_TRUE(clean->heads.has_value());
  EXPECT_EQ(clean->heads->newest_seq, std::optional<int64_t>(5));
  const std::string signed_hash = Head(t).hash;
  auto listed = log_->Heads(admin_, 0, 10);
  ASSERT_TRUE(listed.ok());
  ASSERT_EQ(listed->size(), 1u);
  EXPECT_EQ(listed->front().hash, signed_hash);
  EXPECT_EQ(listed->front().chain, "audit");

  // Entry 3's details rewritten, entries 3..5 re-hashed, the head row moved.
  auto page = log_->List(admin_, {});
  ASSERT_TRUE(page.ok());
  std::vector<AuditEntry> entries(page->entries.rbegin(), page->entries.rend());  // oldest first
  ASSERT_EQ(entries.size(), 5u);
  entries[2].details_json = R"({"name":"Someone else"})";
  for (size_t i = 2; i < entries.size(); ++i) {
    entries[i].prev_hash = entries[i - 1].hash;
    entries[i].hash = EntryHash(t, entries[i]);
    Sql("UPDATE audit_log SET details = '" + entries[i].details_json + "', prev_hash = '" + entries[i].prev_hash +
        "', hash = '" + entries[i].hash + "' WHERE tenant_id = '" + t + "' AND seq = " + std::to_string(entries[i].seq));
  }
  Sql("UPDATE audit_heads SET hash = '" + entries.back().hash + "' WHERE tenant_id = '" + t + "'");
  auto forged = log_->Verify(admin_);
  ASSERT_TRUE(forged.ok());
  EXPECT_TRUE(forged->records.ok) << forged->records.problem;  // the entries alone look fine
  EXPECT_FALSE(forged->ok());
  EXPECT_EQ(forged->heads->first_invalid_seq, std::optional<int64_t>(5));
  // The signer refuses to sign over it.
  clock_.Advance(1000);
  Append(t, "apikey.revoked");
  EXPECT_EQ(heads.SignMovedHeads().refused, 1);

  // The tail cut back to entry 3, head row and stored heads with it: an
  // outside head the auditor kept (seq 5 and its hash) still shows it.
  Sql("DELETE FROM audit_log WHERE tenant_id = '" + t + "' AND seq > 3");
  Sql("UPDATE audit_heads SET seq = 3, hash = '" + entries[2].hash + "' WHERE tenant_id = '" + t + "'");
  auto cut = log_->Verify(admin_);
  ASSERT_TRUE(cut.ok());
  EXPECT_TRUE(cut->records.ok) << cut->records.problem;
  EXPECT_FALSE(cut->ok());
  Sql("DELETE FROM chain_heads WHERE tenant_id = '" + t + "'");
  EXPECT_TRUE(log_->Verify(admin_)->ok());  // nothing left inside to hold it against
  auto outside = log_->Verify(admin_, integrity::OutsideHead{5, signed_hash, {}, {}, {}});
  ASSERT_TRUE(outside.ok());
  EXPECT_FALSE(outside->ok());
  EXPECT_TRUE(outside->heads->first_invalid_is_outside);
}

TEST_P(AuditLogTest, RolledBackTransactionLeavesNothing) {
  Append(admin_.tenant_id, "group.created", 1);
  {
    storage::Session session(*db_, storage::TxMode::kWrite);
    storage::TenantSession tenant(session, admin_.tenant_id);
    log_->Record(tenant, identity::AuditOf(admin_, "group.created", {"group", "g-rolled-back"}));
    // No commit.
  }
  EXPECT_EQ(Head(admin_.tenant_id).seq, 1);
  Append(admin_.tenant_id, "group.created", 1);
  EXPECT_EQ(Head(admin_.tenant_id).seq, 2);
  EXPECT_TRUE(Verify(admin_.tenant_id).ok);
}

TEST_P(AuditLogTest, ChainsArePerTenantAndThePlatformChainHasNoTenantRow) {
  const identity::Principal other = test::SeedTenant(*db_, "two");
  Append(admin_.tenant_id, "group.created", 2);
  Append(other.tenant_id, "group.created", 1);
  Append(identity::kPlatformTenantId, "signin.failed", 1);
  EXPECT_EQ(Head(admin_.tenant_id).seq, 2);
  EXPECT_EQ(Head(other.tenant_id).seq, 1);
  EXPECT_EQ(Head(identity::kPlatformTenantId).seq, 1);
  EXPECT_TRUE(Verify(identity::kPlatformTenantId).ok);
  storage::Session session(*db_);
  const auto tenants = AuditChainTenants(session);
  EXPECT_EQ(tenants.size(), 3u);
  // A tenant admin reads only its own chain.
  auto page = log_->List(other, {});
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(page->entries.size(), 1u);
}

TEST_P(AuditLogTest, ConcurrentWritersOfOneTenantDoNotForkTheChain) {
  constexpr int kThreads = 4;
  constexpr int kEach = 25;
  std::vector<std::thread> threads;
  std::atomic<int> failures{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kEach; ++i) {
        try {
          log_->RecordAlone(admin_.tenant_id, identity::AuditOf(admin_, "group.created", {"group", "g"}));
        } catch (const std::exception&) {
          ++failures;
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(Head(admin_.tenant_id).seq, kThreads * kEach);
  const auto v = Verify(admin_.tenant_id);
  EXPECT_TRUE(v.ok) << v.problem;
  EXPECT_EQ(v.checked, kThreads * kEach);
}

TEST_P(AuditLogTest, FiltersPagesAndRefusesBadInput) {
  Append(admin_.tenant_id, "apikey.created", 3);
  Append(admin_.tenant_id, "apikey.revoked", 2);
  Append(admin_.tenant_id, "app.registered", 1);
  AuditFilter f;
  f.action = "apikey.";
  f.limit = "2";
  auto page = log_->List(admin_, f);
  ASSERT_TRUE(page.ok());
  ASSERT_EQ(page->entries.size(), 2u);
  EXPECT_EQ(page->entries[0].seq, 5);
  ASSERT_TRUE(page->next_cursor.has_value());
  std::vector<int64_t> seen = {page->entries[0].seq, page->entries[1].seq};
  while (page->next_cursor) {
    f.cursor = page->next_cursor;
    page = log_->List(admin_, f);
    ASSERT_TRUE(page.ok());
    for (const auto& e : page->entries) seen.push_back(e.seq);
  }
  EXPECT_EQ(seen, (std::vector<int64_t>{5, 4, 3, 2, 1}));

  f = {};
  f.action = "apikey.revoked";
  EXPECT_EQ(log_->List(admin_, f)->entries.size(), 2u);
  f.action = "app.";  // not apikey.*
  EXPECT_EQ(log_->List(admin_, f)->entries.size(), 1u);

  for (const auto& bad : std::vector<AuditFilter>{{.action = "APIKEY."}, {.action = "apikey"}, {.limit = "0"},
                                                  {.limit = "501"}, {.from = "yesterday"}, {.to = "2030-13-01"}}) {
    auto r = log_->List(admin_, bad);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.error().code, "validation_failed");
  }
  AuditFilter cursor;
  cursor.cursor = "not-a-cursor";
  EXPECT_EQ(log_->List(admin_, cursor).error().code, "invalid_cursor");

  identity::Principal member = admin_;
  member.role = identity::TenantRole::kMember;
  EXPECT_EQ(log_->List(member, {}).error().kind, ErrorKind::kPermissionDenied);
  identity::Principal machine = admin_;
  machine.kind = identity::PrincipalKind::kMachine;
  EXPECT_EQ(log_->List(machine, {}).error().code, "machine_credentials_not_allowed");
}

INSTANTIATE_TEST_SUITE_P(Backends, AuditLogTest, ::testing::Values("sqlite", "postgres"),
                         [](const auto& test) { return test.param; });

}  // namespace
}  // namespace credence::platform
