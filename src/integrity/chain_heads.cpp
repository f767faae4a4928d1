#include "integrity/chain_heads.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "core/logging.h"
#include "integrity/archive_boundary.h"
#include "storage/session.h"

namespace credence::integrity {
namespace {

using storage::GlobalQuery;
using storage::TenantQuery;

constexpr GlobalQuery kKeys{"integrity.keys",
                            "SELECT key_id, algorithm, public_key, created_at, retired_at, retired_by,"
                            " retirement_signature FROM chain_signing_keys ORDER BY created_at DESC, key_id"};
constexpr GlobalQuery kInsertKey{
    "integrity.insert_key",
    "INSERT INTO chain_signing_keys (key_id, algorithm, public_key, created_at) VALUES ($1, $2, $3, $4)"
    " ON CONFLICT (key_id) DO NOTHING"};
constexpr GlobalQuery kRetireKey{
    "integrity.retire_key",
    "UPDATE chain_signing_keys SET retired_at = $2, retired_by = $3, retirement_signature = $4"
    " WHERE key_id = $1 AND retired_at IS NULL"};
constexpr GlobalQuery kKeyRetired{"integrity.key_retired",
                                  "SELECT retired_at FROM chain_signing_keys WHERE key_id = $1"};

constexpr TenantQuery kNewestHead{
    "integrity.newest_head",
    "SELECT seq, hash, signed_at, key_id, signature FROM chain_heads WHERE tenant_id = $1 AND chain = $2"
    " ORDER BY seq DESC LIMIT 1"};
constexpr TenantQuery kInsertHead{
    "integrity.insert_head",
    "INSERT INTO chain_heads (tenant_id, chain, seq, hash, signed_at, key_id, signature)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (tenant_id, chain, seq) DO NOTHING"};
constexpr TenantQuery kHeadsBefore{
    "integrity.heads_before",
    "SELECT seq, hash, signed_at, key_id, signature FROM chain_heads WHERE tenant_id = $1 AND chain = $2"
    " AND ($3 = 0 OR seq < $3) ORDER BY seq DESC LIMIT $4"};
constexpr TenantQuery kHeadsInRange{
    "integrity.heads_in_range",
    "SELECT seq, hash, signed_at, key_id, signature FROM chain_heads WHERE tenant_id = $1 AND chain = $2"
    " AND seq >= $3 AND ($4 = 0 OR seq <= $4) ORDER BY seq LIMIT $5"};

constexpr TenantQuery kDropHeadsBelow{"integrity.drop_heads_below",
                                      "DELETE FROM chain_heads WHERE tenant_id = $1 AND chain = $2 AND seq < $3"};

SignedHead HeadFromRow(const storage::Row& r, const std::string& tenant_id, const std::string& chain) {
  return SignedHead{tenant_id, chain, r.Int(0), r.Text(1), r.Int(2), r.Text(3), r.Text(4)};
}

// The keys whose heads verification accepts: the current key (from the
// file, not the database), and each retired key whose retirement was signed
// by an accepted key. A key row someone added to the database is signed by
// no accepted key, so the heads it signs do not verify.
std::map<std::string, PublicKey> TrustedKeys(const std::vector<PublicKey>& all, const SigningKey& current) {
  std::map<std::string, PublicKey> trusted;
  for (const auto& k : all)
    if (k.key_id == current.key_id() && k.public_key == current.public_key()) trusted.emplace(k.key_id, k);
  if (trusted.empty()) trusted.emplace(current.key_id(), PublicKey{current.key_id(), kAlgorithm, current.public_key(), 0,
                                                                   std::nullopt, std::nullopt, std::nullopt});
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& k : all) {
      if (trusted.count(k.key_id) || !k.retired_at || !k.retired_by || !k.retirement_signature) continue;
      auto by = trusted.find(*k.retired_by);
      if (by == trusted.end()) continue;
      if (KeyIdOf(k.public_key) != k.key_id) continue;
      if (!VerifySignature(by->second.public_key, RetirementMessage(k.key_id, k.public_key, *k.retired_at),
                           *k.retirement_signature))
        continue;
      trusted.emplace(k.key_id, k);
      grew = true;
    }
  }
  return trusted;
}

// Why `head` does not verify with the trusted keys, or "".
std::string SignatureProblem(const std::map<std::string, PublicKey>& trusted, const std::string& chain,
                             const std::string& tenant_id, int64_t seq, const std::string& hash, TimeMs signed_at,
                             const std::string& key_id, const std::string& signature) {
  auto key = trusted.find(key_id);
  if (key == trusted.end()) return "the head is signed by key " + key_id + ", which is not a known chain-signing key";
  if (!VerifySignature(key->second.public_key, HeadMessage(chain, tenant_id, seq, hash, signed_at), signature))
    return "the head's signature does not verify with key " + key_id;
  if (key->second.retired_at && signed_at > *key->second.retired_at)
    return "the head is signed by key " + key_id + " after it was retired";
  return "";
}

}  // namespace

ChainSource SqlChainSource(std::string name, const GlobalQuery& tenants, const TenantQuery& head,
                           const TenantQuery& hash_at) {
  ChainSource out;
  out.name = std::move(name);
  out.tenants = [&tenants](storage::Session& session) {
    std::vector<std::string> ids;
    for (const auto& r : session.Run(tenants)) ids.push_back(r.Text(0));
    return ids;
  };
  // A chain whose every record was archived ends at its archive boundary,
  // and the boundary's record still answers for its hash.
  out.head = [&head, name = out.name](storage::TenantSession& tenant) -> std::optional<ChainHead> {
    auto rows = tenant.Run(head);
    if (rows.empty()) return ArchivedThrough(tenant, name);
    return ChainHead{rows.front().Int(0), rows.front().Text(1)};
  };
  out.hash_at = [&hash_at, name = out.name](storage::TenantSession& tenant,
                                            int64_t seq) -> std::optional<std::string> {
    auto rows = tenant.Run(hash_at, {seq});
    if (!rows.empty()) return rows.front().Text(0);
    if (auto boundary = ArchivedThrough(tenant, name); boundary && boundary->seq == seq) return boundary->hash;
    return std::nullopt;
  };
  return out;
}

ChainHeads::ChainHeads(storage::Database& db, const Clock& clock, std::shared_ptr<const SigningKey> key,
                       std::vector<ChainSource> chains)
    : db_(db), clock_(clock), key_(std::move(key)), chains_(std::move(chains)) {}

const ChainSource* ChainHeads::Find(const std::string& name) const {
  for (const auto& c : chains_)
    if (c.name == name) return &c;
  return nullptr;
}

void ChainHeads::RegisterKey() const {
  const TimeMs now = clock_.Now();
  storage::Session session(db_, storage::TxMode::kWrite);
  session.Run(kInsertKey, {key_->key_id(), kAlgorithm, key_->public_key(), now});
  const auto keys = session.Run(kKeys);
  TimeMs mine = now;
  for (const auto& r : keys) {
    if (r.Text(0) != key_->key_id()) continue;
    if (r.Text(2) != key_->public_key())
      throw std::runtime_error("the chain-signing key id " + key_->key_id() + " is listed with another public key");
    if (!r.IsNull(4)) {
      // A node started with a key a newer one retired (a rotation rolling
      // through the nodes): it signs nothing, and retires nothing.
      LogLine(LogLevel::kWarn, "this node's chain-signing key is retired; it signs no chain heads")
          .Str("keyId", key_->key_id());
      return;
    }
    mine = r.Int(3);
  }
  for (const auto& r : keys) {
    const std::string id = r.Text(0);
    // Only keys older than this one: a node still on an old key must not
    // retire its successor.
    if (id == key_->key_id() || !r.IsNull(4) || r.Int(3) >= mine) continue;
    const std::string public_key = r.Text(2);
    const std::string signature = key_->Sign(RetirementMessage(id, public_key, now));
    session.Run(kRetireKey, {id, now, key_->key_id(), signature});
    LogLine(LogLevel::kInfo, "chain-signing key retired").Str("keyId", id).Str("by", key_->key_id());
  }
  session.Commit();
}

std::vector<PublicKey> ChainHeads::Keys() const {
  storage::Session session(db_);
  std::vector<PublicKey> out;
  for (const auto& r : session.Run(kKeys))
    out.push_back(PublicKey{r.Text(0), r.Text(1), r.Text(2), r.Int(3), r.OptInt(4), r.OptText(5), r.OptText(6)});
  return out;
}

std::vector<PublicKey> ChainHeads::TrustedKeys() const {
  std::vector<PublicKey> out;
  for (auto& [id, k] : integrity::TrustedKeys(Keys(), *key_)) {
    if (id == key_->key_id())
      out.insert(out.begin(), k);
    else
      out.push_back(k);
  }
  return out;
}

bool ChainHeads::MaySign() const {
  storage::Session session(db_);
  auto rows = session.Run(kKeyRetired, {key_->key_id()});
  return !rows.empty() && rows.front().IsNull(0);
}

std::optional<SignedHead> ChainHeads::NewestHead(storage::TenantSession& tenant, const std::string& chain) const {
  auto rows = tenant.Run(kNewestHead, {chain});
  if (rows.empty()) return std::nullopt;
  return HeadFromRow(rows.front(), tenant.tenant_id(), chain);
}

ChainHeads::Signed ChainHeads::SignOne(const ChainSource& chain, const std::string& tenant_id) const {
  // Read in one snapshot; the insert is one statement of its own (heads are
  // never updated, and two nodes signing the same head write it once).
  std::optional<ChainHead> head;
  {
    storage::Session session(db_, storage::TxMode::kRead);
    storage::TenantSession tenant(session, tenant_id);
    head = chain.head(tenant);
    if (!head) return Signed::kUnchanged;
    if (auto last = NewestHead(tenant, chain.name)) {
      if (last->seq == head->seq && last->hash == head->hash) return Signed::kUnchanged;
      const auto at = last->seq <= head->seq ? chain.hash_at(tenant, last->seq) : std::nullopt;
      if (!at || *at != last->hash) return Signed::kRefused;
    }
  }
  const TimeMs now = clock_.Now();
  const std::string signature = key_->Sign(HeadMessage(chain.name, tenant_id, head->seq, head->hash, now));
  storage::Session session(db_);
  storage::TenantSession tenant(session, tenant_id);
  tenant.Run(kInsertHead, {chain.name, head->seq, head->hash, now, key_->key_id(), signature});
  return Signed::kSigned;
}

SignPass ChainHeads::SignMovedHeads() const {
  SignPass pass;
  if (!MaySign()) {
    LogLine(LogLevel::kWarn, "chain heads not signed: this node's chain-signing key is not the current one")
        .Str("keyId", key_->key_id());
    return pass;
  }
  for (const auto& chain : chains_) {
    std::vector<std::string> tenants;
    {
      storage::Session session(db_);
      tenants = chain.tenants(session);
    }
    for (const auto& tenant_id : tenants) {
      ++pass.tenants;
      // One chain that cannot be read or signed must not keep every other
      // tenant's from being signed: it is logged and tried again next pass.
      try {
        switch (SignOne(chain, tenant_id)) {
          case Signed::kSigned:
            ++pass.signed_heads;
            break;
          case Signed::kRefused:
            ++pass.refused;
            LogLine(LogLevel::kError, "chain head not signed: the chain contradicts its newest signed head")
                .Str("chain", chain.name)
                .Str("tenant", tenant_id);
            break;
          case Signed::kUnchanged:
            break;
        }
      } catch (const std::exception& e) {
        ++pass.failed;
        LogLine(LogLevel::kError, "chain head not signed: the chain could not be read or signed")
            .Str("chain", chain.name)
            .Str("tenant", tenant_id)
            .Str("error", e.what());
      }
    }
  }
  return pass;
}

SignedHead ChainHeads::SignHeadAt(storage::TenantSession& tx, const std::string& chain, const ChainHead& at) const {
  auto rows = tx.Run(kHeadsInRange, {chain, at.seq, at.seq, 1});
  if (!rows.empty()) {
    SignedHead existing = HeadFromRow(rows.front(), tx.tenant_id(), chain);
    if (existing.hash != at.hash)
      throw std::runtime_error("the signed head at record " + std::to_string(at.seq) + " of chain " + chain +
                               " names another hash than the record carries");
    return existing;
  }
  const TimeMs now = clock_.Now();
  SignedHead head{tx.tenant_id(), chain, at.seq, at.hash, now, key_->key_id(),
                  key_->Sign(HeadMessage(chain, tx.tenant_id(), at.seq, at.hash, now))};
  tx.Run(kInsertHead, {chain, head.seq, head.hash, head.signed_at, head.key_id, head.signature});
  return head;
}

std::vector<SignedHead> ChainHeads::HeadsBetween(storage::TenantSession& tenant, const std::string& chain,
                                                 int64_t from_seq, int64_t to_seq) const {
  std::vector<SignedHead> out;
  constexpr int64_t kPage = 1000;
  for (int64_t next = from_seq;;) {
    auto rows = tenant.Run(kHeadsInRange, {chain, next, to_seq, kPage});
    for (const auto& r : rows) out.push_back(HeadFromRow(r, tenant.tenant_id(), chain));
    if (static_cast<int64_t>(rows.size()) < kPage) break;
    next = out.back().seq + 1;
  }
  return out;
}

void ChainHeads::DropHeadsBelow(storage::TenantSession& tx, const std::string& chain, int64_t seq) const {
  tx.Run(kDropHeadsBelow, {chain, seq});
}

std::vector<SignedHead> ChainHeads::ListHeads(storage::TenantSession& tenant, const std::string& chain,
                                              int64_t before_seq, int64_t limit) const {
  std::vector<SignedHead> out;
  for (const auto& r : tenant.Run(kHeadsBefore, {chain, before_seq, limit}))
    out.push_back(HeadFromRow(r, tenant.tenant_id(), chain));
  return out;
}

HeadCheck ChainHeads::Check(storage::TenantSession& tenant, const std::string& chain_name, int64_t from_seq,
                            int64_t to_seq, const std::optional<OutsideHead>& outside) const {
  HeadCheck out;
  const ChainSource* chain = Find(chain_name);
  if (chain == nullptr) return out;
  const auto trusted = integrity::TrustedKeys(Keys(), *key_);
  const auto head = chain->head(tenant);
  const int64_t chain_end = head ? head->seq : 0;
  auto fail = [&out](int64_t seq, std::optional<TimeMs> at, std::string why, bool is_outside) {
    out.ok = false;
    out.first_invalid_seq = seq;
    out.first_invalid_signed_at = at;
    out.first_invalid_is_outside = is_outside;
    out.problem = std::move(why);
  };
  // Whether the record at `seq` carries `hash`; "" when it does.
  auto record_problem = [&](int64_t seq, const std::string& hash) -> std::string {
    if (seq > chain_end)
      return "the chain ends at record " + std::to_string(chain_end) + ", before this head's record " +
             std::to_string(seq) + " (its tail was removed)";
    const auto at = chain->hash_at(tenant, seq);
    if (!at) {
      if (auto boundary = ArchivedThrough(tenant, chain_name); boundary && seq < boundary->seq)
        return "record " + std::to_string(seq) + " was archived (the chain is archived through record " +
               std::to_string(boundary->seq) + "): check it against the archive with credence admin verify-archive";
      return "record " + std::to_string(seq) + " of the chain is missing";
    }
    if (*at != hash) return "record " + std::to_string(seq) + " no longer carries the hash this head signed";
    return "";
  };
  constexpr int64_t kPage = 500;
  for (int64_t next = std::max<int64_t>(from_seq, 1);;) {
    auto rows = tenant.Run(kHeadsInRange, {chain_name, next, to_seq, kPage});
    for (const auto& r : rows) {
      const SignedHead h = HeadFromRow(r, tenant.tenant_id(), chain_name);
      ++out.checked;
      out.newest_seq = h.seq;
      std::string why = SignatureProblem(trusted, chain_name, h.tenant_id, h.seq, h.hash, h.signed_at, h.key_id,
                                         h.signature);
      if (why.empty()) why = record_problem(h.seq, h.hash);
      if (!why.empty()) {
        fail(h.seq, h.signed_at, std::move(why), false);
        return out;
      }
      next = h.seq + 1;
    }
    if (static_cast<int64_t>(rows.size()) < kPage) break;
  }
  if (outside) {
    ++out.checked;
    std::string why;
    if (outside->signature) {
      why = SignatureProblem(trusted, chain_name, tenant.tenant_id(), outside->seq, outside->hash,
                             outside->signed_at.value_or(0), outside->key_id.value_or(""), *outside->signature);
    }
    if (why.empty()) why = record_problem(outside->seq, outside->hash);
    if (!why.empty()) fail(outside->seq, outside->signed_at, std::move(why), true);
  }
  return out;
}

}  // namespace credence::integrity
