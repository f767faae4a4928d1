#pragma once
// Block-type heuristics (docs/configuration.md, "Block-type heuristics"):
// rules that classify a top-level block of an editor document (a code
// block, a warning, a procedure step, a table) from its node type and a
// text pattern, and what translation does with such a block. Translation
// (which blocks to skip or protect) and scanning call ClassifyBlocks.
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

// How a heuristic's text pattern meets a block's plain text. Literal text
// only, no regular expressions: a pattern can never be slow or malformed
// (docs/configuration.md, "Why no regular expressions").
enum class TextMatch { kPrefix, kContains, kExact };
std::string_view TextMatchName(TextMatch match);  // Prefix | Contains | Exact
std::optional<TextMatch> ParseTextMatch(std::string_view name);

// What translation does with a block of the class.
enum class BlockTranslation { kTranslate, kProtect, kSkip };
std::string_view BlockTranslationName(BlockTranslation t);  // Translate | Protect | Skip
std::optional<BlockTranslation> ParseBlockTranslation(std::string_view name);

struct TextPattern {
  TextMatch match = TextMatch::kContains;
  std::string text;             // 1..200 characters
  bool case_sensitive = false;  // false: ASCII letters compared ignoring case
};

struct BlockHeuristic {
  std::string id;
  std::string name;
  std::string block_class;              // [a-z][a-z0-9-]*, e.g. code, warning, procedure-step
  std::vector<std::string> node_types;  // ProseMirror node types; empty: any
  std::optional<TextPattern> text_pattern;
  int64_t priority = 100;  // lower is tried first; ties by name
  BlockTranslation translation = BlockTranslation::kTranslate;
  bool is_enabled = true;
  TimeMs created_at = 0;
  TimeMs updated_at = 0;
};

struct BlockClassification {
  std::string block_id;
  int position = 0;
  std::string node_type;
  std::optional<std::string> block_class;   // nullopt: no heuristic matched
  std::optional<std::string> heuristic_id;  // the one that matched
  BlockTranslation translation = BlockTranslation::kTranslate;
};

inline constexpr size_t kMaxHeuristicsPerTenant = 200;
inline constexpr size_t kMaxPatternLength = 200;

// Pure. True when `rule` (enabled or not) classifies a block of `node_type`
// with plain text `text`.
bool HeuristicMatches(const BlockHeuristic& rule, std::string_view node_type, std::string_view text);

// Pure. Classifies every top-level block of `content` (an editor document,
// decisions.md 5) with the first enabled rule that matches, rules tried by
// priority then name. 400 (field `field`) when `content` is not a document.
Result<std::vector<BlockClassification>> ClassifyBlocks(const std::vector<BlockHeuristic>& rules,
                                                        std::string_view content, const std::string& field);

class BlockHeuristicService {
 public:
  BlockHeuristicService(storage::Database& db, const Clock& clock, const identity::AuditRecorder& audit)
      : db_(db), clock_(clock), audit_(audit) {}

  // Any signed-in user; by priority, then name.
  Result<std::vector<BlockHeuristic>> List(const identity::Principal& caller) const;
  Result<BlockHeuristic> Get(const identity::Principal& caller, const std::string& id) const;
  // Global admins only. The id and times of `input` are ignored. 400 for a
  // bad class, node type or pattern; 409 heuristic_name_taken.
  Result<BlockHeuristic> Create(const identity::Principal& caller, const BlockHeuristic& input) const;
  Result<BlockHeuristic> Update(const identity::Principal& caller, const std::string& id,
                                const BlockHeuristic& input) const;
  Status Delete(const identity::Principal& caller, const std::string& id) const;
  // Any signed-in user: classifies `content` with the tenant's heuristics.
  Result<std::vector<BlockClassification>> Test(const identity::Principal& caller, std::string_view content) const;

 private:
  storage::Database& db_;
  const Clock& clock_;
  const identity::AuditRecorder& audit_;
};

}  // namespace credence::platform
