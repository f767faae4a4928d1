#pragma once
// What the knowledge base tells about the text it saves, so that another
// module (the trust plane's content scanning) can look inside it without kb
// depending on that module: kb sits below trust (docs/architecture.md), so kb
// declares the interface and trust implements it, as identity does for the
// audit log. EntryService calls it inside the save's write transaction, after
// the blocks are written: what it records exists exactly when the save does.
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/clock.h"

namespace credence::storage {
class TenantSession;
}

namespace credence::kb {

// One piece of an entry's text: a top-level block (block_id set) or the
// title (block_id empty).
struct TextPiece {
  std::string_view block_id;
  std::string_view text;
};

class ContentObserver {
 public:
  virtual ~ContentObserver() = default;

  // The whole text of one language of an entry as it now stands (the
  // original's blocks, or one translation's), after a create or an update.
  // `language` is empty for the original (whatever its language is called,
  // which an editor may change), else the translation's. Throws only what
  // storage throws; the save then rolls back.
  virtual void EntryTextSaved(storage::TenantSession& tx, const std::string& entry_id, const std::string& language,
                              std::span<const TextPiece> pieces, TimeMs now) const = 0;
};

// Observes nothing: for tools and tests that build an EntryService alone.
class NoContentObserver final : public ContentObserver {
 public:
  void EntryTextSaved(storage::TenantSession&, const std::string&, const std::string&, std::span<const TextPiece>,
                      TimeMs) const override {}
};
inline const NoContentObserver kIgnoreContent{};

// The pieces of a saved document: its title, then its blocks in order.
template <typename Blocks>
std::vector<TextPiece> TextPiecesOf(std::string_view title, const Blocks& blocks) {
  std::vector<TextPiece> pieces;
  pieces.reserve(blocks.size() + 1);
  pieces.push_back({"", title});
  for (const auto& b : blocks) pieces.push_back({b.block_id, b.text});
  return pieces;
}

}  // namespace credence::kb
