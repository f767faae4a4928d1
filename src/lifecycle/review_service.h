#pragma once
// Reviews and renewals of an entry's expiry: review submissions (which may
// renew, depending on the expiry template), review history, renewal
// eligibility with machine-readable blockers, renewals (PUT and POST),
// bulk renewal, and pausing and resuming expiry.
// docs/reviews-and-renewals.md.
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "identity/events.h"
#include "core/result.h"
#include "identity/principal.h"
#include "kb/action_guard.h"
#include "lifecycle/status.h"

namespace credence::storage {
class Database;
}

namespace credence::lifecycle {

inline constexpr int64_t kMaxReviewSeconds = 7 * 24 * 60 * 60;
inline constexpr size_t kMaxReviewNotesLength = 4000;
inline constexpr int64_t kMaxBlocksChanged = 100000;
inline constexpr int64_t kMaxRenewalDays = 3650;
inline constexpr size_t kMaxRenewalNotesLength = 2000;
inline constexpr size_t kMaxPauseReasonLength = 1000;
inline constexpr size_t kMaxBulkRenewEntries = 100;

// Why an entry cannot be renewed now (renewal-eligibility's blockers, and
// the `blockers` of a 409 renewal_blocked).
inline constexpr char kBlockerInsufficientPermission[] = "insufficient_permission";  // below Entry Editor
inline constexpr char kBlockerExpiryPaused[] = "expiry_paused";                      // resume first
inline constexpr char kBlockerReviewRequired[] = "review_required";  // no review since the last renewal satisfies the template

// Where a renewal came from (entry_renewals.source).
inline constexpr char kRenewalManual[] = "manual";
inline constexpr char kRenewalReview[] = "review";
inline constexpr char kRenewalBulk[] = "bulk";

// QuickReview < Attestation < FullReview; 0 for anything else.
int ReviewStrength(std::string_view review_type);

struct ReviewInput {
  std::string review_type;  // ReviewType
  int64_t time_spent_seconds = 0;
  std::optional<std::string> notes;
  int64_t blocks_changed = 0;
  bool content_was_updated = false;
  // A JSON object mapping checklist item id -> checked (boolean), as text.
  std::optional<std::string> checklist_json;
};

// EntryReviewHistory.
struct EntryReview {
  std::string id;
  std::string entry_id;
  std::string reviewer_id;
  std::string review_type;
  int64_t time_spent_seconds = 0;
  std::optional<std::string> notes;
  int64_t blocks_changed = 0;
  bool content_was_updated = false;
  std::optional<std::string> checklist_json;
  TimeMs created_at = 0;
  bool renewed = false;  // the review renewed the entry's expiry
  TimeMs expiry_at = 0;  // the entry's expiry date after the review
};

struct RenewalEligibility {
  bool can_renew = false;  // no blockers
  std::vector<std::string> blockers;
};

struct RenewInput {
  std::optional<int64_t> custom_expiry_days;  // none: the configured duration
  std::optional<std::string> notes;
};

struct Renewal {
  std::string renewal_id;
  ExpiryStatus status;  // after the renewal
};

struct BulkRenewItem {
  std::string entry_id;
  Result<Renewal> outcome;
};

class ReviewService {
 public:
  // `events` gets review.submitted and entry.renewed (docs/webhooks.md).
  // `guards` are asked before Entry.Renew (Renew, BulkRenew) changes anything.
  ReviewService(storage::Database& db, const Clock& clock, const identity::EventSink& events = identity::kNoEvents,
                const kb::ActionGuards& guards = kb::kNoGuards)
      : db_(db), clock_(clock), events_(events), guards_(guards) {}

  // Entry Editor+. Records the review; renews the expiry (by the template's
  // expiryDays) when the template requires a review and this one satisfies
  // it, or when the template auto-renews on attestation and this is an
  // Attestation while the entry is ExpiringSoon or in Warning; never while
  // paused. checklistJson is checked against the template's checklist (400
  // on checklistJson).
  Result<EntryReview> SubmitReview(const identity::Principal& caller, const std::string& entry_id,
                                   const ReviewInput& input) const;
  // Entry Viewer+. Newest first.
  Result<std::vector<EntryReview>> ReviewHistory(const identity::Principal& caller,
                                                 const std::string& entry_id) const;
  // Entry Viewer+ (a viewer learns insufficient_permission rather than a 403).
  Result<RenewalEligibility> Eligibility(const identity::Principal& caller, const std::string& entry_id) const;

  // Entry Editor+. Renews by customExpiryDays (1..3650) or the configured
  // duration (the template's expiryDays, else the hub's defaultExpiryDays).
  // 409 renewal_blocked with `blockers` while a blocker remains.
  Result<Renewal> Renew(const identity::Principal& caller, const std::string& entry_id,
                        const RenewInput& input) const;
  // Any signed-in user; 1..100 distinct entry ids. Each entry is renewed in
  // its own transaction; the answer says per entry what happened, in
  // request order (404, 403 and 409 renewal_blocked as for Renew).
  Result<std::vector<BulkRenewItem>> BulkRenew(const identity::Principal& caller,
                                               const std::vector<std::string>& entry_ids,
                                               const RenewInput& input) const;

  // Entry Editor+. The entry's clock stands still until resumed; 409
  // already_paused. `reason` at most 1000 characters.
  Result<ExpiryStatus> Pause(const identity::Principal& caller, const std::string& entry_id,
                             const std::optional<std::string>& reason) const;
  // Entry Editor+. Moves the expiry date by the paused time; 409 not_paused.
  Result<ExpiryStatus> Resume(const identity::Principal& caller, const std::string& entry_id) const;

 private:
  storage::Database& db_;
  const Clock& clock_;
  const identity::EventSink& events_;
  const kb::ActionGuards& guards_;
};

}  // namespace credence::lifecycle
