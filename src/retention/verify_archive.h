#pragma once
// Checks an archive file offline (credence admin verify-archive;
// docs/retention.md), with nothing but the file and public keys the caller
// trusts: the seal's signature over the SHA-256 of every line before it
// (nothing altered, added, removed or cut off), and for a chain (the ledger,
// the audit log) every record's hash recomputed, every link, consecutive
// sequence numbers, and a signed head on the last record. Older keys listed
// in the archive are trusted when their retirement is signed by a trusted
// key (as the server does).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "integrity/chain_heads.h"

namespace credence::retention {

struct TrustedKey {
  std::string key_id;      // "" : computed from the public key
  std::string public_key;  // raw Ed25519, base64url
};

struct ArchiveCheck {
  bool ok = false;
  std::string problem;  // why not, when !ok
  std::string tenant_id, kind, period;
  int64_t records = 0;
  std::optional<int64_t> from_seq, to_seq;  // chains
  std::string prev_hash, last_hash;         // chains: what the first record links to; the last record's hash
  int64_t heads = 0;                        // signed heads checked
  std::string sealed_by;                    // key id
};

// `listed`: more keys to consider (say, /.well-known/credence-chain-keys as
// fetched): trusted only through a retirement a trusted key signed, like
// those the archive lists.
ArchiveCheck VerifyArchive(const std::string& path, const std::vector<TrustedKey>& keys,
                           const std::vector<integrity::PublicKey>& listed = {});

// `next` continues `previous`: same tenant and kind, the next sequence
// number, linked to its last hash. "" when it does; else why not.
std::string ContinuityProblem(const ArchiveCheck& previous, const ArchiveCheck& next);

}  // namespace credence::retention
