#pragma once
// Style rules (docs/configuration.md, "Style rules"): per language, a term
// to avoid (with an optional suggestion) or a term to prefer over listed
// alternatives; a severity and a message. The check finds every occurrence
// in a text, for editors and plugins. Terms are literal (no regular
// expressions), matched on word boundaries unless told otherwise.
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

enum class StyleRuleType { kAvoid, kPrefer };
enum class Severity { kInfo, kWarning, kError };
std::string_view StyleRuleTypeName(StyleRuleType t);  // Avoid | Prefer
std::optional<StyleRuleType> ParseStyleRuleType(std::string_view name);
std::string_view SeverityName(Severity s);  // Info | Warning | Error
std::optional<Severity> ParseSeverity(std::string_view name);

struct StyleRule {
  std::string id;
  std::string name;
  std::string language;  // a known language code, canonical spelling
  StyleRuleType type = StyleRuleType::kAvoid;
  std::string term;                       // Avoid: what is flagged; Prefer: the preferred term
  std::vector<std::string> alternatives;  // Prefer: what is flagged (1..20); Avoid: empty
  std::optional<std::string> suggestion;  // Avoid: the replacement to offer
  bool case_sensitive = false;
  bool whole_word = true;
  Severity severity = Severity::kWarning;
  std::optional<std::string> message;  // nullopt: a message is composed
  bool is_enabled = true;
  TimeMs created_at = 0;
  TimeMs updated_at = 0;
};

// A piece of text to check; `block_id` names the block it came from when
// an entry is checked.
struct TextSegment {
  std::optional<std::string> block_id;
  std::string text;
};

struct StyleMatch {
  std::string rule_id;
  std::string rule_name;
  std::optional<std::string> block_id;
  size_t offset = 0;  // in UTF-16 code units (JavaScript string indices) within the segment
  size_t length = 0;  // likewise
  std::string matched_text;
  Severity severity = Severity::kWarning;
  std::string message;
  std::optional<std::string> suggestion;
};

inline constexpr size_t kMaxStyleTermLength = 100;
inline constexpr size_t kMaxStyleRulesPerTenant = 1000;
inline constexpr size_t kMaxCheckedTextBytes = size_t{256} * 1024;
inline constexpr size_t kMaxStyleMatches = 1000;

// Pure. Every occurrence of the enabled rules' flagged terms in the
// segments, by segment, then offset, then rule name; at most 1000.
std::vector<StyleMatch> CheckStyle(const std::vector<StyleRule>& rules, const std::vector<TextSegment>& segments);

// The enabled and disabled rules of `language` (a canonical code) in `tx`'s
// tenant, for checks inside another transaction (plugins' content-rules).
std::vector<StyleRule> StyleRulesIn(storage::TenantSession& tx, const std::string& language);

class StyleRuleService {
 public:
  StyleRuleService(storage::Database& db, const Clock& clock, const identity::AuditRecorder& audit)
      : db_(db), clock_(clock), audit_(audit) {}

  // Any signed-in user; by language, then name. `language` filters.
  Result<std::vector<StyleRule>> List(const identity::Principal& caller,
                                      const std::optional<std::string>& language) const;
  Result<StyleRule> Get(const identity::Principal& caller, const std::string& id) const;
  // Global admins only. 400 for a bad language, term or alternatives; 409
  // style_rule_name_taken (names are unique per tenant).
  Result<StyleRule> Create(const identity::Principal& caller, const StyleRule& input) const;
  Result<StyleRule> Update(const identity::Principal& caller, const std::string& id, const StyleRule& input) const;
  Status Delete(const identity::Principal& caller, const std::string& id) const;
  // Any signed-in user: checks the segments against the tenant's rules of
  // `language`. 400 for an unknown language or more than 256 KiB of text.
  Result<std::vector<StyleMatch>> Check(const identity::Principal& caller, const std::string& language,
                                        const std::vector<TextSegment>& segments) const;

 private:
  storage::Database& db_;
  const Clock& clock_;
  const identity::AuditRecorder& audit_;
};

}  // namespace credence::platform
