#pragma once
// The Merkle tree of RFC 9162 section 2.1 (Certificate Transparency 2.0, the
// tree of RFC 6962): hashes, the ranges its inclusion and consistency proofs
// are made of, and their verification. Pure: no storage, no clock. The
// tenant ledgers' trees (merkle_log.h) and the offline receipt verifier
// (`credence verify-receipt`, trust/receipt.h) share it; docs/receipts.md
// specifies the same in prose.
//
// A proof element is the hash of a range of leaves, MTH(D[begin:end]). Each
// range splits into perfect subtrees (Node: 2^level leaves from
// index << level), which is how a log stores its hashes: a proof is a
// handful of stored nodes, folded (FoldRange).
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace credence::integrity::merkle {

using Hash = std::array<unsigned char, 32>;

// SHA-256 of `data`.
Hash Sha256(std::string_view data);
// The root of the empty tree: SHA-256 of nothing.
Hash EmptyRoot();
// SHA-256(0x00 || leaf).
Hash LeafHash(std::string_view leaf);
// SHA-256(0x01 || left || right).
Hash NodeHash(const Hash& left, const Hash& right);

// The 32 bytes as a string, and back (nullopt-like: false when not 32 bytes).
std::string Bytes(const Hash& h);
bool FromBytes(std::string_view bytes, Hash& out);
std::string Hex(const Hash& h);

// A perfect subtree: the 2^level leaves starting at index << level.
struct Node {
  int level = 0;
  uint64_t index = 0;
  bool operator==(const Node&) const = default;
};

// The leaves [begin, end), 0 <= begin < end.
struct Range {
  uint64_t begin = 0;
  uint64_t end = 0;
  bool operator==(const Range&) const = default;
};

// The perfect subtrees whose hashes make MTH(D[begin:end]), left to right,
// following MTH's split at the largest power of two below the size. Holds
// for every range of a root or a proof below (their starts are aligned to
// the subtrees they split into); std::invalid_argument otherwise.
std::vector<Node> RangeNodes(const Range& range);
// MTH of the range from the hashes of its RangeNodes, in order: the right
// spine node(n1, node(n2, ... node(n_k-1, n_k))). One hash is itself.
Hash FoldRange(std::span<const Hash> nodes);

// The ranges whose hashes make the inclusion proof of leaf `index` in the
// tree of `size` leaves (RFC 9162 2.1.3.1, PATH), in proof order (the leaf's
// sibling first). index < size; at most ceil(log2(size)) ranges.
std::vector<Range> InclusionRanges(uint64_t index, uint64_t size);
// The ranges of the consistency proof from `from` to `to` leaves (RFC 9162
// 2.1.4.1, PROOF), in proof order. Defined by the RFC for 0 < from < to;
// here also from == to and from == 0, both with no range (docs/receipts.md).
// std::invalid_argument when from > to.
std::vector<Range> ConsistencyRanges(uint64_t from, uint64_t to);
// The range of the whole tree: empty for size 0 (its root is EmptyRoot).
std::vector<Range> RootRanges(uint64_t size);

enum class ProofCheck {
  kOk,
  kBadIndex,         // index >= size, or from > to
  kWrongLength,      // the proof has more or fewer hashes than the sizes call for
  kRootMismatch,     // the proof leads to another root (inclusion; consistency: the newer root)
  kOldRootMismatch,  // consistency: the proof leads to another older root
};
// A sentence for a check that failed ("" for kOk).
std::string Describe(ProofCheck check);

// RFC 9162 2.1.3.2: whether `proof` shows the leaf whose hash is `leaf_hash`
// at `index` in the tree of `size` leaves with root `root`.
ProofCheck VerifyInclusion(uint64_t index, uint64_t size, const Hash& leaf_hash, std::span<const Hash> proof,
                           const Hash& root);
// RFC 9162 2.1.4.2: whether `proof` shows the tree of `from` leaves with root
// `from_root` to be a prefix of the tree of `to` leaves with root `to_root`.
// from == to: the proof must be empty and the roots equal. from == 0: the
// proof must be empty and `from_root` the empty root (every tree extends the
// empty one).
ProofCheck VerifyConsistency(uint64_t from, uint64_t to, const Hash& from_root, const Hash& to_root,
                             std::span<const Hash> proof);

// Tiles (C2SP tlog-tiles' shape): the hashes of tree level 8L, 256 to a
// tile; tile (L, t) holds those of nodes t*256 ... t*256+width-1. A log of
// `size` leaves has size >> 8L hashes at tile level L, so only the last
// tile of each level is partial. Each perfect subtree is one tile's slice
// folded (TileNode), and level 8(L+1) is the roots of level L's full tiles.
inline constexpr int kTileHeight = 8;
inline constexpr uint64_t kTileWidth = 256;

struct TileId {
  int level = 0;
  uint64_t index = 0;
  auto operator<=>(const TileId&) const = default;
};
struct Tile {
  TileId id;
  std::string hashes;  // width * 32 bytes
  uint64_t width() const { return hashes.size() / 32; }
};

// Where node `n` is found: its tile, and the slice [offset, offset+count)
// of the tile's hashes it is the root of.
struct TileSlice {
  TileId tile;
  uint64_t offset = 0;
  uint64_t count = 1;
};
TileSlice SliceOf(const Node& n);
// The root of `count` (a power of two) hashes of `tile_hashes` from `offset`.
// std::out_of_range when the tile holds fewer.
Hash FoldTileSlice(std::string_view tile_hashes, uint64_t offset, uint64_t count);

// The right edge of a log of `size` leaves: the partial tile of each level
// that has one (width size >> 8L not a multiple of 256).
std::vector<TileId> PartialTiles(uint64_t size);
// Appends `leaves` (leaf hashes) to a log of `size` leaves whose partial
// tiles are `partial` (as PartialTiles names them, with their hashes; a
// missing one is std::invalid_argument): returns every tile that changes,
// whole, level by level. Full tiles' roots go up a level as they fill.
std::vector<Tile> AppendToTiles(uint64_t size, const std::vector<Tile>& partial, std::span<const Hash> leaves);

}  // namespace credence::integrity::merkle
