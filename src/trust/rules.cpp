#include "trust/rules.h"

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include <array>

namespace credence::trust {
namespace {

namespace json = boost::json;

Reason Make(const Rule& rule, std::string message, json::object data = {}) {
  return Reason{std::string(rule.code), rule.dimension,        rule.severity,
                std::move(message),     json::serialize(data), false};
}

bool Published(const SourceState& s) { return s.status != kb::EntryStatus::kDraft; }

// Freshness.

std::optional<Reason> Expired(const Rule& r, const RuleInput& in) {
  if (in.source.status != kb::EntryStatus::kExpired) return std::nullopt;
  return Make(r, "The source has expired.", {{"expiryDate", FormatTimestamp(in.source.expiry_at)}});
}

std::optional<Reason> ExpiryPassed(const Rule& r, const RuleInput& in) {
  if (in.source.status != kb::EntryStatus::kWarning) return std::nullopt;
  return Make(r, "The source is past its expiry date, in its grace period.",
              {{"expiryDate", FormatTimestamp(in.source.expiry_at)}});
}

std::optional<Reason> ExpiringSoon(const Rule& r, const RuleInput& in) {
  const auto& s = in.source;
  if (!Published(s) || s.origin != Origin::kNative || in.time.expiry_passed) return std::nullopt;
  if (s.status != kb::EntryStatus::kExpiringSoon && s.days_until_expiry >= in.policy.warn_before_expiry_days)
    return std::nullopt;
  return Make(r, "The source expires in " + std::to_string(s.days_until_expiry) + " days.",
              {{"expiryDate", FormatTimestamp(s.expiry_at)}, {"daysUntilExpiry", s.days_until_expiry}});
}

std::optional<Reason> NeverReviewed(const Rule& r, const RuleInput& in) {
  if (in.source.origin != Origin::kNative || in.source.last_reviewed_at) return std::nullopt;
  return Make(r, "The source has never been reviewed.");
}

std::optional<Reason> ReviewTooOld(const Rule& r, const RuleInput& in) {
  const auto& reviewed = in.source.last_reviewed_at;
  if (!reviewed || !in.time.review_age_days) return std::nullopt;
  const int64_t age_days = *in.time.review_age_days;
  if (age_days <= in.policy.max_review_age_days) return std::nullopt;
  return Make(r, "The last review is " + std::to_string(age_days) + " days old.",
              {{"reviewedAt", FormatTimestamp(*reviewed)},
               {"ageDays", age_days},
               {"maxReviewAgeDays", in.policy.max_review_age_days}});
}

std::optional<Reason> SourceChangedAfterReview(const Rule& r, const RuleInput& in) {
  const auto& s = in.source;
  if (!s.last_reviewed_at || s.content_updated_at <= *s.last_reviewed_at) return std::nullopt;
  return Make(r, "The source changed after its last review.",
              {{"sourceChangedAt", FormatTimestamp(s.content_updated_at)},
               {"reviewedAt", FormatTimestamp(*s.last_reviewed_at)}});
}

std::optional<Reason> TranslationMissing(const Rule& r, const RuleInput& in) {
  if (!in.source.language || !in.source.translation_missing) return std::nullopt;
  return Make(r, "There is no translation in '" + *in.source.language + "'; the original would be used.",
              {{"language", *in.source.language}});
}

std::optional<Reason> StaleTranslation(const Rule& r, const RuleInput& in) {
  const auto& s = in.source;
  if (!s.language || s.translation_missing || s.stale_translation_blocks == 0) return std::nullopt;
  return Make(r, "The '" + *s.language + "' translation is behind the original.",
              {{"language", *s.language}, {"staleBlocks", s.stale_translation_blocks}});
}

std::optional<Reason> MachineTranslationUnreviewed(const Rule& r, const RuleInput& in) {
  const auto& s = in.source;
  if (!s.language || s.translation_missing || s.machine_translation_blocks == 0 || !in.context.customer_facing)
    return std::nullopt;
  return Make(r, "The '" + *s.language + "' translation has machine-translated blocks no person has reviewed.",
              {{"language", *s.language},
               {"machineTranslatedBlocks", s.machine_translation_blocks},
               {"channel", in.context.channel}});
}

// Ownership.

std::optional<Reason> NoOwner(const Rule& r, const RuleInput& in) {
  if (in.source.owner_id) return std::nullopt;
  return Make(r, "Nobody owns the source.");
}

std::optional<Reason> OwnerInactive(const Rule& r, const RuleInput& in) {
  if (!in.source.owner_id || in.source.owner_active) return std::nullopt;
  return Make(r, "The source's owner is no longer an active member.", {{"ownerId", *in.source.owner_id}});
}

// Provenance.

std::optional<Reason> Unresolved(const Rule& r, const RuleInput& in) {
  if (in.source.resolved) return std::nullopt;
  return Make(r, "The source identifier does not resolve to a known source.", {{"sourceId", in.source.source_id}});
}

std::optional<Reason> NotPublished(const Rule& r, const RuleInput& in) {
  if (Published(in.source)) return std::nullopt;
  return Make(r, "The source is a draft.");
}

std::optional<Reason> SourceRemoved(const Rule& r, const RuleInput& in) {
  if (!in.source.removed) return std::nullopt;
  return Make(r, "The connected document is gone from its source.", {{"sourceId", in.source.source_id}});
}

std::optional<Reason> ConnectedNeverReviewed(const Rule& r, const RuleInput& in) {
  if (in.source.origin != Origin::kConnected || in.source.last_reviewed_at) return std::nullopt;
  return Make(r, "The connected document has never been reviewed in Credence.");
}

// Policy.

std::optional<Reason> NotAiRetrievable(const Rule& r, const RuleInput& in) {
  if (in.policy.ai_retrievable) return std::nullopt;
  return Make(r, "Policy forbids retrieving this source for AI use.");
}

std::optional<Reason> InternalOnlyExternalChannel(const Rule& r, const RuleInput& in) {
  if (!in.policy.internal_only || !in.context.customer_facing) return std::nullopt;
  return Make(r, "The source is internal-only and the channel is not internal.", {{"channel", in.context.channel}});
}

std::optional<Reason> CustomerFacingNotAllowed(const Rule& r, const RuleInput& in) {
  if (in.policy.customer_facing_allowed || !in.context.customer_facing) return std::nullopt;
  return Make(r, "Policy forbids customer-facing use of this source.", {{"channel", in.context.channel}});
}

std::optional<Reason> ExternalModelNotAllowed(const Rule& r, const RuleInput& in) {
  if (in.policy.external_model_allowed || !in.context.external_model) return std::nullopt;
  return Make(r, "Policy forbids sending this source to an external model.");
}

std::optional<Reason> CustomerFacingUnreviewed(const Rule& r, const RuleInput& in) {
  if (!in.context.customer_facing || !in.policy.customer_facing_requires_review) return std::nullopt;
  const auto& age = in.time.review_age_days;
  if (age && *age <= in.policy.max_review_age_days) return std::nullopt;
  return Make(r, "Customer-facing use needs a current review.", {{"channel", in.context.channel}});
}

// Sensitivity.

std::optional<Reason> AboveAiSensitivity(const Rule& r, const RuleInput& in) {
  if (in.source.sensitivity <= in.policy.max_sensitivity_for_ai) return std::nullopt;
  return Make(r, "The source is more sensitive than policy allows for AI use.",
              {{"sensitivity", SensitivityName(in.source.sensitivity)},
               {"maxSensitivityForAi", SensitivityName(in.policy.max_sensitivity_for_ai)}});
}

std::optional<Reason> SecretsPresent(const Rule& r, const RuleInput& in) {
  if (!in.source.has_secrets) return std::nullopt;
  Reason reason = Make(r, "The source contains secrets; it is escalated for cleanup.");
  reason.escalate = true;
  return reason;
}

std::optional<Reason> PersonalDataCustomerFacing(const Rule& r, const RuleInput& in) {
  if (!in.source.has_personal_data || !in.context.customer_facing) return std::nullopt;
  return Make(r, "The source contains personal data and the channel is customer-facing.",
              {{"channel", in.context.channel}});
}

std::optional<Reason> PersonalDataExternalModel(const Rule& r, const RuleInput& in) {
  if (!in.source.has_personal_data || !in.context.external_model) return std::nullopt;
  return Make(r, "The source contains personal data and an external model is involved.");
}

// Elsewhere (an internal channel, no external model) personal data warns,
// unless the policy says it may be used there.
std::optional<Reason> PersonalDataPresent(const Rule& r, const RuleInput& in) {
  if (!in.source.has_personal_data || in.context.customer_facing || in.context.external_model ||
      !in.policy.warn_on_personal_data)
    return std::nullopt;
  return Make(r, "The source contains personal data.", {{"channel", in.context.channel}});
}

// Context.

std::optional<Reason> ActionNeedsStrongerReview(const Rule& r, const RuleInput& in) {
  if (in.context.action_requires == ReviewStrength::kNone || in.source.last_review >= in.context.action_requires)
    return std::nullopt;
  return Make(r, "The action '" + in.context.action + "' needs a stronger review of this source.",
              {{"action", in.context.action},
               {"requiredReview", ReviewTypeOfStrength(in.context.action_requires)},
               {"lastReview", in.source.last_review == ReviewStrength::kNone
                                  ? json::value(nullptr)
                                  : json::value(ReviewTypeOfStrength(in.source.last_review))}});
}

std::optional<Reason> UnknownChannel(const Rule& r, const RuleInput& in) {
  if (in.context.channel_known) return std::nullopt;
  return Make(r, "The channel is not in the tenant's configuration; it is treated as customer-facing.",
              {{"channel", in.context.channel}});
}

std::optional<Reason> AppChannelMismatch(const Rule& r, const RuleInput& in) {
  if (!in.context.app_channel) return std::nullopt;
  return Make(r,
              "The request's channel '" + in.context.channel + "' is not the channel the app is registered for ('" +
                  *in.context.app_channel + "'); the stricter of the two applies.",
              {{"requestChannel", in.context.channel}, {"appChannel", *in.context.app_channel}});
}

using D = Dimension;
using S = Decision;

constexpr std::array kCatalog = {
    Rule{"source_unresolved", D::kProvenance, S::kBlock, "the identifier resolves to no entry or connected document",
         Unresolved},
    Rule{"not_published", D::kProvenance, S::kBlock, "the entry is a draft", NotPublished},
    Rule{"source_removed", D::kProvenance, S::kBlock,
         "a connected document its connector no longer finds in its source (status Removed)", SourceRemoved},
    Rule{"connected_never_reviewed", D::kProvenance, S::kWarn, "a connected document with no review recorded",
         ConnectedNeverReviewed},
    Rule{"expired", D::kFreshness, S::kBlock, "status Expired (past expiry date and grace period)", Expired},
    Rule{"expiry_passed", D::kFreshness, S::kWarn, "status Warning (past expiry date, within grace)", ExpiryPassed},
    Rule{"expiring_soon", D::kFreshness, S::kWarn,
         "status ExpiringSoon, or fewer than policy warnBeforeExpiryDays days left", ExpiringSoon},
    Rule{"never_reviewed", D::kFreshness, S::kWarn, "a native entry with no review recorded", NeverReviewed},
    Rule{"review_too_old", D::kFreshness, S::kWarn, "last review older than policy maxReviewAgeDays", ReviewTooOld},
    Rule{"source_changed_after_review", D::kFreshness, S::kWarn, "content updated after the last review",
         SourceChangedAfterReview},
    Rule{"translation_missing", D::kFreshness, S::kWarn, "context.language has no translation", TranslationMissing},
    Rule{"stale_translation", D::kFreshness, S::kWarn, "the context.language translation has stale blocks",
         StaleTranslation},
    Rule{"machine_translation_unreviewed", D::kFreshness, S::kWarn,
         "customer-facing (or unknown) channel and the context.language translation has machine-translated blocks "
         "no person has edited or confirmed",
         MachineTranslationUnreviewed},
    Rule{"no_owner", D::kOwnership, S::kWarn, "the source has no owner", NoOwner},
    Rule{"owner_inactive", D::kOwnership, S::kWarn, "the owner is not an active member of the tenant", OwnerInactive},
    Rule{"not_ai_retrievable", D::kPolicy, S::kBlock, "policy aiRetrievable is false", NotAiRetrievable},
    Rule{"internal_only_external_channel", D::kPolicy, S::kBlock,
         "policy internalOnly and a customer-facing (or unknown) channel", InternalOnlyExternalChannel},
    Rule{"customer_facing_not_allowed", D::kPolicy, S::kBlock,
         "policy customerFacingAllowed is false and the channel is customer-facing (or unknown)",
         CustomerFacingNotAllowed},
    Rule{"external_model_not_allowed", D::kPolicy, S::kBlock,
         "context.externalModel and policy externalModelAllowed is false", ExternalModelNotAllowed},
    Rule{"customer_facing_unreviewed", D::kPolicy, S::kBlock,
         "customer-facing channel, policy customerFacingRequiresReview, and no review within maxReviewAgeDays",
         CustomerFacingUnreviewed},
    Rule{"sensitivity_above_ai_limit", D::kSensitivity, S::kBlock,
         "the source's sensitivity is above policy maxSensitivityForAi", AboveAiSensitivity},
    Rule{"secrets_present", D::kSensitivity, S::kBlock, "the source carries secrets (blocked and escalated)",
         SecretsPresent},
    Rule{"personal_data_customer_facing", D::kSensitivity, S::kBlock,
         "the source carries personal data and the channel is customer-facing (or unknown)",
         PersonalDataCustomerFacing},
    Rule{"personal_data_external_model", D::kSensitivity, S::kBlock,
         "the source carries personal data and context.externalModel is true", PersonalDataExternalModel},
    Rule{"personal_data_present", D::kSensitivity, S::kWarn,
         "the source carries personal data, on an internal channel without an external model (policy "
         "warnOnPersonalData)",
         PersonalDataPresent},
    Rule{"action_needs_stronger_review", D::kContext, S::kBlock,
         "the tenant configures a review type for context.action and the last review is weaker",
         ActionNeedsStrongerReview},
    Rule{"unknown_channel", D::kContext, S::kAllow, "context.channel is not configured (informational)",
         UnknownChannel},
    Rule{"app_channel_mismatch", D::kContext, S::kWarn,
         "a request made with an app's key names a channel other than the app's registered one", AppChannelMismatch},
};

}  // namespace

std::span<const Rule> RuleCatalog() { return kCatalog; }

}  // namespace credence::trust
