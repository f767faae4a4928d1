#include "integrity/merkle.h"

#include <openssl/evp.h>

#include <bit>
#include <initializer_list>
#include <memory>
#include <stdexcept>

namespace credence::integrity::merkle {
namespace {

// OpenSSL 3 looks an algorithm up on every one-shot call, which costs more
// than hashing 65 bytes: fetch once and keep one context per thread (a
// checkpoint pass hashes two nodes per leaf).
Hash Digest(std::initializer_list<std::string_view> parts) {
  static EVP_MD* const kSha256 = EVP_MD_fetch(nullptr, "SHA256", nullptr);
  thread_local const std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  Hash out{};
  unsigned int length = 0;
  bool ok = kSha256 != nullptr && ctx != nullptr && EVP_DigestInit_ex2(ctx.get(), kSha256, nullptr) == 1;
  for (auto part : parts) ok = ok && EVP_DigestUpdate(ctx.get(), part.data(), part.size()) == 1;
  if (!ok || EVP_DigestFinal_ex(ctx.get(), out.data(), &length) != 1 || length != out.size())
    throw std::runtime_error("SHA-256 failed");
  return out;
}

std::string_view View(const Hash& h) { return {reinterpret_cast<const char*>(h.data()), h.size()}; }

constexpr char kLeafPrefix[] = {'\x00'};
constexpr char kNodePrefix[] = {'\x01'};

// The largest power of two below n (n >= 2): where MTH splits D[n].
uint64_t Split(uint64_t n) { return std::bit_floor(n - 1); }

void Path(uint64_t m, uint64_t begin, uint64_t n, std::vector<Range>& out) {
  if (n <= 1) return;
  const uint64_t k = Split(n);
  if (m < k) {
    Path(m, begin, k, out);
    out.push_back({begin + k, begin + n});
  } else {
    Path(m - k, begin + k, n - k, out);
    out.push_back({begin, begin + k});
  }
}

void Subproof(uint64_t m, uint64_t begin, uint64_t n, bool whole, std::vector<Range>& out) {
  if (m == n) {
    if (!whole) out.push_back({begin, begin + m});
    return;
  }
  const uint64_t k = Split(n);
  if (m <= k) {
    Subproof(m, begin, k, whole, out);
    out.push_back({begin + k, begin + n});
  } else {
    Subproof(m - k, begin + k, n - k, false, out);
    out.push_back({begin, begin + k});
  }
}

void Nodes(uint64_t begin, uint64_t end, std::vector<Node>& out) {
  const uint64_t size = end - begin;
  if (std::has_single_bit(size)) {
    if (begin % size != 0)
      throw std::invalid_argument("the range [" + std::to_string(begin) + ", " + std::to_string(end) +
                                  ") is not made of aligned subtrees");
    const int level = std::countr_zero(size);
    out.push_back({level, begin >> level});
    return;
  }
  const uint64_t k = Split(size);
  Nodes(begin, begin + k, out);
  Nodes(begin + k, end, out);
}

Hash HashAt(std::string_view hashes, uint64_t i) {
  Hash h;
  const auto* p = reinterpret_cast<const unsigned char*>(hashes.data()) + i * 32;
  std::copy(p, p + 32, h.begin());
  return h;
}

}  // namespace

Hash Sha256(std::string_view data) { return Digest({data}); }

Hash EmptyRoot() { return Digest({}); }

Hash LeafHash(std::string_view leaf) { return Digest({std::string_view(kLeafPrefix, 1), leaf}); }

Hash NodeHash(const Hash& left, const Hash& right) {
  return Digest({std::string_view(kNodePrefix, 1), View(left), View(right)});
}

std::string Bytes(const Hash& h) { return std::string(View(h)); }

bool FromBytes(std::string_view bytes, Hash& out) {
  if (bytes.size() != out.size()) return false;
  std::copy(bytes.begin(), bytes.end(), reinterpret_cast<char*>(out.data()));
  return true;
}

std::string Hex(const Hash& h) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(64);
  for (unsigned char b : h) {
    out += kHex[b >> 4];
    out += kHex[b & 15];
  }
  return out;
}

std::vector<Node> RangeNodes(const Range& range) {
  if (range.end <= range.begin) throw std::invalid_argument("an empty range has no nodes");
  std::vector<Node> out;
  Nodes(range.begin, range.end, out);
  return out;
}

Hash FoldRange(std::span<const Hash> nodes) {
  if (nodes.empty()) throw std::invalid_argument("a range has at least one node");
  Hash h = nodes.back();
  for (size_t i = nodes.size() - 1; i-- > 0;) h = NodeHash(nodes[i], h);
  return h;
}

std::vector<Range> InclusionRanges(uint64_t index, uint64_t size) {
  if (index >= size) throw std::invalid_argument("the leaf is not in the tree");
  std::vector<Range> out;
  Path(index, 0, size, out);
  return out;
}

std::vector<Range> ConsistencyRanges(uint64_t from, uint64_t to) {
  if (from > to) throw std::invalid_argument("a tree is not consistent with a larger one");
  std::vector<Range> out;
  if (from == 0 || from == to) return out;
  Subproof(from, 0, to, true, out);
  return out;
}

std::vector<Range> RootRanges(uint64_t size) {
  if (size == 0) return {};
  return {Range{0, size}};
}

std::string Describe(ProofCheck check) {
  switch (check) {
    case ProofCheck::kOk:
      return "";
    case ProofCheck::kBadIndex:
      return "the leaf index is not below the tree size, or the older size is above the newer";
    case ProofCheck::kWrongLength:
      return "the proof has more or fewer hashes than these tree sizes call for";
    case ProofCheck::kRootMismatch:
      return "the proof does not lead to the root hash of the checkpoint";
    case ProofCheck::kOldRootMismatch:
      return "the proof does not lead to the root hash of the older checkpoint";
  }
  return "";
}

ProofCheck VerifyInclusion(uint64_t index, uint64_t size, const Hash& leaf_hash, std::span<const Hash> proof,
                           const Hash& root) {
  if (index >= size) return ProofCheck::kBadIndex;
  uint64_t fn = index, sn = size - 1;
  Hash r = leaf_hash;
  for (const Hash& p : proof) {
    if (sn == 0) return ProofCheck::kWrongLength;
    if ((fn & 1) != 0 || fn == sn) {
      r = NodeHash(p, r);
      if ((fn & 1) == 0)
        while ((fn & 1) == 0 && fn != 0) {
          fn >>= 1;
          sn >>= 1;
        }
    } else {
      r = NodeHash(r, p);
    }
    fn >>= 1;
    sn >>= 1;
  }
  if (sn != 0) return ProofCheck::kWrongLength;
  return r == root ? ProofCheck::kOk : ProofCheck::kRootMismatch;
}

ProofCheck VerifyConsistency(uint64_t from, uint64_t to, const Hash& from_root, const Hash& to_root,
                             std::span<const Hash> proof) {
  if (from > to) return ProofCheck::kBadIndex;
  if (from == 0) {
    if (!proof.empty()) return ProofCheck::kWrongLength;
    return from_root == EmptyRoot() ? ProofCheck::kOk : ProofCheck::kOldRootMismatch;
  }
  if (from == to) {
    if (!proof.empty()) return ProofCheck::kWrongLength;
    return from_root == to_root ? ProofCheck::kOk : ProofCheck::kRootMismatch;
  }
  // The path: the proof, after the older root itself when the older tree is
  // a perfect subtree of the newer (its root is then not in the proof).
  std::vector<Hash> path;
  if (std::has_single_bit(from)) path.push_back(from_root);
  path.insert(path.end(), proof.begin(), proof.end());
  if (path.empty()) return ProofCheck::kWrongLength;
  uint64_t fn = from - 1, sn = to - 1;
  while ((fn & 1) != 0) {
    fn >>= 1;
    sn >>= 1;
  }
  Hash fr = path.front(), sr = path.front();
  for (size_t i = 1; i < path.size(); ++i) {
    const Hash& c = path[i];
    if (sn == 0) return ProofCheck::kWrongLength;
    if ((fn & 1) != 0 || fn == sn) {
      fr = NodeHash(c, fr);
      sr = NodeHash(c, sr);
      if ((fn & 1) == 0)
        while ((fn & 1) == 0 && fn != 0) {
          fn >>= 1;
          sn >>= 1;
        }
    } else {
      sr = NodeHash(sr, c);
    }
    fn >>= 1;
    sn >>= 1;
  }
  if (sn != 0) return ProofCheck::kWrongLength;
  if (fr != from_root) return ProofCheck::kOldRootMismatch;
  if (sr != to_root) return ProofCheck::kRootMismatch;
  return ProofCheck::kOk;
}

TileSlice SliceOf(const Node& n) {
  const int level = n.level / kTileHeight;
  const int within = n.level % kTileHeight;
  const uint64_t first = n.index << within;  // the first hash of tree level 8L under the node
  return TileSlice{{level, first / kTileWidth}, first % kTileWidth, uint64_t{1} << within};
}

Hash FoldTileSlice(std::string_view tile_hashes, uint64_t offset, uint64_t count) {
  if ((offset + count) * 32 > tile_hashes.size())
    throw std::out_of_range("the tile holds " + std::to_string(tile_hashes.size() / 32) + " hashes, not " +
                            std::to_string(offset + count));
  std::vector<Hash> level;
  level.reserve(count);
  for (uint64_t i = 0; i < count; ++i) level.push_back(HashAt(tile_hashes, offset + i));
  while (level.size() > 1) {
    for (size_t i = 0; i < level.size() / 2; ++i) level[i] = NodeHash(level[2 * i], level[2 * i + 1]);
    level.resize(level.size() / 2);
  }
  return level.front();
}

std::vector<TileId> PartialTiles(uint64_t size) {
  std::vector<TileId> out;
  for (int level = 0; (size >> (kTileHeight * level)) > 0; ++level) {
    const uint64_t count = size >> (kTileHeight * level);
    if (count % kTileWidth != 0) out.push_back({level, count / kTileWidth});
  }
  return out;
}

std::vector<Tile> AppendToTiles(uint64_t size, const std::vector<Tile>& partial, std::span<const Hash> leaves) {
  std::vector<Tile> out;
  std::vector<Hash> incoming(leaves.begin(), leaves.end());
  for (int level = 0; !incoming.empty(); ++level) {
    const uint64_t count = level * kTileHeight < 64 ? size >> (kTileHeight * level) : 0;
    Tile current{{level, count / kTileWidth}, {}};
    if (count % kTileWidth != 0) {
      const Tile* found = nullptr;
      for (const auto& t : partial)
        if (t.id == current.id) found = &t;
      if (found == nullptr || found->width() != count % kTileWidth)
        throw std::invalid_argument("the partial tile " + std::to_string(level) + "/" +
                                    std::to_string(current.id.index) + " of " + std::to_string(count % kTileWidth) +
                                    " hashes is missing");
      current.hashes = found->hashes;
    }
    std::vector<Hash> completed;  // roots of tiles filled here: the next level's new hashes
    for (const Hash& h : incoming) {
      current.hashes.append(View(h));
      if (current.width() == kTileWidth) {
        completed.push_back(FoldTileSlice(current.hashes, 0, kTileWidth));
        out.push_back(current);
        current = Tile{{level, current.id.index + 1}, {}};
      }
    }
    if (!current.hashes.empty()) out.push_back(std::move(current));
    incoming = std::move(completed);
  }
  return out;
}

}  // namespace credence::integrity::merkle
