#include "kb/model.h"

namespace credence::kb {

std::string_view EntryStatusName(EntryStatus s) {
  switch (s) {
    case EntryStatus::kDraft: return "Draft";
    case EntryStatus::kPublished: return "Published";
    case EntryStatus::kExpiringSoon: return "ExpiringSoon";
    case EntryStatus::kWarning: return "Warning";
    case EntryStatus::kExpired: return "Expired";
  }
  return "Draft";
}

std::optional<EntryStatus> ParseEntryStatus(std::string_view name) {
  for (auto s : {EntryStatus::kDraft, EntryStatus::kPublished, EntryStatus::kExpiringSoon, EntryStatus::kWarning,
                 EntryStatus::kExpired})
    if (EntryStatusName(s) == name) return s;
  return std::nullopt;
}

std::string_view TranslationStatusName(TranslationStatus s) {
  switch (s) {
    case TranslationStatus::kDraft: return "Draft";
    case TranslationStatus::kUpToDate: return "UpToDate";
    case TranslationStatus::kStale: return "Stale";
  }
  return "Draft";
}

}  // namespace credence::kb
