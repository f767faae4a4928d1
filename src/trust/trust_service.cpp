#include "trust/trust_service.h"

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>

#include "core/ids.h"
#include "core/json_text.h"
#include "core/text.h"
#include "identity/authorization.h"
#include "identity/tenant_service.h"
#include "storage/session.h"
#include "telemetry/span.h"
#include "trust/admin_service.h"
#include "trust/config.h"
#include "trust/engine.h"
#include "trust/source_id.h"
#include "trust/source_resolver.h"

namespace credence::trust {
namespace {

namespace json = boost::json;
using storage::TenantQuery;

constexpr int kAppendAttempts = 5;

constexpr TenantQuery kDecisionExists{"trust.decision_exists",
                                      "SELECT 1 FROM trust_decisions WHERE tenant_id = $1 AND id = $2"};

constexpr TenantQuery kInsertUsage{
    "trust.insert_usage",
    "INSERT INTO trust_usage (tenant_id, id, decision_id, actor_label, action, sources, outcome, user_id, key_id,"
    " app_id, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"};

json::value Opt(const std::optional<std::string>& s) { return s ? json::value(*s) : json::value(nullptr); }

// The per-source decision object (trust-and-platform.md) and the state it
// was decided on: the first is answered, both are kept as evidence. Written
// as text directly: 100 of them per request is the hot path.
void AppendResult(std::string& out, const ResolvedSource& rs, const SourceDecision& d) {
  const SourceState& s = rs.state;
  JsonObjectWriter w(out);
  w.Str("sourceId", s.source_id).Bool("resolved", s.resolved);
  if (s.resolved)
    w.Str("entryId", s.entry_id).Str("title", s.title).Str("origin", OriginName(s.origin));
  else
    w.Null("entryId").Null("title").Null("origin");
  w.Str("decision", DecisionName(d.decision)).Bool("escalated", d.escalated);
  std::string reasons;
  reasons.reserve(d.reasons.empty() ? 2 : 256 * d.reasons.size());
  reasons += '[';
  for (const auto& r : d.reasons) {
    if (reasons.size() > 1) reasons += ',';
    JsonObjectWriter rw(reasons);
    rw.Str("code", r.code)
        .Str("dimension", DimensionName(r.dimension))
        .Str("severity", DecisionName(r.severity))
        .Str("message", r.message)
        .Raw("data", r.data_json);
    rw.Close();
  }
  reasons += ']';
  w.Raw("reasons", reasons).Int("freshnessScore", d.freshness_score).Str("classification", d.classification);
  if (s.resolved)
    w.Str("sensitivity", SensitivityName(s.sensitivity));
  else
    w.Null("sensitivity");
  w.Str("policySource", d.policy_source).Str("recommendedAction", d.recommended_action);
  std::string requirements;
  JsonObjectWriter q(requirements);
  q.Bool("citationRequired", d.requirements.citation_required)
      .Bool("disclaimerRequired", d.requirements.disclaimer_required)
      .OptStr("disclaimerText", d.requirements.disclaimer_text);
  q.Close();
  w.Raw("requirements", requirements);
  w.Close();
}

void AppendState(std::string& out, const ResolvedSource& rs, const Policy& policy, const std::string& policy_source) {
  const SourceState& s = rs.state;
  JsonObjectWriter w(out);
  if (!s.resolved) {
    w.Bool("resolved", false);
    w.Close();
    return;
  }
  w.Bool("resolved", true)
      .Str("origin", OriginName(s.origin))
      .Str("status", s.removed ? std::string_view(kDocumentRemoved) : kb::EntryStatusName(s.status))
      .Int("version", s.version)
      .Str("contentUpdatedAt", FormatTimestamp(s.content_updated_at));
  if (s.origin == Origin::kNative)
    w.Str("expiryDate", FormatTimestamp(s.expiry_at));
  else
    w.Null("expiryDate");
  if (s.last_reviewed_at)
    w.Str("lastReviewedAt", FormatTimestamp(*s.last_reviewed_at));
  else
    w.Null("lastReviewedAt");
  if (s.last_review == ReviewStrength::kNone)
    w.Null("lastReviewType");
  else
    w.Str("lastReviewType", ReviewTypeOfStrength(s.last_review));
  w.OptStr("ownerId", s.owner_id)
      .Bool("ownerActive", s.owner_active)
      .Str("sensitivity", SensitivityName(s.sensitivity))
      .Bool("hasSecrets", s.has_secrets)
      .Bool("hasPersonalData", s.has_personal_data)
      .OptStr("language", s.language)
      .Bool("translationMissing", s.translation_missing)
      .Int("staleTranslationBlocks", s.stale_translation_blocks)
      .OptStr("externalUrl", s.external_url)
      .Raw("policy", PolicyToJson(policy))
      .Str("policySource", policy_source);
  w.Close();
}

// The answer's text and the evidence for `rs` in `context` at `now`, with
// the decision in their key. The rules read the clock only through the time
// facts, so a decision the memo holds for this context and the same facts is
// the one the rules would reach; otherwise they run, and the texts last
// written are reused when the decision comes out the same.
std::shared_ptr<const SourceMemo::Texts> DecidedTexts(const ResolvedSource& rs, const Policy& policy,
                                                      const std::string& policy_source,
                                                      const std::shared_ptr<const Context>& context, TimeMs now) {
  const TimeFacts time = TimeFactsAt(rs.state, policy, now);
  if (auto known = rs.memo->FindDecided(rs.state, policy, context.get(), time)) return known;
  const SourceDecision decided = trust::Decide(rs.state, policy, policy_source, *context, time);
  std::shared_ptr<const SourceMemo::Texts> texts = rs.memo->Find(rs.state, policy, decided);
  if (!texts) {
    auto fresh = std::make_shared<SourceMemo::Texts>();
    fresh->key = {rs.state.status, rs.state.expiry_at, rs.state.days_until_expiry, policy, decided};
    fresh->result.reserve(640);
    AppendResult(fresh->result, rs, decided);
    // The evidence embeds the answer's text as is.
    fresh->evidence.reserve(fresh->result.size() * 2 + 32);
    fresh->evidence += "{\"result\":";
    fresh->evidence += fresh->result;
    fresh->evidence += ",\"state\":";
    AppendState(fresh->evidence, rs, policy, decided.policy_source);
    fresh->evidence += '}';
    rs.memo->Put(fresh);
    texts = std::move(fresh);
  }
  rs.memo->Decided(context, time, texts);
  return texts;
}

Status ValidateSources(std::span<const std::string_view> sources) {
  if (sources.empty())
    return Error::InvalidArgument("no_sources", "The request body failed validation.",
                                  {{"sources", "must not be empty"}});
  if (sources.size() > kMaxSourcesPerRequest)
    return Error::InvalidArgument(
        "too_many_sources", "The request body failed validation.",
        {{"sources", "must have at most " + std::to_string(kMaxSourcesPerRequest) + " items"}});
  std::vector<FieldError> errors;
  for (size_t i = 0; i < sources.size(); ++i)
    if (sources[i].empty() || sources[i].size() > kMaxSourceIdLength)
      errors.push_back({"sources[" + std::to_string(i) + "]",
                        "must be a source id of 1 to " + std::to_string(kMaxSourceIdLength) + " characters"});
  if (!errors.empty()) return Error::Validation(std::move(errors));
  return Ok();
}

Status ValidateContext(const ContextInput& c) {
  std::vector<FieldError> errors;
  auto check = [&](const std::string& v, const char* field) {
    if (v.size() > kMaxContextFieldLength)
      errors.push_back({std::string("context.") + field,
                        "must be at most " + std::to_string(kMaxContextFieldLength) + " characters"});
  };
  check(c.actor_type, "actorType");
  check(c.actor_label, "actorLabel");
  check(c.action, "action");
  check(c.channel, "channel");
  if (!c.language.empty() && !identity::IsKnownLanguage(c.language))
    errors.push_back({"context.language", "unknown language '" + c.language + "'"});
  if (!errors.empty()) return Error::Validation(std::move(errors));
  return Ok();
}

Status RequireTrustCaller(const identity::Principal& caller) {
  if (caller.tenant_id.empty()) return Error::Unauthenticated("missing_credentials", "Sign in or send a key.");
  return Ok();
}

}  // namespace

TrustService::TrustService(storage::Database& db, const Clock& clock, const integrity::ChainHeads* heads,
                           const identity::EventSink& events)
    : db_(db), clock_(clock), heads_(heads), ledger_writer_(db, evidence_cache_, events) {
  slots_.reserve(kCacheSlots);
  for (size_t i = 0; i < kCacheSlots; ++i) slots_.push_back(std::make_unique<CacheSlot>());
}

TrustService::CacheSlot& TrustService::SlotOfThisThread() const {
  // Threads take slots in the order they first evaluate; with up to
  // kCacheSlots server threads each has its own. Beyond, threads share a
  // slot, which is still correct (the cache is thread-safe).
  static std::atomic<size_t> next_slot{0};
  thread_local const size_t slot = next_slot++ % kCacheSlots;
  return *slots_[slot];
}

// An evaluation decided and handed to the ledger writer, waiting for its
// append (StartEvaluate / FinishEvaluate).
class PendingEvaluation {
 public:
  identity::Principal caller;
  // The source ids as submitted, in one buffer (one allocation, not one
  // per id).
  std::string source_text;
  std::vector<std::string_view> sources;
  void SetSources(std::span<const std::string_view> ids) {
    size_t size = 0;
    for (auto id : ids) size += id.size();
    source_text.reserve(size);
    for (auto id : ids) source_text += id;
    sources.reserve(ids.size());
    size_t at = 0;
    for (auto id : ids) {
      sources.emplace_back(source_text.data() + at, id.size());
      at += id.size();
    }
  }
  ContextInput input;
  Endpoint endpoint = Endpoint::kEvaluate;
  Context base_context;  // as the request gave it
  Context context;       // classified for the tenant's configuration (and the app)
  TimeMs now = 0;
  Evaluation out;
  LedgerRecord record;
  // The sources whose evidence was not stored yet: their index, memo and
  // texts (alive in out.results), to record where it went once committed.
  struct Unstored {
    size_t index;
    std::shared_ptr<SourceMemo> memo;
    const SourceMemo::Texts* texts;
  };
  std::vector<Unstored> unstored;
  // Set when decided from the cache: the append checks it is still current.
  std::optional<int64_t> expected_generation;
  LedgerWriter::Job job;
};

namespace {

// trust.decision.blocked's data: the blocked or escalated sources, their ids
// and reason codes only. Built on the ledger writer's thread, and only when
// a webhook is subscribed; `p` lives until the job is done.
boost::json::object BlockedEventData(const PendingEvaluation& p) {
  boost::json::array sources;
  for (size_t i = 0; i < p.out.results.size() && i < p.sources.size(); ++i) {
    const SourceResult& r = p.out.results[i];
    if (r.decision != Decision::kBlock && !r.escalated) continue;
    boost::json::array codes;
    for (const Reason& reason : r.texts->key.decision.reasons)
      if (reason.severity == Decision::kBlock || reason.escalate) codes.emplace_back(reason.code);
    sources.push_back(boost::json::object{{"sourceId", p.sources[i]},
                                          {"decision", r.escalated ? "escalate" : "block"},
                                          {"reasonCodes", std::move(codes)}});
  }
  return boost::json::object{
      {"decisionId", p.out.decision_id},
      {"appId", p.caller.app_id.empty() ? boost::json::value(nullptr) : boost::json::value(p.caller.app_id)},
      {"sources", std::move(sources)}};
}

}  // namespace

void TrustService::Decide(PendingEvaluation& p, const SharedResolution& resolution) const {
  const identity::Principal& caller = p.caller;
  const ContextInput& input = p.input;
  Evaluation& out = p.out;
  LedgerRecord& record = p.record;
  out = Evaluation{};
  out.decision_id = NewId();
  out.evaluated_at = p.now;
  record = LedgerRecord{};
  p.unstored.clear();
  // A decision made with an app's key: the app's channel and default policy
  // take part (docs/apps.md); an app unknown here (deleted) takes none.
  const AppProfile* app = nullptr;
  if (!caller.app_id.empty() && resolution.apps) {
    if (auto it = resolution.apps->find(caller.app_id); it != resolution.apps->end()) app = &it->second;
  }
  p.context = p.base_context;
  if (app != nullptr) {
    ClassifyForApp(*resolution.config, *app, p.context);
    record.app_json = AppJson(*app);
  } else {
    Classify(*resolution.config, p.context);
  }
  record.decision_id = out.decision_id;
  record.evaluated_at = p.now;
  record.endpoint = p.endpoint == Endpoint::kEvaluate        ? "Evaluate"
                    : p.endpoint == Endpoint::kFilterSources ? "FilterSources"
                                                             : "Mcp";
  record.actor_kind = caller.is_user() ? "user" : "machine";
  record.actor_label = input.actor_label;
  record.actor_type = input.actor_type;
  record.action = input.action;
  record.channel = input.channel;
  record.external_model = input.external_model;
  record.language = input.language.empty() ? std::nullopt : std::optional<std::string>(input.language);
  record.context_json.clear();
  JsonObjectWriter context(record.context_json);
  context.Str("actorType", input.actor_type)
      .Str("actorLabel", input.actor_label)
      .Str("action", input.action)
      .Str("channel", input.channel)
      .Bool("externalModel", input.external_model);
  if (input.language.empty()) {
    context.Null("language");
  } else {
    context.Str("language", input.language);
  }
  context.Bool("customerFacing", p.context.customer_facing);
  context.Close();
  if (caller.is_user()) record.user_id = caller.user_id;
  if (!caller.is_user()) record.key_id = caller.key_id;
  if (!caller.app_id.empty()) record.app_id = caller.app_id;
  out.results.reserve(resolution.sources.size());
  record.evidence.reserve(resolution.sources.size());
  record.evidence_stored.reserve(resolution.sources.size());
  const bool app_policy = app != nullptr && !app->policy.empty();
  const std::shared_ptr<const Context> interned = SlotOfThisThread().contexts.Intern(p.context);
  Policy tightened;
  for (const auto& shared : resolution.sources) {
    const ResolvedSource& rs = *shared;
    const Policy* policy = &rs.policy;
    const std::string* policy_source = &rs.policy_source;
    if (app_policy) {
      tightened = rs.policy;
      if (Tighten(app->policy, tightened)) {
        static const std::string kApp = kPolicyApp;
        policy = &tightened;
        policy_source = &kApp;
      }
    }
    const std::shared_ptr<const SourceMemo::Texts> texts = DecidedTexts(rs, *policy, *policy_source, interned, p.now);
    const SourceDecision& d = texts->key.decision;
    // Evidence already stored needs no body: the append uses its location.
    record.evidence.push_back(texts->stored ? std::string() : texts->evidence);
    record.evidence_stored.push_back(texts->stored ? &*texts->stored : nullptr);
    if (!texts->stored) p.unstored.push_back({out.results.size(), rs.memo, texts.get()});
    out.overall = MostSevere(out.overall, d.decision);
    auto& c = record.counts;
    ++c.total;
    if (d.decision == Decision::kAllow) ++c.allowed;
    if (d.decision == Decision::kWarn) ++c.warned;
    if (d.decision == Decision::kBlock) ++c.blocked;
    if (d.escalated) ++c.escalated;
    out.results.push_back({texts, d.decision, d.escalated});
  }
  record.overall = std::string(DecisionName(out.overall));
}

// From the store, in a read transaction beside other readers (which also
// refreshes the cache).
void TrustService::DecideFromStore(PendingEvaluation& p) const {
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, p.caller.tenant_id);
  p.expected_generation.reset();
  Decide(p, SlotOfThisThread().sources.Resolve(tenant, p.sources, p.input.language, p.now));
}

void TrustService::PrepareJob(PendingEvaluation& p) const {
  p.job = LedgerWriter::Job{};
  p.job.tenant_id = p.caller.tenant_id;
  p.job.record = &p.record;
  p.job.expected_generation = p.expected_generation;
  if (p.record.counts.blocked > 0 || p.record.counts.escalated > 0)
    p.job.blocked_event = [&p] { return BlockedEventData(p); };
}

Result<std::shared_ptr<PendingEvaluation>> TrustService::Prepare(const identity::Principal& caller,
                                                                 std::span<const std::string_view> sources,
                                                                 const ContextInput& input, Endpoint endpoint) const {
  CR_TRY(RequireTrustCaller(caller));
  CR_TRY(ValidateSources(sources));
  CR_TRY(ValidateContext(input));
  auto p = std::make_shared<PendingEvaluation>();
  p->caller = caller;
  p->SetSources(sources);
  p->input = input;
  p->endpoint = endpoint;
  p->base_context.actor_type = input.actor_type;
  p->base_context.actor_label = input.actor_label;
  p->base_context.action = input.action;
  p->base_context.channel = input.channel;
  p->base_context.external_model = input.external_model;
  if (!input.language.empty()) p->base_context.language = input.language;
  p->now = clock_.Now();
  return p;
}

Result<Evaluation> TrustService::Preview(const identity::Principal& caller, const std::vector<std::string>& sources,
                                         const ContextInput& input) const {
  const std::vector<std::string_view> ids(sources.begin(), sources.end());
  CR_TRY_ASSIGN(auto p, Prepare(caller, ids, input, Endpoint::kEvaluate));
  DecideFromStore(*p);
  Evaluation out = std::move(p->out);
  out.decision_id.clear();
  return out;
}

Result<std::shared_ptr<PendingEvaluation>> TrustService::StartEvaluate(const identity::Principal& caller,
                                                                       std::span<const std::string_view> sources,
                                                                       const ContextInput& input, Endpoint endpoint,
                                                                       std::function<void()> committed) const {
  // The decision, up to its hand-over to the ledger writer; the wait for
  // the append is the request span's (the writer's thread commits many
  // requests' decisions in one transaction, in no one trace).
  telemetry::Span span(endpoint == Endpoint::kEvaluate        ? "trust evaluate"
                       : endpoint == Endpoint::kFilterSources ? "trust filter-sources"
                                                              : "trust mcp");
  CR_TRY_ASSIGN(auto p, Prepare(caller, sources, input, endpoint));

  // Sources all cached: decided without a read transaction; the append
  // confirms, under the writer, that nothing changed since.
  bool from_cache = false;
  if (auto hit = SlotOfThisThread().sources.ResolveFromMemory(caller.tenant_id, p->sources, input.language, p->now)) {
    p->expected_generation = hit->generation;
    Decide(*p, hit->resolution);
    from_cache = true;
  } else {
    DecideFromStore(*p);
  }
  if (span.recording()) {
    span.SetInt("credence.trust.sources", static_cast<int64_t>(p->sources.size()))
        .SetString("credence.trust.decision", DecisionName(p->out.overall))
        .SetString("credence.trust.decision_id", p->out.decision_id)
        .SetBool("credence.trust.from_cache", from_cache);
    if (!caller.app_id.empty()) span.SetString("credence.trust.app_id", caller.app_id);
  }
  PrepareJob(*p);
  p->job.on_done = std::move(committed);
  ledger_writer_.Submit(p->job);
  return p;
}

Result<Evaluation> TrustService::FinishEvaluate(PendingEvaluation& p) const {
  for (int attempt = 1;; ++attempt) {
    if (attempt > 1) {
      PrepareJob(p);
      try {
        ledger_writer_.Append(p.job);
      } catch (...) {
        // p.job.error holds it.
      }
    }
    if (p.job.error) {
      try {
        std::rethrow_exception(p.job.error);
      } catch (const storage::StorageError& e) {
        // Another node appended to this tenant's chain at the same position.
        if (e.kind() != storage::StorageError::Kind::kUniqueViolation || attempt >= kAppendAttempts) throw;
        continue;
      }
    }
    if (p.job.stale) {
      // A write landed since the cache was filled: decide again from the
      // store, and append again.
      DecideFromStore(p);
      continue;
    }
    const auto& appended = p.job.outcome;
    for (size_t index : appended.learned)
      evidence_cache_.Add(p.caller.tenant_id, p.record.evidence[index], appended.stored[index]);
    for (const auto& u : p.unstored) u.memo->Stored(u.texts, appended.stored[u.index]);
    return std::move(p.out);
  }
}

Result<Evaluation> TrustService::Evaluate(const identity::Principal& caller, const std::vector<std::string>& sources,
                                          const ContextInput& input, Endpoint endpoint) const {
  std::mutex mu;
  std::condition_variable cv;
  bool committed = false;
  const std::vector<std::string_view> ids(sources.begin(), sources.end());
  CR_TRY_ASSIGN(auto pending, StartEvaluate(caller, ids, input, endpoint, [&] {
                  std::lock_guard lock(mu);
                  committed = true;
                  cv.notify_all();
                }));
  {
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return committed; });
  }
  return FinishEvaluate(*pending);
}

Result<SourceMetadata> TrustService::Metadata(const identity::Principal& caller, const std::string& source_id) const {
  CR_TRY(RequireTrustCaller(caller));
  if (source_id.empty() || source_id.size() > kMaxSourceIdLength)
    return Error::Validation({{"sourceId", "must be 1 to " + std::to_string(kMaxSourceIdLength) + " characters"}});
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  const Resolution resolution = ResolveSources(tenant, {source_id}, "", clock_.Now());
  const ResolvedSource& rs = resolution.sources.front();
  const SourceState& s = rs.state;
  json::object out{{"sourceId", source_id}, {"resolved", s.resolved}};
  if (s.resolved) {
    out["entryId"] = s.entry_id;
    out["title"] = s.title;
    out["origin"] = OriginName(s.origin);
    out["status"] = kb::EntryStatusName(s.status);
    out["version"] = s.version;
    out["externalUrl"] = Opt(s.external_url);
    out["contentUpdatedAt"] = FormatTimestamp(s.content_updated_at);
    out["sensitivity"] = SensitivityName(s.sensitivity);
    out["policy"] = {{"source", rs.policy_source},
                     {"aiRetrievable", rs.policy.ai_retrievable},
                     {"customerFacingAllowed", rs.policy.customer_facing_allowed},
                     {"internalOnly", rs.policy.internal_only},
                     {"externalModelAllowed", rs.policy.external_model_allowed},
                     {"maxSensitivityForAi", SensitivityName(rs.policy.max_sensitivity_for_ai)}};
  }
  return SourceMetadata{json::serialize(out)};
}

Result<StoredDecision> TrustService::GetDecision(const identity::Principal& caller,
                                                 const std::string& decision_id) const {
  CR_TRY(RequireTrustCaller(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto d = ReadDecision(tenant, decision_id);
  if (!d) return Error::NotFound("Decision not found.");
  return std::move(*d);
}

Result<std::string> TrustService::RecordUsage(const identity::Principal& caller, const UsageInput& usage) const {
  CR_TRY(RequireTrustCaller(caller));
  std::vector<FieldError> errors;
  if (usage.sources.size() > kMaxSourcesPerRequest)
    errors.push_back({"sources", "must hold at most " + std::to_string(kMaxSourcesPerRequest) + " source ids"});
  for (size_t i = 0; i < usage.sources.size(); ++i)
    if (usage.sources[i].empty() || usage.sources[i].size() > kMaxSourceIdLength)
      errors.push_back({"sources[" + std::to_string(i) + "]", "must be a source id of 1 to 2048 characters"});
  if (usage.actor_label.size() > kMaxContextFieldLength) errors.push_back({"actorLabel", "is too long"});
  if (usage.action.size() > kMaxContextFieldLength) errors.push_back({"action", "is too long"});
  const auto& outcomes = UsageOutcomes();
  if (std::find(outcomes.begin(), outcomes.end(), usage.outcome) == outcomes.end())
    errors.push_back({"outcome", "must be one of answer_sent, answer_withheld, handed_to_human, action_taken, other"});
  if (usage.decision_id && !IsUuid(*usage.decision_id)) errors.push_back({"decisionId", "must be a UUID"});
  if (!errors.empty()) return Error::Validation(std::move(errors));

  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  std::optional<std::string> decision;
  if (usage.decision_id) {
    decision = CanonicalUuid(*usage.decision_id);
    if (tenant.Run(kDecisionExists, {*decision}).empty())
      return Error::Validation({{"decisionId", "is not a decision of this tenant"}});
  }
  json::array sources;
  for (const auto& s : usage.sources) sources.emplace_back(s);
  const std::string id = NewId();
  tenant.Run(kInsertUsage,
             {id, decision, usage.actor_label, usage.action, json::serialize(sources), usage.outcome,
              caller.is_user() ? std::optional<std::string>(caller.user_id) : std::nullopt,
              caller.is_user() ? std::nullopt : std::optional<std::string>(caller.key_id),
              caller.app_id.empty() ? std::nullopt : std::optional<std::string>(caller.app_id), clock_.Now()});
  session.Commit();
  return id;
}

Result<std::vector<DecisionSummary>> TrustService::ListDecisions(const identity::Principal& caller,
                                                                 const DecisionFilter& filter) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  return trust::ListDecisions(tenant, filter);
}

Result<LedgerVerification> TrustService::Verify(const identity::Principal& caller, int64_t from_seq, int64_t to_seq,
                                                const std::optional<integrity::OutsideHead>& outside) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  // One snapshot for both, so a record appended meanwhile cannot look like
  // a chain ending before its head.
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  LedgerVerification out;
  out.records = VerifyChain(tenant, from_seq, to_seq);
  if (heads_ != nullptr) out.heads = heads_->Check(tenant, kLedgerChain, from_seq, to_seq, outside);
  return out;
}

Result<std::vector<integrity::SignedHead>> TrustService::LedgerHeads(const identity::Principal& caller,
                                                                     int64_t before_seq, int64_t limit) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  if (heads_ == nullptr) return std::vector<integrity::SignedHead>{};
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  return heads_->ListHeads(tenant, kLedgerChain, before_seq, limit);
}

}  // namespace credence::trust
