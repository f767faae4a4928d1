// The RFC 9162 Merkle tree against published vectors: the Certificate
// Transparency reference tree of eight leaves (google/certificate-transparency
// cpp/merkletree/merkle_tree_test.cc: kInputs, kSHA256Roots, kSHA256Paths,
// kSHA256Proofs, the RFC 6962 test data), then against the RFC's recursive
// definitions for every size up to 300, the verifiers against altered
// proofs, and the tiles against a tree held whole in memory.
#include <gtest/gtest.h>

#include <bit>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "integrity/merkle.h"

namespace credence::integrity::merkle {
namespace {

std::string Unhex(std::string_view hex) {
  std::string out;
  for (size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<char>(std::stoi(std::string(hex.substr(i, 2)), nullptr, 16)));
  return out;
}

Hash H(std::string_view hex) {
  Hash h{};
  EXPECT_TRUE(FromBytes(Unhex(hex), h)) << hex;
  return h;
}

// The reference tree's inputs (kInputs), as hex.
const std::vector<std::string> kInputs = {
    "", "00", "10", "2021", "3031", "40414243", "5051525354555657", "606162636465666768696a6b6c6d6e6f"};
// kSHA256Roots: the root after each leaf.
const std::vector<std::string> kRoots = {"6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
                                         "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
                                         "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
                                         "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
                                         "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
                                         "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
                                         "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
                                         "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328"};
constexpr char kEmptyRoot[] = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

// kSHA256Paths: leaf (1-based, as there), tree size, path.
struct PathVector {
  uint64_t leaf, size;
  std::vector<std::string> path;
};
const std::vector<PathVector> kPaths = {
    {1, 1, {}},
    {1,
     8,
     {"96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"}},
    {6,
     8,
     {"bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"}},
    {3, 3, {"fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"}},
    {2,
     5,
     {"6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"}},
};

// kSHA256Proofs: older size, newer size, proof.
struct ProofVector {
  uint64_t from, to;
  std::vector<std::string> proof;
};
const std::vector<ProofVector> kProofs = {
    {1, 1, {}},
    {1,
     8,
     {"96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
      "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"}},
    {6,
     8,
     {"0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
      "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
      "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"}},
    {2,
     5,
     {"5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
      "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"}},
};

// A tree held whole: the leaf hashes, and MTH of any range by the RFC's
// recursion (the reference the stored tree is checked against).
struct MemoryTree {
  std::vector<Hash> leaves;
  Hash Mth(uint64_t begin, uint64_t end) const {
    if (end == begin) return EmptyRoot();
    if (end - begin == 1) return leaves[begin];
    uint64_t k = 1;
    while (k * 2 < end - begin) k *= 2;
    return NodeHash(Mth(begin, begin + k), Mth(begin + k, end));
  }
  // A proof element the way a log makes it: the range's perfect subtrees, folded.
  Hash RangeHash(const Range& r) const {
    std::vector<Hash> nodes;
    for (const Node& n : RangeNodes(r)) nodes.push_back(Mth(n.index << n.level, (n.index + 1) << n.level));
    return FoldRange(nodes);
  }
  std::vector<Hash> Proof(const std::vector<Range>& ranges) const {
    std::vector<Hash> out;
    for (const auto& r : ranges) out.push_back(RangeHash(r));
    return out;
  }
  Hash Root(uint64_t size) const { return size == 0 ? EmptyRoot() : RangeHash({0, size}); }
};

MemoryTree ReferenceTree() {
  MemoryTree t;
  for (const auto& in : kInputs) t.leaves.push_back(LeafHash(Unhex(in)));
  return t;
}

// RFC 9162 PATH and PROOF, written as the RFC writes them.
std::vector<Hash> RfcPath(const MemoryTree& t, uint64_t m, uint64_t begin, uint64_t n) {
  if (n <= 1) return {};
  uint64_t k = 1;
  while (k * 2 < n) k *= 2;
  std::vector<Hash> out;
  if (m < k) {
    out = RfcPath(t, m, begin, k);
    out.push_back(t.Mth(begin + k, begin + n));
  } else {
    out = RfcPath(t, m - k, begin + k, n - k);
    out.push_back(t.Mth(begin, begin + k));
  }
  return out;
}
std::vector<Hash> RfcSubproof(const MemoryTree& t, uint64_t m, uint64_t begin, uint64_t n, bool b) {
  if (m == n) return b ? std::vector<Hash>{} : std::vector<Hash>{t.Mth(begin, begin + m)};
  uint64_t k = 1;
  while (k * 2 < n) k *= 2;
  std::vector<Hash> out;
  if (m <= k) {
    out = RfcSubproof(t, m, begin, k, b);
    out.push_back(t.Mth(begin + k, begin + n));
  } else {
    out = RfcSubproof(t, m - k, begin + k, n - k, false);
    out.push_back(t.Mth(begin, begin + k));
  }
  return out;
}

TEST(Merkle, HashesAndRootsOfTheReferenceTree) {
  EXPECT_EQ(Hex(EmptyRoot()), kEmptyRoot);
  const MemoryTree t = ReferenceTree();
  EXPECT_EQ(Hex(t.Root(0)), kEmptyRoot);
  for (uint64_t size = 1; size <= 8; ++size) EXPECT_EQ(Hex(t.Root(size)), kRoots[size - 1]) << size;
  // The first root is the leaf hash of the empty input: SHA-256(0x00).
  EXPECT_EQ(Hex(LeafHash("")), kRoots[0]);
  EXPECT_EQ(Hex(NodeHash(t.leaves[0], t.leaves[1])), kRoots[1]);
}

TEST(Merkle, InclusionProofsOfTheReferenceTree) {
  const MemoryTree t = ReferenceTree();
  for (const auto& v : kPaths) {
    const auto ranges = InclusionRanges(v.leaf - 1, v.size);
    const auto proof = t.Proof(ranges);
    ASSERT_EQ(proof.size(), v.path.size()) << v.leaf << "/" << v.size;
    for (size_t i = 0; i < proof.size(); ++i)
      EXPECT_EQ(Hex(proof[i]), v.path[i]) << v.leaf << "/" << v.size << " " << i;
    const Hash root = H(kRoots[v.size - 1]);
    EXPECT_EQ(VerifyInclusion(v.leaf - 1, v.size, t.leaves[v.leaf - 1], proof, root), ProofCheck::kOk);
  }
}

TEST(Merkle, ConsistencyProofsOfTheReferenceTree) {
  const MemoryTree t = ReferenceTree();
  for (const auto& v : kProofs) {
    const auto proof = t.Proof(ConsistencyRanges(v.from, v.to));
    ASSERT_EQ(proof.size(), v.proof.size()) << v.from << "->" << v.to;
    for (size_t i = 0; i < proof.size(); ++i)
      EXPECT_EQ(Hex(proof[i]), v.proof[i]) << v.from << "->" << v.to << " " << i;
    EXPECT_EQ(VerifyConsistency(v.from, v.to, H(kRoots[v.from - 1]), H(kRoots[v.to - 1]), proof), ProofCheck::kOk);
  }
}

// Every leaf of every tree up to 70 leaves, and some up to 300: the ranges give the RFC's
// proofs, no longer than ceil(log2 n), and they verify; every altered one
// does not.
TEST(Merkle, EveryProofMatchesTheRfcAndVerifies) {
  MemoryTree t;
  for (int i = 0; i < 300; ++i) t.leaves.push_back(LeafHash(std::string(1, static_cast<char>(i)) + "leaf"));
  const Hash wrong = Sha256("wrong");
  std::vector<uint64_t> sizes;
  for (uint64_t n = 1; n <= 70; ++n) sizes.push_back(n);
  for (uint64_t n : {127, 128, 129, 200, 255, 256, 257, 300}) sizes.push_back(n);
  for (uint64_t n : sizes) {
    const Hash root = t.Root(n);
    const size_t max_len = static_cast<size_t>(std::bit_width(n - 1));  // ceil(log2 n)
    for (uint64_t i = 0; i < n; i += (n > 64 ? 7 : 1)) {
      const auto proof = t.Proof(InclusionRanges(i, n));
      ASSERT_EQ(proof, RfcPath(t, i, 0, n)) << i << "/" << n;
      EXPECT_LE(proof.size(), max_len);
      ASSERT_EQ(VerifyInclusion(i, n, t.leaves[i], proof, root), ProofCheck::kOk) << i << "/" << n;
      EXPECT_NE(VerifyInclusion(i, n, wrong, proof, root), ProofCheck::kOk);
      EXPECT_NE(VerifyInclusion(i, n, t.leaves[i], proof, wrong), ProofCheck::kOk);
      if (i + 1 < n) EXPECT_NE(VerifyInclusion(i + 1, n, t.leaves[i], proof, root), ProofCheck::kOk);
      EXPECT_EQ(VerifyInclusion(i, n, t.leaves[i], proof, root), ProofCheck::kOk);
      for (size_t j = 0; j < proof.size(); ++j) {
        auto altered = proof;
        altered[j][j % 32] ^= 1;
        EXPECT_EQ(VerifyInclusion(i, n, t.leaves[i], altered, root), ProofCheck::kRootMismatch);
      }
      auto longer = proof;
      longer.push_back(wrong);
      EXPECT_EQ(VerifyInclusion(i, n, t.leaves[i], longer, root), ProofCheck::kWrongLength);
      if (!proof.empty()) {
        auto shorter = proof;
        shorter.pop_back();
        EXPECT_EQ(VerifyInclusion(i, n, t.leaves[i], shorter, root), ProofCheck::kWrongLength);
      }
    }
    for (uint64_t m = 0; m <= n; m += (n > 64 ? 5 : 1)) {
      const auto proof = t.Proof(ConsistencyRanges(m, n));
      if (m > 0 && m < n) {
        ASSERT_EQ(proof, RfcSubproof(t, m, 0, n, true)) << m << "->" << n;
      }
      EXPECT_LE(proof.size(), max_len + 1);
      ASSERT_EQ(VerifyConsistency(m, n, t.Root(m), root, proof), ProofCheck::kOk) << m << "->" << n;
      EXPECT_NE(VerifyConsistency(m, n, wrong, root, proof), ProofCheck::kOk);
      if (m > 0) {
        EXPECT_NE(VerifyConsistency(m, n, t.Root(m), wrong, proof), ProofCheck::kOk);
      }
      for (size_t j = 0; j < proof.size(); ++j) {
        auto altered = proof;
        altered[j][0] ^= 0x80;
        EXPECT_NE(VerifyConsistency(m, n, t.Root(m), root, altered), ProofCheck::kOk) << m << "->" << n << " " << j;
      }
      auto longer = proof;
      longer.push_back(wrong);
      EXPECT_NE(VerifyConsistency(m, n, t.Root(m), root, longer), ProofCheck::kOk);
    }
  }
}

TEST(Merkle, EdgeCasesOfConsistency) {
  const MemoryTree t = ReferenceTree();
  // from == to: empty proof, equal roots.
  EXPECT_EQ(VerifyConsistency(5, 5, t.Root(5), t.Root(5), {}), ProofCheck::kOk);
  EXPECT_EQ(VerifyConsistency(5, 5, t.Root(5), t.Root(6), {}), ProofCheck::kRootMismatch);
  const Hash extra = t.Root(1);
  EXPECT_EQ(VerifyConsistency(5, 5, t.Root(5), t.Root(5), std::span<const Hash>(&extra, 1)), ProofCheck::kWrongLength);
  // from == 0: the empty tree is a prefix of every tree.
  EXPECT_EQ(VerifyConsistency(0, 8, EmptyRoot(), t.Root(8), {}), ProofCheck::kOk);
  EXPECT_EQ(VerifyConsistency(0, 0, EmptyRoot(), EmptyRoot(), {}), ProofCheck::kOk);
  EXPECT_EQ(VerifyConsistency(0, 8, t.Root(1), t.Root(8), {}), ProofCheck::kOldRootMismatch);
  EXPECT_EQ(VerifyConsistency(0, 8, EmptyRoot(), t.Root(8), std::span<const Hash>(&extra, 1)),
            ProofCheck::kWrongLength);
  // Backwards, and an empty proof where one is needed.
  EXPECT_EQ(VerifyConsistency(6, 5, t.Root(6), t.Root(5), {}), ProofCheck::kBadIndex);
  EXPECT_EQ(VerifyConsistency(4, 8, t.Root(4), t.Root(8), {}), ProofCheck::kWrongLength);
  EXPECT_THROW(ConsistencyRanges(6, 5), std::invalid_argument);
  EXPECT_THROW(InclusionRanges(5, 5), std::invalid_argument);
  EXPECT_EQ(VerifyInclusion(0, 0, t.leaves[0], {}, EmptyRoot()), ProofCheck::kBadIndex);
}

// A history rewritten behind an older tree: a proof from the rewritten
// tree does not connect the old root to the new one.
TEST(Merkle, ARewrittenHistoryFailsConsistency) {
  MemoryTree honest;
  for (int i = 0; i < 40; ++i) honest.leaves.push_back(LeafHash("record " + std::to_string(i)));
  MemoryTree rewritten = honest;
  rewritten.leaves[17] = LeafHash("record 17, rewritten");
  for (int i = 40; i < 60; ++i) {
    honest.leaves.push_back(LeafHash("record " + std::to_string(i)));
    rewritten.leaves.push_back(LeafHash("record " + std::to_string(i)));
  }
  const Hash published = honest.Root(30);
  const auto proof = rewritten.Proof(ConsistencyRanges(30, 60));
  EXPECT_EQ(VerifyConsistency(30, 60, published, rewritten.Root(60), proof), ProofCheck::kOldRootMismatch);
  EXPECT_EQ(VerifyConsistency(30, 60, published, honest.Root(60), honest.Proof(ConsistencyRanges(30, 60))),
            ProofCheck::kOk);
  // A rewrite past the older tree leaves it consistent (that is what an
  // inclusion proof of the rewritten record then catches).
  MemoryTree late = honest;
  late.leaves[45] = LeafHash("record 45, rewritten");
  EXPECT_EQ(VerifyConsistency(30, 60, published, late.Root(60), late.Proof(ConsistencyRanges(30, 60))),
            ProofCheck::kOk);
  EXPECT_NE(VerifyInclusion(45, 60, honest.leaves[45], late.Proof(InclusionRanges(45, 60)), late.Root(60)),
            ProofCheck::kOk);
}

// Tiles filled in chunks of every size, across three tile levels (65,536
// leaves make the first level-2 hash): every node read from them is the
// node of the tree held whole.
TEST(Merkle, TilesHoldEveryNodeOfTheTree) {
  constexpr uint64_t kLeaves = 66'000;
  std::vector<Hash> leaves;
  for (uint64_t i = 0; i < kLeaves; ++i) leaves.push_back(LeafHash("leaf " + std::to_string(i)));
  // Every level of the tree, bottom-up.
  std::vector<std::vector<Hash>> levels{leaves};
  while (levels.back().size() > 1) {
    std::vector<Hash> up;
    for (size_t i = 0; i + 1 < levels.back().size(); i += 2)
      up.push_back(NodeHash(levels.back()[i], levels.back()[i + 1]));
    levels.push_back(std::move(up));
  }
  std::map<TileId, std::string> tiles;
  std::mt19937_64 rng(7);
  uint64_t size = 0;
  while (size < kLeaves) {
    const uint64_t chunk = std::min<uint64_t>(kLeaves - size, 1 + rng() % (rng() % 4 == 0 ? 3000 : 300));
    std::vector<Tile> partial;
    for (const TileId& id : PartialTiles(size)) partial.push_back(Tile{id, tiles.at(id)});
    for (auto& t : AppendToTiles(size, partial, std::span<const Hash>(leaves).subspan(size, chunk))) {
      EXPECT_LE(t.width(), kTileWidth);
      tiles[t.id] = t.hashes;
    }
    size += chunk;
    // After each append, each level holds exactly size >> 8L hashes.
    for (int level = 0; level < 3; ++level) {
      uint64_t held = 0;
      for (const auto& [id, h] : tiles)
        if (id.level == level) held += h.size() / 32;
      EXPECT_EQ(held, size >> (8 * level)) << level;
    }
  }
  ASSERT_EQ(tiles.count(TileId{2, 0}), 1u);
  EXPECT_EQ(tiles.at(TileId{2, 0}).size(), 32u);
  for (size_t level = 0; level < levels.size(); ++level) {
    const auto& nodes = levels[level];
    for (uint64_t index = 0; index < nodes.size(); index += 1 + nodes.size() / 97) {
      const TileSlice s = SliceOf(Node{static_cast<int>(level), index});
      ASSERT_EQ(tiles.count(s.tile), 1u) << level << "/" << index;
      EXPECT_EQ(FoldTileSlice(tiles.at(s.tile), s.offset, s.count), nodes[index]) << level << "/" << index;
    }
  }
  EXPECT_THROW(FoldTileSlice(tiles.at(TileId{2, 0}), 0, 2), std::out_of_range);
  EXPECT_THROW(AppendToTiles(300, {}, std::span<const Hash>(leaves).subspan(0, 1)), std::invalid_argument);
}

}  // namespace
}  // namespace credence::integrity::merkle
