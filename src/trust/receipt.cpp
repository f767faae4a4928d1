#include "trust/receipt.h"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "core/ids.h"
#include "integrity/checkpoint.h"
#include "integrity/encoding.h"
#include "trust/ledger.h"

namespace credence::trust {
namespace {

namespace json = boost::json;
namespace merkle = integrity::merkle;

json::array HashesJson(const std::vector<merkle::Hash>& hashes) {
  json::array out;
  for (const auto& h : hashes) out.emplace_back(integrity::Base64Encode(merkle::Bytes(h)));
  return out;
}

Error Malformed(const std::string& member, const std::string& what) {
  return Error::InvalidArgument("malformed_receipt", "The receipt's " + member + " " + what + ".", {{member, what}});
}

// Typed reads of a receipt's members, each failing with the member's path.
class Reader {
 public:
  Reader(const json::object& o, std::string path) : o_(o), path_(std::move(path)) {}

  std::string Name(const char* key) const { return path_.empty() ? key : path_ + "." + key; }
  const json::value* Find(const char* key) const { return o_.if_contains(key); }

  Result<std::string> Str(const char* key) const {
    const auto* v = Find(key);
    if (v == nullptr || !v->is_string()) return Malformed(Name(key), "is missing or not a string");
    return std::string(v->as_string());
  }
  Result<int64_t> NonNegative(const char* key) const {
    const auto* v = Find(key);
    if (v != nullptr && v->is_int64() && v->as_int64() >= 0) return v->as_int64();
    if (v != nullptr && v->is_uint64() && v->as_uint64() <= static_cast<uint64_t>(INT64_MAX))
      return static_cast<int64_t>(v->as_uint64());
    return Malformed(Name(key), "is missing or not a non-negative integer");
  }
  Result<std::vector<std::string>> Strings(const char* key) const {
    const auto* v = Find(key);
    if (v == nullptr || !v->is_array()) return Malformed(Name(key), "is missing or not an array of strings");
    std::vector<std::string> out;
    for (const auto& item : v->as_array()) {
      if (!item.is_string()) return Malformed(Name(key), "is missing or not an array of strings");
      out.emplace_back(item.as_string());
    }
    return out;
  }
  Result<std::vector<merkle::Hash>> Hashes(const char* key) const {
    CR_TRY_ASSIGN(auto texts, Strings(key));
    std::vector<merkle::Hash> out;
    for (size_t i = 0; i < texts.size(); ++i) {
      merkle::Hash h{};
      const auto raw = integrity::Base64DecodeStrict(texts[i]);
      if (!raw || !merkle::FromBytes(*raw, h))
        return Malformed(Name(key) + "[" + std::to_string(i) + "]", "is not the base64 of a 32-byte hash");
      out.push_back(h);
    }
    return out;
  }
  Result<json::object> Object(const char* key) const {
    const auto* v = Find(key);
    if (v == nullptr || !v->is_object()) return Malformed(Name(key), "is missing or not an object");
    return v->as_object();
  }

 private:
  const json::object& o_;
  std::string path_;
};

bool IsHashHex(std::string_view s) {
  const auto raw = integrity::HexDecodeStrict(s);
  return raw && raw->size() == 32;
}

// The verifier key among `keys` for a note of `origin`: the one whose name
// and id match one of its signatures, else the first of that name.
const integrity::note::VerifierKey* KeyFor(std::span<const integrity::note::VerifierKey> keys,
                                           const integrity::note::Note& note, const std::string& origin) {
  const integrity::note::VerifierKey* named = nullptr;
  for (const auto& k : keys) {
    if (k.name != origin) continue;
    if (named == nullptr) named = &k;
    for (const auto& s : note.signatures)
      if (s.name == k.name && s.id == k.id) return &k;
  }
  return named;
}

// A signed checkpoint opened and checked with `keys`: its body, or why not.
struct OpenedCheckpoint {
  integrity::Checkpoint body;
  std::string key;
  std::string problem;
};
OpenedCheckpoint OpenCheckpoint(const std::string& signed_note, std::span<const integrity::note::VerifierKey> keys,
                                const std::string& what) {
  OpenedCheckpoint out;
  auto note = integrity::note::Parse(signed_note);
  if (!note) {
    out.problem = what + " is not a signed note: " + note.error().detail;
    return out;
  }
  auto body = integrity::ParseCheckpointBody(note->text);
  if (!body) {
    out.problem = what + " is not a checkpoint: " + body.error().detail;
    return out;
  }
  out.body = std::move(*body);
  const auto* key = KeyFor(keys, *note, out.body.origin);
  if (key == nullptr) {
    out.problem = "no key given is named as " + what + "'s origin, " + out.body.origin +
                  " (the log's verifier keys are at GET /api/trust/log)";
    return out;
  }
  out.key = integrity::note::Encode(*key);
  if (auto why = integrity::note::VerificationProblem(*note, *key); !why.empty()) out.problem = what + ": " + why;
  return out;
}

}  // namespace

std::string ReceiptJson(const Receipt& r) {
  json::array evidence;
  for (const auto& e : r.record.evidence) evidence.emplace_back(e);
  json::object out{
      {"format", kReceiptFormat},
      {"decisionId", r.decision_id},
      {"record", json::object{{"tenantId", r.record.tenant_id},
                              {"sequence", r.record.sequence},
                              {"hashFormat", r.record.hash_format},
                              {"previousHash", r.record.previous_hash},
                              {"header", r.record.header},
                              {"evidence", std::move(evidence)},
                              {"hash", r.record.hash}}},
      {"leafIndex", r.leaf_index},
      {"treeSize", r.tree_size},
      {"inclusionProof", HashesJson(r.inclusion_proof)},
      {"checkpoint", r.checkpoint},
      {"verifierKey", r.verifier_key},
  };
  if (r.consistency)
    out["consistency"] =
        json::object{{"fromSize", r.consistency->from_size}, {"proof", HashesJson(r.consistency->proof)}};
  return json::serialize(out);
}

Result<Receipt> ParseReceipt(std::string_view text) {
  boost::system::error_code ec;
  const json::value doc = json::parse(text, ec);
  if (ec || !doc.is_object()) return Error::InvalidArgument("malformed_receipt", "The receipt is not a JSON object.");
  const Reader top(doc.as_object(), "");
  CR_TRY_ASSIGN(const std::string format, top.Str("format"));
  if (format != kReceiptFormat) return Malformed("format", std::string("is not ") + kReceiptFormat);
  Receipt r;
  CR_TRY_ASSIGN(r.decision_id, top.Str("decisionId"));
  CR_TRY_ASSIGN(const json::object record, top.Object("record"));
  const Reader rec(record, "record");
  CR_TRY_ASSIGN(r.record.tenant_id, rec.Str("tenantId"));
  CR_TRY_ASSIGN(r.record.sequence, rec.NonNegative("sequence"));
  CR_TRY_ASSIGN(r.record.hash_format, rec.NonNegative("hashFormat"));
  CR_TRY_ASSIGN(r.record.previous_hash, rec.Str("previousHash"));
  CR_TRY_ASSIGN(r.record.header, rec.Str("header"));
  CR_TRY_ASSIGN(r.record.evidence, rec.Strings("evidence"));
  CR_TRY_ASSIGN(r.record.hash, rec.Str("hash"));
  if (!IsHashHex(r.record.hash)) return Malformed("record.hash", "is not lowercase hex of 32 bytes");
  if (!IsHashHex(r.record.previous_hash)) return Malformed("record.previousHash", "is not lowercase hex of 32 bytes");
  CR_TRY_ASSIGN(const int64_t leaf, top.NonNegative("leafIndex"));
  CR_TRY_ASSIGN(const int64_t size, top.NonNegative("treeSize"));
  r.leaf_index = static_cast<uint64_t>(leaf);
  r.tree_size = static_cast<uint64_t>(size);
  CR_TRY_ASSIGN(r.inclusion_proof, top.Hashes("inclusionProof"));
  CR_TRY_ASSIGN(r.checkpoint, top.Str("checkpoint"));
  CR_TRY_ASSIGN(r.verifier_key, top.Str("verifierKey"));
  if (top.Find("consistency") != nullptr) {
    CR_TRY_ASSIGN(const json::object consistency, top.Object("consistency"));
    const Reader c(consistency, "consistency");
    CR_TRY_ASSIGN(const int64_t from, c.NonNegative("fromSize"));
    Receipt::Consistency out;
    out.from_size = static_cast<uint64_t>(from);
    CR_TRY_ASSIGN(out.proof, c.Hashes("proof"));
    r.consistency = std::move(out);
  }
  return r;
}

std::string RecomputedRecordHash(const ReceiptRecord& record) {
  std::vector<std::string> evidence_hashes;
  evidence_hashes.reserve(record.evidence.size());
  for (const auto& e : record.evidence) evidence_hashes.push_back(Sha256Hex(e));
  return RecordHashOf(record.hash_format, record.tenant_id, record.sequence, record.previous_hash, record.header,
                      evidence_hashes);
}

ReceiptCheck VerifyReceipt(const Receipt& r, std::span<const integrity::note::VerifierKey> keys,
                           const std::optional<std::string>& older) {
  ReceiptCheck out;
  out.decision_id = r.decision_id;
  out.tenant_id = r.record.tenant_id;
  out.sequence = r.record.sequence;
  out.leaf_index = r.leaf_index;
  auto fail = [&out](std::string why) {
    out.problem = std::move(why);
    return out;
  };
  // 1. The record: what it holds hashes to its hash, and it is the decision's.
  if (r.record.hash_format < 1 || r.record.hash_format > kNewestHashFormat)
    return fail("the record's hash format " + std::to_string(r.record.hash_format) + " is unknown");
  if (const std::string recomputed = RecomputedRecordHash(r.record); recomputed != r.record.hash)
    return fail(
        "the record does not match its hash: its header, evidence, sequence, tenant or previous hash was "
        "altered (it hashes to " +
        recomputed + ", the receipt says " + r.record.hash + ")");
  {
    boost::system::error_code ec;
    const json::value header = json::parse(r.record.header, ec);
    const json::value* id = !ec && header.is_object() ? header.as_object().if_contains("decisionId") : nullptr;
    if (id == nullptr || !id->is_string() || id->as_string() != r.decision_id)
      return fail("the record is not decision " + r.decision_id + "'s: its header names another decision");
  }
  // 2. The checkpoint: signed by a key named as its origin.
  std::vector<integrity::note::VerifierKey> own;
  if (keys.empty()) {
    auto k = integrity::note::ParseVerifierKey(r.verifier_key);
    if (!k) return fail("no key was given and the receipt's verifierKey is not one: " + k.error().detail);
    own.push_back(*k);
    keys = own;
    out.key_from_receipt = true;
  }
  const OpenedCheckpoint cp = OpenCheckpoint(r.checkpoint, keys, "the checkpoint");
  out.origin = cp.body.origin;
  out.tree_size = cp.body.size;
  if (!cp.problem.empty()) return fail(cp.problem);
  out.key = cp.key;
  // 3. The log is the record's tenant's.
  if (!cp.body.origin.ends_with("/" + r.record.tenant_id))
    return fail("the checkpoint is of log " + cp.body.origin + ", not of tenant " + r.record.tenant_id + "'s ledger");
  if (r.tree_size != cp.body.size)
    return fail("the receipt's treeSize " + std::to_string(r.tree_size) + " is not the checkpoint's tree size " +
                std::to_string(cp.body.size));
  // 4. The record is leaf leafIndex of the tree the checkpoint signs.
  std::string leaf_data = *integrity::HexDecodeStrict(r.record.hash);
  const auto check =
      merkle::VerifyInclusion(r.leaf_index, cp.body.size, merkle::LeafHash(leaf_data), r.inclusion_proof, cp.body.root);
  if (check != merkle::ProofCheck::kOk)
    return fail("the inclusion proof does not hold (" + merkle::Describe(check) + "): the record is not leaf " +
                std::to_string(r.leaf_index) + " of the tree of " + std::to_string(cp.body.size) +
                " leaves the checkpoint signs");
  // 5. An older checkpoint: the log only grew since.
  if (older) {
    const OpenedCheckpoint old = OpenCheckpoint(*older, keys, "the older checkpoint");
    if (!old.problem.empty()) return fail(old.problem);
    if (old.body.origin != cp.body.origin)
      return fail("the older checkpoint is of log " + old.body.origin + ", not " + cp.body.origin);
    if (old.body.size > cp.body.size)
      return fail("the older checkpoint (tree size " + std::to_string(old.body.size) +
                  ") is newer than the receipt's (" + std::to_string(cp.body.size) +
                  "): fetch the receipt with ?treeSize=" + std::to_string(old.body.size));
    std::vector<merkle::Hash> proof;
    if (old.body.size != cp.body.size && old.body.size != 0) {
      if (!r.consistency || r.consistency->from_size != old.body.size)
        return fail("the receipt carries no consistency proof from tree size " + std::to_string(old.body.size) +
                    ": fetch it with ?consistencyFrom=" + std::to_string(old.body.size));
      proof = r.consistency->proof;
    }
    const auto c = merkle::VerifyConsistency(old.body.size, cp.body.size, old.body.root, cp.body.root, proof);
    if (c != merkle::ProofCheck::kOk)
      return fail("the log is not consistent with the older checkpoint (" + merkle::Describe(c) +
                  "): what it held at tree size " + std::to_string(old.body.size) + " was rewritten or removed");
    out.older_size = old.body.size;
  }
  out.ok = true;
  return out;
}

}  // namespace credence::trust
