#include "lifecycle/expiry_template_service.h"

#include <algorithm>

#include "core/ids.h"
#include "identity/authorization.h"
#include "lifecycle/internal/queries.h"
#include "lifecycle/internal/rows.h"
#include "core/text.h"
#include "storage/session.h"

namespace credence::lifecycle {
namespace {

Error TemplateNotFound() { return Error::NotFound("Expiry template not found."); }

Error NameTaken(const std::string& name) {
  return Error::Conflict("template_name_taken",
                         "An expiry template named '" + name + "' already exists in this tenant.");
}

// The rules that need the store: the checklist exists in the tenant, and no
// other template (than `self_id`) has the name. Checked before writing: on
// PostgreSQL a failed insert would abort the transaction.
Status CheckAgainstStore(storage::TenantSession& tenant, const ExpiryTemplateInput& input, const std::string& key,
                         const std::string& self_id) {
  if (input.checklist_id && tenant.Run(internal::kChecklistExists, {*input.checklist_id}).empty())
    return Error::Validation({{"checklistId", "is not a review checklist of this tenant"}});
  if (!tenant.Run(internal::kFindOtherTemplateByNameKey, {key, self_id}).empty()) return NameTaken(input.name);
  return Ok();
}

// Inserts or updates (by `statement`, which takes the same parameters) a
// template. The unique index is the last word on names racing each other.
Status WriteTemplate(storage::TenantSession& tenant, const storage::TenantQuery& statement, const ExpiryTemplate& t,
                     const std::string& key, TimeMs at) {
  try {
    tenant.Run(statement, {t.id, t.name, key, t.description, t.expiry_days, t.warning_days, t.grace_days,
                           t.review_required, t.review_type, t.checklist_id, t.auto_renew_on_attestation, t.is_active,
                           at});
  } catch (const storage::StorageError& e) {
    if (e.kind() == storage::StorageError::Kind::kUniqueViolation) return NameTaken(t.name);
    throw;
  }
  return Ok();
}

// Field rules that need no database; `input.name` is trimmed in place.
Status ValidateFields(ExpiryTemplateInput& input) {
  std::vector<FieldError> errors;
  input.name = Trim(input.name);
  if (input.name.empty())
    errors.push_back({"name", "must not be blank"});
  else if (Utf8Length(input.name) > kMaxTemplateNameLength)
    errors.push_back({"name", "must be at most " + std::to_string(kMaxTemplateNameLength) + " characters"});
  if (input.expiry_days < 1 || input.expiry_days > kMaxExpiryDays)
    errors.push_back({"expiryDays", "must be between 1 and " + std::to_string(kMaxExpiryDays)});
  if (input.warning_days < 0 || input.warning_days > kMaxWarningDays)
    errors.push_back({"warningDays", "must be between 0 and " + std::to_string(kMaxWarningDays)});
  else if (input.warning_days >= input.expiry_days)
    errors.push_back({"warningDays", "must be less than expiryDays"});
  if (input.grace_days < 0 || input.grace_days > kMaxGraceDays)
    errors.push_back({"graceDays", "must be between 0 and " + std::to_string(kMaxGraceDays)});
  if (input.review_type &&
      std::find(ReviewTypes().begin(), ReviewTypes().end(), *input.review_type) == ReviewTypes().end())
    errors.push_back({"reviewType", "must be one of QuickReview, FullReview, Attestation"});
  else if (input.review_required && !input.review_type)
    errors.push_back({"reviewType", "is required when reviewRequired is true"});
  if (input.checklist_id && !IsUuid(*input.checklist_id)) errors.push_back({"checklistId", "must be a UUID"});
  if (!errors.empty()) return Error::Validation(std::move(errors));
  if (input.checklist_id) input.checklist_id = CanonicalUuid(*input.checklist_id);
  return Ok();
}

}  // namespace

const std::vector<std::string>& ReviewTypes() {
  static const std::vector<std::string> kTypes = {"QuickReview", "FullReview", "Attestation"};
  return kTypes;
}

Result<std::vector<ExpiryTemplate>> ExpiryTemplateService::List(const identity::Principal& caller,
                                                                bool active_only) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  std::vector<ExpiryTemplate> out;
  for (const auto& row : tenant.Run(internal::kListTemplates, {active_only ? 1 : 0}))
    out.push_back(internal::TemplateFromRow(row));
  return out;
}

Result<ExpiryTemplate> ExpiryTemplateService::Get(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto rows = tenant.Run(internal::kFindTemplate, {id});
  if (rows.empty()) return TemplateNotFound();
  return internal::TemplateFromRow(rows.front());
}

Result<ExpiryTemplate> ExpiryTemplateService::GetDefault(const identity::Principal& caller) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto rows = tenant.Run(internal::kFindDefaultTemplate);
  if (rows.empty()) return Error::NotFound("The tenant has no default expiry template.");
  return internal::TemplateFromRow(rows.front());
}

Result<ExpiryTemplate> ExpiryTemplateService::Create(const identity::Principal& caller,
                                                     const ExpiryTemplateInput& request) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  ExpiryTemplateInput input = request;
  CR_TRY(ValidateFields(input));
  const std::string key = NameKey(input.name);

  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  CR_TRY(CheckAgainstStore(tenant, input, key, /*self_id=*/""));
  ExpiryTemplate t;
  t.id = NewId();
  static_cast<ExpiryTemplateInput&>(t) = input;
  t.created_at = t.updated_at = clock_.Now();
  CR_TRY(WriteTemplate(tenant, internal::kInsertTemplate, t, key, t.created_at));
  session.Commit();
  return t;
}

Result<ExpiryTemplate> ExpiryTemplateService::Update(const identity::Principal& caller, const std::string& id,
                                                     const ExpiryTemplateInput& request) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  ExpiryTemplateInput input = request;
  CR_TRY(ValidateFields(input));
  const std::string key = NameKey(input.name);

  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto rows = tenant.Run(internal::kFindTemplate, {id});
  if (rows.empty()) return TemplateNotFound();
  ExpiryTemplate t = internal::TemplateFromRow(rows.front());
  CR_TRY(CheckAgainstStore(tenant, input, key, id));
  static_cast<ExpiryTemplateInput&>(t) = input;
  t.updated_at = clock_.Now();
  CR_TRY(WriteTemplate(tenant, internal::kUpdateTemplate, t, key, t.updated_at));
  tenant.Run(internal::kRecheckTemplateUsers, {id, t.updated_at});
  session.Commit();
  return t;
}

Status ExpiryTemplateService::Delete(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto rows = tenant.Run(internal::kFindTemplate, {id});
  if (rows.empty()) return TemplateNotFound();
  if (!tenant.Run(internal::kTemplateInUse, {id}).empty())
    return Error::Conflict("template_in_use",
                           "The expiry template is used by entries or as a hub's default; it cannot be deleted.");
  tenant.Run(internal::kDeleteTemplate, {id});
  if (internal::TemplateFromRow(rows.front()).is_default)
    tenant.Run(internal::kRecheckTenantDefaultUsers, {clock_.Now()});
  session.Commit();
  return Ok();
}

Result<ExpiryTemplate> ExpiryTemplateService::SetDefault(const identity::Principal& caller,
                                                         const std::string& id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto rows = tenant.Run(internal::kFindTemplate, {id});
  if (rows.empty()) return TemplateNotFound();
  ExpiryTemplate t = internal::TemplateFromRow(rows.front());
  if (t.is_default) return t;
  t.is_default = true;
  t.updated_at = clock_.Now();
  try {
    tenant.Run(internal::kClearDefaultTemplate, {t.updated_at});
    tenant.Run(internal::kMarkDefaultTemplate, {id, t.updated_at});
  } catch (const storage::StorageError& e) {
    // A concurrent set-default won the race (one default per tenant is a
    // unique index).
    if (e.kind() == storage::StorageError::Kind::kUniqueViolation)
      return Error::Conflict("default_changed", "The default template changed concurrently; try again.");
    throw;
  }
  tenant.Run(internal::kRecheckTenantDefaultUsers, {t.updated_at});
  session.Commit();
  return t;
}

Result<TemplateUsage> ExpiryTemplateService::UsageStats(const identity::Principal& caller,
                                                        const std::string& id) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (tenant.Run(internal::kFindTemplate, {id}).empty()) return TemplateNotFound();
  auto rows = tenant.Run(internal::kTemplateUsage, {id});
  TemplateUsage u;
  u.template_id = id;
  if (!rows.empty()) {
    u.entry_count = rows.front().Int(0);
    u.hub_count = rows.front().Int(1);
    u.entries_via_hub_default = rows.front().Int(2);
  }
  return u;
}

}  // namespace credence::lifecycle
