// The chain-signing key and the signed heads: sign and verify, a tampered
// signature or message refused, the key file, and key rotation (old heads
// still verify; a key row added to the database by hand does not).
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <stdexcept>

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

namespace credence::integrity {
namespace {

TEST(SigningKey, SignsAndVerifiesAndRefusesWhatWasTamperedWith) {
  const SigningKey key = SigningKey::Generate();
  EXPECT_EQ(key.key_id().size(), 16u);
  EXPECT_EQ(KeyIdOf(key.public_key()), key.key_id());
  const std::string message = HeadMessage("ledger", "t-1", 42, std::string(64, 'a'), 1'700'000'000'000);
  EXPECT_EQ(message, "credence-chain-head:v1\nledger\nt-1\n42\n" + std::string(64, 'a') + "\n2023-11-14T22:13:20.000Z");
  const std::string signature = key.Sign(message);
  EXPECT_TRUE(VerifySignature(key.public_key(), message, signature));
  // Another message, another key, a flipped signature byte, garbage.
  EXPECT_FALSE(VerifySignature(key.public_key(), message + "x", signature));
  EXPECT_FALSE(VerifySignature(SigningKey::Generate().public_key(), message, signature));
  std::string flipped = signature;
  flipped[10] = flipped[10] == 'A' ? 'B' : 'A';
  EXPECT_FALSE(VerifySignature(key.public_key(), message, flipped));
  EXPECT_FALSE(VerifySignature(key.public_key(), message, "not base64!"));
  EXPECT_FALSE(VerifySignature("short", message, signature));
  // The PEM round trip keeps the key.
  auto again = SigningKey::FromPem(key.PrivatePem());
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->key_id(), key.key_id());
  EXPECT_TRUE(VerifySignature(key.public_key(), "m", again->Sign("m")));
}

TEST(SigningKey, TheKeyFileIsCreatedPrivateOnceAndReadAfter) {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("credence-integrity-test-" + std::to_string(std::random_device{}()));
  const std::string path = (dir / "sub" / "chain-signing-key.pem").string();
  auto first = SigningKey::LoadOrCreate(path);
  ASSERT_TRUE(first.ok()) << first.error().detail;
  struct stat st {};
  ASSERT_EQ(::stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600);
  auto second = SigningKey::LoadOrCreate(path);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->key_id(), first->key_id());
  // Not a key: refused with a clear error, never replaced.
  const std::string bad = (dir / "bad.pem").string();
  std::ofstream(bad) << "not a key";
  auto refused = SigningKey::LoadOrCreate(bad);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, "invalid_chain_key");
  // An RSA key is not an Ed25519 key.
  const std::string rsa = (dir / "rsa.pem").string();
  ASSERT_EQ(std::system(("openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 -out " + rsa +
                         " 2>/dev/null").c_str()),
            0);
  EXPECT_FALSE(SigningKey::LoadOrCreate(rsa).ok());
  std::filesystem::remove_all(dir);
}

// A chain kept by the test: a table-free source whose records live here.
struct FakeChain {
  std::map<std::string, std::vector<std::string>> hashes;  // tenant -> hash of record i+1
  std::string unreadable;                                   // a tenant whose chain cannot be read
  ChainSource Source() {
    ChainSource s;
    s.name = "fake";
    s.tenants = [this](storage::Session&) {
      std::vector<std::string> out;
      for (const auto& [t, h] : hashes)
        if (!h.empty()) out.push_back(t);
      return out;
    };
    s.head = [this](storage::TenantSession& t) -> std::optional<ChainHead> {
      if (t.tenant_id() == unreadable) throw std::runtime_error("the chain's table cannot be read");
      const auto& h = hashes[t.tenant_id()];
      if (h.empty()) return std::nullopt;
      return ChainHead{static_cast<int64_t>(h.size()), h.back()};
    };
    s.hash_at = [this](storage::TenantSession& t, int64_t seq) -> std::optional<std::string> {
      const auto& h = hashes[t.tenant_id()];
      if (seq < 1 || seq > static_cast<int64_t>(h.size())) return std::nullopt;
      return h[static_cast<size_t>(seq - 1)];
    };
    return s;
  }
  void Append(const std::string& tenant) {
    hashes[tenant].push_back(std::string(63, 'a') + std::to_string(hashes[tenant].size() % 10));
  }
};

class ChainHeadsTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    SetLogLevel(LogLevel::kError);
    store_ = std::make_unique<test::ScratchStore>(GetParam(), "credence-integrity-test");
    if (!store_->available()) GTEST_SKIP() << "CREDENCE_TEST_PG_URL is not set (see scripts/pg-test-server)";
    db_ = storage::OpenDatabase(store_->url(), {});
    storage::ApplyMigrations(*db_, app::AllMigrations());
    tenant_ = test::SeedTenant(*db_, "heads").tenant_id;
    other_ = test::SeedTenant(*db_, "other").tenant_id;
    clock_.Set(1'700'000'000'000);
  }
  void TearDown() override {
    db_.reset();
    store_.reset();
  }
  std::unique_ptr<ChainHeads> Node(std::shared_ptr<const SigningKey> key) {
    auto n = std::make_unique<ChainHeads>(*db_, clock_, std::move(key), std::vector<ChainSource>{chain_.Source()});
    n->RegisterKey();
    return n;
  }
  HeadCheck Check(const ChainHeads& node, const std::string& tenant_id) {
    storage::Session session(*db_);
    storage::TenantSession tenant(session, tenant_id);
    return node.Check(tenant, "fake", 1, 0, std::nullopt);
  }
  std::vector<SignedHead> Heads(const ChainHeads& node, const std::string& tenant_id) {
    storage::Session session(*db_);
    storage::TenantSession tenant(session, tenant_id);
    return node.ListHeads(tenant, "fake", 0, 100);
  }

  std::unique_ptr<test::ScratchStore> store_;
  std::unique_ptr<storage::Database> db_;
  SettableClock clock_;
  FakeChain chain_;
  std::string tenant_, other_;
};

TEST_P(ChainHeadsTest, SignsMovedHeadsPerTenantAndKeepsThemApart) {
  auto key = std::make_shared<const SigningKey>(SigningKey::Generate());
  auto node = Node(key);
  EXPECT_EQ(node->SignMovedHeads().signed_heads, 0);  // no chain yet
  chain_.Append(tenant_);
  chain_.Append(tenant_);
  EXPECT_EQ(node->SignMovedHeads().signed_heads, 1);
  EXPECT_EQ(node->SignMovedHeads().signed_heads, 0);
  clock_.Set(clock_.Now() + 60'000);
  chain_.Append(tenant_);
  chain_.Append(other_);
  EXPECT_EQ(node->SignMovedHeads().signed_heads, 2);
  const auto heads = Heads(*node, tenant_);
  ASSERT_EQ(heads.size(), 2u);
  EXPECT_EQ(heads[0].seq, 3);  // newest first
  EXPECT_EQ(heads[1].seq, 2);
  EXPECT_TRUE(VerifySignature(key->public_key(),
                              HeadMessage("fake", tenant_, 3, heads[0].hash, heads[0].signed_at), heads[0].signature));
  // Isolation: the other tenant sees its own head only.
  const auto others = Heads(*node, other_);
  ASSERT_EQ(others.size(), 1u);
  EXPECT_EQ(others[0].tenant_id, other_);
  EXPECT_TRUE(Check(*node, tenant_).ok);
  EXPECT_EQ(Check(*node, tenant_).checked, 2);
  // Truncation and a rewritten record, each named by its head.
  chain_.hashes[tenant_].pop_back();
  auto cut = Check(*node, tenant_);
  EXPECT_FALSE(cut.ok);
  EXPECT_EQ(cut.first_invalid_seq, 3);
  chain_.Append(tenant_);
  chain_.hashes[tenant_][1] = std::string(64, 'f');
  auto rewritten = Check(*node, tenant_);
  EXPECT_FALSE(rewritten.ok);
  EXPECT_EQ(rewritten.first_invalid_seq, 2);
  // The signer does not sign a chain that contradicts its newest head.
  chain_.hashes[tenant_][2] = std::string(64, 'e');
  chain_.Append(tenant_);
  const auto pass = node->SignMovedHeads();
  EXPECT_EQ(pass.refused, 1);
  EXPECT_EQ(pass.signed_heads, 0);
  EXPECT_TRUE(Check(*node, other_).ok);
}

// One tenant's chain that cannot be read does not keep the others from
// being signed; it is counted and tried again next pass.
TEST_P(ChainHeadsTest, AChainThatCannotBeReadDoesNotStopThePass) {
  auto node = Node(std::make_shared<const SigningKey>(SigningKey::Generate()));
  chain_.Append(tenant_);
  chain_.Append(other_);
  // Whichever of the two comes first in the pass, the other is signed.
  chain_.unreadable = tenant_;
  auto pass = node->SignMovedHeads();
  EXPECT_EQ(pass.failed, 1);
  EXPECT_EQ(pass.signed_heads, 1);
  EXPECT_EQ(Heads(*node, other_).size(), 1u);
  chain_.unreadable.clear();
  pass = node->SignMovedHeads();
  EXPECT_EQ(pass.failed, 0);
  EXPECT_EQ(pass.signed_heads, 1);
  EXPECT_EQ(Heads(*node, tenant_).size(), 1u);
}

TEST_P(ChainHeadsTest, RotationKeepsOldHeadsVerifiableAndRefusesKeysNobodyEndorsed) {
  auto old_key = std::make_shared<const SigningKey>(SigningKey::Generate());
  auto old_node = Node(old_key);
  chain_.Append(tenant_);
  ASSERT_EQ(old_node->SignMovedHeads().signed_heads, 1);

  // A new key file: the new key is listed, the old one retired with the
  // new key's signature over its retirement.
  clock_.Set(clock_.Now() + 60'000);
  auto new_key = std::make_shared<const SigningKey>(SigningKey::Generate());
  auto new_node = Node(new_key);
  const auto keys = new_node->Keys();
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0].key_id, new_key->key_id());
  EXPECT_FALSE(keys[0].retired_at);
  EXPECT_EQ(keys[1].key_id, old_key->key_id());
  ASSERT_TRUE(keys[1].retired_at);
  EXPECT_EQ(keys[1].retired_by, new_key->key_id());
  EXPECT_TRUE(VerifySignature(new_key->public_key(),
                              RetirementMessage(old_key->key_id(), old_key->public_key(), *keys[1].retired_at),
                              *keys[1].retirement_signature));
  // A node still on the old key neither un-retires it nor retires the new
  // one, and signs nothing.
  old_node->RegisterKey();
  EXPECT_FALSE(new_node->Keys()[0].retired_at);
  chain_.Append(tenant_);
  EXPECT_EQ(old_node->SignMovedHeads().signed_heads, 0);
  EXPECT_EQ(new_node->SignMovedHeads().signed_heads, 1);
  // Heads of both keys verify with the new node.
  auto both = Check(*new_node, tenant_);
  EXPECT_TRUE(both.ok) << both.problem;
  EXPECT_EQ(both.checked, 2);

  // Someone with write access adds a key of their own (listed as retired by
  // the current key, with a made-up signature) and signs a head with it.
  const SigningKey rogue = SigningKey::Generate();
  chain_.Append(tenant_);
  const TimeMs at = clock_.Now();
  const std::string hash = chain_.hashes[tenant_].back();
  {
    storage::Session session(*db_);
    const std::string endorsement = rogue.Sign(RetirementMessage(rogue.key_id(), rogue.public_key(), at + 1));
    const std::string rogue_head = rogue.Sign(HeadMessage("fake", tenant_, 3, hash, at));
    const storage::Param k[] = {rogue.key_id(), rogue.public_key(), at, new_key->key_id(), endorsement, at + 1};
    session.connection().Execute(
        "test.rogue_key",
        "INSERT INTO chain_signing_keys (key_id, algorithm, public_key, created_at, retired_at, retired_by,"
        " retirement_signature) VALUES ($1, 'Ed25519', $2, $3, $6, $4, $5)",
        k);
    const storage::Param h[] = {tenant_, static_cast<int64_t>(3), hash, at, rogue.key_id(), rogue_head};
    session.connection().Execute("test.rogue_head",
                                 "INSERT INTO chain_heads (tenant_id, chain, seq, hash, signed_at, key_id, signature)"
                                 " VALUES ($1, 'fake', $2, $3, $4, $5, $6)",
                                 h);
  }
  auto rogue_check = Check(*new_node, tenant_);
  EXPECT_FALSE(rogue_check.ok);
  EXPECT_EQ(rogue_check.first_invalid_seq, 3);
  EXPECT_NE(rogue_check.problem.find("not a known"), std::string::npos) << rogue_check.problem;
}

TEST_P(ChainHeadsTest, AHeadSignedByARetiredKeyAfterItsRetirementIsRefused) {
  auto old_key = std::make_shared<const SigningKey>(SigningKey::Generate());
  auto old_node = Node(old_key);
  clock_.Set(clock_.Now() + 1'000);
  auto new_node = Node(std::make_shared<const SigningKey>(SigningKey::Generate()));
  chain_.Append(tenant_);
  clock_.Set(clock_.Now() + 1'000);
  const TimeMs late = clock_.Now();
  const std::string hash = chain_.hashes[tenant_].back();
  storage::Session session(*db_);
  const std::string signature = old_key->Sign(HeadMessage("fake", tenant_, 1, hash, late));
  const storage::Param h[] = {tenant_, hash, late, old_key->key_id(), signature};
  session.connection().Execute("test.late_head",
                               "INSERT INTO chain_heads (tenant_id, chain, seq, hash, signed_at, key_id, signature)"
                               " VALUES ($1, 'fake', 1, $2, $3, $4, $5)",
                               h);
  auto check = Check(*new_node, tenant_);
  EXPECT_FALSE(check.ok);
  EXPECT_NE(check.problem.find("after it was retired"), std::string::npos) << check.problem;
}

INSTANTIATE_TEST_SUITE_P(Backends, ChainHeadsTest, ::testing::Values("sqlite", "postgres"),
                         [](const ::testing::TestParamInfo<std::string>& backend) { return backend.param; });

}  // namespace
}  // namespace credence::integrity
