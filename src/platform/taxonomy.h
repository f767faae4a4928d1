#pragma once
// Categories and tags of a tenant (docs/configuration.md, "Categories and
// tags"), and which hubs and entries use them: a hub or an entry has at
// most one category and any number of tags. Hubs keep theirs in their own
// row (kb); entries' are links here (config_links).
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

enum class TaxonomyKind { kCategory, kTag };
std::string_view TaxonomyKindName(TaxonomyKind kind);  // category | tag

struct TaxonomyItem {
  std::string id;
  std::string name;
  std::optional<std::string> description;
  int64_t usage_count = 0;  // hubs and entries that use it
  TimeMs created_at = 0;
  TimeMs updated_at = 0;
};

struct TaxonomyInput {
  std::string name;  // trimmed, 1..100 characters, unique per kind ignoring case
  std::optional<std::string> description;
};

// A hub's or an entry's category and tags (tag ids by tag name).
struct Classification {
  std::optional<std::string> category_id;
  std::vector<std::string> tag_ids;
};

inline constexpr size_t kMaxTaxonomyNameLength = 100;
inline constexpr size_t kMaxTaxonomyDescriptionLength = 1000;
inline constexpr size_t kMaxTagsPerTarget = 50;
inline constexpr int64_t kMaxTagSearchResults = 50;

class TaxonomyService {
 public:
  TaxonomyService(storage::Database& db, const Clock& clock, const identity::AuditRecorder& audit)
      : db_(db), clock_(clock), audit_(audit) {}

  // Any signed-in user. By name, ignoring case.
  Result<std::vector<TaxonomyItem>> List(const identity::Principal& caller, TaxonomyKind kind) const;
  Result<TaxonomyItem> Get(const identity::Principal& caller, TaxonomyKind kind, const std::string& id) const;
  // Tags whose name starts with `prefix` ignoring case, at most `limit`
  // (1..50). An empty prefix answers the first tags by name.
  Result<std::vector<TaxonomyItem>> SearchTags(const identity::Principal& caller, const std::string& prefix,
                                               int64_t limit) const;

  // Global admins only. 409 <kind>_name_taken.
  Result<TaxonomyItem> Create(const identity::Principal& caller, TaxonomyKind kind, const TaxonomyInput& input) const;
  Result<TaxonomyItem> Update(const identity::Principal& caller, TaxonomyKind kind, const std::string& id,
                              const TaxonomyInput& input) const;
  // 409 <kind>_in_use (with usageCount) when hubs or entries use it, unless
  // `detach`, which removes it from them in the same transaction.
  Status Delete(const identity::Principal& caller, TaxonomyKind kind, const std::string& id, bool detach) const;

  // Any signed-in user. Ok when the category and every tag are the
  // tenant's; else 400 naming categoryId or tagIds[i]. For hub creation,
  // which stores the ids in the hub's own row (checked in a transaction of
  // its own: a category deleted in between is the detach's to clear).
  Status CheckReferences(const identity::Principal& caller, const std::optional<std::string>& category_id,
                         const std::vector<std::string>& tag_ids) const;

  // The category and tags of the hub `key` (hub Viewer+; 404 otherwise),
  // and setting them (hub Admin+), as ClassifyEntry. `hub_id` is set to the
  // hub's id.
  Result<Classification> HubClassification(const identity::Principal& caller, const std::string& key,
                                           std::string& hub_id) const;
  Result<Classification> ClassifyHub(const identity::Principal& caller, const std::string& key,
                                     const std::optional<std::optional<std::string>>& category_id,
                                     const std::optional<std::vector<std::string>>& tag_ids, std::string& hub_id) const;

  // The category and tags of an entry (entry Viewer+; 404 otherwise).
  Result<Classification> EntryClassification(const identity::Principal& caller, const std::string& entry_id) const;
  // Entry Editor+. Replaces what is given: the category (a null inner
  // value clears it), the tags (deduplicated, at most 50). 400 for an id
  // that is not one of the tenant's categories or tags.
  Result<Classification> ClassifyEntry(const identity::Principal& caller, const std::string& entry_id,
                                       const std::optional<std::optional<std::string>>& category_id,
                                       const std::optional<std::vector<std::string>>& tag_ids) const;

 private:
  storage::Database& db_;
  const Clock& clock_;
  const identity::AuditRecorder& audit_;
};

}  // namespace credence::platform
