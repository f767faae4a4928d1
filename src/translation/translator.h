#pragma once
// Machine-translation providers (docs/machine-translation.md). One
// interface, three adapters over HTTP (libcurl): Apertium's APY server,
// LibreTranslate and DeepL API v2. Languages are BCP 47 tags ("en", "es");
// each adapter maps them to its provider's codes.
//
// Errors are values: 502 mt_auth_failed (the key was refused),
// mt_quota_exceeded (DeepL 456, LibreTranslate 429), mt_timeout,
// mt_unavailable (connection refused, 5xx), mt_bad_response; 400
// mt_unsupported_pair for a language pair the provider cannot translate.
// Translators are immutable after construction and safe to share between
// threads (each call uses its own curl handle).
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace credence::translation {

struct Term {
  std::string source;
  std::string target;
  bool case_sensitive = false;
};

// The glossary to apply: its terms, and for DeepL the id it was synced to.
struct GlossaryInput {
  std::vector<Term> terms;
  std::optional<std::string> provider_glossary_id;
};

class Translator {
 public:
  virtual ~Translator() = default;
  virtual std::string_view Name() const = 0;
  // One translated text per input text, in order. Texts are plain text
  // (no markup); an empty text comes back empty.
  virtual Result<std::vector<std::string>> Translate(const std::vector<std::string>& texts, const std::string& source,
                                                     const std::string& target,
                                                     const GlossaryInput* glossary) const = 0;
  // True when the provider applies glossaries itself (after SyncGlossary);
  // otherwise callers protect terms (ProtectTerms below).
  virtual bool SupportsGlossaries() const { return false; }
  // Pushes a glossary; answers the provider's glossary id. Default: 409
  // glossary_sync_unsupported.
  virtual Result<std::string> SyncGlossary(const std::string& name, const std::string& source,
                                           const std::string& target, const std::vector<Term>& terms) const;
};

struct ProviderConfig {
  std::string apertium_url;  // e.g. http://127.0.0.1:2737
  std::string libretranslate_url;
  std::string libretranslate_key;
  std::string deepl_url;  // e.g. https://api-free.deepl.com
  std::string deepl_key;
  std::string default_provider = "apertium";
  long timeout_ms = 15'000;
  // The triggers' jobs of one tenant running at once (translation/jobs.h).
  int64_t jobs_per_tenant = 2;
};

// The configured providers (those with a URL).
class TranslatorSet {
 public:
  explicit TranslatorSet(const ProviderConfig& config);
  // nullptr when `name` is not configured.
  const Translator* Find(std::string_view name) const;
  // The default provider when configured, else the first configured one,
  // else nullptr.
  const Translator* Default() const;
  bool Empty() const { return translators_.empty(); }
  // The configured providers' names, the default first.
  std::vector<std::string> Names() const;

 private:
  std::vector<std::unique_ptr<Translator>> translators_;
  std::string default_name_;
};

std::unique_ptr<Translator> MakeApertium(std::string base_url, long timeout_ms);
std::unique_ptr<Translator> MakeLibreTranslate(std::string base_url, std::string api_key, long timeout_ms);
std::unique_ptr<Translator> MakeDeepL(std::string base_url, std::string auth_key, long timeout_ms);

// Apertium's code for a BCP 47 tag ("en" -> "eng", "es" -> "spa"); the tag
// itself when unknown.
std::string ApertiumCode(std::string_view bcp47);

// Glossary terms for providers without glossary support: every occurrence
// of a source term in `text` is replaced by a placeholder the engines pass
// through untouched (a number-like token, "⟦1⟧"-free so no engine splits it),
// and RestoreTerms puts the target term in its place afterwards.
struct Protected {
  std::string text;
  std::vector<std::string> replacements;  // index i replaces token i
};
Protected ProtectTerms(std::string_view text, const std::vector<Term>& terms);
std::string RestoreTerms(std::string_view translated, const std::vector<std::string>& replacements);

}  // namespace credence::translation
