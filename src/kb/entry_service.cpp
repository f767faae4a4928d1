#include "kb/entry_service.h"

#include <boost/json/object.hpp>

#include <deque>
#include <unordered_map>
#include <unordered_set>

#include "core/ids.h"
#include "identity/audit.h"
#include "identity/tenant_service.h"
#include "kb/access.h"
#include "kb/document.h"
#include "kb/internal/entry_access.h"
#include "kb/internal/queries.h"
#include "kb/internal/rows.h"
#include "kb/translation_service.h"
#include "storage/session.h"

namespace credence::kb {
namespace {

using identity::RequireLevel;
using internal::LoadEntry;

struct StoredBlock {
  int position;
  std::string hash;
  bool is_deleted;
};

std::string SearchBody(const std::vector<Block>& blocks) {
  std::string body;
  for (const Block& b : blocks) {
    if (b.text.empty()) continue;
    if (!body.empty()) body.push_back('\n');
    body += b.text;
  }
  return body;
}

void Reindex(storage::TenantSession& s, const std::string& entry_id, const std::string& title,
             const std::string& body) {
  s.Run(internal::kSearchDelete, {entry_id});
  if (s.session().dialect() == storage::Dialect::kSqlite) s.Run(internal::kSearchUpsertDoc, {entry_id});
  s.Run(internal::kSearchInsert, {entry_id, title, body});
}

void Unindex(storage::TenantSession& s, const std::string& entry_id) {
  s.Run(internal::kSearchDelete, {entry_id});
  if (s.session().dialect() == storage::Dialect::kSqlite) s.Run(internal::kSearchDeleteDoc, {entry_id});
}

// The view of a just-written entry in `language`, with the status a reader
// sees at `now`.
EntryView Written(Entry entry, std::string language, TimeMs now) {
  internal::DeriveStatus(entry, now);
  return EntryView{std::move(entry), std::move(language), false, std::nullopt};
}

// The reader's view in `language`: translated blocks where they exist, the
// original's block where the translation has none yet, and the placeholder
// where the original block was removed but the translation still has it.
// `entry` may come without its content; it is read only when the original
// is what the reader gets.
EntryView Compose(storage::TenantSession& s, Entry entry, const std::string& language, TimeMs now) {
  internal::DeriveStatus(entry, now);
  EntryView view;
  auto original = [&] {
    if (entry.content.empty()) entry.content = s.Run(internal::kEntryContent, {entry.id}).front().Text(0);
    view.language = entry.original_language;
    view.entry = std::move(entry);
    return view;
  };
  if (language.empty() || language == entry.original_language) return original();
  auto row = s.Run(internal::kTranslationRow, {entry.id, language});
  if (row.empty()) return original();
  // The summary comes from the blocks loaded for the view itself (the same
  // derivation as kTranslationSummaries), not from another query.
  TranslationSummary summary;
  summary.language = language;
  summary.title = row.front().Text(0);
  summary.updated_at = row.front().Int(1);
  // Views into the two result sets: no per-row copies on this hot path.
  const storage::Rows translated_rows = s.Run(internal::kTranslationBlocks, {entry.id, language});
  const storage::Rows block_rows = s.Run(internal::kBlocksOfEntry, {entry.id});
  std::unordered_map<std::string_view, size_t> translated;  // block id -> row
  translated.reserve(translated_rows.size());
  for (size_t i = 0; i < translated_rows.size(); ++i) translated.emplace(translated_rows[i].TextView(0), i);
  std::deque<std::string> placeholders;  // stable addresses for the views below
  std::vector<std::string_view> nodes;
  nodes.reserve(block_rows.size());
  for (const auto& block : block_rows) {
    const std::string_view id = block.TextView(0);
    const auto it = translated.find(id);
    if (block.Bool(4)) {  // removed from the original
      if (it != translated.end()) nodes.push_back(placeholders.emplace_back(RemovedPlaceholderNode(std::string(id))));
    } else if (it != translated.end()) {
      const auto t = translated_rows[it->second];
      ++summary.total_block_count;
      if (t.TextView(2) != block.TextView(2)) ++summary.stale_block_count;
      if (t.Bool(3)) ++summary.machine_block_count;
      nodes.push_back(t.TextView(1));
    } else {
      ++summary.missing_block_count;
      nodes.push_back(block.TextView(3));
    }
  }
  summary.status = summary.stale_block_count > 0     ? TranslationStatus::kStale
                   : summary.missing_block_count > 0 ? TranslationStatus::kDraft
                                                     : TranslationStatus::kUpToDate;
  entry.title = summary.title;
  entry.content = AssembleDocument(nodes);
  view.entry = std::move(entry);
  view.language = language;
  view.is_translation = true;
  view.translation = std::move(summary);
  return view;
}

struct SearchTerm {
  std::string word;
  bool prefix = false;  // the word was followed by '*'
};

// Words from free text (letters and digits; anything else separates them),
// all required. A word directly followed by '*' matches as a prefix. No
// other character reaches the query syntax.
std::vector<SearchTerm> SearchTerms(const std::string& q) {
  std::vector<SearchTerm> terms;
  std::string current;
  auto flush = [&](bool prefix) {
    if (!current.empty()) terms.push_back({std::move(current), prefix});
    current.clear();
  };
  for (const char ch : q) {
    const auto c = static_cast<unsigned char>(ch);
    if (std::isalnum(c) || c >= 0x80) {
      current.push_back(static_cast<char>(std::tolower(c)));
    } else {
      flush(ch == '*');
    }
  }
  flush(false);
  if (terms.size() > 16) terms.resize(16);
  return terms;
}

}  // namespace

namespace {

// The data of an entry's events: ids only (docs/webhooks.md).
boost::json::object EntryEventData(const Entry& e, const identity::Principal& caller, boost::json::object extra = {}) {
  boost::json::object data{
      {"entryId", e.id}, {"hubId", e.hub_id}, {"actorId", caller.user_id.empty() ? caller.key_id : caller.user_id}};
  for (auto& [k, v] : extra) data[k] = std::move(v);
  return data;
}

// The languages of the entry's translations that have stale blocks; second:
// whether the entry has no translation at all (nothing to compare).
std::pair<std::vector<std::string>, bool> StaleTranslations(storage::TenantSession& s, const std::string& entry_id) {
  std::pair<std::vector<std::string>, bool> out{{}, true};
  for (const auto& row : s.Run(internal::kTranslationSummaries, {entry_id, ""})) {
    out.second = false;
    if (row.Int(3) > 0) out.first.push_back(row.Text(0));
  }
  return out;
}

}  // namespace

Result<std::vector<Entry>> EntryService::ListByHub(const identity::Principal& caller,
                                                   const std::string& hub_key) const {
  storage::Session session(db_);
  storage::TenantSession s(session, caller.tenant_id);
  auto hub = internal::FindHubByKey(s, hub_key);
  if (!hub) return internal::HubNotFound();
  CR_TRY(RequireLevel(HubLevel(s, caller, *hub), AccessLevel::kViewer, "hub"));
  std::vector<Entry> out;
  const TimeMs now = clock_.Now();
  for (const auto& row : s.Run(internal::kEntriesOfHub, {hub->id})) {
    out.push_back(internal::EntryFromRow(row));
    internal::DeriveStatus(out.back(), now);
  }
  return out;
}

Result<EntryView> EntryService::RootEntry(const identity::Principal& caller, const std::string& hub_key) const {
  std::string root;
  {
    storage::Session session(db_);
    storage::TenantSession s(session, caller.tenant_id);
    auto hub = internal::FindHubByKey(s, hub_key);
    if (!hub) return internal::HubNotFound();
    CR_TRY(RequireLevel(HubLevel(s, caller, *hub), AccessLevel::kViewer, "hub"));
    if (!hub->root_entry_id) return Error::NotFound("The hub has no root entry.");
    root = *hub->root_entry_id;
  }
  return Get(caller, root, "");
}

Result<EntryView> EntryService::Get(const identity::Principal& caller, const std::string& id,
                                    const std::string& language) const {
  const TimeMs now = clock_.Now();
  EntryView view;
  {
    storage::Session session(db_, storage::TxMode::kRead);
    storage::TenantSession s(session, caller.tenant_id);
    CR_TRY_ASSIGN(auto loaded, LoadEntry(s, caller, id, AccessLevel::kViewer, /*with_content=*/false));
    view = Compose(s, std::move(loaded.entry), language, now);
  }
  // The read session is closed: the trigger writes in its own transaction.
  if (read_trigger_ && !language.empty() && language != view.entry.original_language &&
      (!view.is_translation || !view.translation ||
       view.translation->stale_block_count + view.translation->missing_block_count > 0))
    view.translation_pending = read_trigger_(caller, id, language);
  if (caller.is_user()) activity_.EntryRead(caller.tenant_id, id, caller.user_id, view.language, now);
  return view;
}

Result<EntryView> EntryService::Create(const identity::Principal& caller, const NewEntry& request) const {
  if (!identity::IsKnownLanguage(request.original_language))
    return Error::Validation({{"originalLanguage", "unknown language '" + request.original_language + "'"}});
  CR_TRY_ASSIGN(ParsedDocument doc, ParseOriginal(request.content, "content"));

  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession s(session, caller.tenant_id);
  auto hub = internal::FindHubByKey(s, request.hub_key);
  if (!hub) return Error::Validation({{"hubKey", "no hub with this key"}});
  const AccessLevel level = HubLevel(s, caller, *hub);
  if (level == AccessLevel::kNone) return Error::Validation({{"hubKey", "no hub with this key"}});
  CR_TRY(RequireLevel(level, AccessLevel::kEditor, "hub"));
  if (!s.Run(internal::kEntryKeyTaken, {hub->id, request.key}).empty())
    return Error::Conflict("entry_key_taken", "An entry with key '" + request.key + "' exists in this hub.");

  const TimeMs now = clock_.Now();
  Entry e;
  e.id = NewId();
  e.hub_id = hub->id;
  e.hub_key = hub->key;
  e.key = request.key;
  e.title = request.title;
  e.content = doc.content;
  e.original_language = request.original_language;
  e.status = EntryStatus::kDraft;
  e.expiry_at = now + static_cast<TimeMs>(request.expiry_days.value_or(hub->default_expiry_days)) * kMsPerDay;
  e.owner_id = caller.user_id;
  e.preview_image = request.preview_image;
  e.created_at = e.updated_at = e.content_updated_at = now;
  s.Run(internal::kInsertEntry, {e.id, e.hub_id, e.key, e.title, e.content, e.original_language,
                                 EntryStatusName(e.status), e.expiry_at, e.owner_id, e.preview_image, now});
  for (const Block& b : doc.blocks) s.Run(internal::kInsertBlock, {e.id, b.block_id, b.position, b.hash, b.node_json});
  Reindex(s, e.id, e.title, SearchBody(doc.blocks));
  content_.EntryTextSaved(s, e.id, "", TextPiecesOf(e.title, doc.blocks), now);
  session.Commit();
  return Written(std::move(e), request.original_language, now);
}

Result<EntryView> EntryService::Update(const identity::Principal& caller, const std::string& id,
                                       const std::string& language, const EntryUpdate& update) const {
  const bool for_original = language.empty();
  // Parsing and hashing are pure CPU: done before taking the write lock.
  std::optional<ParsedDocument> parsed;
  if (for_original) {
    auto doc = ParseOriginal(update.content, "content");
    if (!doc) return std::move(doc).error();
    parsed = std::move(doc).value();
  }
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY_ASSIGN(auto loaded, LoadEntry(s, caller, id, AccessLevel::kEditor, /*with_content=*/false));
  Entry& e = loaded.entry;
  const TimeMs now = clock_.Now();

  if (!for_original && language != e.original_language) {
    if (!TranslationService::Summary(s, id, language))
      return Error::NotFound("No translation in '" + language +
                             "'; create it with POST "
                             "/api/entries/{id}/translations/" +
                             language + ".");
    CR_TRY(TranslationService::Replace(s, e, language, update.title, update.content, caller.user_id, now, content_));
    activity_.EntryEdited(s, id, caller.user_id, language, now);
    events_.Emit(s, "translation.updated", EntryEventData(e, caller, {{"language", language}}));
    EntryView view = Compose(s, std::move(e), language, now);
    session.Commit();
    return view;
  }

  if (!parsed) {
    auto doc = ParseOriginal(update.content, "content");  // ?language= named the original language
    if (!doc) return std::move(doc).error();
    parsed = std::move(doc).value();
  }
  const ParsedDocument& doc = *parsed;
  // A save that publishes (a status override from Draft) is Entry.Publish:
  // guarded with the text it would publish.
  if (e.status != EntryStatus::kPublished && update.status && *update.status != EntryStatus::kDraft)
    if (auto denial = guards_.Check(s, {"Entry.Publish",
                                        caller.tenant_id,
                                        caller.user_id,
                                        id,
                                        {{"hubKey", loaded.hub.key},
                                         {"hubId", loaded.hub.id},
                                         {"ownerId", e.owner_id},
                                         {"originalLanguage", e.original_language},
                                         {"title", update.title},
                                         {"content", doc.content},
                                         // the save may change the content: as of now
                                         {"contentUpdatedAt", now}}}))
      return GuardDeniedError(*denial);
  // Which translations are stale before the save: those that become stale
  // with it are told (translation.stale), when anyone listens; comparing
  // the two costs two summaries of every translation.
  const bool tell_stale = events_.Wants(s, "translation.stale");
  const auto stale_before = tell_stale ? StaleTranslations(s, id) : std::pair<std::vector<std::string>, bool>{{}, true};
  std::unordered_map<std::string, StoredBlock> existing;
  for (const auto& row : s.Run(internal::kBlockHashesOfEntry, {id}))
    existing.emplace(row.Text(0), StoredBlock{static_cast<int>(row.Int(1)), row.Text(2), row.Bool(3)});

  bool content_changed = false;
  for (const Block& b : doc.blocks) {
    auto it = existing.find(b.block_id);
    if (it == existing.end()) {
      s.Run(internal::kInsertBlock, {id, b.block_id, b.position, b.hash, b.node_json});
      content_changed = true;
      continue;
    }
    const StoredBlock& old = it->second;
    if (old.hash != b.hash) {
      // Translations of this block now hold an older hash: stale, by
      // derivation; the text they were made from is kept to show the change.
      s.Run(internal::kKeepTranslatedBlockVersion, {id, b.block_id});
      s.Run(internal::kUpdateBlock, {id, b.block_id, b.position, b.hash, b.node_json});
      content_changed = true;
    } else if (old.position != b.position || old.is_deleted) {
      s.Run(internal::kMoveBlock, {id, b.block_id, b.position});
      content_changed = content_changed || old.is_deleted;
    }
    existing.erase(it);
  }
  // Blocks no longer in the document: kept (flagged) while a translation
  // still aligns to them, removed otherwise.
  std::unordered_set<std::string> translated;
  bool translated_loaded = false;
  for (const auto& [block_id, old] : existing) {
    if (old.is_deleted) continue;
    content_changed = true;
    if (!translated_loaded) {
      for (const auto& row : s.Run(internal::kTranslatedBlockIds, {id})) translated.insert(row.Text(0));
      translated_loaded = true;
    }
    s.Run(translated.count(block_id) ? internal::kSoftDeleteBlock : internal::kDeleteBlock, {id, block_id});
  }

  const bool title_changed = update.title != e.title;
  e.title = update.title;
  e.content = doc.content;
  if (update.preview_image) e.preview_image = update.preview_image;
  // Only Draft and Published are stored; a derived status sent back (a
  // client round-tripping what it read) means the entry stays published.
  const bool was_published = e.status == EntryStatus::kPublished;
  if (update.status) e.status = *update.status == EntryStatus::kDraft ? EntryStatus::kDraft : EntryStatus::kPublished;
  if (content_changed) e.content_updated_at = now;
  e.updated_at = now;
  ++e.version;
  s.Run(internal::kUpdateEntry,
        {id, e.title, e.content, e.preview_image, EntryStatusName(e.status), now, e.content_updated_at});
  if (content_changed || title_changed) Reindex(s, id, e.title, SearchBody(doc.blocks));
  content_.EntryTextSaved(s, id, "", TextPiecesOf(e.title, doc.blocks), now);
  if (content_changed || title_changed) activity_.EntryEdited(s, id, caller.user_id, "", now);
  events_.Emit(s, "entry.updated", EntryEventData(e, caller, {{"status", EntryStatusName(e.status)}}));
  if (!was_published && e.status == EntryStatus::kPublished)
    events_.Emit(s, "entry.published", EntryEventData(e, caller, {{"status", "Published"}}));
  if (content_changed && !stale_before.second)
    for (const auto& stale_language : StaleTranslations(s, id).first)
      if (std::find(stale_before.first.begin(), stale_before.first.end(), stale_language) == stale_before.first.end())
        events_.Emit(s, "translation.stale", EntryEventData(e, caller, {{"language", stale_language}}));
  session.Commit();
  const std::string original = e.original_language;
  return Written(std::move(e), original, now);
}

Status EntryService::Delete(const identity::Principal& caller, const std::string& id,
                            const DeleteConfirmation& confirmation) const {
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY_ASSIGN(auto loaded, LoadEntry(s, caller, id, AccessLevel::kViewer, /*with_content=*/false));
  if (loaded.entry.owner_id != caller.user_id) return Error::PermissionDenied("Only the entry's owner can delete it.");
  if (loaded.hub.root_entry_id == id)
    return Error::InvalidArgument("entry_is_hub_root",
                                  "The entry is its hub's root entry; set another root entry first.");
  if (auto denial = guards_.Check(s, {"Entry.Delete",
                                      caller.tenant_id,
                                      caller.user_id,
                                      id,
                                      {{"hubKey", loaded.hub.key},
                                       {"ownerId", loaded.entry.owner_id},
                                       {"confirmed", confirmation.confirmed},
                                       {"reason", confirmation.reason}}}))
    return GuardDeniedError(*denial);
  Unindex(s, id);
  s.Run(internal::kDeleteEntry, {id});
  events_.Emit(s, "entry.deleted", EntryEventData(loaded.entry, caller));
  // The reason a guard may ask for (safe-delete) is kept here, with what was deleted.
  if (audit_) {
    boost::json::object details{{"key", loaded.entry.key}, {"title", loaded.entry.title}, {"hubKey", loaded.hub.key}};
    if (confirmation.confirmed) details["confirmed"] = true;
    if (!confirmation.reason.empty()) details["reason"] = confirmation.reason;
    audit_->Record(s, identity::AuditOf(caller, "entry.deleted", {"entry", id}, details));
  }
  session.Commit();
  return Ok();
}

Result<EntryView> EntryService::Publish(const identity::Principal& caller, const std::string& id) const {
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY_ASSIGN(auto loaded, LoadEntry(s, caller, id, AccessLevel::kEditor));
  if (auto denial = guards_.Check(s, {"Entry.Publish",
                                      caller.tenant_id,
                                      caller.user_id,
                                      id,
                                      {{"hubKey", loaded.hub.key},
                                       {"hubId", loaded.hub.id},
                                       {"ownerId", loaded.entry.owner_id},
                                       {"originalLanguage", loaded.entry.original_language},
                                       {"title", loaded.entry.title},
                                       {"content", loaded.entry.content},
                                       {"contentUpdatedAt", loaded.entry.content_updated_at}}}))
    return GuardDeniedError(*denial);
  const TimeMs now = clock_.Now();
  s.Run(internal::kSetEntryStatus, {id, EntryStatusName(EntryStatus::kPublished), now});
  loaded.entry.status = EntryStatus::kPublished;
  if (!loaded.entry.published_at) loaded.entry.published_at = now;
  loaded.entry.updated_at = now;
  events_.Emit(s, "entry.published", EntryEventData(loaded.entry, caller, {{"status", "Published"}}));
  session.Commit();
  const std::string original = loaded.entry.original_language;
  return Written(std::move(loaded.entry), original, clock_.Now());
}

std::vector<Entry> EntryService::Expired(const identity::Principal& caller) const {
  storage::Session session(db_);
  storage::TenantSession s(session, caller.tenant_id);
  std::vector<Entry> out;
  const TimeMs now = clock_.Now();
  for (const auto& row : s.Run(internal::kExpiredViewable,
                               {now, caller.user_id, caller.is_global_admin(), DefaultOrgRoleApplies(caller)})) {
    out.push_back(internal::EntryFromRow(row));
    internal::DeriveStatus(out.back(), now);
  }
  return out;
}

Result<EntryView> EntryService::TransferOwnership(const identity::Principal& caller, const std::string& id,
                                                  const std::string& new_owner_id) const {
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY_ASSIGN(auto loaded, LoadEntry(s, caller, id, AccessLevel::kEditor));
  if (s.Run(internal::kIsActiveMember, {new_owner_id}).empty())
    return Error::Validation({{"newOwnerId", "is not an active user of this tenant"}});
  const TimeMs now = clock_.Now();
  s.Run(internal::kSetEntryOwner, {id, new_owner_id, now});
  if (session.dialect() == storage::Dialect::kSqlite) s.Run(internal::kSearchSetOwner, {id, new_owner_id});
  loaded.entry.owner_id = new_owner_id;
  loaded.entry.updated_at = now;
  session.Commit();
  const std::string original = loaded.entry.original_language;
  return Written(std::move(loaded.entry), original, clock_.Now());
}

Result<EntryView> EntryService::ChangeOriginalLanguage(const identity::Principal& caller, const std::string& id,
                                                       const std::string& language) const {
  if (!identity::IsKnownLanguage(language))
    return Error::Validation({{"languageCode", "unknown language '" + language + "'"}});
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY_ASSIGN(auto loaded, LoadEntry(s, caller, id, AccessLevel::kEditor));
  if (TranslationService::Summary(s, id, language))
    return Error::Conflict("translation_exists", "The entry has a translation in '" + language +
                                                     "'; delete it before making that the original language.");
  const TimeMs now = clock_.Now();
  s.Run(internal::kSetOriginalLanguage, {id, language, now});
  loaded.entry.original_language = language;
  loaded.entry.updated_at = now;
  session.Commit();
  return Written(std::move(loaded.entry), language, now);
}

Result<EntryView> EntryService::SetRoot(const identity::Principal& caller, const std::string& id) const {
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY_ASSIGN(auto loaded, LoadEntry(s, caller, id, AccessLevel::kEditor));
  s.Run(internal::kSetHubRoot, {loaded.hub.id, id, clock_.Now()});
  session.Commit();
  const std::string original = loaded.entry.original_language;
  return Written(std::move(loaded.entry), original, clock_.Now());
}

Result<std::vector<SearchResult>> EntryService::Search(const identity::Principal& caller, const std::string& q,
                                                       const std::string& hub_key, int take) const {
  return SearchAs(caller.tenant_id, caller.user_id, caller.is_global_admin(), DefaultOrgRoleApplies(caller), q, hub_key,
                  take);
}

Result<std::vector<SearchResult>> EntryService::SearchForApplication(const identity::Principal& caller,
                                                                     const std::string& q, int take) const {
  if (caller.is_user()) return Error::PermissionDenied("Only machine credentials search for an application.");
  return SearchAs(caller.tenant_id, "", /*admin=*/true, /*default_role=*/false, q, "", take);
}

Result<EntryView> EntryService::ReadForApplication(const identity::Principal& caller, const std::string& id,
                                                   const std::string& language) const {
  if (caller.is_user()) return Error::PermissionDenied("Only machine credentials read for an application.");
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession s(session, caller.tenant_id);
  auto rows = s.Run(internal::kEntryMetaById, {id});
  if (rows.empty()) return Error::NotFound("Entry not found.");
  return Compose(s, internal::EntryFromRow(rows.front()), language, clock_.Now());
}

Result<std::vector<Entry>> EntryService::ListForApplication(const identity::Principal& caller,
                                                            const std::string& after_id, int limit) const {
  if (caller.is_user()) return Error::PermissionDenied("Only machine credentials list for an application.");
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession s(session, caller.tenant_id);
  const TimeMs now = clock_.Now();
  std::vector<Entry> out;
  for (const auto& row : s.Run(internal::kEntriesAfter, {after_id, limit})) {
    out.push_back(internal::EntryFromRow(row));
    internal::DeriveStatus(out.back(), now);
  }
  return out;
}

Result<std::vector<SearchResult>> EntryService::SearchAs(const std::string& tenant_id, const std::string& user_id,
                                                         bool admin, bool default_role, const std::string& q,
                                                         const std::string& hub_key, int take) const {
  const auto terms = SearchTerms(q);
  if (terms.empty()) return Error::Validation({{"q", "must contain a letter or a digit"}});
  storage::Session session(db_);
  storage::TenantSession s(session, tenant_id);
  // Whole words unless asked otherwise: a prefix term merges the posting
  // lists of every word it starts, which on a large corpus costs more than
  // the rest of the search together.
  std::string match;
  for (const auto& [word, prefix] : terms) {
    if (session.dialect() == storage::Dialect::kSqlite) {
      if (!match.empty()) match += ' ';
      match += '"' + word + (prefix ? "\"*" : "\"");
    } else {
      if (!match.empty()) match += " & ";
      match += word + (prefix ? ":*" : "");
    }
  }
  auto result_from = [](const storage::Row& row) {
    return SearchResult{row.Text(0),
                        row.Text(1),
                        row.Text(2),
                        row.Text(3),
                        row.Text(4),
                        row.Text(5),
                        ParseEntryStatus(row.Text(6)).value_or(EntryStatus::kDraft),
                        row.Text(7)};
  };
  std::vector<SearchResult> out;
  if (session.dialect() == storage::Dialect::kPostgres) {
    for (const auto& row : s.Run(internal::kSearch, {match, user_id, admin, default_role, hub_key, take}))
      out.push_back(result_from(row));
    return out;
  }
  // Bounded ranking (see kSearchCandidates): relevance among the newest
  // kSearchRankWindow matches the caller may open.
  std::unordered_set<int64_t> candidates;
  int64_t lowest = 0;
  for (const auto& row :
       s.Run(internal::kSearchCandidates, {match, user_id, admin, default_role, hub_key, kSearchRankWindow})) {
    lowest = row.Int(0);
    candidates.insert(lowest);
  }
  if (candidates.empty()) return out;
  for (const auto& ranked : s.Run(internal::kSearchRank, {match, lowest})) {
    if (!candidates.count(ranked.Int(0))) continue;  // another hub, or one the caller may not open
    auto details = s.Run(internal::kSearchDetails, {match, ranked.Int(0)});
    if (!details.empty()) out.push_back(result_from(details.front()));
    if (static_cast<int>(out.size()) == take) break;
  }
  return out;
}

}  // namespace credence::kb
