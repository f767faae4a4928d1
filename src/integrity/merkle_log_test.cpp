// The stored Merkle logs on SQLite and PostgreSQL: built in passes of every
// size over a chain kept by the test, across three tile levels, their
// checkpoints signed and verifying, inclusion and consistency proofs read
// from the tiles equal to the tree held whole; tenants kept apart; a chain
// that no longer continues its tree (rewritten, or archived before the tree
// took it in) refused; nodes building at once; nothing signed by a retired
// key.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <stdexcept>
#include <thread>

#include "core/clock.h"
#include "core/logging.h"
#include "integrity/chain_heads.h"
#include "integrity/checkpoint.h"
#include "integrity/encoding.h"
#include "integrity/merkle_log.h"
#include "integrity/note.h"
#include "integrity/schema.h"
#include "integrity/signing_key.h"
#include "storage/database.h"
#include "storage/migrations.h"
#include "storage/session.h"
#include "support/pg_test_database.h"

namespace credence::integrity {
namespace {

// A chain kept by the test: per tenant, the hashes of records first..first+n-1.
struct MerkleLogFakeChain {
  struct Tenant {
    int64_t first = 1;
    std::vector<std::string> hashes;       // of records first, first+1, ...
    std::map<int64_t, std::string> prevs;  // overridden links: record -> the hash it links to
  };
  std::map<std::string, Tenant> tenants;

  static std::string HashOf(const std::string& tenant, int64_t seq) {
    return merkle::Hex(merkle::Sha256(tenant + "/" + std::to_string(seq)));
  }
  void Append(const std::string& tenant, int64_t n) {
    auto& t = tenants[tenant];
    for (int64_t i = 0; i < n; ++i) t.hashes.push_back(HashOf(tenant, t.first + static_cast<int64_t>(t.hashes.size())));
  }
  LeafSource Source() {
    LeafSource s;
    s.chain = "fake";
    s.tenants = [this](storage::Session&) {
      std::vector<std::string> out;
      for (const auto& [id, t] : tenants)
        if (!t.hashes.empty()) out.push_back(id);
      return out;
    };
    s.records = [this](storage::TenantSession& session, int64_t from, int64_t limit) {
      std::vector<LeafSource::Record> out;
      const auto& t = tenants.at(session.tenant_id());
      for (int64_t seq = std::max(from, t.first);
           seq < t.first + static_cast<int64_t>(t.hashes.size()) && static_cast<int64_t>(out.size()) < limit; ++seq) {
        LeafSource::Record r;
        r.seq = seq;
        r.valid = HexDecodeInto(t.hashes[static_cast<size_t>(seq - t.first)], r.hash);
        out.push_back(r);
      }
      return out;
    };
    s.previous_hash = [this](storage::TenantSession& session, int64_t seq) -> std::optional<std::string> {
      const auto& t = tenants.at(session.tenant_id());
      if (seq < t.first || seq >= t.first + static_cast<int64_t>(t.hashes.size())) return std::nullopt;
      if (auto it = t.prevs.find(seq); it != t.prevs.end()) return it->second;
      const size_t i = static_cast<size_t>(seq - t.first);
      return i == 0 ? std::string(64, '0') : t.hashes[i - 1];
    };
    s.first_seq = [this](storage::TenantSession& session) -> std::optional<int64_t> {
      auto it = tenants.find(session.tenant_id());
      if (it == tenants.end() || it->second.hashes.empty()) return std::nullopt;
      return it->second.first;
    };
    return s;
  }
  // The leaf hashes of a tenant's records, leaf 0 the first.
  std::vector<merkle::Hash> Leaves(const std::string& tenant) {
    std::vector<merkle::Hash> out;
    for (const auto& h : tenants[tenant].hashes) out.push_back(merkle::LeafHash(*HexDecodeStrict(h)));
    return out;
  }
};

// MTH of leaves [begin, end) by the RFC's recursion.
merkle::Hash Mth(const std::vector<merkle::Hash>& leaves, uint64_t begin, uint64_t end) {
  if (end == begin) return merkle::EmptyRoot();
  if (end - begin == 1) return leaves[begin];
  uint64_t k = 1;
  while (k * 2 < end - begin) k *= 2;
  return merkle::NodeHash(Mth(leaves, begin, begin + k), Mth(leaves, begin + k, end));
}

class MerkleLogTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    SetLogLevel(LogLevel::kError);
    store_ = std::make_unique<test::ScratchStore>(GetParam(), "credence-merkle-test");
    if (!store_->available()) GTEST_SKIP() << "CREDENCE_TEST_PG_URL is not set (see scripts/pg-test-server)";
    db_ = storage::OpenDatabase(store_->url(), {});
    // The storage module's and integrity's own tables are all a log needs.
    std::vector<storage::Migration> migrations(storage::Migrations().begin(), storage::Migrations().end());
    migrations.insert(migrations.end(), Migrations().begin(), Migrations().end());
    storage::ApplyMigrations(*db_, migrations);
    clock_.Set(1'700'000'000'000);
    key_ = std::make_shared<const SigningKey>(SigningKey::Generate());
    heads_ = std::make_unique<ChainHeads>(*db_, clock_, key_, std::vector<ChainSource>{});
    heads_->RegisterKey();
    logs_ =
        std::make_unique<MerkleLogs>(*db_, clock_, *heads_, "credence.test", std::vector<LeafSource>{chain_.Source()});
  }
  void TearDown() override {
    logs_.reset();
    heads_.reset();
    db_.reset();
    store_.reset();
  }

  // Reads under one snapshot.
  template <typename F>
  auto Read(const std::string& tenant_id, F f) {
    storage::Session session(*db_, storage::TxMode::kRead);
    storage::TenantSession tenant(session, tenant_id);
    return f(tenant);
  }

  // The newest checkpoint verifies with the published verifier key and
  // commits to the chain's records.
  StoredCheckpoint CheckNewest(const std::string& tenant_id) {
    auto c = Read(tenant_id, [&](auto& t) { return logs_->NewestCheckpoint(t, "fake"); });
    EXPECT_TRUE(c.has_value());
    if (!c) return {};
    const std::string origin = "credence.test/fake/" + tenant_id;
    auto parsed = note::Parse(c->note);
    EXPECT_TRUE(parsed.ok());
    const auto keys = logs_->VerifierKeys(origin);
    EXPECT_EQ(keys.size(), 1u);
    EXPECT_EQ(note::VerificationProblem(*parsed, keys.at(0)), "");
    auto body = ParseCheckpointBody(parsed->text);
    EXPECT_TRUE(body.ok());
    EXPECT_EQ(body->origin, origin);
    EXPECT_EQ(static_cast<int64_t>(body->size), c->size);
    EXPECT_EQ(body->root, c->root);
    const auto leaves = chain_.Leaves(tenant_id);
    EXPECT_EQ(c->root, Mth(leaves, 0, static_cast<uint64_t>(c->size)));
    return *c;
  }

  std::unique_ptr<test::ScratchStore> store_;
  std::unique_ptr<storage::Database> db_;
  SettableClock clock_;
  MerkleLogFakeChain chain_;
  std::shared_ptr<const SigningKey> key_;
  std::unique_ptr<ChainHeads> heads_;
  std::unique_ptr<MerkleLogs> logs_;
};

TEST_P(MerkleLogTest, BuildsInPassesAndEveryProofVerifies) {
  EXPECT_EQ(logs_->BuildAndSign().checkpoints, 0);  // no chain yet
  const std::string t = "tenant-a";
  std::vector<int64_t> sizes;
  // Passes that end inside a tile, on a tile's edge, past the batch, and
  // past 65,536 leaves (the first hash of tile level 2).
  for (int64_t add : {1, 2, 253, 256, 1000, 20'000, 44'024, 1}) {
    chain_.Append(t, add);
    const auto pass = logs_->BuildAndSign();
    EXPECT_EQ(pass.leaves, add);
    EXPECT_EQ(pass.checkpoints, 1);
    EXPECT_EQ(pass.refused + pass.failed, 0);
    sizes.push_back(CheckNewest(t).size);
  }
  EXPECT_EQ(sizes.back(), 65'537);
  EXPECT_EQ(logs_->BuildAndSign().checkpoints, 0);  // nothing new
  const auto leaves = chain_.Leaves(t);
  for (int64_t size : sizes) {
    const auto root = Read(t, [&](auto& s) { return logs_->CheckpointAt(s, "fake", size); })->root;
    for (uint64_t index : {uint64_t{0}, uint64_t{1}, uint64_t(size / 2), uint64_t(size - 1), uint64_t(size * 7 / 9)}) {
      if (index >= static_cast<uint64_t>(size)) continue;
      const auto proof = Read(t, [&](auto& s) { return logs_->InclusionProof(s, "fake", index, uint64_t(size)); });
      EXPECT_LE(proof.size(), static_cast<size_t>(std::bit_width(uint64_t(size) - 1)));
      EXPECT_EQ(merkle::VerifyInclusion(index, uint64_t(size), leaves[index], proof, root), merkle::ProofCheck::kOk)
          << index << "/" << size;
    }
    for (int64_t older : sizes) {
      if (older > size) continue;
      const auto old_root = Read(t, [&](auto& s) { return logs_->CheckpointAt(s, "fake", older); })->root;
      const auto proof =
          Read(t, [&](auto& s) { return logs_->ConsistencyProof(s, "fake", uint64_t(older), uint64_t(size)); });
      EXPECT_EQ(merkle::VerifyConsistency(uint64_t(older), uint64_t(size), old_root, root, proof),
                merkle::ProofCheck::kOk)
          << older << "->" << size;
    }
  }
  const auto listed = Read(t, [&](auto& s) { return logs_->ListCheckpoints(s, "fake", 0, 3); });
  ASSERT_EQ(listed.size(), 3u);
  EXPECT_EQ(listed[0].size, 65'537);  // newest first
  EXPECT_EQ(Read(t, [&](auto& s) { return logs_->ListCheckpoints(s, "fake", listed[2].size, 100); }).size(), 5u);
  EXPECT_THROW(Read(t, [&](auto& s) { return logs_->InclusionProof(s, "fake", 10, 70'000); }), std::out_of_range);
}

TEST_P(MerkleLogTest, TenantsHaveLogsOfTheirOwn) {
  chain_.Append("tenant-a", 300);
  chain_.Append("tenant-b", 5);
  EXPECT_EQ(logs_->BuildAndSign().checkpoints, 2);
  EXPECT_EQ(CheckNewest("tenant-a").size, 300);
  EXPECT_EQ(CheckNewest("tenant-b").size, 5);
  EXPECT_FALSE(Read("tenant-c", [&](auto& s) { return logs_->NewestCheckpoint(s, "fake"); }).has_value());
  EXPECT_EQ(Read("tenant-b", [&](auto& s) { return logs_->State(s, "fake"); })->origin, "credence.test/fake/tenant-b");
  // Tenant b's tiles are not tenant a's: its proof verifies against its own root only.
  const auto proof = Read("tenant-b", [&](auto& s) { return logs_->InclusionProof(s, "fake", 2, 5); });
  EXPECT_EQ(merkle::VerifyInclusion(2, 5, chain_.Leaves("tenant-b")[2], proof, CheckNewest("tenant-b").root),
            merkle::ProofCheck::kOk);
  EXPECT_NE(merkle::VerifyInclusion(2, 5, chain_.Leaves("tenant-a")[2], proof, CheckNewest("tenant-b").root),
            merkle::ProofCheck::kOk);
}

// A chain rewritten behind the tree's last leaf no longer links to it: the
// builder refuses to go on (the tree keeps what it took in), and signs no
// checkpoint over the rewritten records. So does a gap.
TEST_P(MerkleLogTest, AChainThatDoesNotContinueItsTreeIsRefused) {
  const std::string t = "tenant-a";
  chain_.Append(t, 10);
  ASSERT_EQ(logs_->BuildAndSign().checkpoints, 1);
  const auto before = CheckNewest(t);
  // Record 10 rewritten (with every later link recomputed), then appended to.
  chain_.tenants[t].hashes[9] = std::string(64, 'e');
  chain_.Append(t, 3);
  auto pass = logs_->BuildAndSign();
  EXPECT_EQ(pass.refused, 1);
  EXPECT_EQ(pass.checkpoints, 0);
  EXPECT_EQ(Read(t, [&](auto& s) { return logs_->NewestCheckpoint(s, "fake"); })->size, before.size);
  // The next record linking elsewhere than to the tree's last leaf.
  chain_.tenants[t].hashes[9] = MerkleLogFakeChain::HashOf(t, 10);
  chain_.tenants[t].prevs[11] = std::string(64, 'a');
  EXPECT_EQ(logs_->BuildAndSign().refused, 1);
  // A stored hash that is not one.
  chain_.tenants[t].prevs.clear();
  chain_.tenants[t].hashes[11] = "not hex";
  EXPECT_EQ(logs_->BuildAndSign().refused, 1);
  chain_.tenants[t].hashes[11] = MerkleLogFakeChain::HashOf(t, 12);
  chain_.tenants[t].prevs.clear();
  EXPECT_EQ(logs_->BuildAndSign().checkpoints, 1);
  EXPECT_EQ(CheckNewest(t).size, 13);
  // Records archived before the tree took them in: a gap.
  chain_.Append("tenant-b", 4);
  ASSERT_EQ(logs_->BuildAndSign().checkpoints, 1);
  auto& b = chain_.tenants["tenant-b"];
  b.first = 8;  // records 5 to 7 gone, 8 onwards present
  b.hashes = {MerkleLogFakeChain::HashOf("tenant-b", 8)};
  EXPECT_EQ(logs_->BuildAndSign().refused, 1);
  EXPECT_FALSE(logs_->CatchUp("tenant-b", "fake"));
  EXPECT_TRUE(logs_->CatchUp(t, "fake"));
}

// A tenant whose first records were archived before it had a tree starts
// its tree at the first record still in the database.
TEST_P(MerkleLogTest, ATreeStartsAtTheFirstRecordInTheDatabase) {
  auto& t = chain_.tenants["tenant-a"];
  t.first = 101;
  chain_.Append("tenant-a", 20);
  ASSERT_EQ(logs_->BuildAndSign().checkpoints, 1);
  const auto state = Read("tenant-a", [&](auto& s) { return logs_->State(s, "fake"); });
  EXPECT_EQ(state->first_seq, 101);
  EXPECT_EQ(state->size, 20);
  EXPECT_EQ(CheckNewest("tenant-a").size, 20);
}

// Two nodes building at once leave one tree: sizes move by compare-and-set.
TEST_P(MerkleLogTest, NodesBuildingAtOnceLeaveOneTree) {
  chain_.Append("tenant-a", 40'000);
  chain_.Append("tenant-b", 777);
  MerkleLogs other(*db_, clock_, *heads_, "credence.test", {chain_.Source()});
  std::thread a([&] { logs_->BuildAndSign(); });
  std::thread b([&] { other.BuildAndSign(); });
  a.join();
  b.join();
  logs_->BuildAndSign();
  EXPECT_EQ(CheckNewest("tenant-a").size, 40'000);
  EXPECT_EQ(CheckNewest("tenant-b").size, 777);
}

// A node whose key was retired (a newer key took over) signs nothing; the
// old key's checkpoints still verify with its published verifier key.
TEST_P(MerkleLogTest, ARetiredKeySignsNoCheckpoint) {
  chain_.Append("tenant-a", 3);
  ASSERT_EQ(logs_->BuildAndSign().checkpoints, 1);
  const auto old_checkpoint = CheckNewest("tenant-a");
  clock_.Set(clock_.Now() + 1000);
  auto new_key = std::make_shared<const SigningKey>(SigningKey::Generate());
  ChainHeads new_heads(*db_, clock_, new_key, {});
  new_heads.RegisterKey();
  chain_.Append("tenant-a", 2);
  const auto pass = logs_->BuildAndSign();
  EXPECT_EQ(pass.leaves, 2);  // the tree still grows
  EXPECT_EQ(pass.checkpoints, 0);
  MerkleLogs new_logs(*db_, clock_, new_heads, "credence.test", {chain_.Source()});
  EXPECT_EQ(new_logs.BuildAndSign().checkpoints, 1);
  // Both keys are published under the origin, the new one first.
  const std::string origin = "credence.test/fake/tenant-a";
  const auto keys = new_logs.VerifierKeys(origin);
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0].public_key, new_key->raw_public_key());
  EXPECT_EQ(keys[1].public_key, key_->raw_public_key());
  EXPECT_EQ(note::VerificationProblem(*note::Parse(old_checkpoint.note), keys[1]), "");
  EXPECT_FALSE(note::VerificationProblem(*note::Parse(old_checkpoint.note), keys[0]).empty());
  EXPECT_EQ(new_logs.VerifierKeyFor(origin, old_checkpoint.key_id)->public_key, key_->raw_public_key());
}

INSTANTIATE_TEST_SUITE_P(Backends, MerkleLogTest, ::testing::Values("sqlite", "postgres"),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace credence::integrity
