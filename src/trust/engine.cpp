#include "trust/engine.h"

#include <algorithm>
#include <string_view>

#include "trust/rules.h"

namespace credence::trust {
namespace {

// The action that fixes the most severe reason first.
std::string_view ActionFor(std::string_view code) {
  struct Entry {
    std::string_view code;
    std::string_view action;
  };
  static constexpr Entry kActions[] = {
      {"source_unresolved", "check_source_id"},
      {"not_published", "publish"},
      {"secrets_present", "remove_secrets"},
      {"expired", "renew"},
      {"expiry_passed", "renew"},
      {"expiring_soon", "renew"},
      {"never_reviewed", "request_review"},
      {"review_too_old", "request_review"},
      {"source_changed_after_review", "request_review"},
      {"connected_never_reviewed", "request_review"},
      {"customer_facing_unreviewed", "request_review"},
      {"action_needs_stronger_review", "request_review"},
      {"translation_missing", "translate"},
      {"stale_translation", "update_translation"},
      {"machine_translation_unreviewed", "update_translation"},
      {"no_owner", "assign_owner"},
      {"owner_inactive", "assign_owner"},
  };
  for (const auto& e : kActions)
    if (e.code == code) return e.action;
  return "use_another_source";  // policy and sensitivity blocks: not this source, not here
}

}  // namespace

Decision MostSevere(Decision a, Decision b) { return static_cast<int>(a) >= static_cast<int>(b) ? a : b; }

int FreshnessScore(const SourceState& s, const Policy& policy, TimeMs now) {
  if (!s.resolved || s.status == kb::EntryStatus::kDraft || s.status == kb::EntryStatus::kExpired) return 0;
  const int64_t max_age_ms = std::max<int64_t>(policy.max_review_age_days, 1) * kMsPerDay;
  // Never reviewed: the age of the content, and at most 50.
  const TimeMs since = s.last_reviewed_at.value_or(s.content_updated_at);
  const int64_t age = std::max<int64_t>(now - since, 0);
  int score = static_cast<int>(std::clamp<int64_t>(100 - age * 100 / max_age_ms, 0, 100));
  if (!s.last_reviewed_at) score = std::min(score, 50);
  if (s.last_reviewed_at && s.content_updated_at > *s.last_reviewed_at) score = std::min(score, 50);
  if (s.status == kb::EntryStatus::kWarning) score = std::min(score, 20);
  if (s.status == kb::EntryStatus::kExpiringSoon) score = std::min(score, 60);
  return score;
}

TimeFacts TimeFactsAt(const SourceState& source, const Policy& policy, TimeMs now) {
  TimeFacts out;
  out.expiry_passed = source.expiry_at <= now;
  if (source.last_reviewed_at) out.review_age_days = (now - *source.last_reviewed_at) / kMsPerDay;
  out.freshness_score = FreshnessScore(source, policy, now);
  return out;
}

SourceDecision Decide(const SourceState& source, const Policy& policy, const std::string& policy_source,
                      const Context& context, TimeMs now) {
  return Decide(source, policy, policy_source, context, TimeFactsAt(source, policy, now));
}

SourceDecision Decide(const SourceState& source, const Policy& policy, const std::string& policy_source,
                      const Context& context, const TimeFacts& time) {
  SourceDecision out;
  const RuleInput in{source, policy, context, time};
  // An unresolved source has no state for the other rules to read.
  static const Rule* const kUnresolvedRule = [] {
    for (const Rule& rule : RuleCatalog())
      if (std::string_view(rule.code) == "source_unresolved") return &rule;
    return static_cast<const Rule*>(nullptr);
  }();
  for (const Rule& rule : RuleCatalog()) {
    if (!source.resolved && &rule != kUnresolvedRule) continue;
    if (auto reason = rule.check(rule, in)) out.reasons.push_back(std::move(*reason));
  }
  std::stable_sort(out.reasons.begin(), out.reasons.end(), [](const Reason& a, const Reason& b) {
    return static_cast<int>(a.severity) > static_cast<int>(b.severity);
  });
  for (const Reason& r : out.reasons) {
    out.decision = MostSevere(out.decision, r.severity);
    out.escalated = out.escalated || r.escalate;
  }
  out.freshness_score = time.freshness_score;
  out.classification = !source.resolved ? "Unresolved"
                       : source.removed ? "Removed"
                                        : std::string(kb::EntryStatusName(source.status));
  out.policy_source = source.resolved ? policy_source : "none";
  const auto first_actionable =
      std::find_if(out.reasons.begin(), out.reasons.end(), [](const Reason& r) { return r.severity != Decision::kAllow; });
  out.recommended_action = first_actionable == out.reasons.end() ? "none" : std::string(ActionFor(first_actionable->code));
  // Obligations bind a caller that uses the source; a blocked source is not
  // used at all.
  if (out.decision != Decision::kBlock) {
    out.requirements.citation_required = out.decision == Decision::kWarn || policy.citation_required;
    if (out.decision == Decision::kWarn && policy.disclaimer_text && !policy.disclaimer_text->empty()) {
      out.requirements.disclaimer_required = true;
      out.requirements.disclaimer_text = policy.disclaimer_text;
    }
  }
  return out;
}

}  // namespace credence::trust
