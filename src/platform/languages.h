#pragma once
// Tenant languages (docs/configuration.md, "Languages"): which languages a
// tenant offers, its default, and per language the translation trigger,
// provider, display name and order.
//
// One truth: which languages are enabled and which is the default live on
// the tenant row (identity::TenantLanguages, set at tenant creation); the
// settings of each language live in config_items (kind "language", id the
// code). A language enabled at creation without settings shows defaults.
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/audit.h"
#include "identity/principal.h"

namespace credence::storage {
class Database;
class TenantSession;
}

namespace credence::platform {

enum class TranslationTrigger { kAlwaysTranslate, kOnDemand, kNever };
std::string_view TranslationTriggerName(TranslationTrigger trigger);
std::optional<TranslationTrigger> ParseTranslationTrigger(std::string_view name);
std::vector<std::string> TranslationTriggerNames();

struct Language {
  std::string code;  // BCP 47, spelled as in the known-languages list
  std::string display_name;
  bool is_enabled = true;
  bool is_default = false;
  TranslationTrigger trigger = TranslationTrigger::kOnDemand;
  std::optional<std::string> provider;
  int64_t sort_order = 0;
};

// Fields of an add or an update; absent fields keep their value (update) or
// take the default (add: enabled, OnDemand, no provider, after the others).
struct LanguageInput {
  std::string code;  // add only
  std::optional<std::string> display_name;
  std::optional<TranslationTrigger> trigger;
  std::optional<std::optional<std::string>> provider;  // set to null clears
  std::optional<int64_t> sort_order;
  std::optional<bool> is_enabled;
};

inline constexpr size_t kMaxLanguageDisplayNameLength = 100;
inline constexpr size_t kMaxProviderLength = 100;

// The canonical code of a known language, matched ignoring case ("pt-br"
// -> "pt-BR"); nullopt for a code not in identity::KnownLanguages().
std::optional<std::string> CanonicalLanguageCode(std::string_view code);

// Every language of `tenant`'s tenant (enabled or with settings), inside
// the caller's transaction.
std::vector<Language> LanguagesIn(storage::TenantSession& tenant);

class LanguageService {
 public:
  LanguageService(storage::Database& db, const Clock& clock, const identity::AuditRecorder& audit)
      : db_(db), clock_(clock), audit_(audit) {}

  // Any signed-in user of the tenant. By sortOrder, then code.
  Result<std::vector<Language>> List(const identity::Principal& caller) const;
  Result<std::vector<Language>> Enabled(const identity::Principal& caller) const;
  Result<Language> Default(const identity::Principal& caller) const;

  // Global admins only. 400 (field code) for a code not in the known list;
  // 409 language_exists when the tenant already has it.
  Result<Language> Add(const identity::Principal& caller, const LanguageInput& input) const;
  // 404 when the tenant has no such language; 409 default_language when
  // asked to disable the default.
  Result<Language> Update(const identity::Principal& caller, const std::string& code, const LanguageInput& input) const;
  // Makes `code` the one default, enabling it if it was disabled. 404 when
  // the tenant has no such language.
  Result<Language> SetDefault(const identity::Principal& caller, const std::string& code) const;
  // Removes the language from the tenant. 409 default_language for the
  // default (set another default first). Translations in it are kept (they
  // are content); the language is no longer offered, and adding it again
  // brings them back.
  Status Delete(const identity::Principal& caller, const std::string& code) const;

 private:
  storage::Database& db_;
  const Clock& clock_;
  const identity::AuditRecorder& audit_;
};

}  // namespace credence::platform
