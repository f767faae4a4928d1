#include "integrity/merkle_log.h"

#include <map>
#include <stdexcept>

#include "core/logging.h"
#include "integrity/chain_heads.h"
#include "integrity/checkpoint.h"
#include "integrity/encoding.h"
#include "integrity/signing_key.h"
#include "storage/session.h"

namespace credence::integrity {
namespace {

using storage::TenantQuery;

constexpr TenantQuery kState{
    "integrity.merkle_state",
    "SELECT origin, first_seq, tree_size FROM merkle_logs WHERE tenant_id = $1 AND chain = $2"};
constexpr TenantQuery kCreateLog{"integrity.merkle_create",
                                 "INSERT INTO merkle_logs (tenant_id, chain, origin, first_seq, tree_size, updated_at)"
                                 " VALUES ($1, $2, $3, $4, 0, $5) ON CONFLICT (tenant_id, chain) DO NOTHING"};
// Compare-and-set: a node whose read is stale (another moved the log since)
// changes nothing and rolls back.
constexpr TenantQuery kMoveLog{
    "integrity.merkle_move",
    "UPDATE merkle_logs SET tree_size = $3, updated_at = $4 WHERE tenant_id = $1 AND chain = $2 AND tree_size = $5"};

// Hashes are stored raw. SQLite takes the bytes bound as text and keeps
// them as a BLOB; PostgreSQL's text protocol cannot carry them, so they
// travel as hex and are stored as bytea (BytesParam, BytesOf).
constexpr TenantQuery kTile{
    "integrity.merkle_tile",
    "SELECT hashes FROM merkle_tiles WHERE tenant_id = $1 AND chain = $2 AND tile_level = $3 AND tile_index = $4",
    "SELECT encode(hashes, 'hex') FROM merkle_tiles WHERE tenant_id = $1 AND chain = $2 AND tile_level = $3"
    " AND tile_index = $4"};
constexpr TenantQuery kPutTile{
    "integrity.merkle_put_tile",
    "INSERT INTO merkle_tiles (tenant_id, chain, tile_level, tile_index, hashes) VALUES ($1, $2, $3, $4,"
    " CAST($5 AS BLOB)) ON CONFLICT (tenant_id, chain, tile_level, tile_index) DO UPDATE SET hashes = excluded.hashes",
    "INSERT INTO merkle_tiles (tenant_id, chain, tile_level, tile_index, hashes) VALUES ($1, $2, $3, $4,"
    " decode($5, 'hex')) ON CONFLICT (tenant_id, chain, tile_level, tile_index) DO UPDATE SET hashes = "
    "excluded.hashes"};

#define CREDENCE_CHECKPOINT_COLUMNS "tree_size, root_hash, signed_at, key_id, note"
constexpr TenantQuery kNewestCheckpoint{"integrity.merkle_newest_checkpoint",
                                        "SELECT " CREDENCE_CHECKPOINT_COLUMNS
                                        " FROM merkle_checkpoints WHERE tenant_id = $1 AND chain = $2"
                                        " ORDER BY tree_size DESC LIMIT 1"};
constexpr TenantQuery kCheckpointAt{"integrity.merkle_checkpoint_at",
                                    "SELECT " CREDENCE_CHECKPOINT_COLUMNS
                                    " FROM merkle_checkpoints WHERE tenant_id = $1 AND chain = $2 AND tree_size = $3"};
constexpr TenantQuery kCheckpointsBefore{"integrity.merkle_checkpoints_before",
                                         "SELECT " CREDENCE_CHECKPOINT_COLUMNS
                                         " FROM merkle_checkpoints WHERE tenant_id = $1 AND chain = $2"
                                         " AND ($3 = 0 OR tree_size < $3) ORDER BY tree_size DESC LIMIT $4"};
constexpr TenantQuery kInsertCheckpoint{
    "integrity.merkle_insert_checkpoint",
    "INSERT INTO merkle_checkpoints (tenant_id, chain, tree_size, root_hash, signed_at, key_id, note)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (tenant_id, chain, tree_size) DO NOTHING"};

// Records appended per transaction: 64 level-0 tiles, a few hundred
// kilobytes, so the store's writer (SQLite has one) is held briefly.
constexpr int64_t kBatch = 16'384;

std::string BytesParam(storage::TenantSession& t, const std::string& raw) {
  return t.session().dialect() == storage::Dialect::kPostgres ? HexEncode(raw) : raw;
}

std::string BytesOf(storage::TenantSession& t, std::string_view cell) {
  if (t.session().dialect() != storage::Dialect::kPostgres) return std::string(cell);
  auto raw = HexDecodeStrict(cell);
  if (!raw) throw std::runtime_error("a Merkle tile is not hex");
  return *raw;
}

StoredCheckpoint CheckpointFromRow(const storage::Row& r) {
  StoredCheckpoint c;
  c.size = r.Int(0);
  auto root = HexDecodeStrict(r.TextView(1));
  if (!root || !merkle::FromBytes(*root, c.root)) throw std::runtime_error("a stored checkpoint's root is not a hash");
  c.signed_at = r.Int(2);
  c.key_id = r.Text(3);
  c.note = r.Text(4);
  return c;
}

// The tiles of one tenant's log, read as a computation needs them, and
// the nodes already folded from them.
class TileReader {
 public:
  TileReader(storage::TenantSession& tenant, std::string_view chain) : tenant_(tenant), chain_(chain) {}

  const std::string& Tile(const merkle::TileId& id) {
    auto it = tiles_.find(id);
    if (it != tiles_.end()) return it->second;
    auto rows = tenant_.Run(kTile, {chain_, id.level, static_cast<int64_t>(id.index)});
    std::string hashes = rows.empty() ? std::string() : BytesOf(tenant_, rows.front().TextView(0));
    return tiles_.emplace(id, std::move(hashes)).first->second;
  }

  merkle::Hash Node(const merkle::Node& n) {
    const auto key = std::make_pair(n.level, n.index);
    if (auto it = nodes_.find(key); it != nodes_.end()) return it->second;
    const merkle::TileSlice s = merkle::SliceOf(n);
    const std::string& tile = Tile(s.tile);
    if ((s.offset + s.count) * 32 > tile.size())
      throw std::out_of_range("the Merkle tile " + std::to_string(s.tile.level) + "/" + std::to_string(s.tile.index) +
                              " of chain " + chain_ + " does not hold node " + std::to_string(n.level) + "/" +
                              std::to_string(n.index));
    const merkle::Hash h = merkle::FoldTileSlice(tile, s.offset, s.count);
    nodes_.emplace(key, h);
    return h;
  }

  merkle::Hash RangeHash(const merkle::Range& r) {
    std::vector<merkle::Hash> hashes;
    for (const auto& n : merkle::RangeNodes(r)) hashes.push_back(Node(n));
    return merkle::FoldRange(hashes);
  }

 private:
  storage::TenantSession& tenant_;
  std::string chain_;
  std::map<merkle::TileId, std::string> tiles_;
  std::map<std::pair<int, uint64_t>, merkle::Hash> nodes_;
};

}  // namespace

LeafSource SqlLeafSource(std::string chain, const storage::GlobalQuery& tenants, const storage::TenantQuery& records,
                         const storage::TenantQuery& previous, const storage::TenantQuery& first) {
  LeafSource out;
  out.chain = std::move(chain);
  out.tenants = [&tenants](storage::Session& session) {
    std::vector<std::string> ids;
    for (const auto& r : session.Run(tenants)) ids.push_back(r.Text(0));
    return ids;
  };
  // Decoded straight from the rows: the builder reads every record once.
  out.records = [&records](storage::TenantSession& tenant, int64_t from_seq, int64_t limit) {
    const auto rows = tenant.Run(records, {from_seq, limit});
    std::vector<LeafSource::Record> out_rows(rows.size());
    for (size_t i = 0; i < rows.size(); ++i) {
      out_rows[i].seq = rows[i].Int(0);
      out_rows[i].valid = HexDecodeInto(rows[i].TextView(1), out_rows[i].hash);
    }
    return out_rows;
  };
  out.previous_hash = [&previous](storage::TenantSession& tenant, int64_t seq) -> std::optional<std::string> {
    auto rows = tenant.Run(previous, {seq});
    if (rows.empty()) return std::nullopt;
    return rows.front().Text(0);
  };
  out.first_seq = [&first](storage::TenantSession& tenant) -> std::optional<int64_t> {
    auto rows = tenant.Run(first);
    if (rows.empty() || rows.front().IsNull(0)) return std::nullopt;
    return rows.front().Int(0);
  };
  return out;
}

std::string OriginPrefixOf(std::string_view public_url) {
  std::string_view rest = public_url;
  for (std::string_view scheme : {"https://", "http://"})
    if (rest.starts_with(scheme)) rest.remove_prefix(scheme.size());
  while (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  if (rest.empty() || !note::ValidKeyName(rest)) return "credence";
  return std::string(rest);
}

MerkleLogs::MerkleLogs(storage::Database& db, const Clock& clock, const ChainHeads& heads, std::string origin_prefix,
                       std::vector<LeafSource> sources)
    : db_(db), clock_(clock), heads_(heads), origin_prefix_(std::move(origin_prefix)), sources_(std::move(sources)) {}

std::optional<LogState> MerkleLogs::State(storage::TenantSession& tenant, std::string_view chain) const {
  auto rows = tenant.Run(kState, {std::string(chain)});
  if (rows.empty()) return std::nullopt;
  return LogState{rows.front().Text(0), rows.front().Int(1), rows.front().Int(2)};
}

std::string MerkleLogs::OriginOf(storage::TenantSession& tenant, std::string_view chain) const {
  if (auto state = State(tenant, chain)) return state->origin;
  return origin_prefix_ + "/" + std::string(chain) + "/" + tenant.tenant_id();
}

std::optional<StoredCheckpoint> MerkleLogs::NewestCheckpoint(storage::TenantSession& tenant,
                                                             std::string_view chain) const {
  auto rows = tenant.Run(kNewestCheckpoint, {std::string(chain)});
  if (rows.empty()) return std::nullopt;
  return CheckpointFromRow(rows.front());
}

std::optional<StoredCheckpoint> MerkleLogs::CheckpointAt(storage::TenantSession& tenant, std::string_view chain,
                                                         int64_t size) const {
  auto rows = tenant.Run(kCheckpointAt, {std::string(chain), size});
  if (rows.empty()) return std::nullopt;
  return CheckpointFromRow(rows.front());
}

std::vector<StoredCheckpoint> MerkleLogs::ListCheckpoints(storage::TenantSession& tenant, std::string_view chain,
                                                          int64_t before_size, int64_t limit) const {
  std::vector<StoredCheckpoint> out;
  for (const auto& r : tenant.Run(kCheckpointsBefore, {std::string(chain), before_size, limit}))
    out.push_back(CheckpointFromRow(r));
  return out;
}

std::vector<merkle::Hash> MerkleLogs::InclusionProof(storage::TenantSession& tenant, std::string_view chain,
                                                     uint64_t index, uint64_t size) const {
  TileReader tiles(tenant, chain);
  std::vector<merkle::Hash> out;
  for (const auto& r : merkle::InclusionRanges(index, size)) out.push_back(tiles.RangeHash(r));
  return out;
}

std::vector<merkle::Hash> MerkleLogs::ConsistencyProof(storage::TenantSession& tenant, std::string_view chain,
                                                       uint64_t from, uint64_t to) const {
  TileReader tiles(tenant, chain);
  std::vector<merkle::Hash> out;
  for (const auto& r : merkle::ConsistencyRanges(from, to)) out.push_back(tiles.RangeHash(r));
  return out;
}

merkle::Hash MerkleLogs::Root(storage::TenantSession& tenant, std::string_view chain, uint64_t size) const {
  if (size == 0) return merkle::EmptyRoot();
  TileReader tiles(tenant, chain);
  return tiles.RangeHash({0, size});
}

std::vector<note::VerifierKey> MerkleLogs::VerifierKeys(std::string_view origin) const {
  std::vector<note::VerifierKey> out;
  for (const auto& k : heads_.TrustedKeys()) {
    bool ok = false;
    const std::string raw = Base64UrlDecodeOr(k.public_key, ok);
    if (ok && raw.size() == 32) out.push_back(note::VerifierKeyOf(origin, raw));
  }
  return out;
}

std::optional<note::VerifierKey> MerkleLogs::VerifierKeyFor(std::string_view origin, std::string_view key_id) const {
  // Every listed key, not only the trusted ones: this names the key a
  // checkpoint says it was signed with, which a verifier checks against the
  // key it holds; working out which keys are trusted verifies each
  // retirement's signature, too much for every receipt.
  for (const auto& k : heads_.Keys()) {
    if (k.key_id != key_id) continue;
    bool ok = false;
    const std::string raw = Base64UrlDecodeOr(k.public_key, ok);
    if (ok && raw.size() == 32) return note::VerifierKeyOf(origin, raw);
  }
  return std::nullopt;
}

MerkleLogs::TenantOutcome MerkleLogs::BuildTenant(const LeafSource& source, const std::string& tenant_id,
                                                  bool sign) const {
  TenantOutcome out;
  auto refuse = [&](const std::string& why) {
    LogLine(LogLevel::kError, "Merkle log not extended: the chain does not continue its tree")
        .Str("chain", source.chain)
        .Str("tenant", tenant_id)
        .Str("problem", why);
    out.outcome = Outcome::kRefused;
    return out;
  };
  for (;;) {
    LogState state;
    bool create = false;
    std::vector<merkle::Tile> tiles;
    int64_t count = 0;
    // Read and hash in a read transaction (one snapshot); write after, in
    // a short one.
    {
      storage::Session session(db_, storage::TxMode::kRead);
      storage::TenantSession tenant(session, tenant_id);
      if (auto known = State(tenant, source.chain)) {
        state = *known;
      } else {
        const auto first = source.first_seq(tenant);
        if (!first) break;
        state = LogState{OriginOf(tenant, source.chain), *first, 0};
        create = true;
      }
      const int64_t next = state.first_seq + state.size;
      const auto records = source.records(tenant, next, kBatch);
      if (records.empty()) break;
      if (records.front().seq != next)
        return refuse("record " + std::to_string(next) +
                      " is not in the database: it left it (archived?) before the tree took it in");
      std::vector<merkle::Hash> leaves;
      leaves.reserve(records.size());
      TileReader reader(tenant, source.chain);
      if (state.size > 0) {
        // The tree's last leaf must be the record the first new one links to.
        const auto prev = source.previous_hash(tenant, next);
        const auto prev_raw = prev ? HexDecodeStrict(*prev) : std::nullopt;
        const merkle::Hash last = reader.Node({0, static_cast<uint64_t>(state.size - 1)});
        if (!prev_raw || merkle::LeafHash(*prev_raw) != last)
          return refuse("record " + std::to_string(next) + " does not link to the tree's last leaf (record " +
                        std::to_string(next - 1) + " as the tree took it in)");
      }
      for (size_t i = 0; i < records.size(); ++i) {
        const auto& r = records[i];
        if (r.seq != next + static_cast<int64_t>(i))
          return refuse("record " + std::to_string(next + static_cast<int64_t>(i)) + " is missing");
        if (!r.valid) return refuse("record " + std::to_string(r.seq) + "'s hash is not 32 bytes of hex");
        leaves.push_back(merkle::LeafHash(std::string_view(reinterpret_cast<const char*>(r.hash.data()), 32)));
      }
      std::vector<merkle::Tile> partial;
      for (const auto& id : merkle::PartialTiles(static_cast<uint64_t>(state.size)))
        partial.push_back(merkle::Tile{id, reader.Tile(id)});
      tiles = merkle::AppendToTiles(static_cast<uint64_t>(state.size), partial, leaves);
      count = static_cast<int64_t>(leaves.size());
    }
    {
      storage::Session session(db_, storage::TxMode::kWrite);
      storage::TenantSession tx(session, tenant_id);
      const TimeMs now = clock_.Now();
      if (create) tx.Run(kCreateLog, {source.chain, state.origin, state.first_seq, now});
      // Another node moved the log since this one read it: it goes on.
      if (tx.Run(kMoveLog, {source.chain, state.size + count, now, state.size}).affected() != 1) break;
      for (const auto& t : tiles)
        tx.Run(kPutTile, {source.chain, t.id.level, static_cast<int64_t>(t.id.index), BytesParam(tx, t.hashes)});
      session.Commit();
    }
    out.outcome = Outcome::kBuilt;
    out.leaves += count;
    if (count < kBatch) break;
  }
  if (sign) out.signed_checkpoint = SignNewest(source, tenant_id);
  return out;
}

bool MerkleLogs::SignNewest(const LeafSource& source, const std::string& tenant_id) const {
  Checkpoint body;
  {
    storage::Session session(db_, storage::TxMode::kRead);
    storage::TenantSession tenant(session, tenant_id);
    const auto state = State(tenant, source.chain);
    if (!state || state->size == 0) return false;
    if (auto newest = NewestCheckpoint(tenant, source.chain); newest && newest->size >= state->size) return false;
    body = Checkpoint{state->origin,
                      static_cast<uint64_t>(state->size),
                      Root(tenant, source.chain, static_cast<uint64_t>(state->size)),
                      {}};
  }
  const SigningKey& key = heads_.key();
  const std::string signed_note = note::Sign(CheckpointBody(body), body.origin, key);
  storage::Session session(db_);
  storage::TenantSession tenant(session, tenant_id);
  // Two nodes signing the same size keep the first one's note.
  return tenant
             .Run(kInsertCheckpoint, {source.chain, static_cast<int64_t>(body.size), merkle::Hex(body.root),
                                      clock_.Now(), key.key_id(), signed_note})
             .affected() == 1;
}

BuildPass MerkleLogs::BuildAndSign() const {
  BuildPass pass;
  const bool may_sign = heads_.MaySign();
  if (!may_sign)
    LogLine(LogLevel::kWarn, "checkpoints not signed: this node's chain-signing key is not the current one")
        .Str("keyId", heads_.key().key_id());
  for (const auto& source : sources_) {
    std::vector<std::string> tenants;
    {
      storage::Session session(db_);
      tenants = source.tenants(session);
    }
    for (const auto& tenant_id : tenants) {
      ++pass.tenants;
      // One log that cannot be built must not keep every other tenant's
      // from being built: it is logged and tried again next pass.
      try {
        const auto t = BuildTenant(source, tenant_id, may_sign);
        pass.leaves += t.leaves;
        if (t.signed_checkpoint) ++pass.checkpoints;
        if (t.outcome == Outcome::kRefused) ++pass.refused;
      } catch (const std::exception& e) {
        ++pass.failed;
        LogLine(LogLevel::kError, "Merkle log not built: it could not be read or written")
            .Str("chain", source.chain)
            .Str("tenant", tenant_id)
            .Str("error", e.what());
      }
    }
  }
  return pass;
}

bool MerkleLogs::CatchUp(const std::string& tenant_id, std::string_view chain) const {
  for (const auto& source : sources_) {
    if (source.chain != chain) continue;
    if (BuildTenant(source, tenant_id, heads_.MaySign()).outcome == Outcome::kRefused) return false;
    storage::Session session(db_, storage::TxMode::kRead);
    storage::TenantSession tenant(session, tenant_id);
    const auto state = State(tenant, chain);
    const int64_t next = state ? state->first_seq + state->size : source.first_seq(tenant).value_or(1);
    return source.records(tenant, next, 1).empty();
  }
  return true;
}

}  // namespace credence::integrity
