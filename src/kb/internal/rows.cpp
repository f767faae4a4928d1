#include "kb/internal/rows.h"

#include "lifecycle/status.h"

#include "core/json_text.h"

#include <boost/json/array.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

namespace credence::kb::internal {
namespace json = boost::json;

Hub HubFromRow(const storage::Row& r, int f) {
  Hub h;
  h.id = r.Text(f + 0);
  h.key = r.Text(f + 1);
  h.name = r.Text(f + 2);
  h.default_expiry_days = static_cast<int>(r.Int(f + 3));
  h.owner_id = r.Text(f + 4);
  h.category_id = r.OptText(f + 5);
  h.tag_ids = StringListFromJson(r.Text(f + 6));
  h.preview_image = r.OptText(f + 7);
  h.default_org_role = r.OptText(f + 8);
  h.default_expiry_template_id = r.OptText(f + 9);
  h.root_entry_id = r.OptText(f + 10);
  h.created_at = r.Int(f + 11);
  h.updated_at = r.Int(f + 12);
  return h;
}

Entry EntryFromRow(const storage::Row& r, int f) {
  Entry e;
  e.id = r.Text(f + 0);
  e.hub_id = r.Text(f + 1);
  e.hub_key = r.Text(f + 2);
  e.key = r.Text(f + 3);
  e.title = r.Text(f + 4);
  e.original_language = r.Text(f + 5);
  e.status = ParseEntryStatus(r.Text(f + 6)).value_or(EntryStatus::kDraft);
  e.expiry_at = r.Int(f + 7);
  e.owner_id = r.Text(f + 8);
  e.preview_image = r.OptText(f + 9);
  e.version = r.Int(f + 10);
  e.created_at = r.Int(f + 11);
  e.updated_at = r.Int(f + 12);
  e.content_updated_at = r.Int(f + 13);
  if (auto p = r.OptInt(f + 14)) e.published_at = *p;
  e.paused_at = r.OptInt(f + 15);
  e.warning_days = static_cast<int>(r.Int(f + 16));
  e.grace_days = static_cast<int>(r.Int(f + 17));
  return e;
}

void DeriveStatus(Entry& e, TimeMs now) {
  const lifecycle::ExpiryFacts facts{e.status != EntryStatus::kDraft, e.expiry_at, e.paused_at};
  e.status = lifecycle::EffectiveStatus(facts, {e.warning_days, e.grace_days}, now);
}

}  // namespace credence::kb::internal
