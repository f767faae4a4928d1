#include "lifecycle/schema.h"

namespace credence::lifecycle {

// Expiry templates and review checklists. name_key is the trimmed name
// ASCII-lowercased (names are unique per tenant ignoring case). At most one
// default template per tenant (a partial unique index). entries gains the
// entry's custom template, which makes a template "in use".
const std::vector<storage::Migration>& Migrations() {
  static const std::vector<storage::Migration> kMigrations = {
      {300, "lifecycle: expiry templates, review checklists",
       R"sql(
CREATE TABLE expiry_templates (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  name_key TEXT NOT NULL,
  description TEXT,
  expiry_days INTEGER NOT NULL,
  warning_days INTEGER NOT NULL,
  grace_days INTEGER NOT NULL,
  review_required INTEGER NOT NULL DEFAULT 0,
  review_type TEXT,
  checklist_id TEXT,
  auto_renew_on_attestation INTEGER NOT NULL DEFAULT 0,
  is_active INTEGER NOT NULL DEFAULT 1,
  is_default INTEGER NOT NULL DEFAULT 0,
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, name_key)
);
CREATE UNIQUE INDEX expiry_templates_default ON expiry_templates (tenant_id) WHERE is_default = 1;
CREATE INDEX expiry_templates_checklist ON expiry_templates (tenant_id, checklist_id);
CREATE TABLE review_checklists (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  name TEXT NOT NULL,
  hub_id TEXT,
  items TEXT NOT NULL DEFAULT '[]',
  created_at BIGINT NOT NULL,
  updated_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX review_checklists_hub ON review_checklists (tenant_id, hub_id);
ALTER TABLE entries ADD COLUMN expiry_template_id TEXT;
CREATE INDEX entries_expiry_template ON entries (tenant_id, expiry_template_id);
)sql",
       ""},
      // Changes of an entry's custom template (change-template), with the
      // optional reason; from_template_id is NULL when it had none.
      {301, "lifecycle: entry template changes",
       R"sql(
CREATE TABLE entry_template_changes (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  from_template_id TEXT,
  to_template_id TEXT NOT NULL,
  reason TEXT,
  changed_by TEXT NOT NULL,
  changed_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX entry_template_changes_entry ON entry_template_changes (tenant_id, entry_id);
)sql",
       ""},
      // The scheduler's bookkeeping on entries, and what it produces.
      // - paused_at: expiry paused since then (docs/lifecycle.md, Pausing).
      // - last_renewed_at: start of the current expiry period (null: since
      //   creation); reviews count toward a renewal from then on.
      // - lifecycle_status: the status the scheduler last materialized.
      // - next_check_at: when the scheduler should look at the entry next
      //   (null: never on its own). Every write that changes an entry's
      //   expiry facts sets it to now; new entries start due (0).
      // expiry_transitions holds one row per materialized transition; its
      // unique key makes a transition fire once even when a pass is retried.
      {302, "lifecycle: scheduler state, transitions, notifications, job leases",
       R"sql(
ALTER TABLE entries ADD COLUMN paused_at BIGINT;
ALTER TABLE entries ADD COLUMN paused_by TEXT;
ALTER TABLE entries ADD COLUMN last_renewed_at BIGINT;
ALTER TABLE entries ADD COLUMN lifecycle_status TEXT;
ALTER TABLE entries ADD COLUMN next_check_at BIGINT DEFAULT 0;
CREATE INDEX entries_next_check ON entries (next_check_at) WHERE next_check_at IS NOT NULL;
CREATE TABLE expiry_transitions (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  from_status TEXT,
  to_status TEXT NOT NULL,
  expiry_at BIGINT NOT NULL,
  occurred_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, entry_id, expiry_at, to_status)
);
CREATE TABLE notifications (
  tenant_id TEXT NOT NULL REFERENCES tenants(id) ON DELETE CASCADE,
  id TEXT NOT NULL,
  user_id TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  kind TEXT NOT NULL,
  expiry_at BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  acknowledged_at BIGINT,
  PRIMARY KEY (tenant_id, id)
);
CREATE INDEX notifications_open ON notifications (tenant_id, user_id, created_at) WHERE acknowledged_at IS NULL;
CREATE INDEX notifications_entry ON notifications (tenant_id, entry_id);
CREATE TABLE job_leases (
  name TEXT PRIMARY KEY,
  holder TEXT NOT NULL,
  expires_at BIGINT NOT NULL
);
)sql",
       ""},
      // Reviews, renewals and pauses (docs/reviews-and-renewals.md).
      // - entry_reviews.renewal_id: the renewal the review was used up by
      //   (its own when it renewed the entry); NULL while it still counts
      //   toward the next renewal. expiry_at: the entry's expiry after it.
      // - entry_renewals: every renewal, with where it came from
      //   (manual | review | bulk) and the expiry before and after.
      // - entry_expiry_pauses: who paused and why; resumed_at NULL while
      //   the pause lasts (entries.paused_at is what the status reads).
      {303, "lifecycle: entry reviews, renewals, expiry pauses",
       R"sql(
CREATE TABLE entry_reviews (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  reviewer_id TEXT NOT NULL,
  review_type TEXT NOT NULL,
  time_spent_seconds INTEGER NOT NULL,
  notes TEXT,
  blocks_changed INTEGER NOT NULL DEFAULT 0,
  content_was_updated INTEGER NOT NULL DEFAULT 0,
  checklist_json TEXT,
  renewed INTEGER NOT NULL DEFAULT 0,
  expiry_at BIGINT NOT NULL,
  renewal_id TEXT,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, entry_id) REFERENCES entries (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX entry_reviews_entry ON entry_reviews (tenant_id, entry_id, created_at);
CREATE TABLE entry_renewals (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  renewed_by TEXT NOT NULL,
  days INTEGER NOT NULL,
  notes TEXT,
  source TEXT NOT NULL,
  review_id TEXT,
  previous_expiry_at BIGINT NOT NULL,
  new_expiry_at BIGINT NOT NULL,
  created_at BIGINT NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, entry_id) REFERENCES entries (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX entry_renewals_entry ON entry_renewals (tenant_id, entry_id, created_at);
CREATE TABLE entry_expiry_pauses (
  tenant_id TEXT NOT NULL,
  id TEXT NOT NULL,
  entry_id TEXT NOT NULL,
  paused_at BIGINT NOT NULL,
  paused_by TEXT NOT NULL,
  reason TEXT,
  resumed_at BIGINT,
  resumed_by TEXT,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, entry_id) REFERENCES entries (tenant_id, id) ON DELETE CASCADE
);
CREATE INDEX entry_expiry_pauses_entry ON entry_expiry_pauses (tenant_id, entry_id, paused_at);
)sql",
       ""},
  };
  return kMigrations;
}

}  // namespace credence::lifecycle
