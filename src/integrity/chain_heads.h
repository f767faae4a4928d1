#pragma once
// Signed chain heads, in the spirit of Certificate Transparency's signed
// tree heads. A module that keeps a hash chain per tenant (the decision
// ledger, the audit log) describes it with a ChainSource; ChainHeads signs
// each tenant's head (sequence and hash) with the server's key when it
// moved, keeps the signed heads, and checks a chain against them: the
// record at each head's sequence must still carry the signed hash, and the
// chain must not end before the newest head. A record altered, inserted or
// removed behind a head, or a tail cut off, is then found even when whoever
// did it recomputed every hash after it; an outside party that stored the
// heads and the public keys can check the same without trusting the
// database. docs/trust.md, "Signed chain heads".
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "integrity/signing_key.h"

namespace credence::storage {
class Database;
class Session;
class TenantSession;
struct GlobalQuery;
struct TenantQuery;
}  // namespace credence::storage

namespace credence::integrity {

struct ChainHead {
  int64_t seq = 0;
  std::string hash;
};

// A hash chain kept per tenant: records numbered 1, 2, ... each with a hash
// that covers its predecessor's.
struct ChainSource {
  // "ledger", "audit": part of what each head's signature covers.
  std::string name;
  // The tenants whose chain has at least one record.
  std::function<std::vector<std::string>(storage::Session&)> tenants;
  // The chain's last record; nullopt when it is empty.
  std::function<std::optional<ChainHead>(storage::TenantSession&)> head;
  // The hash of the record at `seq`; nullopt when there is none.
  std::function<std::optional<std::string>(storage::TenantSession&, int64_t seq)> hash_at;
};

// A ChainSource from three statements (the usual case):
//   tenants: no parameters, one column: tenant ids;
//   head:    $1 tenant, columns (seq, hash) of the last record, at most one row;
//   hash_at: $1 tenant, $2 sequence, one column: the hash.
// The queries must outlive the source (they are constexpr constants).
ChainSource SqlChainSource(std::string name, const storage::GlobalQuery& tenants, const storage::TenantQuery& head,
                           const storage::TenantQuery& hash_at);

struct SignedHead {
  std::string tenant_id;
  std::string chain;
  int64_t seq = 0;
  std::string hash;
  TimeMs signed_at = 0;
  std::string key_id;
  std::string signature;  // base64url Ed25519 over HeadMessage(...)
};

struct PublicKey {
  std::string key_id;
  std::string algorithm;   // Ed25519
  std::string public_key;  // raw, base64url
  TimeMs created_at = 0;
  std::optional<TimeMs> retired_at;
  // The key that retired it, and its signature over RetirementMessage(...).
  std::optional<std::string> retired_by, retirement_signature;
};

// A head an outside party stored and hands back: seq and hash at least; the
// signature, when given, with its time and key.
struct OutsideHead {
  int64_t seq = 0;
  std::string hash;
  std::optional<TimeMs> signed_at;
  std::optional<std::string> key_id, signature;
};

struct HeadCheck {
  bool ok = true;
  int64_t checked = 0;               // heads checked (the outside head included)
  std::optional<int64_t> newest_seq;  // of the newest signed head
  // The first head that fails: its sequence, time (nullopt for an outside
  // head without one) and why.
  std::optional<int64_t> first_invalid_seq;
  std::optional<TimeMs> first_invalid_signed_at;
  bool first_invalid_is_outside = false;
  std::string problem;
};

struct SignPass {
  int64_t tenants = 0;  // tenant chains looked at
  int64_t signed_heads = 0;
  int64_t refused = 0;  // chains that contradict their newest signed head
  int64_t failed = 0;   // chains that could not be read or signed (logged; tried again next pass)
};

class ChainHeads {
 public:
  ChainHeads(storage::Database& db, const Clock& clock, std::shared_ptr<const SigningKey> key,
             std::vector<ChainSource> chains);

  // At start-up: lists this node's public key and retires every other key
  // still current, signing each retirement with this key. Idempotent.
  void RegisterKey() const;

  // Signs, for every chain and tenant, the head when it moved since the
  // newest signed one. A chain whose record at the newest signed head's
  // sequence no longer carries its hash (or that ends before it) is not
  // signed: it is logged and counted as refused. Nothing is signed while
  // this node's key is retired (a rotation in progress).
  SignPass SignMovedHeads() const;

  // Every public key, newest first, and the current one's id.
  std::vector<PublicKey> Keys() const;
  // The keys whose signatures verification accepts (the current key, from
  // its file, and each retired key whose retirement a trusted key signed),
  // the current one first.
  std::vector<PublicKey> TrustedKeys() const;
  // False while this node's key is retired or unlisted (a rotation rolling
  // through the nodes): it then signs nothing.
  bool MaySign() const;
  const SigningKey& key() const { return *key_; }

  // The tenant's signed heads of `chain`, newest first: those below
  // `before_seq` (0: from the newest), at most `limit`.
  std::vector<SignedHead> ListHeads(storage::TenantSession& tenant, const std::string& chain, int64_t before_seq,
                                    int64_t limit) const;

  // Checks the tenant's `chain` against its signed heads with sequence in
  // [from_seq, to_seq] (to_seq 0: every one, and then the chain must not
  // end before the newest), and against `outside` when given. The chain's
  // own hashes are the chain module's to verify.
  HeadCheck Check(storage::TenantSession& tenant, const std::string& chain, int64_t from_seq, int64_t to_seq,
                  const std::optional<OutsideHead>& outside) const;

  const ChainSource* Find(const std::string& name) const;

  // For archiving (docs/retention.md): the signed head at record `at` of
  // the tenant's chain, signed now in `tx` when there is none; every head
  // with sequence in [from_seq, to_seq]; removing those below `seq` once an
  // archive carries them.
  SignedHead SignHeadAt(storage::TenantSession& tx, const std::string& chain, const ChainHead& at) const;
  std::vector<SignedHead> HeadsBetween(storage::TenantSession& tenant, const std::string& chain, int64_t from_seq,
                                       int64_t to_seq) const;
  void DropHeadsBelow(storage::TenantSession& tx, const std::string& chain, int64_t seq) const;

 private:
  std::optional<SignedHead> NewestHead(storage::TenantSession& tenant, const std::string& chain) const;
  enum class Signed { kUnchanged, kSigned, kRefused };
  Signed SignOne(const ChainSource& chain, const std::string& tenant_id) const;

  storage::Database& db_;
  const Clock& clock_;
  std::shared_ptr<const SigningKey> key_;
  std::vector<ChainSource> chains_;
};

}  // namespace credence::integrity
