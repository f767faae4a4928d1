#include "reports/rollup.h"

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/json_text.h"
#include "reports/internal/facts.h"
#include "storage/session.h"
#include "trust/source_resolver.h"

namespace credence::reports {
namespace {

namespace json = boost::json;
using storage::GlobalQuery;
using storage::TenantQuery;

// Rows are written as one JSON array parameter per statement (a few
// statements per batch on both backends, instead of one per row).
#define SQ(i) "json_extract(value, '$[" #i "]')"
#define PGI(i) "CAST(j->>" #i " AS BIGINT)"
#define PGT(i) "(j->>" #i ")"
#define SQ_ROWS " FROM json_each($2) WHERE 1 "
#define PG_ROWS " FROM json_array_elements(CAST($2 AS JSON)) j "
#define SQ_IDS "(SELECT value FROM json_each($2))"
#define PG_IDS "(SELECT CAST(json_array_elements_text(CAST($2 AS JSON)) AS BIGINT))"
#define PG_TEXT_IDS "(SELECT json_array_elements_text(CAST($2 AS JSON)))"

constexpr size_t kRowsPerStatement = 2'000;
// The app id of the rows that total every caller.
const std::string kEveryCaller = "*";
constexpr size_t kEvidencePerRead = 500;
constexpr int64_t kUsagePerBatch = 5'000;

constexpr GlobalQuery kTenantsBehind{
    "reports.tenants_behind",
    "SELECT t.id FROM tenants t WHERE EXISTS (SELECT 1 FROM trust_decisions d WHERE d.tenant_id = t.id"
    " AND d.seq > COALESCE((SELECT w.decision_seq FROM report_watermarks w WHERE w.tenant_id = t.id), 0))"
    " OR EXISTS (SELECT 1 FROM report_usage_pending p WHERE p.tenant_id = t.id)"};

constexpr TenantQuery kWatermark{"reports.watermark",
                                 "SELECT decision_seq FROM report_watermarks WHERE tenant_id = $1"};
constexpr TenantQuery kLastSeq{"reports.last_seq",
                               "SELECT seq FROM trust_decisions WHERE tenant_id = $1 ORDER BY seq DESC LIMIT 1"};
constexpr TenantQuery kEnsureWatermark{
    "reports.ensure_watermark",
    "INSERT INTO report_watermarks (tenant_id, decision_seq, updated_at) VALUES ($1, 0, $2)"
    " ON CONFLICT (tenant_id) DO NOTHING"};
// Compare-and-set: the first statement of the write, so on PostgreSQL it
// holds the row until commit and a concurrent fold of the same batch waits,
// then matches nothing.
constexpr TenantQuery kMoveWatermark{
    "reports.move_watermark",
    "UPDATE report_watermarks SET decision_seq = $3, updated_at = $4 WHERE tenant_id = $1 AND decision_seq = $2"};

constexpr TenantQuery kDecisionsAfter{
    "reports.decisions_after",
    "SELECT seq, evaluated_at, app_id, channel, total, allowed, warned, blocked, escalated, evidence"
    " FROM trust_decisions WHERE tenant_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq LIMIT $4"};

constexpr TenantQuery kFacts{
    "reports.facts",
    "SELECT evidence_id, source_id, entry_id, decision, block_reasons, stale FROM report_evidence_facts"
    " WHERE tenant_id = $1 AND evidence_id IN " SQ_IDS,
    "SELECT evidence_id, source_id, entry_id, decision, block_reasons, stale FROM report_evidence_facts"
    " WHERE tenant_id = $1 AND evidence_id IN " PG_IDS};

constexpr TenantQuery kEvidenceBodies{
    "reports.evidence_bodies", "SELECT id, body FROM trust_evidence WHERE tenant_id = $1 AND id IN " SQ_IDS,
    "SELECT id, body FROM trust_evidence WHERE tenant_id = $1 AND id IN " PG_IDS};

constexpr TenantQuery kInsertFacts{
    "reports.insert_facts",
    "INSERT INTO report_evidence_facts (tenant_id, evidence_id, source_id, entry_id, origin, title, decision,"
    " escalated, classification, stale, expiry_at, owner_id, owner_active, sensitivity, block_reasons)"
    " SELECT $1, " SQ(0) ", " SQ(1) ", " SQ(2) ", " SQ(3) ", " SQ(4) ", " SQ(5) ", " SQ(6) ", " SQ(7) ", " SQ(8)
    ", " SQ(9) ", " SQ(10) ", " SQ(11) ", " SQ(12) ", " SQ(13) SQ_ROWS
    "ON CONFLICT (tenant_id, evidence_id) DO NOTHING",
    "INSERT INTO report_evidence_facts (tenant_id, evidence_id, source_id, entry_id, origin, title, decision,"
    " escalated, classification, stale, expiry_at, owner_id, owner_active, sensitivity, block_reasons)"
    " SELECT $1, " PGI(0) ", " PGT(1) ", " PGT(2) ", " PGT(3) ", " PGT(4) ", " PGT(5) ", " PGI(6) ", " PGT(7)
    ", " PGI(8) ", " PGI(9) ", " PGT(10) ", " PGI(11) ", " PGT(12) ", " PGT(13) PG_ROWS
    "ON CONFLICT (tenant_id, evidence_id) DO NOTHING"};

constexpr TenantQuery kUpsertDocuments{
    "reports.upsert_documents",
    "INSERT INTO report_documents (tenant_id, entry_id, origin, title, source_id)"
    " SELECT $1, " SQ(0) ", " SQ(1) ", " SQ(2) ", " SQ(3) SQ_ROWS
    "ON CONFLICT (tenant_id, entry_id) DO UPDATE SET origin = excluded.origin, title = excluded.title,"
    " source_id = excluded.source_id",
    "INSERT INTO report_documents (tenant_id, entry_id, origin, title, source_id)"
    " SELECT $1, " PGT(0) ", " PGT(1) ", " PGT(2) ", " PGT(3) PG_ROWS
    "ON CONFLICT (tenant_id, entry_id) DO UPDATE SET origin = excluded.origin, title = excluded.title,"
    " source_id = excluded.source_id"};

#define ADD(t, c) c " = " t "." c " + excluded." c
constexpr TenantQuery kUpsertDecisionsDaily{
    "reports.upsert_decisions_daily",
    "INSERT INTO report_decisions_daily (tenant_id, day, app_id, channel, decisions, sources, allowed, warned,"
    " blocked, escalated) SELECT $1, " SQ(0) ", " SQ(1) ", " SQ(2) ", " SQ(3) ", " SQ(4) ", " SQ(5) ", " SQ(6)
    ", " SQ(7) ", " SQ(8) SQ_ROWS "ON CONFLICT (tenant_id, day, app_id, channel) DO UPDATE SET "
    ADD("report_decisions_daily", "decisions") ", " ADD("report_decisions_daily", "sources") ", "
    ADD("report_decisions_daily", "allowed") ", " ADD("report_decisions_daily", "warned") ", "
    ADD("report_decisions_daily", "blocked") ", " ADD("report_decisions_daily", "escalated"),
    "INSERT INTO report_decisions_daily (tenant_id, day, app_id, channel, decisions, sources, allowed, warned,"
    " blocked, escalated) SELECT $1, " PGI(0) ", " PGT(1) ", " PGT(2) ", " PGI(3) ", " PGI(4) ", " PGI(5) ", " PGI(6)
    ", " PGI(7) ", " PGI(8) PG_ROWS "ON CONFLICT (tenant_id, day, app_id, channel) DO UPDATE SET "
    ADD("report_decisions_daily", "decisions") ", " ADD("report_decisions_daily", "sources") ", "
    ADD("report_decisions_daily", "allowed") ", " ADD("report_decisions_daily", "warned") ", "
    ADD("report_decisions_daily", "blocked") ", " ADD("report_decisions_daily", "escalated")};

constexpr TenantQuery kUpsertSourcesDaily{
    "reports.upsert_sources_daily",
    "INSERT INTO report_sources_daily (tenant_id, day, app_id, entry_id, evaluations, last_at)"
    " SELECT $1, " SQ(0) ", " SQ(1) ", " SQ(2) ", " SQ(3) ", " SQ(4) SQ_ROWS
    "ON CONFLICT (tenant_id, app_id, day, entry_id) DO UPDATE SET " ADD("report_sources_daily", "evaluations")
    ", last_at = MAX(report_sources_daily.last_at, excluded.last_at)",
    "INSERT INTO report_sources_daily (tenant_id, day, app_id, entry_id, evaluations, last_at)"
    " SELECT $1, " PGI(0) ", " PGT(1) ", " PGT(2) ", " PGI(3) ", " PGI(4) PG_ROWS
    "ON CONFLICT (tenant_id, app_id, day, entry_id) DO UPDATE SET " ADD("report_sources_daily", "evaluations")
    ", last_at = GREATEST(report_sources_daily.last_at, excluded.last_at)"};

constexpr TenantQuery kUpsertBlockedDaily{
    "reports.upsert_blocked_daily",
    "INSERT INTO report_blocked_daily (tenant_id, day, app_id, reason_code, entry_id, source_id, blocked, last_at)"
    " SELECT $1, " SQ(0) ", " SQ(1) ", " SQ(2) ", " SQ(3) ", " SQ(4) ", " SQ(5) ", " SQ(6) SQ_ROWS
    "ON CONFLICT (tenant_id, day, app_id, reason_code, entry_id, source_id) DO UPDATE SET "
    ADD("report_blocked_daily", "blocked") ", last_at = MAX(report_blocked_daily.last_at, excluded.last_at)",
    "INSERT INTO report_blocked_daily (tenant_id, day, app_id, reason_code, entry_id, source_id, blocked, last_at)"
    " SELECT $1, " PGI(0) ", " PGT(1) ", " PGT(2) ", " PGT(3) ", " PGT(4) ", " PGI(5) ", " PGI(6) PG_ROWS
    "ON CONFLICT (tenant_id, day, app_id, reason_code, entry_id, source_id) DO UPDATE SET "
    ADD("report_blocked_daily", "blocked") ", last_at = GREATEST(report_blocked_daily.last_at, excluded.last_at)"};

constexpr TenantQuery kUpsertUsageDaily{
    "reports.upsert_usage_daily",
    "INSERT INTO report_usage_daily (tenant_id, day, app_id, entry_id, uses, last_at)"
    " SELECT $1, " SQ(0) ", " SQ(1) ", " SQ(2) ", " SQ(3) ", " SQ(4) SQ_ROWS
    "ON CONFLICT (tenant_id, app_id, day, entry_id) DO UPDATE SET " ADD("report_usage_daily", "uses")
    ", last_at = MAX(report_usage_daily.last_at, excluded.last_at)",
    "INSERT INTO report_usage_daily (tenant_id, day, app_id, entry_id, uses, last_at)"
    " SELECT $1, " PGI(0) ", " PGT(1) ", " PGT(2) ", " PGI(3) ", " PGI(4) PG_ROWS
    "ON CONFLICT (tenant_id, app_id, day, entry_id) DO UPDATE SET " ADD("report_usage_daily", "uses")
    ", last_at = GREATEST(report_usage_daily.last_at, excluded.last_at)"};

constexpr TenantQuery kUpsertStaleUsageDaily{
    "reports.upsert_stale_usage_daily",
    "INSERT INTO report_stale_usage_daily (tenant_id, day, app_id, entry_id, evidence_id, uses, last_at)"
    " SELECT $1, " SQ(0) ", " SQ(1) ", " SQ(2) ", " SQ(3) ", " SQ(4) ", " SQ(5) SQ_ROWS
    "ON CONFLICT (tenant_id, day, app_id, entry_id, evidence_id) DO UPDATE SET "
    ADD("report_stale_usage_daily", "uses") ", last_at = MAX(report_stale_usage_daily.last_at, excluded.last_at)",
    "INSERT INTO report_stale_usage_daily (tenant_id, day, app_id, entry_id, evidence_id, uses, last_at)"
    " SELECT $1, " PGI(0) ", " PGT(1) ", " PGT(2) ", " PGI(3) ", " PGI(4) ", " PGI(5) PG_ROWS
    "ON CONFLICT (tenant_id, day, app_id, entry_id, evidence_id) DO UPDATE SET "
    ADD("report_stale_usage_daily", "uses") ", last_at = GREATEST(report_stale_usage_daily.last_at, excluded.last_at)"};
#undef ADD

constexpr TenantQuery kPendingUsage{
    "reports.pending_usage",
    "SELECT p.usage_id, u.created_at, u.app_id, u.decision_id, u.sources FROM report_usage_pending p"
    " LEFT JOIN trust_usage u ON u.tenant_id = p.tenant_id AND u.id = p.usage_id"
    " WHERE p.tenant_id = $1 ORDER BY p.usage_id LIMIT $2"};

constexpr TenantQuery kTakePending{
    "reports.take_pending",
    "DELETE FROM report_usage_pending WHERE tenant_id = $1 AND usage_id IN (SELECT value FROM json_each($2))"
    " RETURNING usage_id",
    "DELETE FROM report_usage_pending WHERE tenant_id = $1 AND usage_id IN " PG_TEXT_IDS " RETURNING usage_id"};

// The document each source id named when it was last evaluated.
constexpr TenantQuery kLastResolution{
    "reports.last_resolution",
    "SELECT source_id, entry_id FROM report_evidence_facts WHERE tenant_id = $1 AND entry_id <> ''"
    " AND source_id IN (SELECT value FROM json_each($2)) ORDER BY evidence_id",
    "SELECT source_id, entry_id FROM report_evidence_facts WHERE tenant_id = $1 AND entry_id <> ''"
    " AND source_id IN " PG_TEXT_IDS " ORDER BY evidence_id"};

constexpr TenantQuery kDecisionEvidence{
    "reports.decision_evidence",
    "SELECT id, evidence FROM trust_decisions WHERE tenant_id = $1 AND id IN (SELECT value FROM json_each($2))",
    "SELECT id, evidence FROM trust_decisions WHERE tenant_id = $1 AND id IN " PG_TEXT_IDS};

TimeMs DayOf(TimeMs t) {
  TimeMs day = t / kMsPerDay;
  if (t % kMsPerDay < 0) --day;
  return day * kMsPerDay;
}

// The ledger's evidence column: comma-separated evidence ids.
template <class F>
void ForEachId(std::string_view text, F&& f) {
  int64_t v = 0;
  bool any = false;
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      v = v * 10 + (c - '0');
      any = true;
    } else if (c == ',') {
      if (any) f(v);
      v = 0;
      any = false;
    }
  }
  if (any) f(v);
}

// A JSON array of row arrays, written without a DOM.
class JsonRows {
 public:
  void Row() {
    out_ += out_.empty() ? "[[" : "],[";
    first_ = true;
  }
  JsonRows& Int(int64_t v) {
    Sep();
    out_ += std::to_string(v);
    return *this;
  }
  JsonRows& Str(std::string_view v) {
    Sep();
    AppendJsonString(out_, v);
    return *this;
  }
  JsonRows& OptStr(const std::optional<std::string>& v) {
    if (v) return Str(*v);
    Sep();
    out_ += "null";
    return *this;
  }
  JsonRows& OptInt(const std::optional<int64_t>& v) {
    if (v) return Int(*v);
    Sep();
    out_ += "null";
    return *this;
  }
  bool empty() const { return out_.empty(); }
  std::string Take() {
    std::string s = out_.empty() ? "[]" : std::move(out_) + "]]";
    out_.clear();
    return s;
  }

 private:
  void Sep() {
    if (!first_) out_ += ',';
    first_ = false;
  }
  std::string out_;
  bool first_ = true;
};

// Runs `q` over `rows` in statements of kRowsPerStatement rows; `write`
// appends one row.
template <class Container, class Write>
void WriteRows(storage::TenantSession& tx, const TenantQuery& q, const Container& rows, Write&& write) {
  JsonRows json;
  size_t n = 0;
  auto flush = [&] {
    if (json.empty()) return;
    const std::string text = json.Take();
    tx.Run(q, {text});
    n = 0;
  };
  for (const auto& row : rows) {
    json.Row();
    write(json, row);
    if (++n == kRowsPerStatement) flush();
  }
  flush();
}

std::string IdList(const std::vector<int64_t>& ids, size_t from, size_t to) {
  std::string s = "[";
  for (size_t i = from; i < to; ++i) {
    if (i > from) s += ',';
    s += std::to_string(ids[i]);
  }
  s += ']';
  return s;
}

// What a fold needs of an evidence row.
struct FoldFacts {
  std::string source_id;
  std::string entry_id;  // "" when unresolved
  bool blocked = false;
  bool allowed = false;
  bool warned = false;
  bool stale = false;
  std::vector<std::string> block_reasons;
};

FoldFacts FromExtracted(const internal::EvidenceFacts& f) {
  return {f.source_id, f.entry_id, f.decision == "block", f.decision == "allow", f.decision == "warn", f.stale,
          f.block_reasons};
}

// Facts of `ids`, from report_evidence_facts or extracted from the bodies
// (then also added to `extracted`, for the write). `known` caches across
// batches of one catch-up.
void LoadFacts(storage::TenantSession& tx, std::vector<int64_t> ids, std::unordered_map<int64_t, FoldFacts>& known,
               std::vector<std::pair<int64_t, internal::EvidenceFacts>>& extracted) {
  ids.erase(std::remove_if(ids.begin(), ids.end(), [&](int64_t id) { return known.count(id) > 0; }), ids.end());
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::vector<int64_t> missing;
  for (size_t at = 0; at < ids.size(); at += kEvidencePerRead) {
    const size_t end = std::min(ids.size(), at + kEvidencePerRead);
    std::set<int64_t> found;
    for (const auto& r : tx.Run(kFacts, {IdList(ids, at, end)})) {
      FoldFacts f{r.Text(1),
                  r.Text(2),
                  r.TextView(3) == "block",
                  r.TextView(3) == "allow",
                  r.TextView(3) == "warn",
                  r.Int(5) == 1,
                  {}};
      std::string_view codes = r.TextView(4);
      while (!codes.empty()) {
        const size_t comma = codes.find(',');
        f.block_reasons.emplace_back(codes.substr(0, comma));
        codes = comma == std::string_view::npos ? std::string_view() : codes.substr(comma + 1);
      }
      found.insert(r.Int(0));
      known.emplace(r.Int(0), std::move(f));
    }
    for (size_t i = at; i < end; ++i)
      if (!found.count(ids[i])) missing.push_back(ids[i]);
  }
  for (size_t at = 0; at < missing.size(); at += kEvidencePerRead) {
    const size_t end = std::min(missing.size(), at + kEvidencePerRead);
    for (const auto& r : tx.Run(kEvidenceBodies, {IdList(missing, at, end)})) {
      auto facts = internal::ExtractFacts(r.TextView(1));
      known.emplace(r.Int(0), FromExtracted(facts));
      extracted.emplace_back(r.Int(0), std::move(facts));
    }
  }
}

void WriteFacts(storage::TenantSession& tx, const std::vector<std::pair<int64_t, internal::EvidenceFacts>>& extracted) {
  if (extracted.empty()) return;
  WriteRows(tx, kInsertFacts, extracted, [](JsonRows& j, const auto& e) {
    const auto& f = e.second;
    std::string reasons;
    for (const auto& c : f.block_reasons) {
      if (!reasons.empty()) reasons += ',';
      reasons += c;
    }
    j.Int(e.first).Str(f.source_id).Str(f.entry_id).OptStr(f.origin).OptStr(f.title).Str(f.decision);
    j.Int(f.escalated ? 1 : 0).Str(f.classification).Int(f.stale ? 1 : 0).OptInt(f.expiry_at).OptStr(f.owner_id);
    j.Int(f.owner_active ? 1 : 0).OptStr(f.sensitivity).Str(reasons);
  });
  // The latest name of each document: from its newest evidence.
  std::map<std::string, const internal::EvidenceFacts*> documents;
  std::map<std::string, int64_t> newest;
  for (const auto& [id, f] : extracted) {
    if (f.entry_id.empty() || !f.origin || !f.title) continue;
    auto [it, fresh] = newest.emplace(f.entry_id, id);
    if (fresh || id >= it->second) {
      it->second = id;
      documents[f.entry_id] = &f;
    }
  }
  WriteRows(tx, kUpsertDocuments, documents, [](JsonRows& j, const auto& d) {
    const auto& f = *d.second;
    j.Str(f.entry_id).Str(*f.origin).Str(*f.title);
    j.Str(*f.origin == "Native" ? "entry:" + f.entry_id : f.source_id);
  });
}

}  // namespace

RollupStats Rollup::CatchUp(const std::string& tenant_id) const {
  RollupStats stats;
  while (FoldDecisions(tenant_id, stats)) {
  }
  while (FoldUsage(tenant_id, stats)) {
  }
  if (stats.decisions + stats.usage > 0) stats.tenants = 1;
  return stats;
}

RollupStats Rollup::RunOnce() const {
  std::vector<std::string> tenants;
  {
    storage::Session session(db_);
    for (const auto& r : session.Run(kTenantsBehind)) tenants.push_back(r.Text(0));
  }
  RollupStats total;
  for (const auto& t : tenants) {
    const auto s = CatchUp(t);
    total.tenants += s.tenants;
    total.decisions += s.decisions;
    total.usage += s.usage;
    total.evidence += s.evidence;
  }
  return total;
}

bool Rollup::FoldDecisions(const std::string& tenant_id, RollupStats& stats) const {
  struct DecisionAgg {
    int64_t decisions = 0, sources = 0, allowed = 0, warned = 0, blocked = 0, escalated = 0;
  };
  struct Count {
    int64_t n = 0;
    TimeMs last_at = 0;
  };
  struct SourceAgg {
    int64_t evaluations = 0;
    TimeMs last_at = 0;
  };
  // (day, app, channel); (day, app, entry); (day, app, reason, entry, source)
  std::map<std::tuple<TimeMs, std::string, std::string>, DecisionAgg> by_decision;
  std::map<std::tuple<TimeMs, std::string, std::string>, SourceAgg> by_source;
  std::map<std::tuple<TimeMs, std::string, std::string, std::string, std::string>, Count> by_block;
  std::vector<std::pair<int64_t, internal::EvidenceFacts>> extracted;
  int64_t from = 0, to = 0;
  size_t folded = 0;
  {
    storage::Session session(db_, storage::TxMode::kRead);
    storage::TenantSession tx(session, tenant_id);
    if (auto w = tx.Run(kWatermark); !w.empty()) from = w.front().Int(0);
    int64_t last = 0;
    if (auto l = tx.Run(kLastSeq); !l.empty()) last = l.front().Int(0);
    if (last <= from) return false;
    auto rows = tx.Run(kDecisionsAfter, {from, last, batch_decisions_});
    if (rows.empty()) return false;
    folded = rows.size();
    to = rows[rows.size() - 1].Int(0);
    // Per decision: its header counts; per evidence reference: (day, app,
    // evidence) counts, expanded through the facts below.
    std::vector<std::string> apps;
    std::unordered_map<std::string, uint32_t> app_index;
    struct EvidenceKey {
      TimeMs day;
      uint32_t app;
      int64_t evidence;
      bool operator==(const EvidenceKey& o) const { return day == o.day && app == o.app && evidence == o.evidence; }
    };
    struct EvidenceKeyHash {
      size_t operator()(const EvidenceKey& k) const {
        return std::hash<int64_t>{}(k.evidence * 1000003 + k.day / kMsPerDay * 131 + k.app);
      }
    };
    std::unordered_map<EvidenceKey, Count, EvidenceKeyHash> by_evidence;
    // Decisions over the same sources in the same states reference the same
    // evidence list (a question asked again retrieves the same documents):
    // each distinct (day, app, list) is expanded once, with its count.
    struct ListKey {
      TimeMs day;
      uint32_t app;
      std::string_view refs;  // into `rows`
      bool operator==(const ListKey& o) const { return day == o.day && app == o.app && refs == o.refs; }
    };
    struct ListKeyHash {
      size_t operator()(const ListKey& k) const {
        return std::hash<std::string_view>{}(k.refs) ^ static_cast<size_t>(k.day / kMsPerDay * 131 + k.app);
      }
    };
    std::unordered_map<ListKey, Count, ListKeyHash> by_list;
    std::vector<int64_t> ids;
    for (const auto& r : rows) {
      const TimeMs at = r.Int(1);
      const TimeMs day = DayOf(at);
      std::string app = r.Text(2);
      auto& d = by_decision[{day, app, r.Text(3)}];
      ++d.decisions;
      d.sources += r.Int(4);
      d.allowed += r.Int(5);
      d.warned += r.Int(6);
      d.blocked += r.Int(7);
      d.escalated += r.Int(8);
      auto [it, fresh] = app_index.emplace(app, static_cast<uint32_t>(apps.size()));
      if (fresh) apps.push_back(std::move(app));
      const uint32_t a = it->second;
      auto& list = by_list[{day, a, r.TextView(9)}];
      ++list.n;
      list.last_at = std::max(list.last_at, at);
    }
    for (const auto& [key, list] : by_list) {
      ForEachId(key.refs, [&](int64_t id) {
        auto& c = by_evidence[{key.day, key.app, id}];
        if (c.n == 0) ids.push_back(id);
        c.n += list.n;
        c.last_at = std::max(c.last_at, list.last_at);
      });
    }
    std::unordered_map<int64_t, FoldFacts> facts;
    LoadFacts(tx, std::move(ids), facts, extracted);
    for (const auto& [k, c] : by_evidence) {
      auto f = facts.find(k.evidence);
      if (f == facts.end()) continue;  // evidence missing: the ledger's verify reports it
      const std::string& app = apps[k.app];
      if (!f->second.entry_id.empty())
        for (const std::string* a : {&app, &kEveryCaller}) {
          auto& s = by_source[{k.day, *a, f->second.entry_id}];
          s.evaluations += c.n;
          s.last_at = std::max(s.last_at, c.last_at);
        }
      if (f->second.blocked) {
        // Resolved documents by entry id; unresolved ids as submitted.
        const std::string& source = f->second.entry_id.empty() ? f->second.source_id : std::string();
        for (const auto& code : f->second.block_reasons) {
          auto& b = by_block[{k.day, app, code, f->second.entry_id, source}];
          b.n += c.n;
          b.last_at = std::max(b.last_at, c.last_at);
        }
      }
    }
  }

  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tx(session, tenant_id);
  const TimeMs now = clock_.Now();
  tx.Run(kEnsureWatermark, {now});
  if (tx.Run(kMoveWatermark, {from, to, now}).affected() != 1) return true;  // folded by another: read again
  WriteFacts(tx, extracted);
  WriteRows(tx, kUpsertDecisionsDaily, by_decision, [](JsonRows& j, const auto& e) {
    const auto& [key, d] = e;
    j.Int(std::get<0>(key)).Str(std::get<1>(key)).Str(std::get<2>(key)).Int(d.decisions).Int(d.sources);
    j.Int(d.allowed).Int(d.warned).Int(d.blocked).Int(d.escalated);
  });
  WriteRows(tx, kUpsertSourcesDaily, by_source, [](JsonRows& j, const auto& e) {
    const auto& [key, s] = e;
    j.Int(std::get<0>(key)).Str(std::get<1>(key)).Str(std::get<2>(key)).Int(s.evaluations).Int(s.last_at);
  });
  WriteRows(tx, kUpsertBlockedDaily, by_block, [](JsonRows& j, const auto& e) {
    const auto& [key, c] = e;
    j.Int(std::get<0>(key)).Str(std::get<1>(key)).Str(std::get<2>(key)).Str(std::get<3>(key));
    j.Str(std::get<4>(key)).Int(c.n).Int(c.last_at);
  });
  session.Commit();
  stats.decisions += static_cast<int64_t>(folded);
  stats.evidence += static_cast<int64_t>(extracted.size());
  return true;
}

bool Rollup::FoldUsage(const std::string& tenant_id, RollupStats& stats) const {
  // Per usage record: the (day, app, entry, evidence) it counts once.
  using Key = std::tuple<TimeMs, std::string, std::string, int64_t>;
  std::map<std::string, std::set<Key>> contributions;
  std::map<std::string, TimeMs> used_at;
  std::vector<std::string> pending;
  std::vector<std::pair<int64_t, internal::EvidenceFacts>> extracted;
  {
    storage::Session session(db_, storage::TxMode::kRead);
    storage::TenantSession tx(session, tenant_id);
    auto rows = tx.Run(kPendingUsage, {kUsagePerBatch});
    if (rows.empty()) return false;
    struct Usage {
      std::string id;
      TimeMs at;
      std::string app;
      std::string decision;
      std::vector<std::string> sources;
    };
    std::vector<Usage> usages;
    std::set<std::string> decision_ids;
    for (const auto& r : rows) {
      pending.push_back(r.Text(0));
      if (r.IsNull(1)) continue;  // the record is gone: nothing to count
      usages.push_back({r.Text(0), r.Int(1), r.Text(2), r.Text(3), StringListFromJson(r.TextView(4))});
      if (!usages.back().decision.empty()) decision_ids.insert(usages.back().decision);
    }
    // The evidence of the linked decisions, by the source id it answered.
    std::map<std::string, std::vector<int64_t>> decision_evidence;
    std::vector<int64_t> ids;
    if (!decision_ids.empty())
      for (const auto& r : tx.Run(kDecisionEvidence, {StringListToJson({decision_ids.begin(), decision_ids.end()})})) {
        auto& list = decision_evidence[r.Text(0)];
        ForEachId(r.TextView(1), [&](int64_t id) {
          list.push_back(id);
          ids.push_back(id);
        });
      }
    std::unordered_map<int64_t, FoldFacts> facts;
    LoadFacts(tx, std::move(ids), facts, extracted);
    // Sources a usage names without evidence of its decision for them: the
    // document the id named at its latest evaluation, or, never evaluated,
    // the one it names now (the resolution evaluation uses).
    std::set<std::string> unmatched;
    std::map<std::string, std::map<std::string, int64_t>> evidence_by_source;  // decision -> source -> evidence
    for (const auto& [decision, list] : decision_evidence)
      for (int64_t id : list)
        if (auto f = facts.find(id); f != facts.end()) evidence_by_source[decision].emplace(f->second.source_id, id);
    for (const auto& u : usages)
      for (const auto& s : u.sources) {
        auto d = evidence_by_source.find(u.decision);
        if (d == evidence_by_source.end() || !d->second.count(s)) unmatched.insert(s);
      }
    // First as the id's latest evaluation resolved it (facts extracted in
    // this batch included); only ids never evaluated go to the resolver.
    std::map<std::string, std::string> entry_of;
    if (!unmatched.empty()) {
      for (const auto& r : tx.Run(kLastResolution, {StringListToJson({unmatched.begin(), unmatched.end()})}))
        entry_of[r.Text(0)] = r.Text(1);
      for (const auto& [id, f] : extracted)
        if (!f.entry_id.empty() && unmatched.count(f.source_id) && !entry_of.count(f.source_id))
          entry_of[f.source_id] = f.entry_id;
      for (const auto& [source, entry] : entry_of) unmatched.erase(source);
    }
    for (const auto& rs : trust::ResolveInBatches(tx, {unmatched.begin(), unmatched.end()}, clock_.Now()))
      if (rs.state.resolved) entry_of[rs.state.source_id] = rs.state.entry_id;
    for (const auto& u : usages) {
      auto& mine = contributions[u.id];
      used_at[u.id] = u.at;
      const TimeMs day = DayOf(u.at);
      for (const auto& s : u.sources) {
        if (auto d = evidence_by_source.find(u.decision); d != evidence_by_source.end()) {
          if (auto e = d->second.find(s); e != d->second.end()) {
            const auto& f = facts.at(e->second);
            // Only stale evidence is kept per evidence row (expired-knowledge-used).
            if (!f.entry_id.empty()) mine.insert({day, u.app, f.entry_id, f.stale ? e->second : 0});
            continue;
          }
        }
        if (auto e = entry_of.find(s); e != entry_of.end()) mine.insert({day, u.app, e->second, 0});
      }
    }
  }

  struct Uses {
    int64_t n = 0;
    TimeMs last_at = 0;
  };
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tx(session, tenant_id);
  std::map<std::tuple<TimeMs, std::string, std::string>, Uses> by_document;  // (day, app or '*', entry)
  std::map<Key, Uses> stale;
  int64_t taken = 0;
  auto count = [](Uses& u, TimeMs at) {
    ++u.n;
    u.last_at = std::max(u.last_at, at);
  };
  for (const auto& r : tx.Run(kTakePending, {StringListToJson(pending)})) {
    ++taken;
    const std::string id = r.Text(0);
    auto c = contributions.find(id);
    if (c == contributions.end()) continue;
    const TimeMs at = used_at[id];
    // A record naming a document twice (two forms, two stale versions)
    // uses it once.
    std::set<std::tuple<TimeMs, std::string, std::string>> documents;
    std::set<std::tuple<TimeMs, std::string, std::string>> stale_documents;
    for (const auto& k : c->second) {
      const std::tuple<TimeMs, std::string, std::string> d{std::get<0>(k), std::get<1>(k), std::get<2>(k)};
      documents.insert(d);
      if (std::get<3>(k) != 0 && stale_documents.insert(d).second) count(stale[k], at);
    }
    for (const auto& d : documents) {
      count(by_document[d], at);
      count(by_document[{std::get<0>(d), kEveryCaller, std::get<2>(d)}], at);
    }
  }
  if (taken > 0) {
    WriteFacts(tx, extracted);
    WriteRows(tx, kUpsertUsageDaily, by_document, [](JsonRows& j, const auto& e) {
      const auto& [key, u] = e;
      j.Int(std::get<0>(key)).Str(std::get<1>(key)).Str(std::get<2>(key)).Int(u.n).Int(u.last_at);
    });
    WriteRows(tx, kUpsertStaleUsageDaily, stale, [](JsonRows& j, const auto& e) {
      const auto& [key, u] = e;
      j.Int(std::get<0>(key)).Str(std::get<1>(key)).Str(std::get<2>(key)).Int(std::get<3>(key)).Int(u.n);
      j.Int(u.last_at);
    });
  }
  session.Commit();
  stats.usage += taken;
  stats.evidence += taken > 0 ? static_cast<int64_t>(extracted.size()) : 0;
  return true;
}

}  // namespace credence::reports
