// Decision receipts checked offline: a receipt made the way the server makes
// it verifies; every byte of it altered (record, proof, checkpoint,
// signature, sizes) does not; a history rewritten behind an older
// checkpoint fails consistency; and the test vectors in tests/vectors/receipts
// are what this code makes and says of them (CREDENCE_WRITE_VECTORS=1
// writes them anew).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "core/ids.h"
#include "integrity/checkpoint.h"
#include "integrity/encoding.h"
#include "integrity/note.h"
#include "integrity/signing_key.h"
#include "trust/ledger.h"
#include "trust/receipt.h"

namespace credence::trust {
namespace {

namespace merkle = integrity::merkle;

constexpr char kTenant[] = "0190a6c2-7c1e-7000-8000-00000000c0de";
constexpr char kOriginPrefix[] = "credence.example";

// A fixed key, so the vectors are reproducible (Ed25519 signs deterministically).
integrity::SigningKey VectorKey(std::string_view label) {
  return *integrity::SigningKey::FromSeed(merkle::Bytes(merkle::Sha256(label)));
}

// A small ledger made the way the ledger makes records (format 3): each
// record's header, evidence, link and hash.
struct Ledger {
  std::string tenant = kTenant;
  std::vector<ReceiptRecord> records;

  void Append(const std::string& decision_id, const std::string& overall, std::vector<std::string> evidence) {
    ReceiptRecord r;
    r.tenant_id = tenant;
    r.sequence = static_cast<int64_t>(records.size()) + 1;
    r.hash_format = 3;
    r.previous_hash = records.empty() ? kGenesisHash : records.back().hash;
    r.header = "{\"decisionId\":\"" + decision_id + "\",\"evaluatedAt\":\"2026-11-28T10:0" +
               std::to_string(r.sequence) +
               ":00.000Z\",\"endpoint\":\"Evaluate\",\"actorKind\":\"machine\","
               "\"actorLabel\":\"helpdesk-bot\",\"overallDecision\":\"" +
               overall + "\"}";
    r.evidence = std::move(evidence);
    r.hash = RecomputedRecordHash(r);
    records.push_back(std::move(r));
  }
  std::vector<merkle::Hash> Leaves() const {
    std::vector<merkle::Hash> out;
    for (const auto& r : records) out.push_back(merkle::LeafHash(*integrity::HexDecodeStrict(r.hash)));
    return out;
  }
};

merkle::Hash Mth(const std::vector<merkle::Hash>& leaves, uint64_t begin, uint64_t end) {
  if (end == begin) return merkle::EmptyRoot();
  if (end - begin == 1) return leaves[begin];
  uint64_t k = 1;
  while (k * 2 < end - begin) k *= 2;
  return merkle::NodeHash(Mth(leaves, begin, begin + k), Mth(leaves, begin + k, end));
}

std::vector<merkle::Hash> Proof(const std::vector<merkle::Hash>& leaves, const std::vector<merkle::Range>& ranges) {
  std::vector<merkle::Hash> out;
  for (const auto& r : ranges) out.push_back(Mth(leaves, r.begin, r.end));
  return out;
}

std::string LogOrigin(const Ledger& l) { return std::string(kOriginPrefix) + "/ledger/" + l.tenant; }

std::string SignedCheckpoint(const Ledger& l, uint64_t size, const integrity::SigningKey& key) {
  const auto leaves = l.Leaves();
  return integrity::note::Sign(integrity::CheckpointBody({LogOrigin(l), size, Mth(leaves, 0, size), {}}), LogOrigin(l),
                               key);
}

// The receipt of record `seq` against the tree of `size` records, with a
// consistency proof from `from` when given.
Receipt MakeReceipt(const Ledger& l, int64_t seq, uint64_t size, const integrity::SigningKey& key,
                    std::optional<uint64_t> from = std::nullopt) {
  const auto leaves = l.Leaves();
  Receipt r;
  r.record = l.records.at(static_cast<size_t>(seq - 1));
  r.decision_id = r.record.header.substr(15, 36);
  r.leaf_index = static_cast<uint64_t>(seq - 1);
  r.tree_size = size;
  r.inclusion_proof = Proof(leaves, merkle::InclusionRanges(r.leaf_index, size));
  r.checkpoint = SignedCheckpoint(l, size, key);
  r.verifier_key = integrity::note::Encode(integrity::note::VerifierKeyOf(LogOrigin(l), key.raw_public_key()));
  if (from) r.consistency = Receipt::Consistency{*from, Proof(leaves, merkle::ConsistencyRanges(*from, size))};
  return r;
}

Ledger SevenDecisions() {
  Ledger l;
  for (int i = 1; i <= 7; ++i) {
    const std::string id =
        "0190a6c2-7c1e-7" + std::string(3, static_cast<char>('0' + i)) + "-8000-00000000000" + std::to_string(i);
    l.Append(
        id, i % 3 == 0 ? "block" : "allow",
        {"{\"result\":{\"sourceId\":\"entry:" + std::to_string(i) + "\",\"decision\":\"allow\"},\"state\":{}}",
         "{\"result\":{\"sourceId\":\"wiki:page-" + std::to_string(i) + "\",\"decision\":\"warn\"},\"state\":{}}"});
  }
  return l;
}

std::vector<integrity::note::VerifierKey> KeysOf(const Ledger& l, const integrity::SigningKey& key) {
  return {integrity::note::VerifierKeyOf(LogOrigin(l), key.raw_public_key())};
}

TEST(Receipt, AReceiptVerifiesAndSaysWhatItEstablished) {
  const auto key = VectorKey("receipt test key");
  const Ledger l = SevenDecisions();
  const Receipt r = MakeReceipt(l, 5, 7, key, 3);
  const auto keys = KeysOf(l, key);
  auto c = VerifyReceipt(r, keys, SignedCheckpoint(l, 3, key));
  ASSERT_TRUE(c.ok) << c.problem;
  EXPECT_EQ(c.sequence, 5);
  EXPECT_EQ(c.leaf_index, 4u);
  EXPECT_EQ(c.tree_size, 7u);
  EXPECT_EQ(c.origin, LogOrigin(l));
  EXPECT_EQ(c.older_size, 3u);
  EXPECT_FALSE(c.key_from_receipt);
  // Through its JSON, and with no key (the receipt's own).
  auto parsed = ParseReceipt(ReceiptJson(r));
  ASSERT_TRUE(parsed.ok()) << parsed.error().detail;
  auto own = VerifyReceipt(*parsed, {});
  ASSERT_TRUE(own.ok) << own.problem;
  EXPECT_TRUE(own.key_from_receipt);
  // Every record of every size, and the edge sizes of consistency.
  for (int64_t seq = 1; seq <= 7; ++seq)
    for (uint64_t size = static_cast<uint64_t>(seq); size <= 7; ++size)
      EXPECT_TRUE(VerifyReceipt(MakeReceipt(l, seq, size, key), keys).ok) << seq << "/" << size;
  EXPECT_TRUE(VerifyReceipt(MakeReceipt(l, 2, 7, key, 7), keys, SignedCheckpoint(l, 7, key)).ok);
  EXPECT_TRUE(VerifyReceipt(MakeReceipt(l, 2, 7, key), keys, SignedCheckpoint(l, 7, key)).ok);  // from == to
  const std::string empty =
      integrity::note::Sign(integrity::CheckpointBody({LogOrigin(l), 0, merkle::EmptyRoot(), {}}), LogOrigin(l), key);
  EXPECT_TRUE(VerifyReceipt(MakeReceipt(l, 2, 7, key), keys, empty).ok);  // from == 0
}

// Every byte of the receipt but its informational verifierKey, changed:
// the record, the leaf index and sizes, the proofs, the checkpoint and its
// signature. None verifies.
TEST(Receipt, NoAlteredByteVerifies) {
  const auto key = VectorKey("receipt test key");
  const Ledger l = SevenDecisions();
  const std::string json = ReceiptJson(MakeReceipt(l, 5, 7, key, 3));
  const auto keys = KeysOf(l, key);
  const std::string older = SignedCheckpoint(l, 3, key);
  const size_t vk = json.find("\"verifierKey\":");
  const size_t vk_end = json.find('"', vk + 15);
  ASSERT_NE(vk, std::string::npos);
  int checked = 0;
  for (size_t i = 0; i < json.size(); ++i) {
    if (i >= vk && i <= vk_end) continue;
    for (unsigned char flip : {0x01, 0x20}) {
      std::string altered = json;
      altered[i] = static_cast<char>(static_cast<unsigned char>(altered[i]) ^ flip);
      auto r = ParseReceipt(altered);
      if (!r) continue;  // no longer a receipt: refused as malformed
      ++checked;
      const auto c = VerifyReceipt(*r, keys, older);
      EXPECT_FALSE(c.ok) << "byte " << i << " ('" << json[i] << "') altered and the receipt still verifies";
    }
  }
  EXPECT_GT(checked, 500);
}

TEST(Receipt, EachFailureSaysWhatFailed) {
  const auto key = VectorKey("receipt test key");
  const Ledger l = SevenDecisions();
  const auto keys = KeysOf(l, key);
  auto problem = [&](Receipt r, std::optional<std::string> older = std::nullopt) {
    auto c = VerifyReceipt(r, keys, older);
    EXPECT_FALSE(c.ok);
    return c.problem;
  };
  const Receipt good = MakeReceipt(l, 5, 7, key, 3);
  auto r = good;
  r.record.evidence[1][5] = 'X';
  EXPECT_NE(problem(r).find("the record does not match its hash"), std::string::npos);
  r = good;
  r.decision_id = "0190a6c2-7c1e-7000-8000-999999999999";
  EXPECT_NE(problem(r).find("its header names another decision"), std::string::npos);
  r = good;
  r.inclusion_proof[0][3] ^= 1;
  EXPECT_NE(problem(r).find("the inclusion proof does not hold"), std::string::npos);
  r = good;
  r.inclusion_proof.pop_back();
  EXPECT_NE(problem(r).find("more or fewer hashes"), std::string::npos);
  r = good;
  r.checkpoint.replace(r.checkpoint.find("\n7\n"), 3, "\n8\n");
  EXPECT_NE(problem(r).find("does not verify"), std::string::npos);
  r = good;
  r.leaf_index = 3;
  EXPECT_NE(problem(r).find("the record is not leaf 3"), std::string::npos);
  // A key of another name, and another key of the same name.
  const auto other = VectorKey("another key");
  EXPECT_NE(VerifyReceipt(good, std::vector{integrity::note::VerifierKeyOf("elsewhere", other.raw_public_key())})
                .problem.find("no key given is named"),
            std::string::npos);
  EXPECT_NE(VerifyReceipt(good, std::vector{integrity::note::VerifierKeyOf(LogOrigin(l), other.raw_public_key())})
                .problem.find("not by the key given"),
            std::string::npos);
  // Another tenant's log.
  Ledger elsewhere = SevenDecisions();
  elsewhere.tenant = "0190a6c2-7c1e-7000-8000-0000000e15e0";
  r = good;
  r.checkpoint = SignedCheckpoint(elsewhere, 7, key);
  EXPECT_NE(VerifyReceipt(r, KeysOf(elsewhere, key)).problem.find("not of tenant"), std::string::npos);
  // An older checkpoint: newer than the receipt's, with no proof for it, of another log.
  EXPECT_NE(problem(MakeReceipt(l, 2, 5, key), SignedCheckpoint(l, 6, key)).find("is newer than the receipt's"),
            std::string::npos);
  EXPECT_NE(problem(MakeReceipt(l, 2, 7, key), SignedCheckpoint(l, 4, key)).find("?consistencyFrom=4"),
            std::string::npos);
  EXPECT_NE(VerifyReceipt(good, KeysOf(elsewhere, key), SignedCheckpoint(elsewhere, 3, key)).problem.find("no key"),
            std::string::npos);
}

// The server's history rewritten behind a checkpoint an auditor kept: the
// rewritten log's receipt verifies on its own (it is signed), but not
// against the kept checkpoint.
TEST(Receipt, ARewrittenHistoryFailsAgainstAKeptCheckpoint) {
  const auto key = VectorKey("receipt test key");
  const Ledger honest = SevenDecisions();
  const std::string kept = SignedCheckpoint(honest, 4, key);
  Ledger rewritten;
  for (const auto& r : honest.records) {
    const bool change = r.sequence == 2;
    rewritten.Append(r.header.substr(15, 36), change ? "allow" : (r.sequence % 3 == 0 ? "block" : "allow"),
                     change ? std::vector<std::string>{"{\"result\":{}}"} : r.evidence);
  }
  const Receipt r = MakeReceipt(rewritten, 6, 7, key, 4);
  EXPECT_TRUE(VerifyReceipt(r, KeysOf(rewritten, key)).ok);
  const auto c = VerifyReceipt(r, KeysOf(rewritten, key), kept);
  EXPECT_FALSE(c.ok);
  EXPECT_NE(c.problem.find("was rewritten or removed"), std::string::npos) << c.problem;
}

// tests/vectors/receipts: files for anyone writing a verifier, each with
// the outcome this verifier gives (expected.txt). The test makes them
// again and compares byte for byte.
TEST(Receipt, TheTestVectorsAreWhatThisCodeMakesAndSays) {
  const auto key = VectorKey("credence receipt test vectors");
  const Ledger l = SevenDecisions();
  std::map<std::string, std::string> files;
  files["key.txt"] = integrity::note::Encode(integrity::note::VerifierKeyOf(LogOrigin(l), key.raw_public_key())) + "\n";
  files["older-checkpoint.txt"] = SignedCheckpoint(l, 3, key);
  const Receipt good = MakeReceipt(l, 5, 7, key, 3);
  files["receipt.json"] = ReceiptJson(good) + "\n";
  auto altered = [&](const std::string& name, auto change) {
    Receipt r = good;
    change(r);
    files[name] = ReceiptJson(r) + "\n";
  };
  altered("altered-record.json",
          [](Receipt& r) { r.record.header.replace(r.record.header.find("allow"), 5, "block"); });
  altered("altered-evidence.json",
          [](Receipt& r) { r.record.evidence[0].replace(r.record.evidence[0].find("allow"), 5, "block"); });
  altered("altered-proof.json", [](Receipt& r) { r.inclusion_proof[1][0] ^= 0x01; });
  altered("altered-checkpoint.json", [](Receipt& r) { r.checkpoint.replace(r.checkpoint.find("\n7\n"), 3, "\n6\n"); });
  altered("altered-signature.json", [](Receipt& r) {
    const size_t at = r.checkpoint.rfind(' ') + 10;
    r.checkpoint[at] = r.checkpoint[at] == 'A' ? 'B' : 'A';
  });
  altered("altered-leaf-index.json", [](Receipt& r) { r.leaf_index = 3; });
  {
    Ledger rewritten;
    for (const auto& rec : l.records)
      rewritten.Append(rec.header.substr(15, 36),
                       rec.sequence == 2 ? "block" : (rec.sequence % 3 == 0 ? "block" : "allow"), rec.evidence);
    files["rewritten-history.json"] = ReceiptJson(MakeReceipt(rewritten, 5, 7, key, 3)) + "\n";
  }
  // What `credence verify-receipt FILE --key key.txt --checkpoint older-checkpoint.txt` says of each.
  const std::vector<std::string> names = {"receipt.json",
                                          "altered-record.json",
                                          "altered-evidence.json",
                                          "altered-proof.json",
                                          "altered-checkpoint.json",
                                          "altered-signature.json",
                                          "altered-leaf-index.json",
                                          "rewritten-history.json"};
  std::string expected;
  for (const auto& name : names) {
    auto r = ParseReceipt(files[name]);
    ASSERT_TRUE(r.ok()) << name;
    const auto c = VerifyReceipt(*r, KeysOf(l, key), files["older-checkpoint.txt"]);
    expected += name + ": " + (c.ok ? "valid" : "invalid: " + c.problem) + "\n";
    EXPECT_EQ(c.ok, name == "receipt.json") << name << ": " << c.problem;
  }
  files["expected.txt"] = expected;

  const std::filesystem::path dir = std::filesystem::path(CREDENCE_SOURCE_DIR) / "tests" / "vectors" / "receipts";
  const char* write = std::getenv("CREDENCE_WRITE_VECTORS");
  for (const auto& [name, content] : files) {
    if (write != nullptr && std::string(write) == "1") {
      std::filesystem::create_directories(dir);
      std::ofstream(dir / name, std::ios::binary) << content;
      continue;
    }
    std::ifstream in(dir / name, std::ios::binary);
    ASSERT_TRUE(in) << (dir / name) << " is missing: run with CREDENCE_WRITE_VECTORS=1";
    std::stringstream stored;
    stored << in.rdbuf();
    EXPECT_EQ(stored.str(), content) << name << " differs from what the code makes";
  }
}

}  // namespace
}  // namespace credence::trust
