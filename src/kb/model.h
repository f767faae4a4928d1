#pragma once
// The knowledge base's records, as services return them.
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"

namespace credence::kb {

struct Hub {
  std::string id;
  std::string key;
  std::string name;
  int default_expiry_days = 0;
  std::string owner_id;
  std::optional<std::string> category_id;
  std::vector<std::string> tag_ids;
  std::optional<std::string> preview_image;
  std::optional<std::string> default_org_role;  // Viewer or Editor for every Member and Owner
  std::optional<std::string> default_expiry_template_id;
  std::optional<std::string> root_entry_id;
  TimeMs created_at = 0;
  TimeMs updated_at = 0;
};

enum class EntryStatus { kDraft, kPublished, kExpiringSoon, kWarning, kExpired };
std::string_view EntryStatusName(EntryStatus s);
std::optional<EntryStatus> ParseEntryStatus(std::string_view name);

struct Entry {
  std::string id;
  std::string hub_id;
  std::string hub_key;
  std::string key;
  std::string title;
  std::string content;  // empty in listings
  std::string original_language;
  // As a reader sees it: services derive ExpiringSoon, Warning and Expired
  // from the stored Draft or Published and the facts below
  // (docs/lifecycle.md).
  EntryStatus status = EntryStatus::kDraft;
  TimeMs expiry_at = 0;
  std::optional<TimeMs> paused_at;  // expiry paused since
  int warning_days = 0;             // of the expiry template that applies
  int grace_days = 0;
  std::string owner_id;
  std::optional<std::string> preview_image;
  int64_t version = 1;
  TimeMs created_at = 0;
  TimeMs updated_at = 0;
  TimeMs content_updated_at = 0;
  std::optional<TimeMs> published_at;
};

enum class TranslationStatus { kDraft, kUpToDate, kStale };
std::string_view TranslationStatusName(TranslationStatus s);

struct TranslationSummary {
  std::string language;
  std::string title;
  TranslationStatus status = TranslationStatus::kDraft;
  int stale_block_count = 0;
  int total_block_count = 0;    // translated blocks aligned with live original blocks
  int missing_block_count = 0;  // live original blocks without a translated block
  int machine_block_count = 0;  // live translated blocks machine-translated and not yet reviewed by a person
  TimeMs updated_at = 0;
};

// An entry as a reader sees it in one language.
struct EntryView {
  Entry entry;
  std::string language;  // the language served
  bool is_translation = false;
  std::optional<TranslationSummary> translation;
  // A machine translation into the language asked for is queued (an
  // OnDemand language read without an up-to-date translation,
  // docs/machine-translation.md, "Triggers"); what is served is as before.
  bool translation_pending = false;
};

struct StaleBlock {
  std::string block_id;
  std::string translated_from_hash;
  std::string current_hash;
  std::string original_text;
  std::string original_node;
  std::string translated_node;
  // The original's text the translation was made from; nullopt when it was
  // not kept (changed before this was tracked).
  std::optional<std::string> original_text_then;
};

struct SearchResult {
  std::string id;
  std::string title;
  std::string key;
  std::string hub_id;
  std::string hub_key;
  std::string original_language;
  EntryStatus status = EntryStatus::kDraft;
  std::string snippet;
};

}  // namespace credence::kb
