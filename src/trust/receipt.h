#pragma once
// Decision receipts (docs/receipts.md): a ledger record exactly as its hash
// commits to it, its leaf index, an RFC 9162 inclusion proof to a signed
// C2SP checkpoint of the tenant's Merkle log, that checkpoint, and
// optionally a consistency proof from an older checkpoint. Their JSON form,
// and their verification with no server and no database: what
// `credence verify-receipt` runs, and what docs/receipts.md specifies so that
// anyone can write their own verifier. Pure.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "integrity/merkle.h"
#include "integrity/note.h"

namespace credence::trust {

inline constexpr char kReceiptFormat[] = "credence-receipt/v1";

// What a record's hash covers (ledger.h, formats 1 to 3).
struct ReceiptRecord {
  std::string tenant_id;
  int64_t sequence = 0;
  int64_t hash_format = 3;
  std::string previous_hash;          // lowercase hex
  std::string header;                 // the hashed header, byte for byte
  std::vector<std::string> evidence;  // each source's evidence, byte for byte, in record order
  std::string hash;                   // lowercase hex of 32 bytes: the leaf's data
};

struct Receipt {
  std::string decision_id;
  ReceiptRecord record;
  uint64_t leaf_index = 0;
  uint64_t tree_size = 0;
  std::vector<integrity::merkle::Hash> inclusion_proof;
  std::string checkpoint;    // the signed note
  std::string verifier_key;  // the key that signed it, as published (not trusted by itself)
  struct Consistency {
    uint64_t from_size = 0;
    std::vector<integrity::merkle::Hash> proof;
  };
  std::optional<Consistency> consistency;
};

std::string ReceiptJson(const Receipt& receipt);
// 400 malformed_receipt naming the member that is missing or of the wrong
// kind (hashes are base64 of 32 bytes, sizes non-negative integers).
Result<Receipt> ParseReceipt(std::string_view json);

// The record's hash recomputed from what it covers.
std::string RecomputedRecordHash(const ReceiptRecord& record);

struct ReceiptCheck {
  bool ok = false;
  std::string problem;  // what failed, in a sentence, when not ok
  // What was established (as far as the check got).
  std::string decision_id, tenant_id, origin;
  int64_t sequence = 0;
  uint64_t leaf_index = 0, tree_size = 0;
  std::string key;                     // the verifier key that verified the checkpoint
  bool key_from_receipt = false;       // no key was given: the receipt's own was used
  std::optional<uint64_t> older_size;  // consistent with an older checkpoint of this size
};

// Checks `receipt` in the order docs/receipts.md gives: the record against
// its hash and the decision id, the checkpoint's signature with one of
// `keys` named as its origin (the receipt's own verifier key when `keys` is
// empty, which proves only that the receipt is self-consistent), the
// origin against the record's tenant, the inclusion proof against the
// checkpoint's size and root; then, with `older` (a signed checkpoint kept
// from before), its signature and origin, and the receipt's consistency
// proof from its size.
ReceiptCheck VerifyReceipt(const Receipt& receipt, std::span<const integrity::note::VerifierKey> keys,
                           const std::optional<std::string>& older = std::nullopt);

}  // namespace credence::trust
