#include "trust/ledger.h"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <charconv>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "core/ids.h"
#include "core/json_text.h"
#include "integrity/archive_boundary.h"
#include "storage/session.h"
#include "storage/sqlite/sqlite_database.h"

namespace credence::trust {
namespace {

namespace json = boost::json;
using storage::TenantQuery;

constexpr TenantQuery kLastLink{"trust.ledger_last",
                                "SELECT seq, hash FROM trust_decisions WHERE tenant_id = $1 ORDER BY seq DESC LIMIT 1"};

constexpr TenantQuery kInsertEvidence{
    "trust.ledger_insert_evidence",
    "INSERT INTO trust_evidence (tenant_id, hash, body) VALUES ($1, $2, $3) ON CONFLICT (tenant_id, hash) DO NOTHING"};

constexpr TenantQuery kEvidenceIds{
    "trust.ledger_evidence_ids",
    "SELECT hash, id FROM trust_evidence WHERE tenant_id = $1 AND hash IN (SELECT value FROM json_each($2))",
    "SELECT hash, id FROM trust_evidence WHERE tenant_id = $1 AND hash IN"
    " (SELECT json_array_elements_text(CAST($2 AS JSON)))"};

constexpr TenantQuery kEvidenceByIds{
    "trust.ledger_evidence_by_ids",
    "SELECT id, hash, body FROM trust_evidence WHERE tenant_id = $1 AND id IN (SELECT value FROM json_each($2))",
    "SELECT id, hash, body FROM trust_evidence WHERE tenant_id = $1 AND id IN"
    " (SELECT CAST(json_array_elements_text(CAST($2 AS JSON)) AS BIGINT))"};

constexpr TenantQuery kInsertDecision{
    "trust.ledger_insert_decision",
    "INSERT INTO trust_decisions (tenant_id, id, seq, evaluated_at, endpoint, actor_kind, actor_label, actor_type,"
    " action, channel, header, user_id, key_id, app_id, overall, total, allowed, warned, blocked, escalated, evidence,"
    " prev_hash, hash, hash_format, external_model, language) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,"
    " $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26)"};

// Every column a reader uses (reports, app stats, the decision's answer),
// so Verify can hold each against the hashed content.
#define CREDENCE_LEDGER_COLUMNS                                                                                   \
  "id, seq, header, evidence, prev_hash, hash, overall, total, allowed, warned, blocked, escalated, hash_format," \
  " evaluated_at, endpoint, actor_kind, actor_label, actor_type, action, channel, user_id, key_id, app_id,"       \
  " external_model, language"

constexpr int64_t kHashFormat = kNewestHashFormat;  // what appends write (ledger.h)

constexpr TenantQuery kDecisionById{"trust.ledger_decision_by_id",
                                    "SELECT " CREDENCE_LEDGER_COLUMNS
                                    " FROM trust_decisions WHERE tenant_id = $1 AND id = $2"};

constexpr TenantQuery kAppDecisionPage{
    "trust.ledger_app_decision_page",
    "SELECT " CREDENCE_LEDGER_COLUMNS
    " FROM trust_decisions WHERE tenant_id = $1 AND app_id = $2"
    " AND evaluated_at >= $3 AND evaluated_at < $4 AND seq > $5 ORDER BY seq LIMIT $6"};

constexpr TenantQuery kDecisionRange{"trust.ledger_decision_range",
                                     "SELECT " CREDENCE_LEDGER_COLUMNS
                                     " FROM trust_decisions WHERE tenant_id = $1 AND seq >= $2"
                                     " AND ($3 = 0 OR seq <= $3) ORDER BY seq LIMIT $4"};

// Only columns of trust_decisions_replay (migration 510), so SQLite reads
// the index alone: no row lookup, no header.
constexpr TenantQuery kReplayPage{
    "trust.ledger_replay_page",
    "SELECT seq, evaluated_at, action, channel, overall, app_id, external_model, language, evidence"
    " FROM trust_decisions WHERE tenant_id = $1 AND seq > $2 AND seq < $3 AND evaluated_at >= $4"
    " AND evaluated_at < $5 AND (CAST($6 AS TEXT) = '' OR app_id = $6) ORDER BY seq LIMIT $7"};

// Records written before migration 510 have no external_model column: their
// header has it.
constexpr TenantQuery kHeadersBySeq{
    "trust.ledger_headers_by_seq",
    "SELECT seq, header FROM trust_decisions WHERE tenant_id = $1 AND seq IN (SELECT value FROM json_each($2))",
    "SELECT seq, header FROM trust_decisions WHERE tenant_id = $1 AND seq IN"
    " (SELECT CAST(json_array_elements_text(CAST($2 AS JSON)) AS BIGINT))"};

constexpr TenantQuery kIdsBySeq{
    "trust.ledger_ids_by_seq",
    "SELECT seq, id FROM trust_decisions WHERE tenant_id = $1 AND seq IN (SELECT value FROM json_each($2))",
    "SELECT seq, id FROM trust_decisions WHERE tenant_id = $1 AND seq IN"
    " (SELECT CAST(json_array_elements_text(CAST($2 AS JSON)) AS BIGINT))"};

// Apart: SQLite answers MIN or MAX alone from the index's end, both
// together by scanning the tenant's whole index.
constexpr TenantQuery kFirstSeq{"trust.ledger_first_seq", "SELECT MIN(seq) FROM trust_decisions WHERE tenant_id = $1"};
constexpr TenantQuery kLastSeq{"trust.ledger_last_seq", "SELECT MAX(seq) FROM trust_decisions WHERE tenant_id = $1"};

constexpr TenantQuery kTimeAtSeq{
    "trust.ledger_time_at_seq",
    "SELECT seq, evaluated_at FROM trust_decisions WHERE tenant_id = $1 AND seq >= $2 ORDER BY seq LIMIT 1"};

constexpr storage::GlobalQuery kChainTenants{
    "trust.ledger_chain_tenants",
    "SELECT t.id FROM tenants t WHERE EXISTS (SELECT 1 FROM trust_decisions d WHERE d.tenant_id = t.id)"};

constexpr TenantQuery kLeafRecords{
    "trust.ledger_leaf_records",
    "SELECT seq, hash FROM trust_decisions WHERE tenant_id = $1 AND seq >= $2 ORDER BY seq LIMIT $3"};
constexpr TenantQuery kLinkOf{"trust.ledger_link_of",
                              "SELECT prev_hash FROM trust_decisions WHERE tenant_id = $1 AND seq = $2"};
constexpr TenantQuery kFirstRecord{"trust.ledger_first_record",
                                   "SELECT MIN(seq) FROM trust_decisions WHERE tenant_id = $1"};

constexpr TenantQuery kLinkBefore{"trust.ledger_link_before",
                                  "SELECT hash FROM trust_decisions WHERE tenant_id = $1 AND seq = $2"};

// The hashed header: every field of the record but its evidence, in a fixed
// order (Boost.JSON keeps insertion order).
// Written directly rather than through a JSON DOM: the ledger writer makes
// one per decision. `context_json` and `app_json` are JSON already.
std::string HeaderJson(const LedgerRecord& r) {
  std::string out;
  out.reserve(512 + r.context_json.size() + r.app_json.size());
  JsonObjectWriter w(out);
  w.Str("decisionId", r.decision_id)
      .Str("evaluatedAt", FormatTimestamp(r.evaluated_at))
      .Str("endpoint", r.endpoint)
      .Str("actorKind", r.actor_kind)
      .Str("actorLabel", r.actor_label)
      .Str("actorType", r.actor_type)
      .Str("action", r.action)
      .Str("channel", r.channel)
      .Raw("context", r.context_json.empty() ? std::string_view("{}") : std::string_view(r.context_json))
      .OptStr("userId", r.user_id)
      .OptStr("keyId", r.key_id)
      .OptStr("appId", r.app_id)
      .Raw("app", r.app_json.empty() ? std::string_view("null") : std::string_view(r.app_json))
      .Str("overallDecision", r.overall);
  std::string counts;
  JsonObjectWriter c(counts);
  c.Int("total", r.counts.total)
      .Int("allowed", r.counts.allowed)
      .Int("warned", r.counts.warned)
      .Int("blocked", r.counts.blocked)
      .Int("escalated", r.counts.escalated);
  c.Close();
  w.Raw("counts", counts);
  w.Close();
  return out;
}

const std::string& Deref(const std::string& s) { return s; }
const std::string& Deref(const std::string* s) { return *s; }

// Format 1: SHA-256(prev \n header \n hash1 \n hash2 ...).
template <typename Hashes>
std::string RecordHashV1(const std::string& prev_hash, const std::string& header, const Hashes& evidence_hashes) {
  std::string material;
  material.reserve(prev_hash.size() + header.size() + evidence_hashes.size() * 65 + 1);
  material += prev_hash;
  material += '\n';
  material += header;
  for (const auto& h : evidence_hashes) {
    material += '\n';
    material += Deref(h);
  }
  return Sha256Hex(material);
}

// Format 2: SHA-256(prev \n header \n SHA-256(hash1 \n hash2 ...)).
template <typename Hashes>
std::string EvidenceListDigest(const Hashes& evidence_hashes) {
  std::string material;
  material.reserve(evidence_hashes.size() * 65);
  for (const auto& h : evidence_hashes) {
    if (!material.empty()) material += '\n';
    material += Deref(h);
  }
  return Sha256Hex(material);
}

std::string RecordHashV2(const std::string& prev_hash, const std::string& header, const std::string& list_digest) {
  std::string material;
  material.reserve(prev_hash.size() + header.size() + list_digest.size() + 2);
  material += prev_hash;
  material += '\n';
  material += header;
  material += '\n';
  material += list_digest;
  return Sha256Hex(material);
}

// Format 3: SHA-256("credence-ledger:v3" \n tenant \n seq \n prev \n header \n
// list digest): formats 1 and 2 with the record's tenant and sequence bound
// into its hash.
std::string RecordHashV3(const std::string& tenant_id, int64_t seq, const std::string& prev_hash,
                         const std::string& header, const std::string& list_digest) {
  constexpr std::string_view kTag = "credence-ledger:v3\n";
  char seq_text[24];
  const auto seq_end = std::to_chars(seq_text, seq_text + sizeof seq_text, seq).ptr;
  std::string material;
  material.reserve(kTag.size() + tenant_id.size() + 24 + prev_hash.size() + header.size() + list_digest.size() + 4);
  material += kTag;
  material += tenant_id;
  material += '\n';
  material.append(seq_text, seq_end);
  material += '\n';
  material += prev_hash;
  material += '\n';
  material += header;
  material += '\n';
  material += list_digest;
  return Sha256Hex(material);
}

template <typename Hashes>
std::string RecordHash(int64_t format, const std::string& tenant_id, int64_t seq, const std::string& prev_hash,
                       const std::string& header, const Hashes& evidence_hashes) {
  if (format == 1) return RecordHashV1(prev_hash, header, evidence_hashes);
  if (format == 2) return RecordHashV2(prev_hash, header, EvidenceListDigest(evidence_hashes));
  return RecordHashV3(tenant_id, seq, prev_hash, header, EvidenceListDigest(evidence_hashes));
}

// The evidence column as the writer writes it: the ids joined by commas.
std::string JoinIds(const std::vector<int64_t>& ids) {
  std::string out;
  out.reserve(ids.size() * 8);
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i > 0) out += ',';
    out += std::to_string(ids[i]);
  }
  return out;
}

// Which stored column of a record disagrees with its hashed header, or
// nullptr. Text columns must match byte for byte, NULL included: reports
// group by them and app stats filter on them.
const char* ColumnDisagreeing(const storage::Row& r, const LedgerRecord& h) {
  auto text = [&r](int col, const std::string& want) { return !r.IsNull(col) && r.TextView(col) == want; };
  auto opt = [&r](int col, const std::optional<std::string>& want) {
    if (r.IsNull(col)) return !want.has_value();
    return want.has_value() && r.TextView(col) == *want;
  };
  if (!text(0, h.decision_id)) return "id";
  if (!text(6, h.overall)) return "overall";
  if (r.Int(7) != h.counts.total || r.Int(8) != h.counts.allowed || r.Int(9) != h.counts.warned ||
      r.Int(10) != h.counts.blocked || r.Int(11) != h.counts.escalated)
    return "counts";
  if (r.IsNull(13) || r.Int(13) != h.evaluated_at) return "evaluated_at";
  if (!text(14, h.endpoint)) return "endpoint";
  if (!text(15, h.actor_kind)) return "actor_kind";
  if (!text(16, h.actor_label)) return "actor_label";
  if (!text(17, h.actor_type)) return "actor_type";
  if (!text(18, h.action)) return "action";
  if (!text(19, h.channel)) return "channel";
  if (!opt(20, h.user_id)) return "user_id";
  if (!opt(21, h.key_id)) return "key_id";
  if (!opt(22, h.app_id)) return "app_id";
  // NULL: written before the columns existed; readers take the header's.
  if (!r.IsNull(23) && (r.Int(23) != (h.external_model ? 1 : 0) || !opt(24, h.language))) return "context";
  if (r.IsNull(23) && !r.IsNull(24)) return "context";
  return nullptr;
}

// Into `out`, which keeps its capacity (a replay reuses its pages).
void ParseIdsInto(std::string_view text, std::vector<int64_t>& out) {
  out.clear();
  int64_t v = 0;
  bool any = false;
  for (char c : text) {
    if (c == ',') {
      if (any) out.push_back(v);
      v = 0;
      any = false;
    } else if (c >= '0' && c <= '9') {
      v = v * 10 + (c - '0');
      any = true;
    }
  }
  if (any) out.push_back(v);
}

std::vector<int64_t> ParseIds(std::string_view text) {
  std::vector<int64_t> out;
  ParseIdsInto(text, out);
  return out;
}

struct Evidence {
  std::string hash;
  std::string body;
};

std::map<int64_t, Evidence> LoadEvidence(storage::TenantSession& tenant, const std::vector<int64_t>& ids) {
  std::map<int64_t, Evidence> out;
  if (ids.empty()) return out;
  json::array list;
  for (int64_t id : std::set<int64_t>(ids.begin(), ids.end())) list.emplace_back(id);
  for (const auto& r : tenant.Run(kEvidenceByIds, {json::serialize(list)}))
    out[r.Int(0)] = Evidence{r.Text(1), r.Text(2)};
  return out;
}

LedgerRecord RecordFromHeader(const std::string& header) {
  LedgerRecord r;
  boost::system::error_code ec;
  const json::value v = json::parse(header, ec);
  if (ec || !v.is_object()) return r;
  const auto& o = v.as_object();
  auto str = [&](const char* k) {
    const auto* x = o.if_contains(k);
    return x && x->is_string() ? std::string(x->as_string()) : std::string();
  };
  auto opt = [&](const char* k) -> std::optional<std::string> {
    const auto* x = o.if_contains(k);
    if (x && x->is_string()) return std::string(x->as_string());
    return std::nullopt;
  };
  r.decision_id = str("decisionId");
  r.evaluated_at = ParseTimestamp(str("evaluatedAt")).value_or(0);
  r.endpoint = str("endpoint");
  r.actor_kind = str("actorKind");
  r.actor_label = str("actorLabel");
  r.actor_type = str("actorType");
  r.action = str("action");
  r.channel = str("channel");
  if (const auto* c = o.if_contains("context")) {
    r.context_json = json::serialize(*c);
    if (c->is_object()) {
      const auto* external = c->as_object().if_contains("externalModel");
      r.external_model = external && external->is_bool() && external->as_bool();
      if (const auto* language = c->as_object().if_contains("language"); language && language->is_string())
        r.language = std::string(language->as_string());
    }
  }
  if (const auto* a = o.if_contains("app")) r.app_json = json::serialize(*a);
  r.user_id = opt("userId");
  r.key_id = opt("keyId");
  r.app_id = opt("appId");
  r.overall = str("overallDecision");
  if (const auto* c = o.if_contains("counts"); c && c->is_object()) {
    auto n = [&](const char* k) {
      const auto* x = c->as_object().if_contains(k);
      return x && x->is_int64() ? x->as_int64() : 0;
    };
    r.counts = {n("total"), n("allowed"), n("warned"), n("blocked"), n("escalated")};
  }
  return r;
}

}  // namespace

size_t EvidenceCache::Slot(const std::string& tenant_id, const std::string& body) {
  const size_t h = std::hash<std::string_view>{}(body);
  return h ^ (std::hash<std::string_view>{}(tenant_id) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
}

std::optional<EvidenceCache::Known> EvidenceCache::Find(const std::string& tenant_id, const std::string& body) const {
  const size_t slot = Slot(tenant_id, body);
  std::shared_lock lock(mu_);
  auto [first, last] = known_.equal_range(slot);
  for (auto it = first; it != last; ++it)
    if (it->second.body == body && it->second.tenant_id == tenant_id) return it->second.known;
  return std::nullopt;
}

void EvidenceCache::Add(const std::string& tenant_id, const std::string& body, Known known) {
  const size_t slot = Slot(tenant_id, body);
  std::unique_lock lock(mu_);
  auto [first, last] = known_.equal_range(slot);
  for (auto it = first; it != last; ++it)
    if (it->second.body == body && it->second.tenant_id == tenant_id) return;
  if (size_ >= capacity_) {
    known_.clear();
    size_ = 0;
  }
  known_.emplace(slot, Entry{tenant_id, body, std::move(known)});
  ++size_;
}

const std::string* EvidenceListDigests::Find(const std::string& tenant_id, const std::string& refs) const {
  auto tenant = digests_.find(tenant_id);
  if (tenant == digests_.end()) return nullptr;
  auto it = tenant->second.find(refs);
  return it == tenant->second.end() ? nullptr : &it->second;
}

void EvidenceListDigests::Add(const std::string& tenant_id, const std::string& refs, std::string digest) {
  if (size_ >= capacity_) {
    digests_.clear();
    size_ = 0;
  }
  if (digests_[tenant_id].insert_or_assign(refs, std::move(digest)).second) ++size_;
}

namespace {

// A record ready to insert: everything AppendDecision computes before its
// INSERT. Text the record holds is borrowed from it.
struct PreparedAppend {
  const LedgerRecord* record = nullptr;
  int64_t seq = 0;
  std::string header, refs, prev, hash;
};

// Stores the record's evidence and computes its chain position and hash
// from `tip` (read from the chain when not given), which it moves on.
PreparedAppend PrepareAppend(storage::TenantSession& tx, const LedgerRecord& record, const EvidenceCache* cache,
                             std::optional<ChainTip>& tip, const EvidenceListDigests* list_digests,
                             AppendOutcome& result) {
  int64_t seq = 1;
  std::string prev = kGenesisHash;
  if (tip.has_value()) {
    seq = tip->seq + 1;
    prev = tip->hash;
  } else if (auto last = tx.Run(kLastLink); !last.empty()) {
    seq = last.front().Int(0) + 1;
    prev = last.front().Text(1);
  } else if (auto boundary = integrity::ArchivedThrough(tx, kLedgerChain)) {
    // Every record was archived: the chain goes on from the last one.
    seq = boundary->seq + 1;
    prev = boundary->hash;
  }
  const size_t n = record.evidence.size();
  result.stored.resize(n);
  // Each evidence's hash: the location the caller gave (no copy), or one
  // found in the cache or computed here (kept in result.stored).
  std::vector<const std::string*> hashes(n, nullptr);
  std::vector<int64_t> ids(n, 0);
  // Evidence nobody knows: hashed, then found or inserted.
  std::map<std::string, std::vector<size_t>> unknown;
  for (size_t i = 0; i < n; ++i) {
    if (i < record.evidence_stored.size() && record.evidence_stored[i]) {
      hashes[i] = &record.evidence_stored[i]->hash;
      ids[i] = record.evidence_stored[i]->id;
      continue;
    }
    if (cache) {
      if (auto k = cache->Find(tx.tenant_id(), record.evidence[i])) {
        result.stored[i] = std::move(*k);
        hashes[i] = &result.stored[i].hash;
        ids[i] = result.stored[i].id;
        continue;
      }
    }
    result.stored[i].hash = Sha256Hex(record.evidence[i]);
    hashes[i] = &result.stored[i].hash;
    unknown[result.stored[i].hash].push_back(i);
  }
  if (!unknown.empty()) {
    std::vector<std::string> wanted;
    for (const auto& [hash, at] : unknown) wanted.push_back(hash);
    const std::string list = StringListToJson(wanted);
    std::map<std::string, int64_t> found;
    for (const auto& r : tx.Run(kEvidenceIds, {list})) found[r.Text(0)] = r.Int(1);
    bool inserted = false;
    for (const auto& [hash, at] : unknown) {
      if (found.count(hash)) continue;
      tx.Run(kInsertEvidence, {hash, record.evidence[at.front()]});
      inserted = true;
    }
    if (inserted)
      for (const auto& r : tx.Run(kEvidenceIds, {list})) found[r.Text(0)] = r.Int(1);
    for (const auto& [hash, at] : unknown) {
      const int64_t id = found.at(hash);
      for (size_t i : at) {
        ids[i] = id;
        result.stored[i].id = id;
      }
      result.learned.push_back(at.front());
    }
  }
  const std::string refs = JoinIds(ids);
  const std::string header = HeaderJson(record);
  std::string list_digest;
  if (const std::string* known = list_digests ? list_digests->Find(tx.tenant_id(), refs) : nullptr) {
    list_digest = *known;
  } else {
    list_digest = EvidenceListDigest(hashes);
    if (list_digests) result.learned_list_digest.emplace(refs, list_digest);
  }
  std::string hash = RecordHashV3(tx.tenant_id(), seq, prev, header, list_digest);
  tip = ChainTip{seq, hash};
  return PreparedAppend{&record, seq, std::move(header), std::move(refs), std::move(prev), std::move(hash)};
}

// The 25 values of a decision row after its tenant, in kInsertDecision's order.
void AddRowParams(std::vector<storage::Param>& params, const PreparedAppend& p) {
  const LedgerRecord& r = *p.record;
  const auto& c = r.counts;
  for (storage::Param v :
       {storage::Param(r.decision_id), storage::Param(p.seq),        storage::Param(r.evaluated_at),
        storage::Param(r.endpoint),    storage::Param(r.actor_kind), storage::Param(r.actor_label),
        storage::Param(r.actor_type),  storage::Param(r.action),     storage::Param(r.channel),
        storage::Param(p.header),      storage::Param(r.user_id),    storage::Param(r.key_id),
        storage::Param(r.app_id),      storage::Param(r.overall),    storage::Param(c.total),
        storage::Param(c.allowed),     storage::Param(c.warned),     storage::Param(c.blocked),
        storage::Param(c.escalated),   storage::Param(p.refs),       storage::Param(p.prev),
        storage::Param(p.hash),        storage::Param(kHashFormat),  storage::Param(r.external_model),
        storage::Param(r.language)})
    params.push_back(v);
}

constexpr size_t kRowParams = 25;
constexpr size_t kMaxRowsPerInsert = 64;

// INSERT INTO trust_decisions ... VALUES ($1, $2..$26), ($1, $27..$51), ...:
// `rows` decisions of one tenant ($1) in one statement, one round trip to
// the server instead of one per decision. Built once per row count; the
// texts live as long as the process (connections cache statements by them).
std::string_view InsertDecisionsSql(size_t rows) {
  static const std::vector<std::string> texts = [] {
    std::vector<std::string> out(kMaxRowsPerInsert + 1);
    for (size_t n = 1; n <= kMaxRowsPerInsert; ++n) {
      std::string sql =
          "INSERT INTO trust_decisions (tenant_id, id, seq, evaluated_at, endpoint, actor_kind, actor_label,"
          " actor_type, action, channel, header, user_id, key_id, app_id, overall, total, allowed, warned, blocked,"
          " escalated, evidence, prev_hash, hash, hash_format, external_model, language) VALUES ";
      for (size_t row = 0; row < n; ++row) {
        sql += row == 0 ? "($1" : ", ($1";
        for (size_t col = 0; col < kRowParams; ++col) sql += ", $" + std::to_string(2 + row * kRowParams + col);
        sql += ")";
      }
      out[n] = std::move(sql);
    }
    return out;
  }();
  return texts.at(rows);
}

const std::string& InsertDecisionsName(size_t rows) {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out(kMaxRowsPerInsert + 1);
    for (size_t n = 1; n <= kMaxRowsPerInsert; ++n) out[n] = "trust.ledger_insert_decisions_" + std::to_string(n);
    return out;
  }();
  return names.at(rows);
}

}  // namespace

AppendOutcome AppendDecision(storage::TenantSession& tx, const LedgerRecord& record, const EvidenceCache* cache,
                             std::optional<ChainTip>* tip, const EvidenceListDigests* list_digests) {
  AppendOutcome result;
  std::optional<ChainTip> local;
  std::optional<ChainTip>& position = tip != nullptr ? *tip : local;
  const PreparedAppend p = PrepareAppend(tx, record, cache, position, list_digests, result);
  const auto& c = record.counts;
  tx.Run(kInsertDecision, {record.decision_id,
                           p.seq,
                           record.evaluated_at,
                           record.endpoint,
                           record.actor_kind,
                           record.actor_label,
                           record.actor_type,
                           record.action,
                           record.channel,
                           p.header,
                           record.user_id,
                           record.key_id,
                           record.app_id,
                           record.overall,
                           c.total,
                           c.allowed,
                           c.warned,
                           c.blocked,
                           c.escalated,
                           p.refs,
                           p.prev,
                           p.hash,
                           kHashFormat,
                           record.external_model,
                           record.language});
  return result;
}

std::vector<AppendOutcome> AppendDecisions(storage::TenantSession& tx, std::span<const LedgerRecord* const> records,
                                           const EvidenceCache* cache, std::optional<ChainTip>& tip,
                                           const EvidenceListDigests* list_digests) {
  std::vector<AppendOutcome> outcomes(records.size());
  std::vector<PreparedAppend> prepared;
  prepared.reserve(records.size());
  for (size_t i = 0; i < records.size(); ++i)
    prepared.push_back(PrepareAppend(tx, *records[i], cache, tip, list_digests, outcomes[i]));
  std::vector<storage::Param> params;
  for (size_t begin = 0; begin < prepared.size(); begin += kMaxRowsPerInsert) {
    const size_t rows = std::min(kMaxRowsPerInsert, prepared.size() - begin);
    params.clear();
    params.reserve(1 + rows * kRowParams);
    // The statement is about this tenant only: its $1 is the session's tenant.
    params.emplace_back(std::string_view(tx.tenant_id()));
    for (size_t i = begin; i < begin + rows; ++i) AddRowParams(params, prepared[i]);
    tx.session().Execute(InsertDecisionsName(rows), InsertDecisionsSql(rows), params);
  }
  return outcomes;
}

constexpr TenantQuery kListDecisions{
    "trust.ledger_list_decisions",
    "SELECT id, seq, evaluated_at, endpoint, actor_kind, actor_label, channel, app_id, overall, total, allowed,"
    " warned, blocked, escalated FROM trust_decisions WHERE tenant_id = $1 AND ($2 IS NULL OR overall = $2)"
    " AND ($3 IS NULL OR app_id = $3) AND ($4 IS NULL OR channel = $4) AND ($5 IS NULL OR evaluated_at >= $5)"
    " AND ($6 IS NULL OR evaluated_at < $6) AND ($7 IS NULL OR seq < $7) ORDER BY seq DESC LIMIT $8",
    "SELECT id, seq, evaluated_at, endpoint, actor_kind, actor_label, channel, app_id, overall, total, allowed,"
    " warned, blocked, escalated FROM trust_decisions WHERE tenant_id = $1"
    " AND (CAST($2 AS TEXT) IS NULL OR overall = $2) AND (CAST($3 AS TEXT) IS NULL OR app_id = $3)"
    " AND (CAST($4 AS TEXT) IS NULL OR channel = $4) AND (CAST($5 AS BIGINT) IS NULL OR evaluated_at >= $5)"
    " AND (CAST($6 AS BIGINT) IS NULL OR evaluated_at < $6) AND (CAST($7 AS BIGINT) IS NULL OR seq < $7)"
    " ORDER BY seq DESC LIMIT $8"};

std::vector<DecisionSummary> ListDecisions(storage::TenantSession& tenant, const DecisionFilter& f) {
  std::vector<DecisionSummary> out;
  for (const auto r :
       tenant.Run(kListDecisions, {f.overall, f.app_id, f.channel, f.from, f.to, f.before_seq, f.limit})) {
    DecisionSummary d;
    d.decision_id = r.Text(0);
    d.seq = r.Int(1);
    d.evaluated_at = r.Int(2);
    d.endpoint = r.Text(3);
    d.actor_kind = r.Text(4);
    d.actor_label = r.Text(5);
    d.channel = r.Text(6);
    if (!r.IsNull(7)) d.app_id = r.Text(7);
    d.overall = r.Text(8);
    d.counts = {r.Int(9), r.Int(10), r.Int(11), r.Int(12), r.Int(13)};
    out.push_back(std::move(d));
  }
  return out;
}

namespace {

// A record of CREDENCE_LEDGER_COLUMNS without its evidence, and the ids of
// its evidence rows.
StoredDecision StoredWithoutEvidence(const storage::Row& r, std::vector<int64_t>& evidence_ids) {
  StoredDecision out;
  out.header_json = r.Text(2);
  out.record = RecordFromHeader(out.header_json);
  out.seq = r.Int(1);
  out.prev_hash = r.Text(4);
  out.hash = r.Text(5);
  out.hash_format = r.Int(12);
  evidence_ids = ParseIds(r.TextView(3));
  return out;
}

}  // namespace

std::optional<StoredDecision> ReadDecision(storage::TenantSession& tenant, const std::string& decision_id) {
  auto rows = tenant.Run(kDecisionById, {decision_id});
  if (rows.empty()) return std::nullopt;
  std::vector<int64_t> ids;
  StoredDecision out = StoredWithoutEvidence(rows.front(), ids);
  const auto evidence = LoadEvidence(tenant, ids);
  for (int64_t id : ids)
    if (auto it = evidence.find(id); it != evidence.end()) {
      out.record.evidence.push_back(it->second.body);
      out.evidence_hashes.push_back(it->second.hash);
    }
  return out;
}

std::vector<StoredDecision> ReadAppDecisions(storage::TenantSession& tenant, const std::string& app_id, TimeMs from,
                                             TimeMs to, int64_t after_seq, int64_t limit) {
  std::vector<StoredDecision> out;
  std::vector<std::vector<int64_t>> ids_of;
  std::vector<int64_t> all_ids;
  for (const auto& r : tenant.Run(kAppDecisionPage, {app_id, from, to, after_seq, limit})) {
    ids_of.emplace_back();
    out.push_back(StoredWithoutEvidence(r, ids_of.back()));
    all_ids.insert(all_ids.end(), ids_of.back().begin(), ids_of.back().end());
  }
  const auto evidence = LoadEvidence(tenant, all_ids);
  for (size_t i = 0; i < out.size(); ++i)
    for (int64_t id : ids_of[i])
      if (auto it = evidence.find(id); it != evidence.end()) {
        out[i].record.evidence.push_back(it->second.body);
        out[i].evidence_hashes.push_back(it->second.hash);
      }
  return out;
}

namespace {

// Keeps the string's memory when both have a value.
void AssignOver(std::optional<std::string>& to, std::optional<std::string_view> from) {
  if (!from) {
    to.reset();
  } else if (to) {
    to->assign(*from);
  } else {
    to.emplace(*from);
  }
}

}  // namespace

void ReadReplayPage(storage::TenantSession& tenant, TimeMs from, TimeMs to, const std::optional<std::string>& app_id,
                    int64_t after_seq, int64_t before_seq, int64_t limit, std::vector<ReplayRecord>& page) {
  size_t n = 0;
  std::unordered_map<int64_t, size_t> legacy;  // seq -> index in page
  // Assigned over the last page's record: its strings and vector keep their
  // memory, so a page costs no allocation per record.
  auto add = [&](int64_t seq, TimeMs at, std::string_view action, std::string_view channel, std::string_view overall,
                 std::optional<std::string_view> app, std::optional<int64_t> external_model,
                 std::optional<std::string_view> language, std::string_view evidence) {
    if (n == page.size()) page.emplace_back();
    ReplayRecord& d = page[n++];
    d.seq = seq;
    d.evaluated_at = at;
    d.action = action;
    d.channel = channel;
    d.overall = overall;
    AssignOver(d.app_id, app);
    d.external_model = external_model.value_or(0) != 0;
    if (!external_model) legacy.emplace(seq, n - 1);
    AssignOver(d.language, language);
    ParseIdsInto(evidence, d.evidence_ids);
  };
  const std::string app_filter = app_id.value_or(std::string());
  if (tenant.session().dialect() == storage::Dialect::kSqlite) {
    // Streamed: building Rows of a 2,000-record page cost more than
    // SQLite's own reading (docs/performance.md, "Policy what-if").
    using Value = storage::SqliteValue;
    const storage::Param params[] = {std::string_view(tenant.tenant_id()), after_seq, before_seq, from, to,
                                     std::string_view(app_filter),         limit};
    auto text = [](const Value& v) -> std::optional<std::string_view> {
      if (v.type == Value::Type::kNull) return std::nullopt;
      return v.bytes;
    };
    storage::ForEachSqliteRow(
        tenant.session().connection(), kReplayPage.name, kReplayPage.sqlite, params, [&](std::span<const Value> r) {
          add(r[0].integer, r[1].integer, r[2].bytes, r[3].bytes, r[4].bytes, text(r[5]),
              r[6].type == Value::Type::kNull ? std::nullopt : std::optional<int64_t>(r[6].integer), text(r[7]),
              r[8].bytes);
        });
  } else {
    for (const auto& r : tenant.Run(kReplayPage, {after_seq, before_seq, from, to, app_filter, limit})) {
      auto text = [&r](int column) -> std::optional<std::string_view> {
        if (r.IsNull(column)) return std::nullopt;
        return r.TextView(column);
      };
      add(r.Int(0), r.Int(1), r.TextView(2), r.TextView(3), r.TextView(4), text(5), r.OptInt(6), text(7),
          r.TextView(8));
    }
  }
  page.resize(n);
  if (!legacy.empty()) {
    json::array seqs;
    for (const auto& [seq, _] : legacy) seqs.emplace_back(seq);
    for (const auto& r : tenant.Run(kHeadersBySeq, {json::serialize(seqs)})) {
      const LedgerRecord header = RecordFromHeader(r.Text(1));
      ReplayRecord& d = page[legacy.at(r.Int(0))];
      d.external_model = header.external_model;
      d.language = header.language;
    }
  }
}

std::unordered_map<int64_t, std::string> ReadDecisionIds(storage::TenantSession& tenant,
                                                         const std::vector<int64_t>& seqs) {
  std::unordered_map<int64_t, std::string> out;
  if (seqs.empty()) return out;
  json::array list;
  for (int64_t seq : seqs) list.emplace_back(seq);
  for (const auto& r : tenant.Run(kIdsBySeq, {json::serialize(list)})) out.emplace(r.Int(0), r.Text(1));
  return out;
}

int64_t FirstSeqAtOrAfter(storage::TenantSession& tenant, TimeMs t) {
  const auto first = tenant.Run(kFirstSeq);
  if (first.empty() || !first.front().OptInt(0)) return 1;
  int64_t lo = *first.front().OptInt(0);  // the answer is in [lo, hi]
  int64_t hi = tenant.Run(kLastSeq).front().Int(0) + 1;
  while (lo < hi) {
    const int64_t mid = lo + (hi - lo) / 2;
    // Sequences may have gaps (archived records are deleted): the first
    // record at or after mid stands for it.
    const auto rows = tenant.Run(kTimeAtSeq, {mid});
    if (rows.empty() || rows.front().Int(1) >= t) {
      hi = mid;
    } else {
      lo = rows.front().Int(0) + 1;
    }
  }
  return lo;
}

std::unordered_map<int64_t, std::string> ReadEvidenceBodies(storage::TenantSession& tenant,
                                                            const std::vector<int64_t>& ids) {
  std::unordered_map<int64_t, std::string> out;
  for (auto& [id, e] : LoadEvidence(tenant, ids)) out.emplace(id, std::move(e.body));
  return out;
}

VerifyResult VerifyChain(storage::TenantSession& tenant, int64_t from_seq, int64_t to_seq) {
  VerifyResult out;
  from_seq = std::max<int64_t>(from_seq, 1);
  std::string prev = kGenesisHash;
  // Records up to the archive boundary are in archive files (verified
  // there); the walk starts after it, linked to its hash.
  if (auto boundary = integrity::ArchivedThrough(tenant, kLedgerChain); boundary && from_seq <= boundary->seq + 1) {
    out.archived_through = boundary->seq;
    from_seq = boundary->seq + 1;
    prev = boundary->hash;
  } else if (from_seq > 1) {
    auto before = tenant.Run(kLinkBefore, {from_seq - 1});
    if (!before.empty()) prev = before.front().Text(0);
  }
  constexpr int64_t kPage = 500;
  // Evidence rows are immutable and shared by many records: each is loaded
  // and hashed once per walk, not once per page and reference (a page of
  // 500 records of 20 sources read ~5,000 bodies again, and most of a
  // million-record walk went to that). id -> its hash, or nullopt when the
  // body no longer matches it. Bounded: forgotten past kKnownEvidence and
  // loaded again as pages need them.
  constexpr size_t kKnownEvidence = 200'000;
  std::unordered_map<int64_t, std::optional<std::string>> known;
  int64_t next = from_seq;
  int64_t newest_format = 1;
  for (;;) {
    auto rows = tenant.Run(kDecisionRange, {next, to_seq, kPage});
    if (rows.empty()) break;
    if (known.size() > kKnownEvidence) known.clear();
    std::vector<int64_t> unknown;
    for (const auto& r : rows)
      for (int64_t id : ParseIds(r.TextView(3)))
        if (!known.contains(id)) unknown.push_back(id);
    for (auto& [id, e] : LoadEvidence(tenant, unknown))
      known[id] = Sha256Hex(e.body) == e.hash ? std::optional<std::string>(std::move(e.hash)) : std::nullopt;
    for (const auto& r : rows) {
      const int64_t seq = r.Int(1);
      auto fail = [&](std::string why) {
        out.ok = false;
        out.first_invalid_decision_id = r.Text(0);
        out.first_invalid_seq = seq;
        out.problem = std::move(why);
      };
      ++out.checked;
      if (seq != next) {
        fail("record " + std::to_string(next) + " of the chain is missing");
        return out;
      }
      const std::string header = r.Text(2);
      const auto ids = ParseIds(r.TextView(3));
      if (r.TextView(3) != JoinIds(ids)) {
        fail("the record's evidence column is not a plain list of ids");
        return out;
      }
      std::vector<std::string> hashes;
      for (int64_t id : ids) {
        auto it = known.find(id);
        if (it == known.end()) {
          fail("evidence " + std::to_string(id) + " is missing");
          return out;
        }
        if (!it->second) {
          fail("evidence " + std::to_string(id) + " was altered");
          return out;
        }
        hashes.push_back(*it->second);
      }
      if (r.Text(4) != prev) {
        fail("the link to the previous record does not match");
        return out;
      }
      const int64_t format = r.Int(12);
      if (format < 1 || format > kHashFormat) {
        fail("the record's hash format " + std::to_string(format) + " is unknown");
        return out;
      }
      // Formats only move forward: an older format after a newer one is a
      // record rewritten to escape what the newer format covers.
      if (format < newest_format) {
        fail("the record's hash format " + std::to_string(format) + " is older than its predecessor's");
        return out;
      }
      newest_format = format;
      if (RecordHash(format, tenant.tenant_id(), seq, prev, header, hashes) != r.Text(5)) {
        fail("the record's hash does not match its content");
        return out;
      }
      const LedgerRecord h = RecordFromHeader(header);
      if (const char* column = ColumnDisagreeing(r, h)) {
        fail(std::string("the record's column ") + column + " disagrees with its hashed header");
        return out;
      }
      prev = r.Text(5);
      ++next;
    }
    if (static_cast<int64_t>(rows.size()) < kPage) break;
  }
  return out;
}

std::vector<int64_t> ParseEvidenceIds(std::string_view text) {
  auto ids = ParseIds(text);
  if (text != JoinIds(ids)) throw std::invalid_argument("the evidence column is not a plain list of ids");
  return ids;
}

std::string RecordHashOf(int64_t format, const std::string& tenant_id, int64_t seq, const std::string& prev_hash,
                         const std::string& header, const std::vector<std::string>& evidence_hashes) {
  return RecordHash(format, tenant_id, seq, prev_hash, header, evidence_hashes);
}

integrity::ChainSource LedgerChain() {
  return integrity::SqlChainSource(kLedgerChain, kChainTenants, kLastLink, kLinkBefore);
}

integrity::LeafSource LedgerLeaves() {
  return integrity::SqlLeafSource(kLedgerChain, kChainTenants, kLeafRecords, kLinkOf, kFirstRecord);
}

}  // namespace credence::trust
