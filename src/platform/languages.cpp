#include "platform/languages.h"

#include <algorithm>
#include <cctype>

#include "core/text.h"
#include "identity/authorization.h"
#include "identity/tenant_service.h"
#include "platform/internal/config_store.h"
#include "storage/session.h"

namespace credence::platform {
namespace json = boost::json;
namespace {

constexpr std::string_view kKind = "language";

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

Error LanguageNotFound(const std::string& code) {
  return Error::NotFound("The tenant has no language '" + code + "'.");
}

Error DefaultLanguage(const std::string& code) {
  return Error::Conflict("default_language", "'" + code +
                                                 "' is the tenant's default language; make another language the "
                                                 "default first.");
}

// Every language of the tenant: the enabled ones (tenant row) and those with
// settings (config_items), merged.
std::vector<Language> Load(storage::TenantSession& tenant, bool for_update = false) {
  const identity::TenantLanguages state = identity::ReadTenantLanguages(tenant, for_update);
  std::vector<Language> out;
  for (const auto& item : internal::ListItems(tenant, kKind)) {
    Language l;
    l.code = item.id;
    l.display_name = item.name;
    if (const auto* v = item.body.if_contains("displayName"); v && v->is_string())
      l.display_name = std::string(v->as_string());
    if (const auto* v = item.body.if_contains("trigger"); v && v->is_string())
      l.trigger = ParseTranslationTrigger(v->as_string()).value_or(TranslationTrigger::kOnDemand);
    if (const auto* v = item.body.if_contains("provider"); v && v->is_string())
      l.provider = std::string(v->as_string());
    if (const auto* v = item.body.if_contains("sortOrder"); v && v->is_int64()) l.sort_order = v->as_int64();
    l.is_enabled = false;
    out.push_back(std::move(l));
  }
  for (size_t i = 0; i < state.enabled.size(); ++i) {
    const std::string& code = state.enabled[i];
    auto it = std::find_if(out.begin(), out.end(), [&](const Language& l) { return l.code == code; });
    if (it == out.end()) {
      Language l;
      l.code = code;
      const auto* known = identity::FindKnownLanguage(code);
      l.display_name = known ? known->display_name : code;
      l.sort_order = static_cast<int64_t>(i);
      out.push_back(std::move(l));
      it = out.end() - 1;
    }
    it->is_enabled = true;
  }
  for (auto& l : out) l.is_default = l.code == state.default_language;
  std::sort(out.begin(), out.end(), [](const Language& a, const Language& b) {
    return a.sort_order != b.sort_order ? a.sort_order < b.sort_order : a.code < b.code;
  });
  return out;
}

internal::ConfigItem ItemOf(const Language& l, TimeMs now) {
  internal::ConfigItem item;
  item.id = l.code;
  item.name = l.code;
  item.body = {
      {"displayName", l.display_name}, {"trigger", TranslationTriggerName(l.trigger)}, {"sortOrder", l.sort_order}};
  if (l.provider) item.body["provider"] = *l.provider;
  item.created_at = now;
  item.updated_at = now;
  return item;
}

void SaveSettings(storage::TenantSession& tenant, const Language& l, TimeMs now) {
  auto item = ItemOf(l, now);
  if (!internal::UpdateItem(tenant, kKind, item)) internal::InsertItem(tenant, kKind, item);
}

// Writes the enabled list and default after `languages` changed, keeping
// the order of the enabled list for those that stay.
void SaveState(storage::TenantSession& tenant, const std::vector<Language>& languages) {
  identity::TenantLanguages state;
  for (const auto& l : languages) {
    if (l.is_enabled) state.enabled.push_back(l.code);
    if (l.is_default) state.default_language = l.code;
  }
  identity::WriteTenantLanguages(tenant, state);
}

std::vector<FieldError> Validate(const LanguageInput& input) {
  std::vector<FieldError> errors;
  if (input.display_name) {
    const std::string name = Trim(*input.display_name);
    if (name.empty()) errors.push_back({"displayName", "must not be blank"});
    if (Utf8Length(name) > kMaxLanguageDisplayNameLength)
      errors.push_back({"displayName", "must be at most 100 characters"});
  }
  if (input.provider && *input.provider) {
    if (Trim(**input.provider).empty()) errors.push_back({"provider", "must not be blank (send null to clear)"});
    if (Utf8Length(**input.provider) > kMaxProviderLength)
      errors.push_back({"provider", "must be at most 100 characters"});
  }
  if (input.sort_order && (*input.sort_order < -1000000 || *input.sort_order > 1000000))
    errors.push_back({"sortOrder", "must be between -1000000 and 1000000"});
  return errors;
}

void Apply(Language& l, const LanguageInput& input) {
  if (input.display_name) l.display_name = Trim(*input.display_name);
  if (input.trigger) l.trigger = *input.trigger;
  if (input.provider) l.provider = *input.provider ? std::optional<std::string>(Trim(**input.provider)) : std::nullopt;
  if (input.sort_order) l.sort_order = *input.sort_order;
  if (input.is_enabled) l.is_enabled = *input.is_enabled;
}

json::object Changes(const LanguageInput& input) {
  json::object d;
  if (input.display_name) d["displayName"] = *input.display_name;
  if (input.trigger) d["trigger"] = TranslationTriggerName(*input.trigger);
  if (input.provider) d["provider"] = *input.provider ? json::value(**input.provider) : json::value(nullptr);
  if (input.sort_order) d["sortOrder"] = *input.sort_order;
  if (input.is_enabled) d["isEnabled"] = *input.is_enabled;
  return d;
}

}  // namespace

std::string_view TranslationTriggerName(TranslationTrigger trigger) {
  switch (trigger) {
    case TranslationTrigger::kAlwaysTranslate:
      return "AlwaysTranslate";
    case TranslationTrigger::kOnDemand:
      return "OnDemand";
    case TranslationTrigger::kNever:
      return "Never";
  }
  return "OnDemand";
}

std::optional<TranslationTrigger> ParseTranslationTrigger(std::string_view name) {
  for (auto t : {TranslationTrigger::kAlwaysTranslate, TranslationTrigger::kOnDemand, TranslationTrigger::kNever})
    if (TranslationTriggerName(t) == name) return t;
  return std::nullopt;
}

std::vector<std::string> TranslationTriggerNames() { return {"AlwaysTranslate", "OnDemand", "Never"}; }

std::optional<std::string> CanonicalLanguageCode(std::string_view code) {
  for (const auto& l : identity::KnownLanguages())
    if (EqualsIgnoringCase(l.code, code)) return l.code;
  return std::nullopt;
}

std::vector<Language> LanguagesIn(storage::TenantSession& tenant) { return Load(tenant); }

Result<std::vector<Language>> LanguageService::List(const identity::Principal& caller) const {
  CR_TRY(identity::RequireUser(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  return Load(tenant);
}

Result<std::vector<Language>> LanguageService::Enabled(const identity::Principal& caller) const {
  auto all = List(caller);
  if (!all) return std::move(all).error();
  std::vector<Language> out;
  for (auto& l : *all)
    if (l.is_enabled) out.push_back(std::move(l));
  return out;
}

Result<Language> LanguageService::Default(const identity::Principal& caller) const {
  auto all = List(caller);
  if (!all) return std::move(all).error();
  for (auto& l : *all)
    if (l.is_default) return std::move(l);
  return Error::NotFound("The tenant has no default language.");
}

Result<Language> LanguageService::Add(const identity::Principal& caller, const LanguageInput& input) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  auto errors = Validate(input);
  const auto code = CanonicalLanguageCode(Trim(input.code));
  if (!code) errors.push_back({"code", "unknown language '" + input.code + "' (see /api/tenant/known-languages)"});
  if (!errors.empty()) return Error::Validation(std::move(errors));

  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto languages = Load(tenant, true);
  if (std::any_of(languages.begin(), languages.end(), [&](const Language& l) { return l.code == *code; }))
    return Error::Conflict("language_exists", "The tenant already has the language '" + *code + "'.");
  Language l;
  l.code = *code;
  l.display_name = identity::FindKnownLanguage(*code)->display_name;
  int64_t last = -1;
  for (const auto& other : languages) last = std::max(last, other.sort_order);
  l.sort_order = last + 1;
  Apply(l, input);
  if (languages.empty()) l.is_default = l.is_enabled = true;  // a tenant always has a default
  const TimeMs now = clock_.Now();
  SaveSettings(tenant, l, now);
  languages.push_back(l);
  SaveState(tenant, languages);
  auto details = Changes(input);
  details["code"] = l.code;
  audit_.Record(tenant, identity::AuditOf(caller, "language.added", {"language", l.code}, std::move(details)));
  session.Commit();
  return l;
}

Result<Language> LanguageService::Update(const identity::Principal& caller, const std::string& code,
                                         const LanguageInput& input) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  if (auto errors = Validate(input); !errors.empty()) return Error::Validation(std::move(errors));
  const std::string canonical = CanonicalLanguageCode(code).value_or(code);
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto languages = Load(tenant, true);
  auto it = std::find_if(languages.begin(), languages.end(), [&](const Language& l) { return l.code == canonical; });
  if (it == languages.end()) return LanguageNotFound(code);
  if (it->is_default && input.is_enabled && !*input.is_enabled) return DefaultLanguage(it->code);
  Apply(*it, input);
  SaveSettings(tenant, *it, clock_.Now());
  SaveState(tenant, languages);
  audit_.Record(tenant, identity::AuditOf(caller, "language.updated", {"language", it->code}, Changes(input)));
  session.Commit();
  return *it;
}

Result<Language> LanguageService::SetDefault(const identity::Principal& caller, const std::string& code) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  const std::string canonical = CanonicalLanguageCode(code).value_or(code);
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto languages = Load(tenant, true);
  auto it = std::find_if(languages.begin(), languages.end(), [&](const Language& l) { return l.code == canonical; });
  if (it == languages.end()) return LanguageNotFound(code);
  std::string previous;
  for (auto& l : languages) {
    if (l.is_default) previous = l.code;
    l.is_default = false;
  }
  it->is_default = true;
  it->is_enabled = true;
  SaveState(tenant, languages);
  audit_.Record(tenant,
                identity::AuditOf(caller, "language.default_set", {"language", it->code}, {{"previous", previous}}));
  session.Commit();
  return *it;
}

Status LanguageService::Delete(const identity::Principal& caller, const std::string& code) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  const std::string canonical = CanonicalLanguageCode(code).value_or(code);
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto languages = Load(tenant, true);
  auto it = std::find_if(languages.begin(), languages.end(), [&](const Language& l) { return l.code == canonical; });
  if (it == languages.end()) return LanguageNotFound(code);
  if (it->is_default) return DefaultLanguage(it->code);
  internal::DeleteItem(tenant, kKind, it->code);
  const std::string removed = it->code;
  languages.erase(it);
  SaveState(tenant, languages);
  audit_.Record(tenant, identity::AuditOf(caller, "language.removed", {"language", removed}, {}));
  session.Commit();
  return Ok();
}

}  // namespace credence::platform
