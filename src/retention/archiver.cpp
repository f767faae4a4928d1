#include "retention/archiver.h"

#include <boost/json/array.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>

#include "core/ids.h"
#include "core/json_text.h"
#include "core/logging.h"
#include "identity/audit.h"
#include "integrity/archive_boundary.h"
#include "integrity/chain_heads.h"
#include "integrity/merkle_log.h"
#include "platform/audit_log.h"
#include "reports/rollup.h"
#include "retention/archive_file.h"
#include "retention/periods.h"
#include "retention/retention_service.h"
#include "storage/cluster_lock.h"
#include "storage/session.h"
#include "trust/ledger.h"

namespace credence::retention {
namespace {

using storage::GlobalQuery;
using storage::TenantQuery;

constexpr GlobalQuery kTenants{"retention.tenants", "SELECT id FROM tenants ORDER BY id"};

// The ledger.
constexpr TenantQuery kOldestDecision{"retention.oldest_decision",
                                      "SELECT MIN(evaluated_at) FROM trust_decisions WHERE tenant_id = $1"};
constexpr TenantQuery kLastDecisionBefore{
    "retention.last_decision_before",
    "SELECT MAX(seq) FROM trust_decisions WHERE tenant_id = $1 AND evaluated_at < $2"};
constexpr TenantQuery kFirstDecision{"retention.first_decision",
                                     "SELECT MIN(seq) FROM trust_decisions WHERE tenant_id = $1"};
constexpr TenantQuery kDecisionPage{
    "retention.decision_page",
    "SELECT seq, id, header, evidence, prev_hash, hash, hash_format, evaluated_at FROM trust_decisions"
    " WHERE tenant_id = $1 AND seq >= $2 AND seq <= $3 ORDER BY seq LIMIT $4"};
constexpr TenantQuery kEvidenceByIds{
    "retention.evidence_by_ids",
    "SELECT id, hash, body FROM trust_evidence WHERE tenant_id = $1 AND id IN (SELECT value FROM json_each($2))",
    "SELECT id, hash, body FROM trust_evidence WHERE tenant_id = $1 AND id IN"
    " (SELECT CAST(json_array_elements_text(CAST($2 AS JSON)) AS BIGINT))"};
constexpr TenantQuery kDecisionHashAt{"retention.decision_hash_at",
                                      "SELECT hash FROM trust_decisions WHERE tenant_id = $1 AND seq = $2"};
constexpr TenantQuery kDeleteDecisions{"retention.delete_decisions",
                                       "DELETE FROM trust_decisions WHERE tenant_id = $1 AND seq >= $2 AND seq <= $3"};

// The audit log.
constexpr TenantQuery kOldestAudit{"retention.oldest_audit", "SELECT MIN(at) FROM audit_log WHERE tenant_id = $1"};
constexpr TenantQuery kLastAuditBefore{"retention.last_audit_before",
                                       "SELECT MAX(seq) FROM audit_log WHERE tenant_id = $1 AND at < $2"};
constexpr TenantQuery kFirstAudit{"retention.first_audit", "SELECT MIN(seq) FROM audit_log WHERE tenant_id = $1"};
constexpr TenantQuery kAuditHashAt{"retention.audit_hash_at",
                                   "SELECT hash FROM audit_log WHERE tenant_id = $1 AND seq = $2"};
constexpr TenantQuery kDeleteAudit{"retention.delete_audit",
                                   "DELETE FROM audit_log WHERE tenant_id = $1 AND seq >= $2 AND seq <= $3"};

// Usage records (no chain).
constexpr TenantQuery kOldestUsage{"retention.oldest_usage",
                                   "SELECT MIN(created_at) FROM trust_usage WHERE tenant_id = $1"};
constexpr TenantQuery kUsagePage{
    "retention.usage_page",
    "SELECT id, decision_id, actor_label, action, sources, outcome, user_id, key_id, app_id, created_at"
    " FROM trust_usage WHERE tenant_id = $1 AND created_at < $2 AND (created_at > $3 OR (created_at = $3 AND id > $4))"
    " ORDER BY created_at, id LIMIT $5"};
constexpr TenantQuery kDeleteUsage{
    "retention.delete_usage",
    "DELETE FROM trust_usage WHERE tenant_id = $1 AND id IN"
    " (SELECT id FROM trust_usage WHERE tenant_id = $1 AND created_at < $2 ORDER BY created_at, id LIMIT $3)"};
constexpr TenantQuery kCountUsageBefore{
    "retention.count_usage_before", "SELECT COUNT(*) FROM trust_usage WHERE tenant_id = $1 AND created_at < $2"};
constexpr TenantQuery kNewestUsageBefore{
    "retention.newest_usage_before", "SELECT MAX(created_at) FROM trust_usage WHERE tenant_id = $1 AND created_at < $2"};

constexpr TenantQuery kInsertArchive{
    "retention.insert_archive",
    "INSERT INTO retention_archives (tenant_id, id, kind, period, file, sha256, bytes, records, from_seq, to_seq,"
    " last_hash, from_time, to_time, created_at, first_id, last_id)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)"};
constexpr TenantQuery kNewestArchive{
    "retention.newest_archive",
    "SELECT to_seq, to_time FROM retention_archives WHERE tenant_id = $1 AND kind = $2 ORDER BY to_time DESC,"
    " created_at DESC LIMIT 1"};

constexpr int64_t kPage = 1000;
constexpr int64_t kDeleteBatch = 5000;

std::optional<int64_t> OptIntOf(storage::TenantSession& tenant, const TenantQuery& q,
                                std::initializer_list<storage::Param> params = {}) {
  auto rows = tenant.Run(q, params);
  if (rows.empty() || rows.front().IsNull(0)) return std::nullopt;
  return rows.front().Int(0);
}

storage::Param Opt(const std::optional<std::string>& s) { return s ? storage::Param(*s) : storage::Param(nullptr); }

// What differs between the two chains the archiver moves.
struct Chain {
  const char* kind;   // "decisions" | "audit"
  const char* chain;  // the integrity chain: "ledger" | "audit"
  const TenantQuery& oldest;
  const TenantQuery& last_before;
  const TenantQuery& first;
  const TenantQuery& hash_at;
  const TenantQuery& remove;
};

const Chain kLedger{"decisions", trust::kLedgerChain, kOldestDecision, kLastDecisionBefore, kFirstDecision,
                    kDecisionHashAt, kDeleteDecisions};
const Chain kAudit{"audit", platform::kAuditChainName, kOldestAudit, kLastAuditBefore, kFirstAudit, kAuditHashAt,
                   kDeleteAudit};

std::string HeaderLine(const std::string& tenant_id, std::string_view kind, const std::string& period, TimeMs from,
                       TimeMs to, TimeMs now) {
  std::string line;
  JsonObjectWriter w(line);
  w.Str("type", "archive")
      .Str("format", kArchiveFormat)
      .Str("tenantId", tenant_id)
      .Str("kind", kind)
      .Str("period", period)
      .Str("from", FormatTimestamp(from))
      .Str("to", FormatTimestamp(to))
      .Str("createdAt", FormatTimestamp(now));
  return line;  // closed by the caller: chains add their range
}

// Writes the decisions [from, to] with the evidence they reference (each
// evidence row once, before the first record naming it).
void WriteDecisions(storage::TenantSession& tenant, ArchiveWriter& out, int64_t from, int64_t to, ArchiveInfo& info) {
  std::set<int64_t> written;
  for (int64_t next = from; next <= to;) {
    auto rows = tenant.Run(kDecisionPage, {next, to, kPage});
    if (rows.empty()) throw std::runtime_error("decisions " + std::to_string(next) + " to " + std::to_string(to) + " vanished while archiving");
    std::vector<std::vector<int64_t>> ids(rows.size());
    boost::json::array wanted;
    for (size_t i = 0; i < rows.size(); ++i) {
      ids[i] = trust::ParseEvidenceIds(rows[i].TextView(3));
      for (int64_t id : ids[i])
        if (written.insert(id).second) wanted.emplace_back(id);
    }
    if (!wanted.empty()) {
      std::map<int64_t, std::pair<std::string, std::string>> evidence;
      for (const auto& r : tenant.Run(kEvidenceByIds, {boost::json::serialize(wanted)}))
        evidence[r.Int(0)] = {r.Text(1), r.Text(2)};
      for (const auto& id : wanted) {
        auto it = evidence.find(id.as_int64());
        if (it == evidence.end()) throw std::runtime_error("evidence " + std::to_string(id.as_int64()) + " is missing");
        std::string line;
        JsonObjectWriter w(line);
        w.Str("type", "evidence").Int("id", it->first).Str("hash", it->second.first).Str("body", it->second.second);
        w.Close();
        out.Line(line);
      }
    }
    for (size_t i = 0; i < rows.size(); ++i) {
      const auto& r = rows[i];
      std::string list = "[";
      for (size_t k = 0; k < ids[i].size(); ++k) {
        if (k > 0) list += ',';
        list += std::to_string(ids[i][k]);
      }
      list += ']';
      std::string line;
      JsonObjectWriter w(line);
      w.Str("type", "decision")
          .Int("seq", r.Int(0))
          .Str("id", r.Text(1))
          .Str("evaluatedAt", FormatTimestamp(r.Int(7)))
          .Int("hashFormat", r.Int(6))
          .Str("prevHash", r.Text(4))
          .Str("hash", r.Text(5))
          .Str("header", r.TextView(2))
          .Raw("evidence", list);
      w.Close();
      out.Line(line);
      next = r.Int(0) + 1;
      const std::string id = r.Text(1);
      if (!info.first_id || id < *info.first_id) info.first_id = id;
      if (!info.last_id || id > *info.last_id) info.last_id = id;
    }
  }
}

void WriteAudit(storage::TenantSession& tenant, ArchiveWriter& out, int64_t from, int64_t to) {
  for (int64_t next = from; next <= to;) {
    auto entries = platform::ReadAuditRange(tenant, next, to, kPage);
    if (entries.empty()) throw std::runtime_error("audit entries " + std::to_string(next) + " to " + std::to_string(to) + " vanished while archiving");
    for (const auto& e : entries) {
      std::string line;
      JsonObjectWriter w(line);
      w.Str("type", "audit")
          .Int("seq", e.seq)
          .Str("id", e.id)
          .Int("at", e.at)
          .Str("time", FormatTimestamp(e.at))
          .Str("actorType", e.actor.type)
          .Str("actorId", e.actor.id)
          .Str("actorLabel", e.actor.label)
          .Str("action", e.action)
          .Str("targetType", e.target.type)
          .Str("targetId", e.target.id)
          .Str("outcome", e.outcome)
          .Str("requestId", e.request_id)
          .Str("clientAddress", e.client_address)
          .Str("userAgent", e.user_agent)
          .Str("details", e.details_json)
          .Str("prevHash", e.prev_hash)
          .Str("hash", e.hash);
      w.Close();
      out.Line(line);
      next = e.seq + 1;
    }
  }
}

void WriteHeadsAndKeys(const integrity::ChainHeads& heads, storage::TenantSession& tenant, ArchiveWriter& out,
                       const char* chain, int64_t from, int64_t to) {
  if (chain != nullptr) {
    for (const auto& h : heads.HeadsBetween(tenant, chain, from, to)) {
      std::string line;
      JsonObjectWriter w(line);
      w.Str("type", "head")
          .Int("seq", h.seq)
          .Str("hash", h.hash)
          .Str("signedAt", FormatTimestamp(h.signed_at))
          .Str("keyId", h.key_id)
          .Str("signature", h.signature);
      w.Close();
      out.Line(line);
    }
  }
  for (const auto& k : heads.Keys()) {
    std::string line;
    JsonObjectWriter w(line);
    w.Str("type", "key")
        .Str("keyId", k.key_id)
        .Str("algorithm", k.algorithm)
        .Str("publicKey", k.public_key)
        .Str("createdAt", FormatTimestamp(k.created_at));
    if (k.retired_at) w.Str("retiredAt", FormatTimestamp(*k.retired_at));
    w.OptStr("retiredBy", k.retired_by).OptStr("retirementSignature", k.retirement_signature);
    w.Close();
    out.Line(line);
  }
}

// <kind>-<YYYY-MM>-<first>-<last>.jsonl.gz: sequence numbers for a chain,
// times (ms) for usage records.
std::string FileName(std::string_view kind, const std::string& period, int64_t first, int64_t last) {
  return std::string(kind) + "-" + period + "-" + std::to_string(first) + "-" + std::to_string(last) + ".jsonl.gz";
}

}  // namespace

Archiver::Archiver(storage::Database& db, const Clock& clock, const integrity::ChainHeads& heads,
                   const identity::AuditRecorder& audit, std::string archive_dir, const integrity::MerkleLogs* logs)
    : db_(db), clock_(clock), heads_(heads), logs_(logs), audit_(audit), dir_(std::move(archive_dir)) {}

namespace {

struct Pass {
  storage::Database& db;
  const Clock& clock;
  const integrity::ChainHeads& heads;
  const integrity::MerkleLogs* logs;
  const identity::AuditRecorder& audit;
  const std::string& dir;
  const std::string& tenant_id;
  ArchiveRun& run;

  std::string PathOf(const std::string& file) const {
    return (std::filesystem::path(dir) / tenant_id / file).string();
  }

  void Record(const ArchiveInfo& a) const {
    storage::Session session(db, storage::TxMode::kWrite);
    storage::TenantSession tx(session, tenant_id);
    tx.Run(kInsertArchive, {a.id, a.kind, a.period, a.file, a.sha256, a.bytes, a.records,
                            a.from_seq ? storage::Param(*a.from_seq) : storage::Param(nullptr),
                            a.to_seq ? storage::Param(*a.to_seq) : storage::Param(nullptr), Opt(a.last_hash),
                            a.from_time, a.to_time, a.created_at, Opt(a.first_id), Opt(a.last_id)});
    identity::AuditEvent event;
    event.actor = identity::SystemActor("retention");
    event.action = "retention.archived";
    event.target = {"archive", a.id};
    event.details = {{"kind", a.kind}, {"period", a.period}, {"file", a.file}, {"records", a.records},
                     {"sha256", a.sha256}};
    audit.Record(tx, event);
    session.Commit();
    ++run.archives;
    run.files.push_back(PathOf(a.file));
    LogLine(LogLevel::kInfo, "archive written")
        .Str("tenant", tenant_id)
        .Str("kind", a.kind)
        .Str("period", a.period)
        .Int("records", a.records)
        .Str("file", PathOf(a.file));
  }

  // Deletes records [from, to] of the chain in batches, each moving the
  // archive boundary to its last record in the same transaction.
  int64_t DeleteChain(const Chain& c, int64_t from, int64_t to) const {
    int64_t deleted = 0;
    for (int64_t start = from; start <= to; start += kDeleteBatch) {
      const int64_t end = std::min(to, start + kDeleteBatch - 1);
      storage::Session session(db, storage::TxMode::kWrite);
      storage::TenantSession tx(session, tenant_id);
      auto hash = tx.Run(c.hash_at, {end});
      if (hash.empty()) throw std::runtime_error(std::string(c.kind) + " record " + std::to_string(end) + " is missing");
      tx.Run(c.remove, {start, end});
      integrity::SetArchivedThrough(tx, c.chain, {end, hash.front().Text(0)}, clock.Now());
      session.Commit();
      deleted += end - start + 1;
    }
    {
      storage::Session session(db, storage::TxMode::kWrite);
      storage::TenantSession tx(session, tenant_id);
      heads.DropHeadsBelow(tx, c.chain, to);
      session.Commit();
    }
    return deleted;
  }

  int64_t& Counter(std::string_view kind) const {
    return kind == "decisions" ? run.decisions : kind == "audit" ? run.audit : run.usage;
  }

  void ArchiveChain(const Chain& c, TimeMs due) const {
    // An archive written before the process stopped, its rows not all deleted.
    {
      std::optional<int64_t> archived_to, first;
      {
        storage::Session session(db, storage::TxMode::kRead);
        storage::TenantSession tenant(session, tenant_id);
        archived_to = OptIntOf(tenant, kNewestArchive, {std::string(c.kind)});
        first = OptIntOf(tenant, c.first);
      }
      if (archived_to && first && *first <= *archived_to)
        Counter(c.kind) += DeleteChain(c, *first, *archived_to);
    }
    // Records leave the database only once their tenant's Merkle tree holds
    // them: their leaves stay, so receipts of the records that remain and
    // consistency from older checkpoints go on (docs/receipts.md).
    if (logs != nullptr && !logs->CatchUp(tenant_id, c.chain))
      throw std::runtime_error(std::string("the ") + c.kind +
                               " chain's Merkle tree cannot take its records in (see the log), nothing archived");
    for (;;) {
      std::optional<int64_t> oldest, to, first;
      std::optional<integrity::ChainHead> boundary;
      TimeMs month_start = 0, month_end = 0;
      {
        storage::Session session(db, storage::TxMode::kRead);
        storage::TenantSession tenant(session, tenant_id);
        oldest = OptIntOf(tenant, c.oldest);
        if (!oldest || *oldest >= due) return;
        month_start = MonthStart(*oldest);
        month_end = AddMonths(month_start, 1);
        to = OptIntOf(tenant, c.last_before, {month_end});
        first = OptIntOf(tenant, c.first);
        boundary = integrity::ArchivedThrough(tenant, c.chain);
      }
      const int64_t from = boundary ? boundary->seq + 1 : 1;
      if (!to || !first || *first != from)
        throw std::runtime_error(std::string("the ") + c.kind + " chain does not start where its archive boundary says (record " +
                                 std::to_string(first.value_or(0)) + ", expected " + std::to_string(from) + ")");
      {
        // Never archive what does not verify: the archive would carry it on.
        storage::Session session(db, storage::TxMode::kRead);
        storage::TenantSession tenant(session, tenant_id);
        std::string problem;
        if (c.kind == std::string_view("decisions")) {
          auto v = trust::VerifyChain(tenant, from, *to);
          if (!v.ok) problem = v.problem;
        } else {
          auto v = platform::VerifyAuditChain(tenant, from, *to);
          if (!v.ok) problem = v.problem;
        }
        if (!problem.empty())
          throw std::runtime_error(std::string("the ") + c.kind + " chain does not verify, nothing archived: " + problem);
      }
      std::string last_hash;
      {
        storage::Session session(db, storage::TxMode::kWrite);
        storage::TenantSession tx(session, tenant_id);
        auto hash = tx.Run(c.hash_at, {*to});
        if (hash.empty()) throw std::runtime_error(std::string(c.kind) + " record " + std::to_string(*to) + " is missing");
        last_hash = hash.front().Text(0);
        heads.SignHeadAt(tx, c.chain, {*to, last_hash});
        session.Commit();
      }
      const TimeMs now = clock.Now();
      ArchiveInfo a;
      a.id = NewId();
      a.kind = c.kind;
      a.period = MonthName(month_start);
      a.file = FileName(c.kind, a.period, from, *to);
      a.records = *to - from + 1;
      a.from_seq = from;
      a.to_seq = *to;
      a.last_hash = last_hash;
      a.from_time = month_start;
      a.to_time = month_end;
      a.created_at = now;
      {
        storage::Session session(db, storage::TxMode::kRead);
        storage::TenantSession tenant(session, tenant_id);
        ArchiveWriter writer(PathOf(a.file));
        std::string header = HeaderLine(tenant_id, c.kind, a.period, month_start, month_end, now);
        header += ",\"fromSeq\":" + std::to_string(from) + ",\"toSeq\":" + std::to_string(*to) + ",\"prevHash\":";
        AppendJsonString(header, boundary ? boundary->hash : std::string(trust::kGenesisHash));
        header += '}';
        writer.Line(header);
        if (c.kind == std::string_view("decisions"))
          WriteDecisions(tenant, writer, from, *to, a);
        else
          WriteAudit(tenant, writer, from, *to);
        WriteHeadsAndKeys(heads, tenant, writer, c.chain, from, *to);
        const auto sealed = writer.Seal(heads.key(), tenant_id, c.kind, a.period, a.records, now);
        a.sha256 = sealed.sha256;
        a.bytes = sealed.bytes;
      }
      Record(a);
      Counter(c.kind) += DeleteChain(c, from, *to);
    }
  }

  void ArchiveUsage(TimeMs due) const {
    // An archive written before the process stopped, its rows not all deleted.
    {
      std::optional<int64_t> archived_to;
      {
        storage::Session session(db, storage::TxMode::kRead);
        storage::TenantSession tenant(session, tenant_id);
        auto rows = tenant.Run(kNewestArchive, {std::string("usage")});
        if (!rows.empty()) archived_to = rows.front().Int(1);
      }
      if (archived_to) run.usage += DeleteUsage(*archived_to);
    }
    for (;;) {
      TimeMs month_start = 0, month_end = 0, newest = 0;
      std::optional<int64_t> oldest;
      {
        storage::Session session(db, storage::TxMode::kRead);
        storage::TenantSession tenant(session, tenant_id);
        oldest = OptIntOf(tenant, kOldestUsage);
        if (!oldest || *oldest >= due) return;
        month_start = MonthStart(*oldest);
        month_end = AddMonths(month_start, 1);
        newest = OptIntOf(tenant, kNewestUsageBefore, {month_end}).value_or(*oldest);
      }
      const TimeMs now = clock.Now();
      ArchiveInfo a;
      a.id = NewId();
      a.kind = "usage";
      a.period = MonthName(month_start);
      // Named by its first and last record's time: the same records make
      // the same name when a run is repeated after a crash, and records
      // that arrive late for an archived month get a file of their own.
      a.file = FileName("usage", a.period, *oldest, newest);
      a.from_time = month_start;
      a.to_time = month_end;
      a.created_at = now;
      {
        storage::Session session(db, storage::TxMode::kRead);
        storage::TenantSession tenant(session, tenant_id);
        ArchiveWriter writer(PathOf(a.file));
        std::string header = HeaderLine(tenant_id, "usage", a.period, month_start, month_end, now);
        header += '}';
        writer.Line(header);
        TimeMs after_time = -1;
        std::string after_id;
        for (;;) {
          auto rows = tenant.Run(kUsagePage, {month_end, after_time, after_id, kPage});
          for (const auto& r : rows) {
            std::string line;
            JsonObjectWriter w(line);
            w.Str("type", "usage")
                .Str("id", r.Text(0))
                .OptStr("decisionId", r.OptText(1))
                .OptStr("actorLabel", r.OptText(2))
                .OptStr("action", r.OptText(3))
                .Str("sources", r.TextView(4))
                .Str("outcome", r.TextView(5))
                .OptStr("userId", r.OptText(6))
                .OptStr("keyId", r.OptText(7))
                .OptStr("appId", r.OptText(8))
                .Str("createdAt", FormatTimestamp(r.Int(9)));
            w.Close();
            writer.Line(line);
            ++a.records;
            after_time = r.Int(9);
            after_id = r.Text(0);
          }
          if (static_cast<int64_t>(rows.size()) < kPage) break;
        }
        WriteHeadsAndKeys(heads, tenant, writer, nullptr, 0, 0);
        const auto sealed = writer.Seal(heads.key(), tenant_id, "usage", a.period, a.records, now);
        a.sha256 = sealed.sha256;
        a.bytes = sealed.bytes;
      }
      Record(a);
      run.usage += DeleteUsage(month_end);
    }
  }

  int64_t DeleteUsage(TimeMs before) const {
    int64_t deleted = 0;
    for (;;) {
      storage::Session session(db, storage::TxMode::kWrite);
      storage::TenantSession tx(session, tenant_id);
      const int64_t left = OptIntOf(tx, kCountUsageBefore, {before}).value_or(0);
      if (left == 0) return deleted;
      tx.Run(kDeleteUsage, {before, kDeleteBatch});
      session.Commit();
      deleted += std::min(left, kDeleteBatch);
    }
  }
};

}  // namespace

ArchiveRun Archiver::RunTenant(const std::string& tenant_id) const {
  ArchiveRun run;
  storage::RunExclusively(db_, "retention-archiver", [&] {
    ++run.tenants;
    // Reports read their aggregates, which must hold every record before it
    // leaves the database.
    reports::Rollup(db_, clock_).CatchUp(tenant_id);
    RetentionSettings settings;
    {
      storage::Session session(db_, storage::TxMode::kRead);
      storage::TenantSession tenant(session, tenant_id);
      settings = LoadRetentionSettings(tenant);
    }
    const TimeMs now = clock_.Now();
    Pass pass{db_, clock_, heads_, logs_, audit_, dir_, tenant_id, run};
    pass.ArchiveChain(kLedger, ArchiveDueBefore(now, settings.decisions_months));
    pass.ArchiveUsage(ArchiveDueBefore(now, settings.usage_months));
    pass.ArchiveChain(kAudit, ArchiveDueBefore(now, settings.audit_months));
  });
  return run;
}

ArchiveRun Archiver::RunOnce() const {
  ArchiveRun total;
  std::vector<std::string> tenants;
  {
    storage::Session session(db_);
    for (const auto& r : session.Run(kTenants)) tenants.push_back(r.Text(0));
  }
  for (const auto& tenant_id : tenants) {
    try {
      const auto one = RunTenant(tenant_id);
      total.tenants += one.tenants;
      total.archives += one.archives;
      total.decisions += one.decisions;
      total.usage += one.usage;
      total.audit += one.audit;
      total.files.insert(total.files.end(), one.files.begin(), one.files.end());
    } catch (const std::exception& e) {
      ++total.failed;
      LogLine(LogLevel::kError, "archiving failed for a tenant").Str("tenant", tenant_id).Str("error", e.what());
    }
  }
  return total;
}

}  // namespace credence::retention
