#pragma once
// The trust endpoints' domain: evaluate and filter-sources (decide every
// source, write one ledger record in the same transaction), source metadata,
// decisions as recorded, usage reports, and verifying the ledger's chain.
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/principal.h"
#include "trust/ledger.h"
#include "trust/model.h"
#include "trust/ledger_writer.h"
#include "trust/source_cache.h"

namespace credence::storage {
class Database;
}

namespace credence::trust {

inline constexpr size_t kMaxSourcesPerRequest = 100;
inline constexpr size_t kMaxContextFieldLength = 200;

struct ContextInput {
  std::string actor_type, actor_label, action, channel;
  bool external_model = false;
  std::string language;  // "" when not asked for
};

// Where a decision was asked for, as the ledger records it: "Evaluate",
// "FilterSources", or "Mcp" (a tool or resource of the MCP server, src/mcp).
enum class Endpoint { kEvaluate, kFilterSources, kMcp };

struct SourceResult {
  // The per-source decision object as answered (and kept as evidence);
  // shared with the source's memo rather than copied.
  std::shared_ptr<const SourceMemo::Texts> texts;
  Decision decision = Decision::kAllow;
  bool escalated = false;
  const std::string& json() const { return texts->result; }
};

struct Evaluation {
  std::string decision_id;
  TimeMs evaluated_at = 0;
  Decision overall = Decision::kAllow;
  std::vector<SourceResult> results;  // request order
};

struct SourceMetadata {
  std::string json;  // the decision-free metadata object of the spec
};

inline const std::vector<std::string>& UsageOutcomes() {
  static const std::vector<std::string> kOutcomes = {"answer_sent", "answer_withheld", "handed_to_human",
                                                     "action_taken", "other"};
  return kOutcomes;
}

struct UsageInput {
  std::optional<std::string> decision_id;
  std::string actor_label, action, outcome;
  std::vector<std::string> sources;
};

class PendingEvaluation;

// A ledger verification: the records' own hashes and links, and the chain
// against its signed heads (and an outside head, when given).
struct LedgerVerification {
  VerifyResult records;
  std::optional<integrity::HeadCheck> heads;  // nullopt: no signed heads known to this service
  bool ok() const { return records.ok && (!heads || heads->ok); }
};

class TrustService {
 public:
  // `heads`, when given, signs and keeps the ledger's heads (its chain
  // "ledger"); verification then checks the chain against them.
  // `events` gets trust.decision.blocked for decisions that blocked or
  // escalated a source, in the ledger append's transaction.
  TrustService(storage::Database& db, const Clock& clock, const integrity::ChainHeads* heads = nullptr,
               const identity::EventSink& events = identity::kNoEvents);

  // Signed-in users or machine credentials with trust:evaluate (the route
  // checks the scope). 1..100 source ids of 1..2048 characters (400
  // otherwise); unresolvable ones are blocked, never an error.
  Result<Evaluation> Evaluate(const identity::Principal& caller, const std::vector<std::string>& sources,
                              const ContextInput& context, Endpoint endpoint) const;
  // The same in two steps, so that no thread waits for the ledger: Start
  // decides and hands the record to the ledger writer; `committed` runs, on
  // the writer's thread, once the append is done (or failed); then Finish,
  // on any thread, gives the answer. In the rare case that a write landed
  // between deciding from the cache and appending, Finish decides again
  // from the store and appends again, waiting.
  // The ids are copied: the caller's may go once Start returns.
  Result<std::shared_ptr<PendingEvaluation>> StartEvaluate(const identity::Principal& caller,
                                                           std::span<const std::string_view> sources,
                                                           const ContextInput& context, Endpoint endpoint,
                                                           std::function<void()> committed) const;
  Result<Evaluation> FinishEvaluate(PendingEvaluation& pending) const;
  // What Evaluate would decide now, for a person looking (the reader's
  // badge), written nowhere: no ledger record, no decision id, no event.
  Result<Evaluation> Preview(const identity::Principal& caller, const std::vector<std::string>& sources,
                             const ContextInput& context) const;
  // trust:read. Always answers: resolved false for unknown ids.
  Result<SourceMetadata> Metadata(const identity::Principal& caller, const std::string& source_id) const;
  // trust:read. 404 for another tenant's or unknown decision.
  Result<StoredDecision> GetDecision(const identity::Principal& caller, const std::string& decision_id) const;
  // trust:usage. decisionId, when given, must be a decision of the tenant
  // (400 otherwise). Returns the usage id.
  Result<std::string> RecordUsage(const identity::Principal& caller, const UsageInput& usage) const;
  // Tenant admins (signed-in). Sequence range: from 1, to 0 = the end.
  // With `outside`, also checks the chain against a head an outside party
  // stored.
  Result<LedgerVerification> Verify(const identity::Principal& caller, int64_t from_seq, int64_t to_seq,
                                    const std::optional<integrity::OutsideHead>& outside = std::nullopt) const;
  // Tenant admins (signed-in): the ledger's decisions, newest first.
  Result<std::vector<DecisionSummary>> ListDecisions(const identity::Principal& caller,
                                                     const DecisionFilter& filter) const;
  // Tenant admins (signed-in): the ledger's signed heads, newest first,
  // below sequence `before_seq` (0: from the newest), at most `limit`.
  Result<std::vector<integrity::SignedHead>> LedgerHeads(const identity::Principal& caller, int64_t before_seq,
                                                         int64_t limit) const;

 private:
  Result<std::shared_ptr<PendingEvaluation>> Prepare(const identity::Principal& caller,
                                                     std::span<const std::string_view> sources,
                                                     const ContextInput& input, Endpoint endpoint) const;
  void Decide(PendingEvaluation& p, const SharedResolution& resolution) const;
  void DecideFromStore(PendingEvaluation& p) const;
  void PrepareJob(PendingEvaluation& p) const;

  storage::Database& db_;
  const Clock& clock_;
  const integrity::ChainHeads* heads_;
  mutable EvidenceCache evidence_cache_;
  // The resolved-source cache and the contexts its memos were decided in,
  // one per thread slot (SlotOfThisThread): requests on different cores then
  // never write the same cache lines (the shared pointers' counts, the
  // memos' locks), which under load cost more than the decisions
  // themselves. The price is a copy of the cached sources per thread.
  struct CacheSlot {
    SourceCache sources;
    ContextInterner contexts;
  };
  CacheSlot& SlotOfThisThread() const;
  static constexpr size_t kCacheSlots = 16;
  std::vector<std::unique_ptr<CacheSlot>> slots_;
  mutable LedgerWriter ledger_writer_;  // after the evidence cache it reads
};

}  // namespace credence::trust
