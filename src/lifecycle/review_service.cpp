#include "lifecycle/review_service.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "core/ids.h"
#include "core/text.h"
#include "identity/authorization.h"
#include "kb/internal/entry_access.h"
#include "lifecycle/expiry_service.h"
#include "lifecycle/internal/queries.h"
#include "lifecycle/internal/resolve.h"
#include "lifecycle/internal/review_queries.h"
#include "storage/session.h"

namespace credence::lifecycle {
namespace {

namespace json = boost::json;
using kb::AccessLevel;

// The strength a review needs to satisfy `t` (0: any review).
int RequiredStrength(const ExpiryTemplate& t) { return t.review_type ? ReviewStrength(*t.review_type) : 0; }

bool SatisfiesTemplate(const ExpiryTemplate& t, const std::string& review_type) {
  return t.review_required && ReviewStrength(review_type) >= RequiredStrength(t);
}

// The configured renewal duration.
int64_t ConfiguredDays(const ResolvedTemplate& resolved, const kb::Hub& hub) {
  return resolved.tmpl ? resolved.tmpl->expiry_days : hub.default_expiry_days;
}

Error Blocked(const std::vector<std::string>& blockers) {
  std::string detail = "The entry cannot be renewed now:";
  json::array codes;
  for (size_t i = 0; i < blockers.size(); ++i) {
    const std::string& b = blockers[i];
    codes.emplace_back(b);
    detail += i == 0 ? " " : "; ";
    if (b == kBlockerExpiryPaused)
      detail += "its expiry is paused (resume it first)";
    else if (b == kBlockerReviewRequired)
      detail += "its expiry template requires a review since the last renewal";
    else
      detail += b;
  }
  return Error::Conflict("renewal_blocked", detail + ".").With("blockers", json::serialize(codes));
}

// The blockers that do not depend on the caller's level.
std::vector<std::string> StateBlockers(storage::TenantSession& tenant, const std::string& entry_id,
                                       const internal::EntryExpiryState& state, const ResolvedTemplate& resolved) {
  std::vector<std::string> out;
  if (state.paused_at) out.emplace_back(kBlockerExpiryPaused);
  if (resolved.tmpl && resolved.tmpl->review_required &&
      tenant.Run(internal::kHasCountingReview, {entry_id, RequiredStrength(*resolved.tmpl)}).empty())
    out.emplace_back(kBlockerReviewRequired);
  return out;
}

ExpiryStatus StatusNow(storage::TenantSession& tenant, const kb::internal::LoadedEntry& loaded,
                       const ResolvedTemplate& resolved, TimeMs now) {
  const auto state = internal::ReadExpiryState(tenant, loaded.entry.id);
  return ComputeExpiryStatus(internal::FactsOf(loaded.entry, state.value_or(internal::EntryExpiryState{})),
                             WindowsOf(resolved), now);
}

// A renewal of an entry the caller may edit, inside the caller's write
// transaction; the caller commits.
Result<Renewal> RenewIn(storage::TenantSession& tenant, const identity::Principal& caller, const std::string& entry_id,
                        const RenewInput& input, const char* source, TimeMs now, const identity::EventSink& events,
                        const kb::ActionGuards& guards) {
  CR_TRY_ASSIGN(const internal::EntryExpiry expiry,
                internal::LoadEntryExpiry(tenant, caller, entry_id, AccessLevel::kEditor));
  const auto& [loaded, resolved, state] = expiry;
  const auto blockers = StateBlockers(tenant, loaded.entry.id, state, resolved);
  if (!blockers.empty()) return Blocked(blockers);
  if (auto denial = guards.Check(tenant, {"Entry.Renew", caller.tenant_id, caller.user_id, loaded.entry.id,
                                          {{"hubKey", loaded.hub.key}, {"ownerId", loaded.entry.owner_id},
                                           {"source", source}}}))
    return kb::GuardDeniedError(*denial);

  const int64_t days = input.custom_expiry_days.value_or(ConfiguredDays(resolved, loaded.hub));
  const TimeMs new_expiry = now + days * kMsPerDay;
  Renewal out;
  out.renewal_id = NewId();
  // Claim the satisfying review before the period start moves; a renewal
  // racing for the same review (or a pause racing this renewal) leaves this
  // one updating nothing, and the transaction rolls back.
  if (resolved.tmpl && resolved.tmpl->review_required &&
      tenant.Run(internal::kClaimCountingReviews, {loaded.entry.id, out.renewal_id, RequiredStrength(*resolved.tmpl)})
              .affected() == 0)
    return Blocked({kBlockerReviewRequired});
  if (tenant.Run(internal::kRenewEntry, {loaded.entry.id, new_expiry, now}).affected() == 0)
    return Blocked({kBlockerExpiryPaused});
  tenant.Run(internal::kUseUpReviews, {loaded.entry.id, out.renewal_id});
  tenant.Run(internal::kInsertRenewal, {out.renewal_id, loaded.entry.id, caller.user_id, days, input.notes, source,
                                        std::nullopt, state.expiry_at, new_expiry, now});
  tenant.Run(internal::kScheduleRecheck, {loaded.entry.id, now});
  out.status = StatusNow(tenant, loaded, resolved, now);
  events.Emit(tenant, "entry.renewed",
              {{"entryId", loaded.entry.id}, {"hubId", loaded.entry.hub_id}, {"actorId", caller.user_id},
               {"expiresAt", FormatTimestamp(new_expiry)}});
  return out;
}

Status ValidateRenewInput(const RenewInput& input) {
  std::vector<FieldError> errors;
  if (input.custom_expiry_days && (*input.custom_expiry_days < 1 || *input.custom_expiry_days > kMaxRenewalDays))
    errors.push_back({"customExpiryDays", "must be between 1 and " + std::to_string(kMaxRenewalDays)});
  if (input.notes && Utf8Length(*input.notes) > kMaxRenewalNotesLength)
    errors.push_back({"notes", "must be at most " + std::to_string(kMaxRenewalNotesLength) + " characters"});
  if (!errors.empty()) return Error::Validation(std::move(errors));
  return Ok();
}

// checklistJson parsed: item id (lowercased when a UUID) -> checked.
using ChecklistAnswers = std::map<std::string, bool>;

constexpr char kChecklistField[] = "checklistJson";

Result<ChecklistAnswers> ParseChecklistAnswers(std::string_view text) {
  const Error shape =
      Error::Validation({{kChecklistField, "must be a JSON object mapping checklist item ids to true or false"}});
  boost::system::error_code ec;
  const json::value v = json::parse(text, ec);
  if (ec || !v.is_object()) return shape;
  ChecklistAnswers out;
  for (const auto& [key, value] : v.as_object()) {
    if (!value.is_bool()) return shape;
    const std::string id(key);
    out[IsUuid(id) ? CanonicalUuid(id) : id] = value.as_bool();
  }
  return out;
}

struct ChecklistItemRef {
  std::string id;
  std::string text;
  bool required = true;
};

std::vector<ChecklistItemRef> ChecklistItemsOf(storage::TenantSession& tenant, const std::string& checklist_id) {
  std::vector<ChecklistItemRef> out;
  auto rows = tenant.Run(internal::kChecklistItems, {checklist_id});
  if (rows.empty()) return out;
  boost::system::error_code ec;
  const json::value v = json::parse(rows.front().TextView(0), ec);
  if (ec || !v.is_array()) return out;
  for (const auto& item : v.as_array()) {
    if (!item.is_object()) continue;
    const auto& o = item.as_object();
    ChecklistItemRef ref;
    if (const auto* id = o.if_contains("id"); id && id->is_string()) ref.id = std::string(id->as_string());
    if (const auto* t = o.if_contains("text"); t && t->is_string()) ref.text = std::string(t->as_string());
    if (const auto* r = o.if_contains("required"); r && r->is_bool()) ref.required = r->as_bool();
    out.push_back(std::move(ref));
  }
  return out;
}

// The answers against the template's checklist: required when it has one,
// every required item checked, no unknown items.
Status CheckChecklist(storage::TenantSession& tenant, const ResolvedTemplate& resolved,
                      const std::optional<ChecklistAnswers>& answers) {
  if (!resolved.tmpl || !resolved.tmpl->checklist_id) return Ok();
  const auto items = ChecklistItemsOf(tenant, *resolved.tmpl->checklist_id);
  if (!answers)
    return Error::Validation({{kChecklistField, "is required: the expiry template has a review checklist"}});
  std::vector<FieldError> errors;
  std::set<std::string> known;
  for (const auto& item : items) {
    known.insert(item.id);
    const auto it = answers->find(item.id);
    if (item.required && (it == answers->end() || !it->second))
      errors.push_back({kChecklistField, "required item '" + item.text + "' (" + item.id + ") must be checked"});
  }
  for (const auto& [id, checked] : *answers)
    if (!known.count(id)) errors.push_back({kChecklistField, "'" + id + "' is not an item of the review checklist"});
  if (!errors.empty()) return Error::Validation(std::move(errors));
  return Ok();
}

// Rules that need no database; the parsed checklist answers when given.
Result<std::optional<ChecklistAnswers>> ValidateReviewFields(const ReviewInput& input) {
  std::vector<FieldError> errors;
  const auto& types = ReviewTypes();
  if (std::find(types.begin(), types.end(), input.review_type) == types.end())
    errors.push_back({"reviewType", "must be one of QuickReview, FullReview, Attestation"});
  if (input.time_spent_seconds < 0 || input.time_spent_seconds > kMaxReviewSeconds)
    errors.push_back({"timeSpentSeconds", "must be between 0 and " + std::to_string(kMaxReviewSeconds)});
  if (input.notes && Utf8Length(*input.notes) > kMaxReviewNotesLength)
    errors.push_back({"notes", "must be at most " + std::to_string(kMaxReviewNotesLength) + " characters"});
  if (input.blocks_changed < 0 || input.blocks_changed > kMaxBlocksChanged)
    errors.push_back({"blocksChanged", "must be between 0 and " + std::to_string(kMaxBlocksChanged)});
  std::optional<ChecklistAnswers> answers;
  if (input.checklist_json) {
    auto parsed = ParseChecklistAnswers(*input.checklist_json);
    if (parsed)
      answers = std::move(parsed).value();
    else
      for (auto& f : parsed.error().fields) errors.push_back(f);
  }
  if (!errors.empty()) return Error::Validation(std::move(errors));
  return answers;
}

EntryReview ReviewFromRow(const storage::Row& r) {
  EntryReview v;
  v.id = r.Text(0);
  v.entry_id = r.Text(1);
  v.reviewer_id = r.Text(2);
  v.review_type = r.Text(3);
  v.time_spent_seconds = r.Int(4);
  v.notes = r.OptText(5);
  v.blocks_changed = r.Int(6);
  v.content_was_updated = r.Bool(7);
  v.checklist_json = r.OptText(8);
  v.created_at = r.Int(9);
  v.renewed = r.Bool(10);
  v.expiry_at = r.Int(11);
  return v;
}

}  // namespace

int ReviewStrength(std::string_view review_type) {
  if (review_type == "QuickReview") return 1;
  if (review_type == "Attestation") return 2;
  if (review_type == "FullReview") return 3;
  return 0;
}

Result<EntryReview> ReviewService::SubmitReview(const identity::Principal& caller, const std::string& entry_id,
                                                const ReviewInput& input) const {
  CR_TRY(identity::RequireUser(caller));
  CR_TRY_ASSIGN(auto answers, ValidateReviewFields(input));

  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  CR_TRY_ASSIGN(const internal::EntryExpiry expiry,
                internal::LoadEntryExpiry(tenant, caller, entry_id, AccessLevel::kEditor));
  const auto& [loaded, resolved, state] = expiry;
  CR_TRY(CheckChecklist(tenant, resolved, answers));
  const TimeMs now = clock_.Now();

  const ExpiryStatus before = ComputeExpiryStatus(internal::FactsOf(loaded.entry, state), WindowsOf(resolved), now);
  bool renews = false;
  if (resolved.tmpl && !state.paused_at) {
    const ExpiryTemplate& t = *resolved.tmpl;
    const bool in_window =
        before.status == kb::EntryStatus::kExpiringSoon || before.status == kb::EntryStatus::kWarning;
    renews = SatisfiesTemplate(t, input.review_type) ||
             (t.auto_renew_on_attestation && input.review_type == "Attestation" && in_window);
  }

  EntryReview review;
  review.id = NewId();
  review.entry_id = loaded.entry.id;
  review.reviewer_id = caller.user_id;
  review.review_type = input.review_type;
  review.time_spent_seconds = input.time_spent_seconds;
  review.notes = input.notes;
  review.blocks_changed = input.blocks_changed;
  review.content_was_updated = input.content_was_updated;
  review.checklist_json = input.checklist_json;
  review.created_at = now;
  review.expiry_at = state.expiry_at;
  const int64_t days = resolved.tmpl ? resolved.tmpl->expiry_days : 0;
  // A pause that won a race leaves the review recorded only.
  if (renews && tenant.Run(internal::kRenewEntry, {loaded.entry.id, now + days * kMsPerDay, now}).affected() == 1) {
    review.renewed = true;
    review.expiry_at = now + days * kMsPerDay;
  }
  tenant.Run(internal::kInsertReview,
             {review.id, review.entry_id, review.reviewer_id, review.review_type, review.time_spent_seconds,
              review.notes, review.blocks_changed, review.content_was_updated, review.checklist_json, review.renewed,
              review.expiry_at, review.created_at});
  if (review.renewed) {
    const std::string renewal_id = NewId();
    // This review too: it is spent on its own renewal.
    tenant.Run(internal::kUseUpReviews, {loaded.entry.id, renewal_id});
    tenant.Run(internal::kInsertRenewal, {renewal_id, loaded.entry.id, caller.user_id, days, std::nullopt,
                                          kRenewalReview, review.id, state.expiry_at, review.expiry_at, now});
    tenant.Run(internal::kScheduleRecheck, {loaded.entry.id, now});
    events_.Emit(tenant, "entry.renewed",
                 {{"entryId", loaded.entry.id}, {"hubId", loaded.entry.hub_id}, {"actorId", caller.user_id},
                  {"expiresAt", FormatTimestamp(review.expiry_at)}});
  }
  events_.Emit(tenant, "review.submitted",
               {{"entryId", loaded.entry.id}, {"hubId", loaded.entry.hub_id}, {"actorId", caller.user_id},
                {"reviewId", review.id}, {"reviewType", review.review_type}, {"renewed", review.renewed}});
  session.Commit();
  return review;
}

Result<std::vector<EntryReview>> ReviewService::ReviewHistory(const identity::Principal& caller,
                                                              const std::string& entry_id) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  CR_TRY_ASSIGN(auto loaded,
                kb::internal::LoadEntry(tenant, caller, entry_id, AccessLevel::kViewer, /*with_content=*/false));
  std::vector<EntryReview> out;
  for (const auto& row : tenant.Run(internal::kListReviews, {loaded.entry.id})) out.push_back(ReviewFromRow(row));
  return out;
}

Result<RenewalEligibility> ReviewService::Eligibility(const identity::Principal& caller,
                                                      const std::string& entry_id) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  CR_TRY_ASSIGN(const internal::EntryExpiry expiry,
                internal::LoadEntryExpiry(tenant, caller, entry_id, AccessLevel::kViewer));
  const auto& [loaded, resolved, state] = expiry;
  RenewalEligibility out;
  if (loaded.level < AccessLevel::kEditor) out.blockers.emplace_back(kBlockerInsufficientPermission);
  for (auto& b : StateBlockers(tenant, loaded.entry.id, state, resolved)) out.blockers.push_back(std::move(b));
  out.can_renew = out.blockers.empty();
  return out;
}

Result<Renewal> ReviewService::Renew(const identity::Principal& caller, const std::string& entry_id,
                                     const RenewInput& input) const {
  CR_TRY(identity::RequireUser(caller));
  CR_TRY(ValidateRenewInput(input));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  CR_TRY_ASSIGN(auto renewal, RenewIn(tenant, caller, entry_id, input, kRenewalManual, clock_.Now(), events_, guards_));
  session.Commit();
  return renewal;
}

Result<std::vector<BulkRenewItem>> ReviewService::BulkRenew(const identity::Principal& caller,
                                                            const std::vector<std::string>& entry_ids,
                                                            const RenewInput& input) const {
  CR_TRY(identity::RequireUser(caller));
  std::vector<FieldError> errors;
  if (entry_ids.empty() || entry_ids.size() > kMaxBulkRenewEntries)
    errors.push_back({"entryIds", "must hold 1 to " + std::to_string(kMaxBulkRenewEntries) + " entry ids"});
  std::vector<std::string> ids;
  std::set<std::string> seen;
  for (size_t i = 0; i < entry_ids.size(); ++i) {
    const std::string at = "entryIds[" + std::to_string(i) + "]";
    if (!IsUuid(entry_ids[i])) {
      errors.push_back({at, "must be a UUID"});
      continue;
    }
    ids.push_back(CanonicalUuid(entry_ids[i]));
    if (!seen.insert(ids.back()).second) errors.push_back({at, "appears twice"});
  }
  if (!errors.empty()) return Error::Validation(std::move(errors));
  CR_TRY(ValidateRenewInput(input));

  // One transaction per entry: one blocked or missing entry must not undo
  // the others, and a long list must not hold the write lock throughout.
  std::vector<BulkRenewItem> out;
  out.reserve(ids.size());
  for (const auto& id : ids) {
    storage::Session session(db_, storage::TxMode::kWrite);
    storage::TenantSession tenant(session, caller.tenant_id);
    auto renewal = RenewIn(tenant, caller, id, input, kRenewalBulk, clock_.Now(), events_, guards_);
    if (renewal) session.Commit();
    out.push_back({id, std::move(renewal)});
  }
  return out;
}

Result<ExpiryStatus> ReviewService::Pause(const identity::Principal& caller, const std::string& entry_id,
                                          const std::optional<std::string>& reason) const {
  CR_TRY(identity::RequireUser(caller));
  if (reason && Utf8Length(*reason) > kMaxPauseReasonLength)
    return Error::Validation({{"reason", "must be at most " + std::to_string(kMaxPauseReasonLength) + " characters"}});
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  CR_TRY_ASSIGN(auto loaded,
                kb::internal::LoadEntry(tenant, caller, entry_id, AccessLevel::kEditor, /*with_content=*/false));
  const TimeMs now = clock_.Now();
  if (tenant.Run(internal::kPauseEntry, {loaded.entry.id, now, caller.user_id}).affected() == 0)
    return Error::Conflict("already_paused", "The entry's expiry is already paused.");
  tenant.Run(internal::kInsertPause, {NewId(), loaded.entry.id, now, caller.user_id, reason});
  tenant.Run(internal::kScheduleRecheck, {loaded.entry.id, now});
  const ResolvedTemplate resolved = internal::ResolveTemplate(tenant, loaded.entry.id, loaded.hub);
  ExpiryStatus status = StatusNow(tenant, loaded, resolved, now);
  session.Commit();
  return status;
}

Result<ExpiryStatus> ReviewService::Resume(const identity::Principal& caller, const std::string& entry_id) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  CR_TRY_ASSIGN(auto loaded,
                kb::internal::LoadEntry(tenant, caller, entry_id, AccessLevel::kEditor, /*with_content=*/false));
  const TimeMs now = clock_.Now();
  if (tenant.Run(internal::kResumeEntry, {loaded.entry.id, now}).affected() == 0)
    return Error::Conflict("not_paused", "The entry's expiry is not paused.");
  tenant.Run(internal::kClosePause, {loaded.entry.id, now, caller.user_id});
  tenant.Run(internal::kScheduleRecheck, {loaded.entry.id, now});
  const ResolvedTemplate resolved = internal::ResolveTemplate(tenant, loaded.entry.id, loaded.hub);
  ExpiryStatus status = StatusNow(tenant, loaded, resolved, now);
  session.Commit();
  return status;
}

}  // namespace credence::lifecycle
