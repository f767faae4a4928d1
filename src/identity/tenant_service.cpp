#include "identity/tenant_service.h"

#include <boost/json/array.hpp>
#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "core/ids.h"
#include "core/json_text.h"
#include "core/text.h"
#include "identity/internal/queries.h"
#include "identity/internal/session_queries.h"
#include "storage/session.h"

namespace credence::identity {
namespace json = boost::json;
namespace {

Tenant TenantFromRow(const storage::Row& r) {
  Tenant t;
  t.id = r.Text(0);
  t.name = r.Text(1);
  t.slug = r.Text(2);
  t.domain = r.OptText(3);
  t.allow_all_users = r.Bool(4);
  t.enabled_languages = StringListFromJson(r.Text(5));
  t.enabled_plugins = StringListFromJson(r.Text(6));
  t.default_language = r.Text(7);
  t.created_at = r.Int(8);
  return t;
}

}  // namespace

const std::vector<Persona>& DevPersonas() {
  static const std::vector<Persona> kPersonas = {
      {"admin", "Ada Admin", TenantRole::kOwner},
      {"editor", "Eddie Editor", TenantRole::kMember},
      {"viewer", "Vera Viewer", TenantRole::kMember},
      {"guest", "Gus Guest", TenantRole::kGuest},
  };
  return kPersonas;
}

const std::vector<KnownLanguage>& KnownLanguages() {
  static const std::vector<KnownLanguage> kLanguages = {
      {"ar", "Arabic", "العربية"},        {"cs", "Czech", "Čeština"},         {"da", "Danish", "Dansk"},
      {"de", "German", "Deutsch"},         {"el", "Greek", "Ελληνικά"},        {"en", "English", "English"},
      {"es", "Spanish", "Español"},        {"fi", "Finnish", "Suomi"},         {"fr", "French", "Français"},
      {"he", "Hebrew", "עברית"},           {"hi", "Hindi", "हिन्दी"},            {"hu", "Hungarian", "Magyar"},
      {"id", "Indonesian", "Bahasa Indonesia"}, {"it", "Italian", "Italiano"}, {"ja", "Japanese", "日本語"},
      {"ko", "Korean", "한국어"},           {"nb", "Norwegian Bokmål", "Norsk bokmål"}, {"nl", "Dutch", "Nederlands"},
      {"pl", "Polish", "Polski"},          {"pt", "Portuguese", "Português"}, {"pt-BR", "Portuguese (Brazil)", "Português (Brasil)"},
      {"ro", "Romanian", "Română"},        {"ru", "Russian", "Русский"},       {"sv", "Swedish", "Svenska"},
      {"th", "Thai", "ไทย"},               {"tr", "Turkish", "Türkçe"},        {"uk", "Ukrainian", "Українська"},
      {"vi", "Vietnamese", "Tiếng Việt"},  {"zh", "Chinese (Simplified)", "简体中文"},
      {"zh-TW", "Chinese (Traditional)", "繁體中文"},
  };
  return kLanguages;
}

bool IsKnownLanguage(std::string_view code) {
  for (const auto& l : KnownLanguages())
    if (l.code == code) return true;
  return false;
}

const KnownLanguage* FindKnownLanguage(std::string_view code) {
  for (const auto& l : KnownLanguages())
    if (l.code == code) return &l;
  return nullptr;
}

TenantLanguages ReadTenantLanguages(storage::TenantSession& tenant, bool for_update) {
  auto rows = tenant.session().Run(for_update ? internal::kLockTenantLanguages : internal::kReadTenantLanguages,
                                   {tenant.tenant_id()});
  TenantLanguages out;
  if (rows.empty()) return out;
  out.enabled = StringListFromJson(rows.front().TextView(0));
  out.default_language = rows.front().Text(1);
  return out;
}

void WriteTenantLanguages(storage::TenantSession& tenant, const TenantLanguages& languages) {
  tenant.session().Run(internal::kWriteTenantLanguages,
                       {tenant.tenant_id(), StringListToJson(languages.enabled), languages.default_language});
}

Result<Tenant> TenantService::Create(const NewTenant& request, const Principal* creator,
                                     const RequestMeta& request_meta, const std::string& system_label) const {
  const Audited audited{creator, request_meta, system_label};
  if (dev_mode_) {
    const bool owner = creator != nullptr && creator->is_user();
    return Insert(request, owner ? &creator->user_id : nullptr, /*with_personas=*/true, nullptr, audited);
  }
  if (creator == nullptr)
    return Error::Unauthenticated("missing_credentials", "Sign in to create a tenant.");
  if (!creator->is_user()) return Error::PermissionDenied("Machine credentials cannot create tenants.");
  return Insert(request, &creator->user_id, /*with_personas=*/false, &creator->user_id, audited);
}

TenantCreationAllowance TenantService::CreationAllowance(const Principal& caller) const {
  if (dev_mode_) return {true, -1, -1};
  if (!caller.is_user() || creations_per_day_ <= 0) return {false, std::max<int64_t>(creations_per_day_, 0), 0};
  constexpr TimeMs kDay = 24LL * 3600 * 1000;
  storage::Session session(db_, storage::TxMode::kRead);
  auto rows = session.Run(internal::kCountTenantsCreatedBy, {caller.user_id, clock_.Now() - kDay});
  const int64_t remaining = std::max<int64_t>(0, creations_per_day_ - rows.front().Int(0));
  return {remaining > 0, creations_per_day_, remaining};
}

Result<Tenant> TenantService::CreateWithOwner(const NewTenant& request, const std::string& owner_email,
                                              const std::string& owner_name) const {
  const std::string email = NameKey(owner_email);  // trimmed, ASCII-lowercased
  std::string user_id;
  {
    storage::Session session(db_, storage::TxMode::kWrite);
    auto rows = session.Run(internal::kFindUserByEmail, {email});
    if (!rows.empty()) {
      user_id = rows.front().Text(0);
    } else {
      user_id = NewId();
      session.Run(internal::kInsertUser, {user_id, email, owner_name.empty() ? email : owner_name, clock_.Now()});
      session.Commit();
    }
  }
  return Insert(request, &user_id, /*with_personas=*/false, nullptr, {nullptr, {}, "operator"});
}

Result<Tenant> TenantService::Insert(const NewTenant& request, const std::string* owner_user_id, bool with_personas,
                                     const std::string* rate_limited_user, const Audited& audited) const {
  std::vector<FieldError> errors;
  for (size_t i = 0; i < request.enabled_languages.size(); ++i)
    if (!IsKnownLanguage(request.enabled_languages[i]))
      errors.push_back({"enabledLanguages[" + std::to_string(i) + "]",
                        "unknown language '" + request.enabled_languages[i] + "' (see /api/tenant/known-languages)"});
  if (!errors.empty()) return Error::Validation(std::move(errors));

  Tenant t;
  t.id = NewId();
  t.name = request.name;
  t.slug = request.slug;
  t.domain = request.domain;
  t.allow_all_users = request.allow_all_users;
  t.enabled_languages = request.enabled_languages.empty() ? std::vector<std::string>{"en"} : request.enabled_languages;
  t.enabled_plugins = request.enabled_plugins;
  const bool has_english = std::find(t.enabled_languages.begin(), t.enabled_languages.end(), "en") !=
                           t.enabled_languages.end();
  t.default_language = has_english ? "en" : t.enabled_languages.front();
  t.created_at = clock_.Now();

  storage::Session session(db_, storage::TxMode::kWrite);
  if (rate_limited_user != nullptr) {
    constexpr TimeMs kDay = 24LL * 3600 * 1000;
    auto rows = session.Run(internal::kCountTenantsCreatedBy, {*rate_limited_user, t.created_at - kDay});
    const int64_t created = rows.front().Int(0);
    if (created >= creations_per_day_) {
      const TimeMs free_at = rows.front().IsNull(1) ? t.created_at + kDay : rows.front().Int(1) + kDay;
      const int64_t seconds = std::max<int64_t>(1, (free_at - t.created_at + 999) / 1000);
      return Error{ErrorKind::kRateLimited,
                   "tenant_creation_rate_limited",
                   "You have created " + std::to_string(created) + " tenants in the last 24 hours; the limit is " +
                       std::to_string(creations_per_day_) + ".",
                   {},
                   {}}
          .With("retryAfter", "\"" + std::to_string(seconds) + "\"");
    }
  }
  if (!session.Run(internal::kFindTenantBySlug, {t.slug}).empty())
    return Error::Conflict("slug_taken", "A tenant with slug '" + t.slug + "' already exists.");
  try {
    session.Run(internal::kInsertTenant,
                {t.id, t.name, t.slug, t.domain, t.allow_all_users, StringListToJson(t.enabled_languages),
                 StringListToJson(t.enabled_plugins), t.default_language, t.created_at,
                 owner_user_id != nullptr ? storage::Param(*owner_user_id) : storage::Param(nullptr)});
  } catch (const storage::StorageError& e) {
    if (e.kind() == storage::StorageError::Kind::kUniqueViolation)
      return Error::Conflict("slug_taken", "A tenant with slug '" + t.slug + "' already exists.");
    throw;
  }
  storage::TenantSession tenant(session, t.id);
  if (owner_user_id != nullptr) tenant.Run(internal::kInsertMember, {*owner_user_id, "Owner", nullptr, t.created_at});
  if (with_personas) {
    for (const Persona& p : DevPersonas()) {
      const std::string user_id = NewId();
      session.Run(internal::kInsertUser, {user_id, p.key + "@" + t.slug + ".example", p.display_name, t.created_at});
      tenant.Run(internal::kInsertMember, {user_id, TenantRoleName(p.role), p.key, t.created_at});
    }
  }
  AuditEvent created;
  if (audited.creator != nullptr) {
    created = AuditOf(*audited.creator, "tenant.created", {"tenant", t.id});
  } else {
    created.actor = SystemActor(audited.system_label);
    created.action = "tenant.created";
    created.target = {"tenant", t.id};
    created.request = audited.request_meta;
  }
  created.details = {{"name", t.name}, {"slug", t.slug}};
  audit_.Record(tenant, created);
  session.Commit();
  return t;
}

Tenant TenantService::EnsureDevTenant(const std::string& name, const std::string& slug) const {
  {
    storage::Session session(db_);
    auto rows = session.Run(internal::kFindTenantBySlug, {slug});
    if (!rows.empty()) return TenantFromRow(rows.front());
  }
  NewTenant request;
  request.name = name;
  request.slug = slug;
  request.enabled_languages = {"en", "es", "de"};
  auto created = Insert(request, nullptr, /*with_personas=*/true, nullptr, {nullptr, {}, "dev-seed"});
  if (created) return std::move(created).value();
  // Another node seeded it between our read and our write.
  storage::Session session(db_);
  return TenantFromRow(session.Run(internal::kFindTenantBySlug, {slug}).front());
}

std::vector<TenantSummary> TenantService::ListAll() const {
  storage::Session session(db_);
  std::vector<TenantSummary> out;
  for (const auto& row : session.Run(internal::kListTenants)) out.push_back({row.Text(0), row.Text(1), row.Text(2)});
  return out;
}

Result<Tenant> TenantService::Get(const std::string& tenant_id) const {
  storage::Session session(db_);
  auto rows = session.Run(internal::kFindTenantById, {tenant_id});
  if (rows.empty()) return Error::NotFound("Tenant not found.");
  return TenantFromRow(rows.front());
}

Result<DevSignIn> TenantService::DevLogin(const std::string& persona, const std::string& tenant_id) const {
  storage::Session session(db_);
  if (session.Run(internal::kFindTenantById, {tenant_id}).empty()) return Error::NotFound("Tenant not found.");
  storage::TenantSession tenant(session, tenant_id);
  auto rows = tenant.Run(internal::kFindPersona, {persona});
  if (rows.empty()) return Error::NotFound("Unknown persona '" + persona + "'.");
  const auto row = rows.front();
  DevSignIn out;
  out.user.id = row.Text(0);
  out.user.email = row.Text(1);
  out.user.display_name = row.Text(2);
  out.user.tenant_id = tenant_id;
  out.user.role = ParseTenantRole(row.Text(3)).value_or(TenantRole::kGuest);
  out.user.preferred_language = row.OptText(4);
  out.token = "dev-token-" + tenant_id + ":" + out.user.id;
  return out;
}

UserProfile TenantService::ProfileOf(const Principal& p) {
  return UserProfile{p.user_id, p.email, p.display_name, p.tenant_id, p.role, p.preferred_language};
}

}  // namespace credence::identity
