#include "kb/translation_service.h"

#include <unordered_map>

#include "identity/tenant_service.h"
#include "kb/document.h"
#include "kb/internal/entry_access.h"
#include "kb/internal/queries.h"
#include "storage/session.h"

namespace credence::kb {
namespace {

using internal::LoadEntry;

// Draft: incomplete (some live original blocks have no translated block);
// Stale: some translated block was translated from an older version of its
// original; UpToDate otherwise. Stale wins: it is the one that needs work.
TranslationStatus StatusOf(const TranslationSummary& s) {
  if (s.stale_block_count > 0) return TranslationStatus::kStale;
  if (s.missing_block_count > 0) return TranslationStatus::kDraft;
  return TranslationStatus::kUpToDate;
}

TranslationSummary SummaryFromRow(const storage::Row& r) {
  TranslationSummary s;
  s.language = r.Text(0);
  s.title = r.Text(1);
  s.updated_at = r.Int(2);
  s.stale_block_count = static_cast<int>(r.Int(3));
  s.total_block_count = static_cast<int>(r.Int(4));
  s.missing_block_count = static_cast<int>(r.Int(5) - r.Int(4));
  s.machine_block_count = static_cast<int>(r.Int(6));
  s.status = StatusOf(s);
  return s;
}

Error TranslationNotFound(const std::string& language) {
  return Error::NotFound("No translation in '" + language + "'.");
}

// The translation's blocks in the original's order, for reading back.
std::string TranslationContent(storage::TenantSession& s, const std::string& entry_id, const std::string& language) {
  std::unordered_map<std::string, std::string> translated;
  for (const auto& row : s.Run(internal::kTranslationBlocks, {entry_id, language}))
    translated.emplace(row.Text(0), row.Text(1));
  std::vector<std::string> nodes;
  for (const auto& row : s.Run(internal::kBlocksOfEntry, {entry_id})) {
    auto it = translated.find(row.Text(0));
    if (it != translated.end()) nodes.push_back(it->second);
  }
  return AssembleDocument(nodes);
}

}  // namespace

std::optional<TranslationSummary> TranslationService::Summary(storage::TenantSession& s, const std::string& entry_id,
                                                              const std::string& language) {
  auto rows = s.Run(internal::kTranslationSummaries, {entry_id, language});
  if (rows.empty()) return std::nullopt;
  return SummaryFromRow(rows.front());
}

Result<std::vector<TranslationSummary>> TranslationService::List(const identity::Principal& caller,
                                                                 const std::string& entry_id) const {
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY(LoadEntry(s, caller, entry_id, AccessLevel::kViewer, false));
  std::vector<TranslationSummary> out;
  for (const auto& row : s.Run(internal::kTranslationSummaries, {entry_id, ""})) out.push_back(SummaryFromRow(row));
  return out;
}

Result<FullTranslation> TranslationService::Get(const identity::Principal& caller, const std::string& entry_id,
                                                const std::string& language) const {
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY(LoadEntry(s, caller, entry_id, AccessLevel::kViewer, false));
  auto summary = Summary(s, entry_id, language);
  if (!summary) return TranslationNotFound(language);
  return FullTranslation{*summary, TranslationContent(s, entry_id, language)};
}

Status TranslationService::Replace(storage::TenantSession& s, const Entry& entry, const std::string& language,
                                   const std::string& title, const std::string& content, const std::string& user_id,
                                   TimeMs now, const ContentObserver& observer) {
  std::unordered_map<std::string, int> live_positions;
  std::unordered_map<std::string, std::string> current_hash;
  for (const auto& row : s.Run(internal::kBlocksOfEntry, {entry.id})) {
    if (row.Bool(4)) continue;  // a removed original block cannot be translated anew
    live_positions.emplace(row.Text(0), static_cast<int>(row.Int(1)));
    current_hash.emplace(row.Text(0), row.Text(2));
  }
  CR_TRY_ASSIGN(ParsedDocument parsed, ParseTranslation(content, "content", live_positions));
  // Existing translated blocks: node, the hash they were translated from,
  // and whether a machine wrote them.
  struct Previous {
    std::string node;
    std::string source_hash;
    bool machine = false;
  };
  std::unordered_map<std::string, Previous> previous;
  for (const auto& row : s.Run(internal::kTranslationBlocks, {entry.id, language}))
    previous.emplace(row.Text(0), Previous{row.Text(1), row.Text(2), row.Bool(3)});

  s.Run(internal::kUpdateTranslation, {entry.id, language, title, now, user_id});
  s.Run(internal::kDeleteTranslationBlocks, {entry.id, language});
  for (const Block& b : parsed.blocks) {
    std::string source_hash = current_hash.at(b.block_id);
    bool machine = false;  // a block the person changed is theirs
    if (auto it = previous.find(b.block_id); it != previous.end() && BlockHash(it->second.node) == b.hash) {
      source_hash = it->second.source_hash;  // untouched: still translated from what it was
      machine = it->second.machine;          // and still unreviewed when a machine wrote it
    }
    s.Run(machine ? internal::kInsertMachineTranslationBlock : internal::kInsertTranslationBlock,
          {entry.id, language, b.block_id, b.node_json, source_hash});
  }
  s.Run(internal::kDropUnreferencedBlockVersions, {entry.id});
  observer.EntryTextSaved(s, entry.id, language, TextPiecesOf(title, parsed.blocks), now);
  return Ok();
}

Result<FullTranslation> TranslationService::Create(const identity::Principal& caller, const std::string& entry_id,
                                                   const std::string& language, const std::string& title,
                                                   const std::string& content) const {
  if (!identity::IsKnownLanguage(language))
    return Error::Validation({{"language", "unknown language '" + language + "' (see /api/tenant/known-languages)"}});
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY_ASSIGN(auto loaded, LoadEntry(s, caller, entry_id, AccessLevel::kEditor, false));
  if (language == loaded.entry.original_language)
    return Error::Validation({{"language", "is the entry's original language"}});
  if (Summary(s, entry_id, language))
    return Error::Conflict("translation_exists", "A translation in '" + language +
                                                     "' exists; update it with "
                                                     "PUT /api/entries/{id}?language=" +
                                                     language + ".");
  const TimeMs now = clock_.Now();
  s.Run(internal::kInsertTranslation, {entry_id, language, title, now, caller.user_id});
  CR_TRY(Replace(s, loaded.entry, language, title, content, caller.user_id, now, content_));
  FullTranslation out{*Summary(s, entry_id, language), TranslationContent(s, entry_id, language)};
  activity_.EntryEdited(s, entry_id, caller.user_id, language, now);
  events_.Emit(s, "translation.updated",
               {{"entryId", entry_id}, {"hubId", loaded.entry.hub_id}, {"language", language},
                {"actorId", caller.user_id}});
  session.Commit();
  return out;
}

Result<TranslationSummary> TranslationService::GetStatus(const identity::Principal& caller, const std::string& entry_id,
                                                         const std::string& language) const {
  storage::Session session(db_);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY(LoadEntry(s, caller, entry_id, AccessLevel::kViewer, false));
  auto summary = Summary(s, entry_id, language);
  if (!summary) return TranslationNotFound(language);
  return *summary;
}

Result<TranslationSummary> TranslationService::MarkUpToDate(
    const identity::Principal& caller, const std::string& entry_id, const std::string& language,
    const std::optional<std::vector<std::string>>& block_ids) const {
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY_ASSIGN(auto loaded, LoadEntry(s, caller, entry_id, AccessLevel::kEditor, false));
  if (!Summary(s, entry_id, language)) return TranslationNotFound(language);
  if (auto denial = guards_.Check(s, {"Translation.MarkUpToDate", caller.tenant_id, caller.user_id, entry_id,
                                      {{"hubKey", loaded.hub.key}, {"language", language}}}))
    return GuardDeniedError(*denial);
  if (block_ids) {
    // A block the translation does not have updates nothing: the request is
    // refused, and the transaction, not committed, undoes the others.
    for (size_t i = 0; i < block_ids->size(); ++i) {
      const std::string& block_id = (*block_ids)[i];
      if (s.Run(internal::kMarkTranslationBlockUpToDate, {entry_id, language, block_id}).affected() == 0)
        return Error::Validation({{"blockIds[" + std::to_string(i) + "]", "is not a block of this translation"}});
      s.Run(internal::kConfirmMachineTranslatedBlock, {entry_id, language, block_id});
    }
  } else {
    s.Run(internal::kMarkTranslationUpToDate, {entry_id, language});
    s.Run(internal::kConfirmMachineTranslation, {entry_id, language});  // a person confirmed it
  }
  s.Run(internal::kDropUnreferencedBlockVersions, {entry_id});
  auto summary = *Summary(s, entry_id, language);
  session.Commit();
  return summary;
}

Result<std::vector<StaleBlock>> TranslationService::StaleBlocks(const identity::Principal& caller,
                                                                const std::string& entry_id,
                                                                const std::string& language) const {
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY(LoadEntry(s, caller, entry_id, AccessLevel::kViewer, false));
  if (!Summary(s, entry_id, language)) return TranslationNotFound(language);
  std::vector<StaleBlock> out;
  for (const auto& row : s.Run(internal::kStaleBlocks, {entry_id, language}))
    out.push_back({row.Text(0), row.Text(1), row.Text(2), NodeText(row.Text(3)), row.Text(3), row.Text(4),
                   row.IsNull(5) ? std::nullopt : std::optional<std::string>(NodeText(row.Text(5)))});
  return out;
}

Status TranslationService::Delete(const identity::Principal& caller, const std::string& entry_id,
                                  const std::string& language) const {
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY(LoadEntry(s, caller, entry_id, AccessLevel::kEditor, false));
  if (s.Run(internal::kDeleteTranslation, {entry_id, language}).affected() == 0) return TranslationNotFound(language);
  s.Run(internal::kDropUnreferencedBlockVersions, {entry_id});
  content_.EntryTextSaved(s, entry_id, language, {}, clock_.Now());  // the language's text is gone
  session.Commit();
  return Ok();
}

Result<TranslationService::MachineWork> TranslationService::PendingMachineWork(const identity::Principal& caller,
                                                                               const std::string& entry_id,
                                                                               const std::string& language) const {
  if (!identity::IsKnownLanguage(language))
    return Error::Validation({{"language", "unknown language '" + language + "' (see /api/tenant/known-languages)"}});
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY_ASSIGN(auto loaded, LoadEntry(s, caller, entry_id, AccessLevel::kEditor, true));
  if (language == loaded.entry.original_language)
    return Error::Validation({{"language", "is the entry's original language"}});
  MachineWork work;
  work.original_language = loaded.entry.original_language;
  work.original_title = loaded.entry.title;
  work.original_content = loaded.entry.content;
  work.exists = Summary(s, entry_id, language).has_value();
  std::unordered_map<std::string, std::string> translated_from;  // block id -> source hash
  for (const auto& row : s.Run(internal::kTranslationBlocks, {entry_id, language}))
    translated_from.emplace(row.Text(0), row.Text(2));
  for (const auto& row : s.Run(internal::kBlocksOfEntry, {entry_id})) {
    if (row.Bool(4)) continue;
    auto it = translated_from.find(row.Text(0));
    if (it != translated_from.end() && it->second == row.Text(2)) continue;  // up to date
    Block b;
    b.block_id = row.Text(0);
    b.position = static_cast<int>(row.Int(1));
    b.hash = row.Text(2);
    b.node_json = row.Text(3);
    work.blocks.push_back(std::move(b));
  }
  return work;
}

Result<FullTranslation> TranslationService::SaveMachineTranslation(const identity::Principal& caller,
                                                                   const std::string& entry_id,
                                                                   const std::string& language,
                                                                   const std::string& title,
                                                                   const std::vector<MachineBlock>& blocks) const {
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession s(session, caller.tenant_id);
  CR_TRY_ASSIGN(auto loaded, LoadEntry(s, caller, entry_id, AccessLevel::kEditor, false));
  const TimeMs now = clock_.Now();
  const bool existed = Summary(s, entry_id, language).has_value();
  if (!existed) s.Run(internal::kInsertTranslation, {entry_id, language, title, now, caller.user_id});
  std::unordered_map<std::string, std::string> live_hash;
  for (const auto& row : s.Run(internal::kBlocksOfEntry, {entry_id}))
    if (!row.Bool(4)) live_hash.emplace(row.Text(0), row.Text(2));
  size_t written = 0;
  for (const MachineBlock& b : blocks) {
    auto it = live_hash.find(b.block_id);
    if (it == live_hash.end() || it->second != b.source_hash) continue;  // the original moved on meanwhile
    s.Run(internal::kDeleteTranslationBlock, {entry_id, language, b.block_id});
    s.Run(internal::kInsertMachineTranslationBlock, {entry_id, language, b.block_id, b.node_json, b.source_hash});
    ++written;
  }
  auto summary = *Summary(s, entry_id, language);
  std::string content = TranslationContent(s, entry_id, language);
  if (existed && written == 0) return FullTranslation{summary, std::move(content)};  // nothing was missing or stale
  s.Run(internal::kUpdateTranslation, {entry_id, language, summary.title, now, caller.user_id});
  summary = *Summary(s, entry_id, language);
  // Search and scanning see the translation's new text.
  std::vector<Block> all;
  for (const auto& row : s.Run(internal::kTranslationBlocks, {entry_id, language})) {
    Block b;
    b.block_id = row.Text(0);
    b.text = NodeText(row.Text(1));
    all.push_back(std::move(b));
  }
  content_.EntryTextSaved(s, entry_id, language, TextPiecesOf(summary.title, all), now);
  activity_.EntryEdited(s, entry_id, caller.user_id, language, now);
  FullTranslation out{summary, std::move(content)};
  events_.Emit(
      s, "translation.updated",
      {{"entryId", entry_id}, {"hubId", loaded.entry.hub_id}, {"language", language}, {"actorId", caller.user_id}});
  session.Commit();
  return out;
}

}  // namespace credence::kb
