#include "retention/verify_archive.h"

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <map>
#include <stdexcept>
#include <unordered_map>

#include "core/clock.h"
#include "core/ids.h"
#include "integrity/signing_key.h"
#include "platform/audit_log.h"
#include "retention/archive_file.h"
#include "trust/ledger.h"

namespace credence::retention {
namespace {

namespace json = boost::json;

struct BadArchive : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const json::object& Obj(const json::value& v, const char* what) {
  if (!v.is_object()) throw BadArchive(std::string(what) + " is not a JSON object");
  return v.as_object();
}

std::string Str(const json::object& o, const char* key) {
  const auto* v = o.if_contains(key);
  if (v == nullptr || !v->is_string()) throw BadArchive(std::string("a line lacks the string \"") + key + "\"");
  return std::string(v->as_string());
}

std::string StrOrEmpty(const json::object& o, const char* key) {
  const auto* v = o.if_contains(key);
  return v != nullptr && v->is_string() ? std::string(v->as_string()) : std::string();
}

std::optional<std::string> OptStr(const json::object& o, const char* key) {
  const auto* v = o.if_contains(key);
  if (v == nullptr || v->is_null()) return std::nullopt;
  if (!v->is_string()) throw BadArchive(std::string("\"") + key + "\" is neither a string nor null");
  return std::string(v->as_string());
}

int64_t Int(const json::object& o, const char* key) {
  const auto* v = o.if_contains(key);
  if (v == nullptr || !v->is_int64()) throw BadArchive(std::string("a line lacks the integer \"") + key + "\"");
  return v->as_int64();
}

TimeMs Time(const json::object& o, const char* key) {
  auto t = ParseTimestamp(Str(o, key));
  if (!t) throw BadArchive(std::string("\"") + key + "\" is not an RFC 3339 time");
  return *t;
}

struct Key {
  std::string public_key;
  std::optional<TimeMs> retired_at;
};

class Checker {
 public:
  explicit Checker(const std::vector<TrustedKey>& keys) {
    for (const auto& k : keys) {
      const std::string id = k.key_id.empty() ? integrity::KeyIdOf(k.public_key) : k.key_id;
      if (id.empty() || integrity::KeyIdOf(k.public_key) != id) throw BadArchive("a trusted public key does not decode");
      trusted_[id] = Key{k.public_key, std::nullopt};
    }
  }

  // One line; `before` is the SHA-256 of the lines before it, which the
  // seal must name.
  void Line(std::string_view text, StreamingSha256& before, ArchiveCheck& out) {
    if (sealed_) throw BadArchive("a line follows the seal");
    boost::system::error_code ec;
    json::value v = json::parse(text, ec);
    ++line_;
    if (ec) throw BadArchive("line " + std::to_string(line_) + " is not JSON");
    const auto& o = Obj(v, "a line");
    const std::string type = Str(o, "type");
    if (type == "seal") {
      Seal(o, before.Hex(), out);
      return;
    }
    before.Add(text);
    before.Add("\n");
    if (line_ == 1) {
      if (type != "archive") throw BadArchive("the first line does not describe the archive");
      if (Str(o, "format") != kArchiveFormat)
        throw BadArchive("the archive's format is not " + std::string(kArchiveFormat));
      out.tenant_id = Str(o, "tenantId");
      out.kind = Str(o, "kind");
      out.period = Str(o, "period");
      if (out.kind != "decisions" && out.kind != "audit" && out.kind != "usage")
        throw BadArchive("unknown archive kind " + out.kind);
      chained_ = out.kind != "usage";
      if (chained_) {
        out.from_seq = Int(o, "fromSeq");
        out.to_seq = Int(o, "toSeq");
        out.prev_hash = Str(o, "prevHash");
        prev_ = out.prev_hash;
        next_seq_ = *out.from_seq;
      }
    } else if (type == "evidence" && out.kind == "decisions") {
      const std::string body = Str(o, "body"), hash = Str(o, "hash");
      if (Sha256Hex(body) != hash)
        throw BadArchive("evidence " + std::to_string(Int(o, "id")) + " does not match its hash");
      evidence_[Int(o, "id")] = hash;
    } else if (type == "decision" && out.kind == "decisions") {
      Decision(o, out);
    } else if (type == "audit" && out.kind == "audit") {
      Audit(o, out);
    } else if (type == "usage" && out.kind == "usage") {
      Str(o, "id");
      ++out.records;
    } else if (type == "head" && chained_) {
      heads_.push_back(o);
    } else if (type == "key") {
      keys_.push_back(o);
    } else {
      throw BadArchive("line " + std::to_string(line_) + " has an unexpected type \"" + type + "\"");
    }
  }

  bool sealed() const { return sealed_; }
  void AddListedKey(json::object key) { keys_.push_back(std::move(key)); }

 private:
  void Link(int64_t seq, const std::string& prev, const std::string& hash, ArchiveCheck& out) {
    if (seq != next_seq_) throw BadArchive("record " + std::to_string(next_seq_) + " is missing (found " + std::to_string(seq) + ")");
    if (prev != prev_) throw BadArchive("record " + std::to_string(seq) + " does not link to its predecessor");
    prev_ = hash;
    hashes_[seq] = hash;
    ++next_seq_;
    ++out.records;
    out.last_hash = hash;
  }

  void Decision(const json::object& o, ArchiveCheck& out) {
    const int64_t seq = Int(o, "seq");
    const std::string prev = Str(o, "prevHash"), hash = Str(o, "hash"), header = Str(o, "header");
    const int64_t format = Int(o, "hashFormat");
    if (format < 1 || format > trust::kNewestHashFormat) throw BadArchive("record " + std::to_string(seq) + " has an unknown hash format");
    if (format < newest_format_) throw BadArchive("record " + std::to_string(seq) + "'s hash format is older than its predecessor's");
    newest_format_ = format;
    const auto* ids = o.if_contains("evidence");
    if (ids == nullptr || !ids->is_array()) throw BadArchive("record " + std::to_string(seq) + " lacks its evidence list");
    std::vector<std::string> hashes;
    for (const auto& id : ids->as_array()) {
      if (!id.is_int64()) throw BadArchive("record " + std::to_string(seq) + "'s evidence list holds a non-integer");
      auto it = evidence_.find(id.as_int64());
      if (it == evidence_.end()) throw BadArchive("record " + std::to_string(seq) + " names evidence " + std::to_string(id.as_int64()) + ", which the archive lacks");
      hashes.push_back(it->second);
    }
    if (trust::RecordHashOf(format, out.tenant_id, seq, prev, header, hashes) != hash)
      throw BadArchive("record " + std::to_string(seq) + "'s hash does not match its content");
    Link(seq, prev, hash, out);
  }

  void Audit(const json::object& o, ArchiveCheck& out) {
    platform::AuditEntry e;
    e.seq = Int(o, "seq");
    e.id = Str(o, "id");
    e.at = Int(o, "at");
    e.actor = {Str(o, "actorType"), StrOrEmpty(o, "actorId"), StrOrEmpty(o, "actorLabel")};
    e.action = Str(o, "action");
    e.target = {StrOrEmpty(o, "targetType"), StrOrEmpty(o, "targetId")};
    e.outcome = Str(o, "outcome");
    e.request_id = StrOrEmpty(o, "requestId");
    e.client_address = StrOrEmpty(o, "clientAddress");
    e.user_agent = StrOrEmpty(o, "userAgent");
    e.details_json = Str(o, "details");
    e.prev_hash = Str(o, "prevHash");
    e.hash = Str(o, "hash");
    if (platform::EntryHash(out.tenant_id, e) != e.hash)
      throw BadArchive("entry " + std::to_string(e.seq) + "'s hash does not match its content");
    Link(e.seq, e.prev_hash, e.hash, out);
  }

  // Keys the archive lists are trusted when a trusted key signed their
  // retirement; the retirement times bound what each may have signed.
  void TrustListedKeys() {
    for (bool grew = true; grew;) {
      grew = false;
      for (const auto& k : keys_) {
        const std::string id = StrOrEmpty(k, "keyId"), pub = StrOrEmpty(k, "publicKey");
        if (id.empty() || integrity::KeyIdOf(pub) != id) continue;
        auto known = trusted_.find(id);
        const auto retired_at = k.if_contains("retiredAt");
        const auto by = OptStr(k, "retiredBy"), signature = OptStr(k, "retirementSignature");
        if (retired_at == nullptr || !retired_at->is_string() || !by || !signature) continue;
        const auto at = ParseTimestamp(retired_at->as_string());
        auto signer = trusted_.find(*by);
        if (!at || signer == trusted_.end()) continue;
        if (!integrity::VerifySignature(signer->second.public_key, integrity::RetirementMessage(id, pub, *at), *signature))
          continue;
        if (known == trusted_.end()) {
          trusted_[id] = Key{pub, at};
          grew = true;
        } else if (!known->second.retired_at) {
          known->second.retired_at = at;
        }
      }
    }
  }

  std::string SignatureProblem(const std::string& key_id, const std::string& message, const std::string& signature,
                               TimeMs signed_at) const {
    auto key = trusted_.find(key_id);
    if (key == trusted_.end()) return "signed by key " + key_id + ", which is not a trusted key";
    if (!integrity::VerifySignature(key->second.public_key, message, signature))
      return "its signature does not verify with key " + key_id;
    if (key->second.retired_at && signed_at > *key->second.retired_at)
      return "signed by key " + key_id + " after it was retired";
    return "";
  }

  void Seal(const json::object& o, const std::string& digest, ArchiveCheck& out) {
    if (line_ == 1) throw BadArchive("the archive holds nothing but a seal");
    sealed_ = true;
    TrustListedKeys();
    const TimeMs sealed_at = Time(o, "sealedAt");
    if (Str(o, "sha256") != digest) throw BadArchive("the seal does not match the archive's lines (altered or reordered)");
    if (Int(o, "records") != out.records)
      throw BadArchive("the archive holds " + std::to_string(out.records) + " records, its seal says " +
                       std::to_string(Int(o, "records")));
    const std::string key_id = Str(o, "keyId");
    if (auto why = SignatureProblem(key_id, SealMessage(out.tenant_id, out.kind, out.period, out.records, digest, sealed_at),
                                    Str(o, "signature"), sealed_at);
        !why.empty())
      throw BadArchive("the seal is " + why);
    out.sealed_by = key_id;
    if (!chained_) return;
    if (out.records == 0 || next_seq_ - 1 != *out.to_seq)
      throw BadArchive("the archive ends at record " + std::to_string(next_seq_ - 1) + ", not at " +
                       std::to_string(*out.to_seq));
    const std::string chain = out.kind == "decisions" ? trust::kLedgerChain : platform::kAuditChainName;
    bool last_signed = false;
    for (const auto& h : heads_) {
      const int64_t seq = Int(h, "seq");
      const std::string hash = Str(h, "hash");
      const TimeMs signed_at = Time(h, "signedAt");
      auto at = hashes_.find(seq);
      if (at == hashes_.end()) throw BadArchive("the head at record " + std::to_string(seq) + " is outside the archive");
      if (at->second != hash) throw BadArchive("record " + std::to_string(seq) + " no longer carries the hash its head signed");
      if (auto why = SignatureProblem(Str(h, "keyId"), integrity::HeadMessage(chain, out.tenant_id, seq, hash, signed_at),
                                      Str(h, "signature"), signed_at);
          !why.empty())
        throw BadArchive("the head at record " + std::to_string(seq) + " is " + why);
      ++out.heads;
      last_signed = last_signed || seq == *out.to_seq;
    }
    if (!last_signed) throw BadArchive("no signed head covers the archive's last record");
  }

  int64_t line_ = 0;
  bool chained_ = false;
  bool sealed_ = false;
  int64_t next_seq_ = 0;
  int64_t newest_format_ = 1;
  std::string prev_;
  std::unordered_map<int64_t, std::string> evidence_;
  std::unordered_map<int64_t, std::string> hashes_;
  std::vector<json::object> heads_, keys_;
  std::map<std::string, Key> trusted_;
};

}  // namespace

ArchiveCheck VerifyArchive(const std::string& path, const std::vector<TrustedKey>& keys,
                           const std::vector<integrity::PublicKey>& listed) {
  ArchiveCheck out;
  try {
    Checker checker(keys);
    for (const auto& k : listed) {
      json::object o{{"keyId", k.key_id}, {"publicKey", k.public_key}};
      if (k.retired_at) o["retiredAt"] = FormatTimestamp(*k.retired_at);
      if (k.retired_by) o["retiredBy"] = *k.retired_by;
      if (k.retirement_signature) o["retirementSignature"] = *k.retirement_signature;
      checker.AddListedKey(std::move(o));
    }
    StreamingSha256 before;
    ReadArchiveLines(path, [&](std::string_view line) { checker.Line(line, before, out); });
    if (!checker.sealed()) throw BadArchive("the archive has no seal (cut short?)");
    out.ok = true;
  } catch (const std::exception& e) {
    out.ok = false;
    out.problem = e.what();
  }
  return out;
}

std::string ContinuityProblem(const ArchiveCheck& previous, const ArchiveCheck& next) {
  if (previous.tenant_id != next.tenant_id || previous.kind != next.kind)
    return "the archives are of different tenants or kinds";
  if (!previous.to_seq || !next.from_seq) return "";
  if (*previous.to_seq + 1 != *next.from_seq)
    return "the archive starts at record " + std::to_string(*next.from_seq) + ", the previous one ends at " +
           std::to_string(*previous.to_seq);
  if (previous.last_hash != next.prev_hash) return "the archive does not link to the previous one's last hash";
  return "";
}

}  // namespace credence::retention
