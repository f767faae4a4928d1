#pragma once
// Entries: documents made of blocks, in a hub. Block ids, hashes and the
// staleness of translations follow decisions.md section 5 and
// docs/knowledge-base.md.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/principal.h"
#include "identity/events.h"
#include "kb/activity_observer.h"
#include "kb/action_guard.h"
#include "kb/content_observer.h"
#include "kb/model.h"

namespace credence::storage {
class Database;
}

namespace credence::identity {
class AuditRecorder;
}  // namespace credence::identity

namespace credence::kb {

struct NewEntry {
  std::string hub_key;
  std::string key;
  std::string original_language;
  std::string title;
  std::string content;
  std::optional<int> expiry_days;  // else the hub's defaultExpiryDays
  std::optional<std::string> preview_image;
};

struct EntryUpdate {
  std::string title;
  std::string content;
  std::optional<std::string> preview_image;
  std::optional<EntryStatus> status;  // status override
};

// A delete confirmed by the caller (?confirm=true&reason=...), for guards
// that ask for it (safe-delete).
struct DeleteConfirmation {
  bool confirmed = false;
  std::string reason;
};

inline constexpr int kSearchDefaultTake = 15;
inline constexpr int kSearchMaxTake = 100;
// A query matching more entries than this ranks the newest this many that
// the caller may open (docs/knowledge-base.md, "Search").
inline constexpr int kSearchRankWindow = 300;

class EntryService {
 public:
  // `content` is told the text of every save, in the save's transaction.
  // `events` gets entry.published, entry.updated, entry.deleted,
  // translation.updated and translation.stale (docs/webhooks.md), in the
  // action's transaction. `guards` are asked before Entry.Publish and
  // Entry.Delete change anything (a denial: 422 guard_denied, nothing changed).
  // `activity` is told of every read by a signed-in user (after it) and of
  // every content change (in its transaction).
  EntryService(storage::Database& db, const Clock& clock, const ContentObserver& content = kIgnoreContent,
               const identity::EventSink& events = identity::kNoEvents, const ActionGuards& guards = kNoGuards,
               const ActivityObserver& activity = kIgnoreActivity, const identity::AuditRecorder* audit = nullptr)
      : db_(db),
        clock_(clock),
        content_(content),
        events_(events),
        guards_(guards),
        activity_(activity),
        audit_(audit) {}

  // Asked by Get when a language other than the original is asked for and
  // the entry has no translation in it, or a stale or incomplete one: true
  // when a machine translation is (now) queued for it. Set once, before use.
  using ReadTrigger = std::function<bool(const identity::Principal& caller, const std::string& entry_id,
                                         const std::string& language)>;
  void SetReadTrigger(ReadTrigger trigger) { read_trigger_ = std::move(trigger); }

  // Hub Viewer+. Listings carry no content.
  Result<std::vector<Entry>> ListByHub(const identity::Principal& caller, const std::string& hub_key) const;
  // Hub Viewer+; 404 when the hub has no root entry.
  Result<EntryView> RootEntry(const identity::Principal& caller, const std::string& hub_key) const;
  // Entry Viewer+. The translation in `language` when one exists, else the
  // original (EntryView::language says which).
  Result<EntryView> Get(const identity::Principal& caller, const std::string& id, const std::string& language) const;
  // Hub Editor+ (the author needs to be able to edit in the hub). 201.
  Result<EntryView> Create(const identity::Principal& caller, const NewEntry& request) const;
  // Entry Editor+. With `language` empty or the original language: updates
  // the original, re-hashing blocks (translations of changed blocks become
  // stale). With a translation's language: updates that translation.
  Result<EntryView> Update(const identity::Principal& caller, const std::string& id, const std::string& language,
                           const EntryUpdate& update) const;
  // Owner only; 400 entry_is_hub_root for a hub's root entry.
  // `confirmation` reaches the Entry.Delete guards as properties confirmed
  // and reason.
  Status Delete(const identity::Principal& caller, const std::string& id,
                const DeleteConfirmation& confirmation = {}) const;
  // Entry Editor+. Draft (or any status) -> Published.
  Result<EntryView> Publish(const identity::Principal& caller, const std::string& id) const;
  // Entries past their expiry date that the caller may open.
  std::vector<Entry> Expired(const identity::Principal& caller) const;
  // Entry Editor+; the new owner must be an active user of the tenant.
  Result<EntryView> TransferOwnership(const identity::Principal& caller, const std::string& id,
                                      const std::string& new_owner_id) const;
  // Entry Editor+. 409 translation_exists when a translation in that
  // language exists (delete it first); staleness is untouched (the content
  // did not change, only its label).
  Result<EntryView> ChangeOriginalLanguage(const identity::Principal& caller, const std::string& id,
                                           const std::string& language) const;
  // Entry Editor+; replaces the hub's previous root entry.
  Result<EntryView> SetRoot(const identity::Principal& caller, const std::string& id) const;
  // Titles and block text, ranked, restricted to entries the caller may open.
  Result<std::vector<SearchResult>> Search(const identity::Principal& caller, const std::string& q,
                                           const std::string& hub_key, int take) const;

  // For AI applications (machine credentials; the MCP server, src/mcp),
  // whom no hub or entry permission names: what they may use is the trust
  // plane's decision, made on every candidate after these answer (as
  // evaluate decides any entry of the tenant for a key). Search ranks every
  // entry of the caller's tenant; Read serves one entry as Get would, and
  // records no reading (analytics counts people). 404 for an unknown or
  // another tenant's entry; 403 for a signed-in user.
  Result<std::vector<SearchResult>> SearchForApplication(const identity::Principal& caller, const std::string& q,
                                                         int take) const;
  Result<EntryView> ReadForApplication(const identity::Principal& caller, const std::string& id,
                                       const std::string& language) const;
  // Every entry of the tenant (no content), in id order after `after_id`
  // ("" from the start), at most `limit`: a listing an application pages
  // through.
  Result<std::vector<Entry>> ListForApplication(const identity::Principal& caller, const std::string& after_id,
                                                int limit) const;

 private:
  // `user_id`, `admin` and `default_role` fill the permission checks of the
  // search statements: an application passes ("", true, false), which
  // opens every hub.
  Result<std::vector<SearchResult>> SearchAs(const std::string& tenant_id, const std::string& user_id, bool admin,
                                             bool default_role, const std::string& q, const std::string& hub_key,
                                             int take) const;

  storage::Database& db_;
  const Clock& clock_;
  const ContentObserver& content_;
  const identity::EventSink& events_;
  const ActionGuards& guards_;
  const ActivityObserver& activity_;
  const identity::AuditRecorder* audit_;  // entry.deleted (docs/audit.md)
  ReadTrigger read_trigger_;
};

}  // namespace credence::kb
