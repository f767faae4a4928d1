#pragma once
// SQL of the notify module: notification channels and the outbox
// (migration 400).
#include "storage/query.h"

namespace credence::notify::internal {

using storage::GlobalQuery;
using storage::TenantQuery;

inline constexpr TenantQuery kListChannels{
    "notify.list_channels",
    "SELECT id, name, type, is_enabled, events, config, created_at, updated_at FROM notification_channels"
    " WHERE tenant_id = $1 ORDER BY name_key, id"};

inline constexpr TenantQuery kFindChannel{
    "notify.find_channel",
    "SELECT id, name, type, is_enabled, events, config, created_at, updated_at FROM notification_channels"
    " WHERE tenant_id = $1 AND id = $2"};

// Another channel of the tenant with this name key ($3: the channel being
// updated, or '' when creating).
inline constexpr TenantQuery kFindOtherChannelByNameKey{
    "notify.find_other_channel_by_name_key",
    "SELECT id FROM notification_channels WHERE tenant_id = $1 AND name_key = $2 AND id <> CAST($3 AS TEXT)"};

inline constexpr TenantQuery kInsertChannel{
    "notify.insert_channel",
    "INSERT INTO notification_channels (tenant_id, id, name, name_key, type, is_enabled, events, config,"
    " created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)"};

inline constexpr TenantQuery kUpdateChannel{
    "notify.update_channel",
    "UPDATE notification_channels SET name = $3, name_key = $4, type = $5, is_enabled = $6, events = $7,"
    " config = $8, updated_at = $9 WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kDeleteChannel{"notify.delete_channel",
                                            "DELETE FROM notification_channels WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kDeleteChannelDeliveries{"notify.delete_channel_deliveries",
                                                      "DELETE FROM outbox WHERE tenant_id = $1 AND channel_id = $2"};

inline constexpr TenantQuery kChannelStats{
    "notify.channel_stats",
    "SELECT c.success_count, c.failure_count, c.last_used_at,"
    " (SELECT COUNT(*) FROM outbox o WHERE o.tenant_id = $1 AND o.channel_id = $2 AND o.status = 'pending')"
    " FROM notification_channels c WHERE c.tenant_id = $1 AND c.id = $2"};

// Newest first; ids are UUID v7, so they break ties in time order.
inline constexpr TenantQuery kListDeliveries{
    "notify.list_deliveries",
    "SELECT id, event, status, attempts, last_error, next_attempt_at, created_at, delivered_at FROM outbox"
    " WHERE tenant_id = $1 AND channel_id = $2 ORDER BY created_at DESC, id DESC LIMIT 50"};

// What a delivery is sent with: the channel's current type and
// configuration.
inline constexpr TenantQuery kChannelTarget{
    "notify.channel_target", "SELECT type, config FROM notification_channels WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kEnabledChannels{
    "notify.enabled_channels",
    "SELECT id, type, events, config FROM notification_channels WHERE tenant_id = $1 AND is_enabled = 1"};

inline constexpr TenantQuery kInsertDelivery{
    "notify.insert_delivery",
    "INSERT INTO outbox (tenant_id, id, channel_id, event, subject, text, data_json, recipients, status, attempts,"
    " next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', 0, $9, $9)"};

// Whether anything is due at $1: an idle pass reads instead of taking the
// write lock (on SQLite, the one writer of the whole store).
inline constexpr GlobalQuery kAnyDue{"notify.any_due",
                                     "SELECT 1 FROM outbox WHERE status = 'pending' AND next_attempt_at <= $1"
                                     " AND (claimed_until IS NULL OR claimed_until <= $1) LIMIT 1"};

// Claims up to $4 due deliveries of every tenant for the pass $2 until $3.
// The outer conditions repeat the inner ones so that a row another node
// claimed meanwhile is skipped (PostgreSQL re-evaluates them on the row it
// waited for; its SKIP LOCKED lets nodes take different rows at once).
inline constexpr GlobalQuery kClaimDue{
    "notify.claim_due",
    "UPDATE outbox SET claimed_by = $2, claimed_until = $3"
    " WHERE status = 'pending' AND next_attempt_at <= $1 AND (claimed_until IS NULL OR claimed_until <= $1)"
    " AND (tenant_id, id) IN (SELECT tenant_id, id FROM outbox WHERE status = 'pending' AND next_attempt_at <= $1"
    " AND (claimed_until IS NULL OR claimed_until <= $1) ORDER BY next_attempt_at, id LIMIT $4)"
    " RETURNING tenant_id, id, channel_id, event, subject, text, data_json, recipients, attempts, created_at,"
    " webhook_id",
    "UPDATE outbox SET claimed_by = $2, claimed_until = $3"
    " WHERE status = 'pending' AND next_attempt_at <= $1 AND (claimed_until IS NULL OR claimed_until <= $1)"
    " AND (tenant_id, id) IN (SELECT tenant_id, id FROM outbox WHERE status = 'pending' AND next_attempt_at <= $1"
    " AND (claimed_until IS NULL OR claimed_until <= $1) ORDER BY next_attempt_at, id LIMIT $4"
    " FOR UPDATE SKIP LOCKED)"
    " RETURNING tenant_id, id, channel_id, event, subject, text, data_json, recipients, attempts, created_at,"
    " webhook_id"};

// The outcome of an attempt is recorded only by the pass that still holds
// the claim ($3); a pass whose claim expired and was retaken records nothing.
inline constexpr TenantQuery kMarkDelivered{
    "notify.mark_delivered",
    "UPDATE outbox SET status = 'delivered', attempts = attempts + 1, delivered_at = $4, last_error = NULL,"
    " response_code = $5, claimed_by = NULL, claimed_until = NULL WHERE tenant_id = $1 AND id = $2 AND claimed_by = $3"
    " AND status = 'pending'"};

// $4: 'pending' (retried at $5) or 'dead'; $7 the HTTP status, NULL when none.
inline constexpr TenantQuery kMarkFailed{
    "notify.mark_failed",
    "UPDATE outbox SET status = $4, attempts = attempts + 1, next_attempt_at = $5, last_error = $6,"
    " response_code = $7,"
    " claimed_by = NULL, claimed_until = NULL WHERE tenant_id = $1 AND id = $2 AND claimed_by = $3"
    " AND status = 'pending'"};

inline constexpr TenantQuery kCountSuccess{
    "notify.count_success",
    "UPDATE notification_channels SET success_count = success_count + 1, last_used_at = $3"
    " WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kCountFailure{
    "notify.count_failure",
    "UPDATE notification_channels SET failure_count = failure_count + 1, last_used_at = $3"
    " WHERE tenant_id = $1 AND id = $2"};

}  // namespace credence::notify::internal
