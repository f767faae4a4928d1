#pragma once
// SQL of webhooks and their deliveries (migration 402; outbox rows with
// webhook_id set).
#include "storage/query.h"

namespace credence::notify::internal {

using storage::TenantQuery;

#define CREDENCE_WEBHOOK_COLUMNS \
  "id, url, description, event_types, is_enabled, disabled_reason, previous_secret_until, created_at, updated_at"

inline constexpr TenantQuery kListWebhooks{"notify.list_webhooks",
                                           "SELECT " CREDENCE_WEBHOOK_COLUMNS
                                           " FROM webhooks WHERE tenant_id = $1 ORDER BY created_at, id"};

inline constexpr TenantQuery kFindWebhook{
    "notify.find_webhook", "SELECT " CREDENCE_WEBHOOK_COLUMNS " FROM webhooks WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kCountWebhooks{"notify.count_webhooks",
                                            "SELECT COUNT(*) FROM webhooks WHERE tenant_id = $1"};

inline constexpr TenantQuery kInsertWebhook{
    "notify.insert_webhook",
    "INSERT INTO webhooks (tenant_id, id, url, description, event_types, is_enabled, secret, created_at, updated_at)"
    " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)"};

inline constexpr TenantQuery kUpdateWebhook{
    "notify.update_webhook",
    "UPDATE webhooks SET url = $3, description = $4, event_types = $5, is_enabled = $6, updated_at = $7"
    " WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kClearWebhookFailure{
    "notify.clear_webhook_failure",
    "UPDATE webhooks SET failing_since = NULL, disabled_reason = NULL WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kRotateWebhookSecret{
    "notify.rotate_webhook_secret",
    "UPDATE webhooks SET previous_secret = secret, previous_secret_until = $4, secret = $3, updated_at = $5"
    " WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kDeleteWebhook{"notify.delete_webhook",
                                            "DELETE FROM webhooks WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kDeleteWebhookDeliveries{"notify.delete_webhook_deliveries",
                                                      "DELETE FROM outbox WHERE tenant_id = $1 AND webhook_id = $2"};

// The subscribers of an event: read on every emit, so kept to one index.
inline constexpr TenantQuery kEnabledWebhooks{
    "notify.enabled_webhooks", "SELECT id, event_types FROM webhooks WHERE tenant_id = $1 AND is_enabled = 1"};

// $3 webhook, $4 event, $5 the body, $6 data, $7 now.
inline constexpr TenantQuery kInsertWebhookDelivery{
    "notify.insert_webhook_delivery",
    "INSERT INTO outbox (tenant_id, id, channel_id, webhook_id, event, subject, text, data_json, recipients, status,"
    " attempts, next_attempt_at, created_at) VALUES ($1, $2, NULL, $3, $4, '', $5, $6, '[]', 'pending', 0, $7, $7)"};

inline constexpr TenantQuery kListWebhookDeliveries{
    "notify.list_webhook_deliveries",
    "SELECT id, event, status, attempts, response_code, last_error, next_attempt_at, created_at, delivered_at"
    " FROM outbox WHERE tenant_id = $1 AND webhook_id = $2 ORDER BY created_at DESC, id DESC LIMIT 50"};

inline constexpr TenantQuery kFindWebhookDelivery{
    "notify.find_webhook_delivery",
    "SELECT event, text, data_json FROM outbox WHERE tenant_id = $1 AND webhook_id = $2 AND id = $3"};

// What a delivery is sent with: the webhook as it is now.
inline constexpr TenantQuery kWebhookTarget{
    "notify.webhook_target",
    "SELECT url, secret, previous_secret, previous_secret_until FROM webhooks WHERE tenant_id = $1 AND id = $2"};

inline constexpr TenantQuery kWebhookSucceeded{
    "notify.webhook_succeeded", "UPDATE webhooks SET failing_since = NULL WHERE tenant_id = $1 AND id = $2"};

// Starts the failure clock at $3 unless it runs; returns it and the state.
inline constexpr TenantQuery kWebhookFailed{
    "notify.webhook_failed",
    "UPDATE webhooks SET failing_since = COALESCE(failing_since, $3) WHERE tenant_id = $1 AND id = $2"
    " RETURNING failing_since, is_enabled, url"};

inline constexpr TenantQuery kDisableWebhook{
    "notify.disable_webhook",
    "UPDATE webhooks SET is_enabled = 0, disabled_reason = $3, updated_at = $4 WHERE tenant_id = $1 AND id = $2"};

// The tenant's active owners (global admins), to tell them a webhook was
// disabled. Reads identity's tables: notify depends on identity, and this is
// the one place it needs people rather than a channel.
inline constexpr TenantQuery kOwnerEmails{
    "notify.owner_emails",
    "SELECT u.email FROM tenant_members m JOIN users u ON u.id = m.user_id"
    " WHERE m.tenant_id = $1 AND m.role = 'Owner' AND m.is_active = 1 ORDER BY u.email"};

#undef CREDENCE_WEBHOOK_COLUMNS

}  // namespace credence::notify::internal
