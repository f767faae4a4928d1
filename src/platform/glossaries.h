#pragma once
// Glossaries (docs/configuration.md, "Glossaries"): a named list of terms
// for a language pair (source term, target term, case sensitivity, notes),
// exchanged as CSV or TBX (ISO 30042, TBX-Basic). Pushing a glossary to a
// machine-translation provider is translation::MachineTranslationService's;
// with no provider configured Sync answers 409 no_translation_provider.
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/audit.h"
#include "identity/principal.h"

namespace credence::storage {
class Database;
}

namespace credence::platform {

struct GlossaryTerm {
  std::string source;
  std::string target;
  bool case_sensitive = false;
  std::optional<std::string> notes;
};

struct Glossary {
  std::string id;
  std::string name;
  std::string source_language;
  std::string target_language;
  std::optional<std::string> description;
  std::vector<GlossaryTerm> terms;
  size_t term_count = 0;  // terms.size(), also when a listing leaves terms out
  TimeMs created_at = 0;
  TimeMs updated_at = 0;
};

inline constexpr size_t kMaxGlossaryTerms = 5000;
inline constexpr size_t kMaxGlossaryTermLength = 200;
inline constexpr size_t kMaxGlossaryNotesLength = 1000;
inline constexpr size_t kMaxGlossaryImportBytes = size_t{2} * 1024 * 1024;

// Pure. CSV (RFC 4180; CRLF or LF; a UTF-8 BOM is ignored) with a header
// row naming the columns: source and target (required), caseSensitive and
// notes (optional), in any order. 400 invalid_csv naming the line (also
// the first line that is not UTF-8 text: malformed, or a NUL byte).
Result<std::vector<GlossaryTerm>> ParseGlossaryCsv(std::string_view csv);
// Pure. The header row and one row per term, CRLF. A cell that a
// spreadsheet would run as a formula (= + - @ tab CR first), or that is
// ' characters before one, is prefixed with ', which ParseGlossaryCsv
// removes again: every term reads back as written.
std::string WriteGlossaryCsv(const std::vector<GlossaryTerm>& terms);

// Pure. The terms of a TBX document (TBX v3 conceptEntry/langSec/termSec
// or TBX 2008 termEntry/langSet/tig; any prefix or namespace): per entry,
// the first term of the language section matching `source_language`
// (exactly or as its primary subtag: "en-US" for "en"), the first of
// `target_language`, the entry's note or definition as notes. Entries
// lacking either language are skipped and counted. 400 invalid_xml or
// invalid_tbx.
struct TbxImport {
  std::vector<GlossaryTerm> terms;
  size_t skipped = 0;
};
Result<TbxImport> ParseGlossaryTbx(std::string_view xml, const std::string& source_language,
                                   const std::string& target_language);
// Pure. A TBX-Basic document (TBX v3, DCA style).
std::string WriteGlossaryTbx(const Glossary& glossary);

class GlossaryService {
 public:
  GlossaryService(storage::Database& db, const Clock& clock, const identity::AuditRecorder& audit)
      : db_(db), clock_(clock), audit_(audit) {}

  // Any signed-in user; by name, without their terms (term_count only).
  Result<std::vector<Glossary>> List(const identity::Principal& caller) const;
  Result<Glossary> Get(const identity::Principal& caller, const std::string& id) const;
  // Global admins only. 400 for unknown or equal languages or bad terms;
  // 409 glossary_name_taken. Update replaces every field and the terms.
  Result<Glossary> Create(const identity::Principal& caller, const Glossary& input) const;
  Result<Glossary> Update(const identity::Principal& caller, const std::string& id, const Glossary& input) const;
  Status Delete(const identity::Principal& caller, const std::string& id) const;
  // Global admins only. Adds `terms` (a term whose source is already there,
  // ignoring case, is replaced), or replaces all terms with them.
  Result<Glossary> Import(const identity::Principal& caller, const std::string& id,
                          const std::vector<GlossaryTerm>& terms, bool replace, std::string_view format) const;
  // Global admins only. 409 no_translation_provider (404 first for an
  // unknown glossary).
  Status Sync(const identity::Principal& caller, const std::string& id) const;

  // Pushed glossaries (docs/machine-translation.md): the id `provider` gave
  // glossary `id` at its last sync, or nullopt.
  std::optional<std::string> ProviderGlossaryId(const identity::Principal& caller, const std::string& id,
                                                std::string_view provider) const;
  // Global admins only; 404 for an unknown glossary. Records the provider's
  // id after a push (replacing an earlier one).
  Status RecordProviderGlossary(const identity::Principal& caller, const std::string& id, std::string_view provider,
                                const std::string& provider_glossary_id) const;

 private:
  storage::Database& db_;
  const Clock& clock_;
  const identity::AuditRecorder& audit_;
};

}  // namespace credence::platform
