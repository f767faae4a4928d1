#pragma once
// Machine translation of entries (docs/machine-translation.md): per block,
// only what is missing or stale; text nodes only, so the document's
// structure, marks and attributes are kept; code and protected blocks
// copied; glossary terms applied.
#include <optional>
#include <string>
#include <vector>

#include "core/result.h"
#include "identity/principal.h"
#include "kb/translation_service.h"
#include "platform/block_heuristics.h"
#include "platform/glossaries.h"
#include "platform/languages.h"
#include "translation/translator.h"

namespace credence::translation {

// Pure. Translates the text nodes of one top-level node (an editor node as
// JSON) in one batch: every {"type":"text","text":...} leaf except those
// carrying a "code" mark; everything else (types, attrs, marks, order) is
// kept byte for byte in meaning. `glossary` terms are protected by
// placeholders unless the translator applies glossaries itself.
Result<std::string> TranslateNode(const Translator& translator, const std::string& node_json, const std::string& source,
                                  const std::string& target, const GlossaryInput* glossary);

// Whether a block is copied rather than translated: a heuristic classified
// it Protect or Skip, or it is a codeBlock.
bool CopiedVerbatim(const std::string& node_type, const std::optional<platform::BlockTranslation>& rule);

class MachineTranslationService {
 public:
  // All references outlive the service.
  MachineTranslationService(const kb::TranslationService& translations,
                            const platform::BlockHeuristicService& heuristics,
                            const platform::GlossaryService& glossaries, const platform::LanguageService& languages,
                            const TranslatorSet& translators)
      : translations_(translations),
        heuristics_(heuristics),
        glossaries_(glossaries),
        languages_(languages),
        translators_(translators) {}

  // Entry Editor+. Translates the blocks of the entry's translation into
  // `language` that are missing or stale with `provider` (default: the
  // provider the tenant's language configuration names, when this server
  // has it configured; else the server's default) and saves them marked machine-translated; creates
  // the translation (its title translated) when there is none. 400
  // auto_translation_unavailable when no provider is configured, 400
  // unknown_provider; the provider's errors as they come (translator.h).
  Result<kb::FullTranslation> TranslateEntry(const identity::Principal& caller, const std::string& entry_id,
                                             const std::string& language,
                                             const std::optional<std::string>& provider) const;

  bool Available() const { return !translators_.Empty(); }
  // The providers this server is configured with, the default first.
  std::vector<std::string> Providers() const { return translators_.Names(); }

  struct SyncedGlossary {
    std::string provider;
    std::string provider_glossary_id;
  };
  // Global admins only. Pushes glossary `id` to `provider` (default: a
  // configured provider that stores glossaries, else the default one) and
  // records the id it answers, which later translations in the glossary's
  // language pair pass along. 409 no_translation_provider when none is
  // configured; 409 glossary_sync_unsupported for a provider that does not
  // store glossaries (Apertium, LibreTranslate); 404 unknown glossary.
  Result<SyncedGlossary> SyncGlossary(const identity::Principal& caller, const std::string& id,
                                      const std::optional<std::string>& provider) const;

 private:
  GlossaryInput GlossaryFor(const identity::Principal& caller, const Translator& translator, const std::string& source,
                            const std::string& target) const;

  const kb::TranslationService& translations_;
  const platform::BlockHeuristicService& heuristics_;
  const platform::GlossaryService& glossaries_;
  const platform::LanguageService& languages_;
  const TranslatorSet& translators_;
};

}  // namespace credence::translation
