#include "trust/what_if.h"

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <deque>
#include <future>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>

#include "core/json_text.h"
#include "identity/authorization.h"
#include "storage/database.h"
#include "storage/session.h"
#include "trust/engine.h"
#include "trust/ledger.h"
#include "trust/recorded_evidence.h"
#include "trust/rules.h"
#include "trust/source_resolver.h"

namespace credence::trust {
namespace {

using storage::TenantQuery;

constexpr TenantQuery kHubByKey{"trust.what_if_hub", "SELECT id FROM hubs WHERE tenant_id = $1 AND hub_key = $2"};
constexpr TenantQuery kPolicies{"trust.what_if_policies",
                                "SELECT scope, target_id, policy FROM trust_policies WHERE tenant_id = $1"};
constexpr TenantQuery kEntryHubs{
    "trust.what_if_entry_hubs",
    "SELECT id, hub_id FROM entries WHERE tenant_id = $1 AND id IN (SELECT value FROM json_each($2))",
    "SELECT id, hub_id FROM entries WHERE tenant_id = $1 AND id IN"
    " (SELECT json_array_elements_text(CAST($2 AS JSON)))"};

constexpr int64_t kPage = 2'000;
// Decision times follow the sequence up to the nodes' clock skew: the
// sequence range is found for a window widened by this, and the time
// filter itself is exact.
constexpr TimeMs kClockSkewMargin = 5 * 60 * 1000;
// Parsed evidence and the memos built on it are dropped past this many
// distinct evidence rows and built again as pages need them.
constexpr size_t kMaxKnownEvidence = 300'000;

// The policy levels: today's, or today's with the change applied.
struct PolicyLayers {
  PolicyOverride tenant;
  std::unordered_map<std::string, PolicyOverride> hubs;     // by hub id
  std::unordered_map<std::string, PolicyOverride> sources;  // by entry or connected document id
  std::unordered_map<std::string, PolicyOverride> apps;     // by app id
};

void SetOrErase(std::unordered_map<std::string, PolicyOverride>& level, const std::string& id,
                const PolicyOverride& policy) {
  if (policy.empty()) {
    level.erase(id);
  } else {
    level[id] = policy;
  }
}

Policy Layered(const PolicyLayers& layers, const SourceState& s, const std::string* hub_id, const std::string* app_id,
               std::string& policy_source) {
  Policy p;
  policy_source = kPolicyTenantDefault;
  Apply(layers.tenant, p);
  if (hub_id != nullptr)
    if (auto h = layers.hubs.find(*hub_id); h != layers.hubs.end()) {
      Apply(h->second, p);
      policy_source = kPolicyHub;
    }
  if (s.resolved)
    if (auto e = layers.sources.find(s.entry_id); e != layers.sources.end()) {
      Apply(e->second, p);
      policy_source = kPolicyEntry;
    }
  if (app_id != nullptr)
    if (auto a = layers.apps.find(*app_id); a != layers.apps.end() && Tighten(a->second, p)) policy_source = kPolicyApp;
  return p;
}

// What a change resolves to in the tenant's ids.
struct ResolvedChanges {
  PolicyLayers today, proposed;
  // Sensitivity by (origin, entry or document id); nullopt: the defaults.
  std::map<std::pair<Origin, std::string>, std::optional<SensitivityFacts>> sensitivity;
};

Result<ResolvedChanges> Resolve(storage::TenantSession& tenant, const WhatIfRequest& request, const AppProfiles& apps,
                                TimeMs now) {
  ResolvedChanges out;
  for (const auto& r : tenant.Run(kPolicies)) {
    auto o = PolicyOverrideFromJson(r.TextView(2));
    if (!o) continue;  // written through validation; never expected
    const std::string scope = r.Text(0);
    if (scope == "tenant") out.today.tenant = *o;
    if (scope == "hub") out.today.hubs[r.Text(1)] = *o;
    if (scope == "entry") out.today.sources[r.Text(1)] = *o;
  }
  for (const auto& [id, app] : apps)
    if (!app.policy.empty()) out.today.apps[id] = app.policy;
  out.proposed = out.today;

  std::vector<FieldError> errors;
  for (size_t i = 0; i < request.changes.size(); ++i) {
    const ProposedChange& c = request.changes[i];
    const std::string field = "changes[" + std::to_string(i) + "]." +
                              (c.target == ChangeTarget::kHubPolicy   ? "hubKey"
                               : c.target == ChangeTarget::kAppPolicy ? "appId"
                                                                      : "sourceId");
    switch (c.target) {
      case ChangeTarget::kTenantPolicy:
        out.proposed.tenant = c.policy;
        break;
      case ChangeTarget::kHubPolicy: {
        const auto rows = tenant.Run(kHubByKey, {c.name});
        if (rows.empty()) {
          errors.push_back({field, "no hub of the tenant has the key '" + c.name + "'"});
          break;
        }
        SetOrErase(out.proposed.hubs, rows.front().Text(0), c.policy);
        break;
      }
      case ChangeTarget::kAppPolicy:
        if (!apps.contains(c.name)) {
          errors.push_back({field, "not an app of the tenant"});
          break;
        }
        SetOrErase(out.proposed.apps, c.name, c.policy);
        break;
      case ChangeTarget::kSourcePolicy:
      case ChangeTarget::kSensitivity: {
        const ResolvedSource source =
            std::move(ResolveSources(tenant, std::vector<std::string>{c.name}, "", now).sources.front());
        if (!source.state.resolved) {
          errors.push_back({field, "not an entry or connected document of the tenant"});
          break;
        }
        if (c.target == ChangeTarget::kSourcePolicy) {
          SetOrErase(out.proposed.sources, source.state.entry_id, c.policy);
        } else {
          out.sensitivity[{source.state.origin, source.state.entry_id}] = c.sensitivity;
        }
        break;
      }
    }
  }
  if (!errors.empty()) return Error::Validation(std::move(errors));
  return out;
}

// The rules' answer reduced to what a replay compares.
struct Outcome {
  Decision decision = Decision::kAllow;
  ReasonSet reasons = 0;
  bool operator==(const Outcome&) const = default;
};

Outcome OutcomeOf(const SourceDecision& d) { return {d.decision, ReasonsOf(d)}; }

// One evidence row, parsed once per replay.
struct KnownSource {
  RecordedSource recorded;
  std::optional<SourceState> proposed_state;  // when the change sets its sensitivity
  std::optional<std::string> hub_id;          // native entries still in the knowledge base
};

// A request's context, rebuilt once per distinct one.
struct KnownContext {
  Context context;
  std::optional<std::string> app_id;  // an app of the tenant today
  size_t group = 0;
};

// Both policies of a source in one app's requests.
struct PolicyPair {
  Policy before, after;
  std::string before_source, after_source;
  bool same = true;
};

struct DecisionKey {
  uint32_t source = 0, context = 0;
  int64_t days_until_expiry = 0;
  TimeFacts before, after;
  bool operator==(const DecisionKey&) const = default;
};

struct DecisionKeyHash {
  size_t operator()(const DecisionKey& k) const {
    auto mix = [](size_t h, uint64_t v) { return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2)); };
    size_t h = mix(k.source, k.context);
    h = mix(h, static_cast<uint64_t>(k.days_until_expiry));
    for (const TimeFacts* t : {&k.before, &k.after}) {
      h = mix(h, static_cast<uint64_t>(t->freshness_score) * 2 + t->expiry_passed);
      h = mix(h, static_cast<uint64_t>(t->review_age_days.value_or(-1)));
    }
    return h;
  }
};

struct DecidedPair {
  Outcome before, after;
};

std::vector<std::string> CodesOf(ReasonSet set) {
  std::vector<std::string> out;
  for (; set != 0; set &= set - 1) out.emplace_back(RuleOfBit(std::countr_zero(set)).code);
  return out;
}

// The state of one replay: what it parsed and decided, and its counts.
class Replayer {
 public:
  Replayer(const WhatIfRequest& request, ResolvedChanges changes, AppProfiles apps, ContextConfig config,
           WhatIfResult& result)
      : request_(request),
        changes_(std::move(changes)),
        apps_(std::move(apps)),
        config_(std::move(config)),
        result_(result) {}

  // Parses the page's evidence not seen yet and looks up the hubs of its
  // entries, in a read transaction of its own; most pages have none to
  // read and take no connection.
  void Learn(storage::Database& db, const std::string& tenant_id, const std::vector<ReplayRecord>& page) {
    if (sources_.size() > kMaxKnownEvidence) Forget();
    std::vector<int64_t> unknown;
    for (const auto& r : page)
      for (int64_t id : r.evidence_ids)
        if (!source_of_id_.contains(id)) unknown.push_back(id);
    if (unknown.empty()) return;
    storage::Session session(db, storage::TxMode::kRead);
    storage::TenantSession tenant(session, tenant_id);
    std::vector<std::string> entries;
    for (auto& [id, body] : ReadEvidenceBodies(tenant, unknown)) {
      auto parsed = ParseRecordedSource(body);
      if (!parsed) continue;  // read as a missing source below
      KnownSource known{std::move(*parsed), std::nullopt, std::nullopt};
      const SourceState& s = known.recorded.state;
      if (auto c = changes_.sensitivity.find({s.origin, s.entry_id}); s.resolved && c != changes_.sensitivity.end()) {
        SourceState changed = s;
        const SensitivityFacts facts = c->second.value_or(SensitivityFacts{});
        changed.sensitivity = facts.classification;
        changed.has_secrets = facts.has_secrets;
        changed.has_personal_data = facts.has_personal_data;
        known.proposed_state = std::move(changed);
      }
      if (s.resolved && s.origin == Origin::kNative) entries.push_back(s.entry_id);
      source_of_id_[id] = static_cast<uint32_t>(sources_.size());
      sources_.push_back(std::move(known));
    }
    std::erase_if(entries, [&](const std::string& e) { return hubs_.contains(e); });
    std::sort(entries.begin(), entries.end());
    entries.erase(std::unique(entries.begin(), entries.end()), entries.end());
    for (const auto& e : entries) hubs_[e] = std::nullopt;  // deleted entries keep no hub
    if (!entries.empty())
      for (const auto& r : tenant.Run(kEntryHubs, {StringListToJson(entries)})) hubs_[r.Text(0)] = r.Text(1);
  }

  void Replay(const ReplayRecord& r) {
    const uint32_t context_index = ContextOf(r);
    const KnownContext& context = contexts_[context_index];
    if (request_.channel && context.context.channel != *request_.channel) return;
    ++result_.replayed;
    WhatIfGroup& group = result_.groups[context.group];
    ++group.replayed;

    Decision before = Decision::kAllow, after = Decision::kAllow;
    bool drifted = false;
    ReasonSet gained_any = 0, lost_any = 0;
    std::vector<std::pair<uint32_t, DecidedPair>>& changed_sources = changed_sources_;
    changed_sources.clear();
    for (int64_t id : r.evidence_ids) {
      const auto found = source_of_id_.find(id);
      if (found == source_of_id_.end()) {
        drifted = true;  // evidence that no longer reads (never expected)
        continue;
      }
      const uint32_t source_index = found->second;
      const DecidedPair& d = Decide(source_index, context_index, r.evaluated_at);
      const RecordedSource& recorded = sources_[source_index].recorded;
      if (d.before != Outcome{recorded.decision, recorded.reasons}) drifted = true;
      before = MostSevere(before, d.before.decision);
      after = MostSevere(after, d.after.decision);
      if (d.before == d.after) continue;
      ++result_.sources_changed;
      ++result_.source_moves[static_cast<int>(d.before.decision)][static_cast<int>(d.after.decision)];
      const ReasonSet gained = d.after.reasons & ~d.before.reasons;
      const ReasonSet lost = d.before.reasons & ~d.after.reasons;
      Count(gained, appearing_sources_);
      Count(lost, vanishing_sources_);
      gained_any |= gained;
      lost_any |= lost;
      changed_sources.emplace_back(source_index, d);
    }
    Count(gained_any, appearing_decisions_);
    Count(lost_any, vanishing_decisions_);
    if (drifted) ++result_.drifted;
    ++result_.moves[static_cast<int>(before)][static_cast<int>(after)];
    ++group.moves[static_cast<int>(before)][static_cast<int>(after)];
    if (before != after) {
      ++result_.changed;
      ++group.changed;
    }
    if (!changed_sources.empty() && result_.examples.size() < kWhatIfExamples)
      AddExample(r, context, before, after, changed_sources);
  }

  // The examples' decision ids, in a transaction of their own.
  void NameExamples(storage::TenantSession& tenant) {
    const auto ids = ReadDecisionIds(tenant, example_seqs_);
    for (size_t i = 0; i < result_.examples.size(); ++i)
      if (auto it = ids.find(example_seqs_[i]); it != ids.end()) result_.examples[i].decision_id = it->second;
    // Archived since it was read: nothing to link to.
    std::erase_if(result_.examples, [](const WhatIfExample& e) { return e.decision_id.empty(); });
  }

  void Finish() {
    result_.appearing = Shifts(appearing_sources_, appearing_decisions_);
    result_.vanishing = Shifts(vanishing_sources_, vanishing_decisions_);
    std::stable_sort(result_.groups.begin(), result_.groups.end(), [](const WhatIfGroup& a, const WhatIfGroup& b) {
      return std::tie(a.app_name, a.channel) < std::tie(b.app_name, b.channel);
    });
    std::erase_if(result_.groups, [](const WhatIfGroup& g) { return g.replayed == 0; });
  }

 private:
  using BitCounts = std::array<int64_t, 64>;

  void Forget() {
    sources_.clear();
    source_of_id_.clear();
    policies_.clear();
    decided_.clear();
    last_decided_.clear();
  }

  uint32_t ContextOf(const ReplayRecord& r) {
    // Consecutive records mostly share their context: compare with the
    // last one before building a key.
    if (last_context_ && r.action == last_context_record_.action && r.channel == last_context_record_.channel &&
        r.app_id == last_context_record_.app_id && r.external_model == last_context_record_.external_model &&
        r.language == last_context_record_.language)
      return *last_context_;
    last_context_record_.action = r.action;
    last_context_record_.channel = r.channel;
    last_context_record_.app_id = r.app_id;
    last_context_record_.external_model = r.external_model;
    last_context_record_.language = r.language;
    last_context_ = ContextOfKey(r);
    return *last_context_;
  }

  uint32_t ContextOfKey(const ReplayRecord& r) {
    std::string key;
    // What the rules read of a context (they read nothing of the actor).
    key.reserve(r.action.size() + r.channel.size() + 64);
    for (const std::string* part : {&r.action, &r.channel}) {
      key += *part;
      key += '\x1f';
    }
    key += r.app_id.value_or("");
    key += r.external_model ? "\x1f"
                              "1\x1f"
                            : "\x1f"
                              "0\x1f";
    key += r.language.value_or("");
    if (auto it = context_of_key_.find(key); it != context_of_key_.end()) return it->second;

    KnownContext known;
    Context& c = known.context;
    c.action = r.action;
    c.channel = r.channel;
    c.external_model = r.external_model;
    c.language = r.language;
    const AppProfile* app = nullptr;
    if (r.app_id)
      if (auto a = apps_.find(*r.app_id); a != apps_.end()) app = &a->second;
    // The vocabulary and the app as they are today: one changed since shows
    // as drift (docs/what-if.md).
    if (app != nullptr) {
      ClassifyForApp(config_, *app, c);
      known.app_id = app->id;
    } else {
      Classify(config_, c);
    }
    const auto group_key = std::make_pair(r.app_id.value_or(""), c.channel);
    auto group = group_of_key_.find(group_key);
    if (group == group_of_key_.end()) {
      WhatIfGroup g;
      g.app_id = r.app_id;
      if (app != nullptr) g.app_name = app->name;
      g.channel = c.channel;
      result_.groups.push_back(std::move(g));
      group = group_of_key_.emplace(group_key, result_.groups.size() - 1).first;
    }
    known.group = group->second;
    contexts_.push_back(std::move(known));
    const auto index = static_cast<uint32_t>(contexts_.size() - 1);
    context_of_key_.emplace(std::move(key), index);
    return index;
  }

  const PolicyPair& PoliciesOf(uint32_t source_index, uint32_t context_index) {
    const uint64_t key = (static_cast<uint64_t>(source_index) << 32) | context_index;
    if (auto it = policies_.find(key); it != policies_.end()) return it->second;
    const KnownSource& known = sources_[source_index];
    const SourceState& s = known.recorded.state;
    const std::string* hub_id = nullptr;
    if (s.resolved && s.origin == Origin::kNative)
      if (auto h = hubs_.find(s.entry_id); h != hubs_.end() && h->second) hub_id = &*h->second;
    const auto& app_id = contexts_[context_index].app_id;
    const std::string* app = app_id ? &*app_id : nullptr;
    PolicyPair pair;
    pair.before = Layered(changes_.today, s, hub_id, app, pair.before_source);
    pair.after = Layered(changes_.proposed, s, hub_id, app, pair.after_source);
    pair.same = pair.before == pair.after && pair.before_source == pair.after_source && !known.proposed_state;
    return policies_.emplace(key, std::move(pair)).first->second;
  }

  // Both decisions of one source in one record, memoised on everything the
  // rules read: the evidence, the context and the time facts.
  const DecidedPair& Decide(uint32_t source_index, uint32_t context_index, TimeMs at) {
    const PolicyPair& policies = PoliciesOf(source_index, context_index);
    const KnownSource& known = sources_[source_index];
    DecisionKey key;
    key.source = source_index;
    key.context = context_index;
    key.days_until_expiry = DaysUntilExpiryAt(known.recorded.state, at);
    key.before = TimeFactsAt(known.recorded.state, policies.before, at);
    // A pointer, not value_or: that copies the whole state, per source.
    const SourceState& after_state = known.proposed_state ? *known.proposed_state : known.recorded.state;
    key.after = policies.same ? key.before : TimeFactsAt(after_state, policies.after, at);
    // The same source in the same context was mostly decided with the same
    // facts by the record before: checked before hashing.
    LastDecided& last = LastDecidedOf(source_index);
    if (last.pair != nullptr && last.key == key) return *last.pair;
    if (auto it = decided_.find(key); it != decided_.end()) {
      last = {key, &it->second};
      return it->second;
    }
    SourceState state = known.recorded.state;
    state.days_until_expiry = key.days_until_expiry;
    const Context& context = contexts_[context_index].context;
    DecidedPair d;
    d.before = OutcomeOf(trust::Decide(state, policies.before, policies.before_source, context, key.before));
    if (policies.same) {
      d.after = d.before;
    } else {
      if (known.proposed_state) {
        state = *known.proposed_state;
        state.days_until_expiry = key.days_until_expiry;
      }
      d.after = OutcomeOf(trust::Decide(state, policies.after, policies.after_source, context, key.after));
    }
    const DecidedPair& stored = decided_.emplace(key, d).first->second;
    last = {key, &stored};
    return stored;
  }

  // Unordered_map values keep their address until erased (Forget clears
  // both).
  struct LastDecided {
    DecisionKey key;
    const DecidedPair* pair = nullptr;
  };
  LastDecided& LastDecidedOf(uint32_t source_index) {
    if (last_decided_.size() <= source_index) last_decided_.resize(source_index + 1);
    return last_decided_[source_index];
  }

  static void Count(ReasonSet set, BitCounts& counts) {
    for (; set != 0; set &= set - 1) ++counts[std::countr_zero(set)];
  }

  static std::vector<ReasonShift> Shifts(const BitCounts& sources, const BitCounts& decisions) {
    std::vector<ReasonShift> out;
    for (int bit = 0; bit < 64; ++bit) {
      if (sources[bit] == 0) continue;
      const Rule& rule = RuleOfBit(bit);
      out.push_back({std::string(rule.code), rule.dimension, sources[bit], decisions[bit]});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const ReasonShift& a, const ReasonShift& b) { return a.sources > b.sources; });
    return out;
  }

  void AddExample(const ReplayRecord& r, const KnownContext& context, Decision before, Decision after,
                  const std::vector<std::pair<uint32_t, DecidedPair>>& changed) {
    WhatIfExample e;
    example_seqs_.push_back(r.seq);  // its id is read for the 20 examples alone (NameExamples)
    e.evaluated_at = r.evaluated_at;
    e.app_id = r.app_id;
    e.channel = context.context.channel;
    e.recorded = DecisionFromName(r.overall);
    e.before = before;
    e.after = after;
    for (const auto& [index, d] : changed) {
      if (e.sources.size() == kWhatIfExampleSources) break;
      const SourceState& s = sources_[index].recorded.state;
      e.sources.push_back({s.source_id, s.title, d.before.decision, d.after.decision,
                           CodesOf(d.after.reasons & ~d.before.reasons), CodesOf(d.before.reasons & ~d.after.reasons)});
    }
    result_.examples.push_back(std::move(e));
  }

  const WhatIfRequest& request_;
  ResolvedChanges changes_;
  AppProfiles apps_;
  ContextConfig config_;
  WhatIfResult& result_;

  std::vector<int64_t> example_seqs_;  // of result_.examples, in order
  std::vector<KnownSource> sources_;
  std::unordered_map<int64_t, uint32_t> source_of_id_;
  std::unordered_map<std::string, std::optional<std::string>> hubs_;  // entry id -> hub id
  std::vector<KnownContext> contexts_;
  std::optional<uint32_t> last_context_;
  ReplayRecord last_context_record_;  // what last_context_ was found for
  std::unordered_map<std::string, uint32_t> context_of_key_;
  std::map<std::pair<std::string, std::string>, size_t> group_of_key_;
  std::unordered_map<uint64_t, PolicyPair> policies_;
  std::unordered_map<DecisionKey, DecidedPair, DecisionKeyHash> decided_;
  std::vector<LastDecided> last_decided_;                          // by source index
  std::vector<std::pair<uint32_t, DecidedPair>> changed_sources_;  // the record's, reused
  BitCounts appearing_sources_{}, appearing_decisions_{}, vanishing_sources_{}, vanishing_decisions_{};
};

}  // namespace

std::string_view ChangeTargetName(ChangeTarget target) {
  switch (target) {
    case ChangeTarget::kTenantPolicy:
      return "tenant-policy";
    case ChangeTarget::kHubPolicy:
      return "hub-policy";
    case ChangeTarget::kSourcePolicy:
      return "source-policy";
    case ChangeTarget::kAppPolicy:
      return "app-policy";
    case ChangeTarget::kSensitivity:
      return "sensitivity";
  }
  return "tenant-policy";
}

std::optional<ChangeTarget> ParseChangeTarget(std::string_view name) {
  for (auto t : {ChangeTarget::kTenantPolicy, ChangeTarget::kHubPolicy, ChangeTarget::kSourcePolicy,
                 ChangeTarget::kAppPolicy, ChangeTarget::kSensitivity})
    if (ChangeTargetName(t) == name) return t;
  return std::nullopt;
}

Result<WhatIfResult> WhatIfService::Replay(const identity::Principal& caller, const WhatIfRequest& request) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  const auto started = std::chrono::steady_clock::now();
  if (request.changes.size() > kMaxWhatIfChanges)
    return Error::Validation({{"changes", "must have at most " + std::to_string(kMaxWhatIfChanges) + " items"}});
  const TimeMs now = clock_.Now();
  CR_TRY_ASSIGN(DateWindow window, ParseDateWindow(request.from, request.to, now));

  WhatIfResult result;
  result.window = window;
  std::optional<Replayer> replayer;
  int64_t after_seq = 0, before_seq = 0;
  {
    storage::Session session(db_, storage::TxMode::kRead);
    storage::TenantSession tenant(session, caller.tenant_id);
    AppProfiles apps = LoadAppProfiles(tenant);
    if (request.app_id && !apps.contains(*request.app_id))
      return Error::Validation({{"appId", "not an app of the tenant"}});
    CR_TRY_ASSIGN(ResolvedChanges changes, Resolve(tenant, request, apps, now));
    replayer.emplace(request, std::move(changes), std::move(apps), LoadContextConfig(tenant), result);
    after_seq = FirstSeqAtOrAfter(tenant, window.from_ms - kClockSkewMargin) - 1;
    before_seq = FirstSeqAtOrAfter(tenant, window.end_ms + kClockSkewMargin);
  }
  // Pages are ranges of kPage sequences, one read transaction each: a
  // replay of millions of records holds no snapshot open for its whole run.
  // kReadAhead of them are read on threads of their own while the last one
  // replays: reading and replaying cost about the same, and on a cold cache
  // the reads wait on the disk, where several at once go faster (an admin's
  // replay is the one request worth two cores for a few seconds;
  // docs/performance.md, "Policy what-if"). Two, because the connection
  // pool holds two more than the HTTP threads (application.cpp): more
  // readers would make other requests wait for a connection. Each page has
  // its buffer, its records assigned over, so a reader allocates nothing
  // per record once the buffers have grown.
  constexpr size_t kReadAhead = 2;
  std::array<std::vector<ReplayRecord>, kReadAhead + 1> pages;
  std::deque<std::pair<std::future<void>, std::vector<ReplayRecord>*>> reading;  // in sequence order
  int64_t unread_after = after_seq;
  size_t next_buffer = 0;
  auto read_next = [&, tenant_id = caller.tenant_id] {
    if (unread_after + 1 >= before_seq) return;
    const int64_t after = unread_after, before = std::min(before_seq, after + kPage + 1);
    std::vector<ReplayRecord>* page = &pages[next_buffer];
    next_buffer = (next_buffer + 1) % pages.size();
    unread_after = before - 1;
    reading.emplace_back(std::async(std::launch::async,
                                    [&, tenant_id, after, before, page] {
                                      storage::Session session(db_, storage::TxMode::kRead);
                                      storage::TenantSession tenant(session, tenant_id);
                                      ReadReplayPage(tenant, window.from_ms, window.end_ms, request.app_id, after,
                                                     before, kPage, *page);
                                    }),
                         page);
  };
  for (size_t i = 0; i < kReadAhead; ++i) read_next();
  int64_t read = 0;
  while (!reading.empty()) {
    auto [done, page_ptr] = std::move(reading.front());
    reading.pop_front();
    done.get();
    read_next();  // into the buffer replayed last time round
    const std::vector<ReplayRecord>& page = *page_ptr;
    if (page.empty()) continue;
    read += static_cast<int64_t>(page.size());
    if (read > kMaxReplayedDecisions)
      return Error::Validation({{"from", "the window holds more than " + std::to_string(kMaxReplayedDecisions) +
                                             " decisions; replay a shorter one"}});
    replayer->Learn(db_, caller.tenant_id, page);
    for (const auto& r : page) replayer->Replay(r);
  }
  if (!result.examples.empty()) {
    storage::Session session(db_, storage::TxMode::kRead);
    storage::TenantSession tenant(session, caller.tenant_id);
    replayer->NameExamples(tenant);
  }
  replayer->Finish();
  result.duration_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
  return result;
}

}  // namespace credence::trust
