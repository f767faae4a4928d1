#include "notify/schema.h"

namespace credence::notify {

// notification_channels: name_key is the trimmed name ASCII-lowercased
// (names are unique per tenant ignoring case); events and config are JSON
// text; the counters are what GET .../stats reports.
//
// outbox: one row per delivery to one channel. The destination (URL,
// configured recipients) is read from the channel when the delivery is sent,
// so fixing a channel also fixes its queued deliveries; `recipients` holds
// only the addresses the event itself brought (entry owners). A row is due
// while status is 'pending', next_attempt_at has come and no unexpired
// claim holds it (outbox_due). Rows go with their channel (FK cascade, and
// ChannelService deletes them explicitly in the same transaction).
const std::vector<storage::Migration>& Migrations() {
  static const std::vector<storage::Migration> kMigrations = {
      {400, "notify: notification channels, outbox",
       R"sql(
CREATE TABLE notification_channels (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  name_key TEXT NOT NULL,
  type TEXT NOT NULL,
  is_enabled INTEGER NOT NULL DEFAULT 1,
  events TEXT NOT NULL,
  config TEXT NOT NULL,
  success_count BIGINT NOT NULL DEFAULT 0,
  failure_count BIGINT NOT NULL DEFAULT 0,
  last_used_at BIGINT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, name_key)
);
CREATE TABLE outbox (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  channel_id TEXT NOT NULL,
  event TEXT NOT NULL,
  subject TEXT NOT NULL,
  text TEXT NOT NULL,
  data_json TEXT NOT NULL DEFAULT '{}',
  recipients TEXT NOT NULL DEFAULT '[]',
  status TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL,
  claimed_until BIGINT,
  claimed_by TEXT,
  last_error TEXT,
  created_at BIGINT NOT NULL,
  delivered_at BIGINT,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, channel_id) REFERENCES notification_channels (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE status = 'pending';
CREATE INDEX outbox_channel ON outbox (tenant_id, channel_id, created_at);
)sql",
       ""},
      // Direct emails (docs/notifications.md, "Direct emails"): a delivery
      // with no channel, sent as email to the addresses in its own
      // `recipients` (invitations). channel_id becomes nullable; the
      // composite foreign key does not apply to a row whose channel_id is
      // NULL. SQLite cannot drop NOT NULL in place, so the table is rebuilt
      // (nothing references it).
      {401, "notify: direct emails (outbox rows without a channel)",
       R"sql(
CREATE TABLE outbox_new (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  channel_id TEXT,
  event TEXT NOT NULL,
  subject TEXT NOT NULL,
  text TEXT NOT NULL,
  data_json TEXT NOT NULL DEFAULT '{}',
  recipients TEXT NOT NULL DEFAULT '[]',
  status TEXT NOT NULL DEFAULT 'pending',
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at BIGINT NOT NULL,
  claimed_until BIGINT,
  claimed_by TEXT,
  last_error TEXT,
  created_at BIGINT NOT NULL,
  delivered_at BIGINT,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, channel_id) REFERENCES notification_channels (tenant_id, id) ON DELETE CASCADE
);
INSERT INTO outbox_new (tenant_id, id, channel_id, event, subject, text, data_json, recipients, status, attempts,
  next_attempt_at, claimed_until, claimed_by, last_error, created_at, delivered_at)
  SELECT tenant_id, id, channel_id, event, subject, text, data_json, recipients, status, attempts,
  next_attempt_at, claimed_until, claimed_by, last_error, created_at, delivered_at FROM outbox;
DROP TABLE outbox;
ALTER TABLE outbox_new RENAME TO outbox;
CREATE INDEX outbox_due ON outbox (next_attempt_at) WHERE status = 'pending';
CREATE INDEX outbox_channel ON outbox (tenant_id, channel_id, created_at);
)sql",
       "ALTER TABLE outbox ALTER COLUMN channel_id DROP NOT NULL;"},
      // Webhooks (docs/webhooks.md): a tenant's signed Standard Webhooks
      // endpoints. `secret` is the current whsec_ secret; after a rotation
      // `previous_secret` keeps signing alongside until
      // `previous_secret_until`. `failing_since` is the first failed attempt
      // since the last success (NULL while healthy): a webhook failing for a
      // day is disabled (`disabled_reason`). Their deliveries are outbox rows
      // with `webhook_id` set (channel_id NULL); `text` holds the exact body
      // sent, frozen when queued, and `response_code` the last HTTP status.
      {402, "notify: webhooks; outbox rows for webhooks, response codes",
       R"sql(
CREATE TABLE webhooks (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  url TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  event_types TEXT NOT NULL,
  is_enabled INTEGER NOT NULL DEFAULT 1,
  secret TEXT NOT NULL,
  previous_secret TEXT,
  previous_secret_until BIGINT,
  failing_since BIGINT,
  disabled_reason TEXT,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
ALTER TABLE outbox ADD COLUMN webhook_id TEXT;
ALTER TABLE outbox ADD COLUMN response_code INTEGER;
CREATE INDEX outbox_webhook ON outbox (tenant_id, webhook_id, created_at);
)sql",
       ""},
  };
  return kMigrations;
}

}  // namespace credence::notify
