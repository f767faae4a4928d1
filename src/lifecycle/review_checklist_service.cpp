#include "lifecycle/review_checklist_service.h"

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <set>

#include "core/ids.h"
#include "identity/authorization.h"
#include "lifecycle/internal/queries.h"
#include "core/text.h"
#include "storage/session.h"

namespace credence::lifecycle {
namespace {

namespace json = boost::json;

std::string ItemsToJson(const std::vector<ChecklistItem>& items) {
  json::array out;
  for (const auto& i : items) out.push_back(json::object{{"id", i.id}, {"text", i.text}, {"required", i.required}});
  return json::serialize(out);
}

std::vector<ChecklistItem> ItemsFromJson(std::string_view text) {
  std::vector<ChecklistItem> out;
  boost::system::error_code ec;
  const json::value v = json::parse(text, ec);
  if (ec || !v.is_array()) return out;
  for (const auto& item : v.as_array()) {
    if (!item.is_object()) continue;
    const auto& o = item.as_object();
    ChecklistItem i;
    if (const auto* id = o.if_contains("id"); id && id->is_string()) i.id = std::string(id->as_string());
    if (const auto* t = o.if_contains("text"); t && t->is_string()) i.text = std::string(t->as_string());
    if (const auto* r = o.if_contains("required"); r && r->is_bool()) i.required = r->as_bool();
    out.push_back(std::move(i));
  }
  return out;
}

ReviewChecklist ChecklistFromRow(const storage::Row& r) {
  return {r.Text(0), r.Text(1), r.OptText(2), ItemsFromJson(r.TextView(3)), r.Int(4), r.Int(5)};
}

Error ChecklistNotFound() { return Error::NotFound("Review checklist not found."); }

// Rules that need no database; trims the name and the item texts.
Status ValidateFields(ReviewChecklistInput& input) {
  std::vector<FieldError> errors;
  input.name = Trim(input.name);
  if (input.name.empty())
    errors.push_back({"name", "must not be blank"});
  else if (Utf8Length(input.name) > kMaxChecklistNameLength)
    errors.push_back({"name", "must be at most " + std::to_string(kMaxChecklistNameLength) + " characters"});
  if (input.hub_id && !IsUuid(*input.hub_id)) errors.push_back({"hubId", "must be a UUID"});
  if (input.items.empty() || input.items.size() > kMaxChecklistItems)
    errors.push_back({"items", "must hold 1 to " + std::to_string(kMaxChecklistItems) + " items"});
  std::set<std::string> ids;
  for (size_t i = 0; i < input.items.size(); ++i) {
    auto& item = input.items[i];
    const std::string at = "items[" + std::to_string(i) + "]";
    item.text = Trim(item.text);
    if (item.text.empty())
      errors.push_back({at + ".text", "must not be blank"});
    else if (Utf8Length(item.text) > kMaxChecklistItemLength)
      errors.push_back({at + ".text", "must be at most " + std::to_string(kMaxChecklistItemLength) + " characters"});
    if (item.id) {
      if (!IsUuid(*item.id)) {
        errors.push_back({at + ".id", "must be a UUID"});
      } else {
        item.id = CanonicalUuid(*item.id);
        if (!ids.insert(*item.id).second) errors.push_back({at + ".id", "appears twice"});
      }
    }
  }
  if (!errors.empty()) return Error::Validation(std::move(errors));
  if (input.hub_id) input.hub_id = CanonicalUuid(*input.hub_id);
  return Ok();
}

}  // namespace

Result<std::vector<ReviewChecklist>> ReviewChecklistService::List(const identity::Principal& caller,
                                                                  const std::optional<std::string>& hub_id) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  std::vector<ReviewChecklist> out;
  for (const auto& row : tenant.Run(internal::kListChecklists, {hub_id})) out.push_back(ChecklistFromRow(row));
  return out;
}

Result<ReviewChecklist> ReviewChecklistService::Create(const identity::Principal& caller,
                                                       const ReviewChecklistInput& request) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  ReviewChecklistInput input = request;
  CR_TRY(ValidateFields(input));
  for (size_t i = 0; i < input.items.size(); ++i)
    if (input.items[i].id)
      return Error::Validation({{"items[" + std::to_string(i) + "].id", "is assigned by the server"}});

  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (input.hub_id && tenant.Run(internal::kHubExists, {*input.hub_id}).empty())
    return Error::Validation({{"hubId", "is not a hub of this tenant"}});
  ReviewChecklist c;
  c.id = NewId();
  c.name = input.name;
  c.hub_id = input.hub_id;
  for (const auto& item : input.items) c.items.push_back({NewId(), item.text, item.required});
  c.created_at = c.updated_at = clock_.Now();
  tenant.Run(internal::kInsertChecklist, {c.id, c.name, c.hub_id, ItemsToJson(c.items), c.created_at});
  session.Commit();
  return c;
}

Result<ReviewChecklist> ReviewChecklistService::Update(const identity::Principal& caller, const std::string& id,
                                                       const ReviewChecklistInput& request) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  ReviewChecklistInput input = request;
  CR_TRY(ValidateFields(input));

  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto rows = tenant.Run(internal::kFindChecklist, {id});
  if (rows.empty()) return ChecklistNotFound();
  ReviewChecklist c = ChecklistFromRow(rows.front());
  std::set<std::string> known;
  for (const auto& item : c.items) known.insert(item.id);
  for (size_t i = 0; i < input.items.size(); ++i)
    if (input.items[i].id && !known.count(*input.items[i].id))
      return Error::Validation({{"items[" + std::to_string(i) + "].id", "is not an item of this checklist"}});
  if (input.hub_id && tenant.Run(internal::kHubExists, {*input.hub_id}).empty())
    return Error::Validation({{"hubId", "is not a hub of this tenant"}});
  c.name = input.name;
  c.hub_id = input.hub_id;
  c.items.clear();
  for (const auto& item : input.items) c.items.push_back({item.id ? *item.id : NewId(), item.text, item.required});
  c.updated_at = clock_.Now();
  tenant.Run(internal::kUpdateChecklist, {c.id, c.name, c.hub_id, ItemsToJson(c.items), c.updated_at});
  session.Commit();
  return c;
}

Status ReviewChecklistService::Delete(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (tenant.Run(internal::kChecklistExists, {id}).empty()) return ChecklistNotFound();
  if (!tenant.Run(internal::kChecklistInUse, {id}).empty())
    return Error::Conflict("checklist_in_use", "An expiry template refers to the checklist; it cannot be deleted.");
  tenant.Run(internal::kDeleteChecklist, {id});
  session.Commit();
  return Ok();
}

}  // namespace credence::lifecycle
