#pragma once
// SQL of reviews, renewals and pausing (ReviewService; migration 303), and
// the expiry bookkeeping of entries that migration 302 added.
#include "storage/query.h"

namespace credence::lifecycle::internal {

using storage::TenantQuery;

// period_start: the start of the current expiry period (resolve.h).
inline constexpr TenantQuery kEntryExpiryState{
    "lifecycle.entry_expiry_state",
    "SELECT expiry_at, paused_at, paused_by, COALESCE(last_renewed_at, created_at) FROM entries"
    " WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kChecklistItems{
    "lifecycle.checklist_items", "SELECT items FROM review_checklists WHERE tenant_id = $1 AND id = $2"};

// A review's strength (QuickReview < Attestation < FullReview), the same
// order as ReviewStrength in review_service.cpp; compared in SQL so that
// claiming the review a renewal rests on is one atomic statement.
#define CREDENCE_REVIEW_STRENGTH                                                                   \
  "CASE review_type WHEN 'QuickReview' THEN 1 WHEN 'Attestation' THEN 2 WHEN 'FullReview' THEN 3" \
  " ELSE 0 END"

// A review that still counts toward the next renewal: made in the current
// period and not yet used by a renewal (renewal_id), at least as strong as
// $3.
inline constexpr TenantQuery kHasCountingReview{
    "lifecycle.has_counting_review",
    "SELECT 1 FROM entry_reviews WHERE tenant_id = $1 AND entry_id = $2 AND renewal_id IS NULL"
    " AND created_at >= (SELECT COALESCE(e.last_renewed_at, e.created_at) FROM entries e"
    " WHERE e.tenant_id = $1 AND e.id = $2)"
    " AND " CREDENCE_REVIEW_STRENGTH " >= CAST($3 AS INTEGER) LIMIT 1"};

// Marks the reviews that count toward the next renewal, at least as strong
// as $4, as used by renewal $3. Run before kRenewEntry moves the period
// start. Two renewals racing on one review: the second updates nothing.
inline constexpr TenantQuery kClaimCountingReviews{
    "lifecycle.claim_counting_reviews",
    "UPDATE entry_reviews SET renewal_id = $3 WHERE tenant_id = $1 AND entry_id = $2 AND renewal_id IS NULL"
    " AND created_at >= (SELECT COALESCE(e.last_renewed_at, e.created_at) FROM entries e"
    " WHERE e.tenant_id = $1 AND e.id = $2)"
    " AND " CREDENCE_REVIEW_STRENGTH " >= CAST($4 AS INTEGER)"};

// Every renewal ends the period the remaining reviews counted toward.
inline constexpr TenantQuery kUseUpReviews{
    "lifecycle.use_up_reviews",
    "UPDATE entry_reviews SET renewal_id = $3 WHERE tenant_id = $1 AND entry_id = $2 AND renewal_id IS NULL"};

#undef CREDENCE_REVIEW_STRENGTH

inline constexpr TenantQuery kInsertReview{
    "lifecycle.insert_review",
    "INSERT INTO entry_reviews (tenant_id, id, entry_id, reviewer_id, review_type, time_spent_seconds, notes,"
    " blocks_changed, content_was_updated, checklist_json, renewed, expiry_at, renewal_id, created_at)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, NULL, $13)"};

// Newest first; ties (one millisecond) by id.
inline constexpr TenantQuery kListReviews{
    "lifecycle.list_reviews",
    "SELECT id, entry_id, reviewer_id, review_type, time_spent_seconds, notes, blocks_changed, content_was_updated,"
    " checklist_json, created_at, renewed, expiry_at FROM entry_reviews WHERE tenant_id = $1 AND entry_id = $2"
    " ORDER BY created_at DESC, id DESC"};

// Only while not paused: a pause that won a race makes this update nothing.
inline constexpr TenantQuery kRenewEntry{
    "lifecycle.renew_entry",
    "UPDATE entries SET expiry_at = $3, last_renewed_at = $4 WHERE tenant_id = $1 AND id = $2 AND paused_at IS NULL"};

inline constexpr TenantQuery kInsertRenewal{
    "lifecycle.insert_renewal",
    "INSERT INTO entry_renewals (tenant_id, id, entry_id, renewed_by, days, notes, source, review_id,"
    " previous_expiry_at, new_expiry_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"};

// Pausing and resuming are conditional updates, so two callers racing get
// one success and one already_paused / not_paused.
inline constexpr TenantQuery kPauseEntry{
    "lifecycle.pause_entry",
    "UPDATE entries SET paused_at = $3, paused_by = $4 WHERE tenant_id = $1 AND id = $2 AND paused_at IS NULL"};

// Moves the expiry date by the paused time, so the remaining time is kept
// (never backwards when the clock was set back during the pause).
inline constexpr TenantQuery kResumeEntry{
    "lifecycle.resume_entry",
    "UPDATE entries SET expiry_at = expiry_at + CASE WHEN CAST($3 AS BIGINT) > paused_at"
    " THEN CAST($3 AS BIGINT) - paused_at ELSE 0 END, paused_at = NULL, paused_by = NULL"
    " WHERE tenant_id = $1 AND id = $2 AND paused_at IS NOT NULL"};

inline constexpr TenantQuery kInsertPause{
    "lifecycle.insert_pause",
    "INSERT INTO entry_expiry_pauses (tenant_id, id, entry_id, paused_at, paused_by, reason)"
    " VALUES ($1, $2, $3, $4, $5, $6)"};

inline constexpr TenantQuery kClosePause{
    "lifecycle.close_pause",
    "UPDATE entry_expiry_pauses SET resumed_at = $3, resumed_by = $4"
    " WHERE tenant_id = $1 AND entry_id = $2 AND resumed_at IS NULL"};

}  // namespace credence::lifecycle::internal
