#include "kb/internal/entry_access.h"

#include "kb/internal/queries.h"
#include "kb/internal/rows.h"
#include "storage/session.h"

namespace credence::kb::internal {

std::optional<Hub> FindHubByKey(storage::TenantSession& session, const std::string& key) {
  auto rows = session.Run(kHubByKey, {key});
  if (rows.empty()) return std::nullopt;
  return HubFromRow(rows.front());
}

Error HubNotFound() { return Error::NotFound("Hub not found."); }

Result<LoadedEntry> LoadEntry(storage::TenantSession& session, const identity::Principal& caller,
                              const std::string& entry_id, AccessLevel needed, bool with_content) {
  auto rows = session.Run(with_content ? kEntryById : kEntryMetaById, {entry_id});
  if (rows.empty()) return Error::NotFound("Entry not found.");
  const auto row = rows.front();
  LoadedEntry out{EntryFromRow(row), HubFromRow(row, kEntryColumnCount + 1), AccessLevel::kNone};
  out.entry.content = row.Text(kEntryColumnCount);
  out.level = EntryLevel(session, caller, out.hub, out.entry);
  CR_TRY(identity::RequireLevel(out.level, needed, "entry"));
  return out;
}

}  // namespace credence::kb::internal

namespace credence::kb {

Status RequireEntryAccess(storage::TenantSession& session, const identity::Principal& caller,
                          const std::string& entry_id, AccessLevel needed) {
  auto loaded = internal::LoadEntry(session, caller, entry_id, needed, false);
  if (!loaded) return std::move(loaded).error();
  return Ok();
}

Result<std::pair<Entry, AccessLevel>> EntryWithAccess(storage::TenantSession& session,
                                                      const identity::Principal& caller, const std::string& entry_id,
                                                      AccessLevel needed) {
  auto loaded = internal::LoadEntry(session, caller, entry_id, needed, false);
  if (!loaded) return std::move(loaded).error();
  return std::make_pair(std::move(loaded->entry), loaded->level);
}

}  // namespace credence::kb
