#pragma once
// Per-block translations of an entry. A translated block records the hash of
// the original block it was translated from; it is stale when that hash no
// longer matches (derived at read time, never stored).
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/principal.h"
#include "identity/events.h"
#include "kb/activity_observer.h"
#include "kb/action_guard.h"
#include "kb/content_observer.h"
#include "kb/document.h"
#include "kb/model.h"

namespace credence::storage {
class Database;
class TenantSession;
}  // namespace credence::storage

namespace credence::kb {

struct FullTranslation {
  TranslationSummary summary;
  std::string content;  // translated blocks in the original's order
};

class TranslationService {
 public:
  // `events` gets translation.updated when a translation is created;
  // `activity` an edit in that language (in the creation's transaction).
  TranslationService(storage::Database& db, const Clock& clock, const ContentObserver& content = kIgnoreContent,
                     const identity::EventSink& events = identity::kNoEvents,
                     const ActionGuards& guards = kNoGuards, const ActivityObserver& activity = kIgnoreActivity)
      : db_(db), clock_(clock), content_(content), events_(events), guards_(guards), activity_(activity) {}

  Result<std::vector<TranslationSummary>> List(const identity::Principal& caller, const std::string& entry_id) const;
  Result<FullTranslation> Get(const identity::Principal& caller, const std::string& entry_id,
                              const std::string& language) const;
  // Entry Editor+. 409 translation_exists; 400 for the original's language,
  // an unknown language, or a block that is not in the original.
  Result<FullTranslation> Create(const identity::Principal& caller, const std::string& entry_id,
                                 const std::string& language, const std::string& title,
                                 const std::string& content) const;
  Result<TranslationSummary> GetStatus(const identity::Principal& caller, const std::string& entry_id,
                                       const std::string& language) const;
  // Every block, or only `block_ids` (blocks of the translation; 400
  // naming the first that is not one).
  Result<TranslationSummary> MarkUpToDate(const identity::Principal& caller, const std::string& entry_id,
                                          const std::string& language,
                                          const std::optional<std::vector<std::string>>& block_ids = std::nullopt) const;
  Result<std::vector<StaleBlock>> StaleBlocks(const identity::Principal& caller, const std::string& entry_id,
                                              const std::string& language) const;
  Status Delete(const identity::Principal& caller, const std::string& entry_id, const std::string& language) const;

  // Machine translation (docs/machine-translation.md) in two steps, so no
  // write transaction is held while a provider answers.
  struct MachineWork {
    std::string original_language;
    std::string original_title;
    std::string original_content;  // the whole original, for block-type heuristics
    bool exists = false;           // a translation in the language exists already
    std::vector<Block> blocks;     // live original blocks whose translation is missing or stale
  };
  // Entry Editor+; 400 as Create for the language.
  Result<MachineWork> PendingMachineWork(const identity::Principal& caller, const std::string& entry_id,
                                         const std::string& language) const;
  struct MachineBlock {
    std::string block_id;
    std::string source_hash;  // the original block's hash it was translated from
    std::string node_json;    // the translated node, with attrs.blockId
  };
  // Entry Editor+. Creates the translation (titled `title`) when there is
  // none; writes each block as machine-translated from its source hash,
  // except a block whose original changed (or was removed) meanwhile, which
  // is left as it was. Other blocks are untouched.
  Result<FullTranslation> SaveMachineTranslation(const identity::Principal& caller, const std::string& entry_id,
                                                 const std::string& language, const std::string& title,
                                                 const std::vector<MachineBlock>& blocks) const;

  // Replaces a translation's title and blocks within the caller's write
  // transaction (the entry is loaded and its access checked by the caller).
  // A block whose text changed is taken as re-translated from the current
  // original (by a person: its machine-translated mark goes); an unchanged
  // block keeps the hash it was translated from and its mark.
  // `observer` is told the translation's new text.
  static Status Replace(storage::TenantSession& session, const Entry& entry, const std::string& language,
                        const std::string& title, const std::string& content, const std::string& user_id, TimeMs now,
                        const ContentObserver& observer);
  // The summary of one translation, or nullopt when there is none.
  static std::optional<TranslationSummary> Summary(storage::TenantSession& session, const std::string& entry_id,
                                                   const std::string& language);

 private:
  storage::Database& db_;
  const Clock& clock_;
  const ContentObserver& content_;
  const identity::EventSink& events_;
  const ActionGuards& guards_;
  const ActivityObserver& activity_;
};

}  // namespace credence::kb
