#include "lifecycle/internal/rows.h"

namespace credence::lifecycle::internal {

ExpiryTemplate TemplateFromRow(const storage::Row& r) {
  ExpiryTemplate t;
  t.id = r.Text(0);
  t.name = r.Text(1);
  t.description = r.OptText(2);
  t.expiry_days = r.Int(3);
  t.warning_days = r.Int(4);
  t.grace_days = r.Int(5);
  t.review_required = r.Bool(6);
  t.review_type = r.OptText(7);
  t.checklist_id = r.OptText(8);
  t.auto_renew_on_attestation = r.Bool(9);
  t.is_active = r.Bool(10);
  t.is_default = r.Bool(11);
  t.created_at = r.Int(12);
  t.updated_at = r.Int(13);
  return t;
}

}  // namespace credence::lifecycle::internal
