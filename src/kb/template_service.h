#pragma once
// Entry templates (docs/templates.md): reusable block structures a writer
// starts an entry from. A template has a name, description, category,
// language and blocks (top-level editor nodes, decisions.md 5), an owner,
// an official flag that only global admins set, a usage count (one per
// apply) and ratings (1 to 5 stars, one per user, changeable). Templates
// belong to one tenant; export and import move one between tenants as a
// portable, versioned JSON document.
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

namespace credence::kb {

inline constexpr size_t kMaxTemplateNameLength = 200;
inline constexpr size_t kMaxTemplateDescriptionLength = 2000;
inline constexpr size_t kMaxTemplateCategoryLength = 100;
inline constexpr size_t kMaxTemplateBlocks = 500;
inline constexpr int64_t kDefaultTemplatePageSize = 30;
inline constexpr int64_t kMaxTemplatePageSize = 100;
inline constexpr int64_t kMaxTemplatePage = 100000;
// The portable document's format name and the only version this build reads.
inline constexpr char kTemplateExportFormat[] = "credence.entry-template";
inline constexpr int64_t kTemplateExportVersion = 1;

// What Create and Update take. Update replaces every field but the official
// flag, which is kept when `is_official` is absent.
struct TemplateInput {
  std::string name;
  std::optional<std::string> description;
  std::optional<std::string> category;
  std::string language = "en";
  std::vector<std::string> blocks;  // top-level editor nodes, each as JSON text
  std::optional<bool> is_official;
};

struct EntryTemplate {
  std::string id;
  std::string name;
  std::optional<std::string> description;
  std::optional<std::string> category;
  std::string language;
  std::vector<std::string> blocks;  // nodes with their attrs.blockId; empty in list results
  bool is_official = false;
  std::string owner_id;
  int64_t usage_count = 0;
  int64_t rating_count = 0;
  double average_rating = 0;  // 0 without ratings; rounded to two decimals
  TimeMs created_at = 0;
  TimeMs updated_at = 0;
};

enum class TemplateFilter { kAll, kMine, kOfficial, kCommunity };
std::optional<TemplateFilter> ParseTemplateFilter(std::string_view name);  // all | mine | official | community

struct TemplateQuery {
  std::string search;  // a part of the name, ignoring ASCII case; empty: any
  std::optional<std::string> category;
  TemplateFilter filter = TemplateFilter::kAll;
  int64_t page = 1;       // 1..kMaxTemplatePage
  int64_t page_size = kDefaultTemplatePageSize;  // 1..kMaxTemplatePageSize
};

struct TemplatePage {
  std::vector<EntryTemplate> items;
  int64_t total = 0;  // every match, for X-Total-Count
};

// What apply and preview answer: the blocks and the document they make.
struct AppliedTemplate {
  std::string template_id;
  std::string language;
  std::vector<std::string> blocks;  // nodes; fresh attrs.blockId each apply
  std::string content;              // {"type":"doc","content":[blocks]}
};

class TemplateService {
 public:
  TemplateService(storage::Database& db, const Clock& clock, const identity::AuditRecorder& audit)
      : db_(db), clock_(clock), audit_(audit) {}

  // Any signed-in user of the tenant (machine credentials are refused with
  // 403). Ordered by name ignoring case, then id. 400 for bounds.
  Result<TemplatePage> List(const identity::Principal& caller, const TemplateQuery& query) const;
  // 404 when not a template of the caller's tenant.
  Result<EntryTemplate> Get(const identity::Principal& caller, const std::string& id) const;
  // The assembled document with the template's own block ids.
  Result<AppliedTemplate> Preview(const identity::Principal& caller, const std::string& id) const;
  // The blocks with fresh block ids (unique within and across applies);
  // counts one use and records a usage event.
  Result<AppliedTemplate> Apply(const identity::Principal& caller, const std::string& id) const;
  // Distinct categories in use, sorted.
  Result<std::vector<std::string>> Categories(const identity::Principal& caller) const;

  // Any user; the caller owns it. isOfficial true needs a global admin (403).
  // Blocks: 1..500 editor nodes; missing or duplicate blockIds are assigned.
  Result<EntryTemplate> Create(const identity::Principal& caller, const TemplateInput& input) const;
  // The owner or a global admin (403 otherwise); changing isOfficial needs a
  // global admin.
  Result<EntryTemplate> Update(const identity::Principal& caller, const std::string& id,
                               const TemplateInput& input) const;
  Status Delete(const identity::Principal& caller, const std::string& id) const;
  // Any user: sets or changes the caller's rating (1..5).
  Result<EntryTemplate> Rate(const identity::Principal& caller, const std::string& id, int64_t stars) const;

  // Global admins. The portable document (docs/templates.md) as JSON text.
  Result<std::string> Export(const identity::Principal& caller, const std::string& id) const;
  // Global admins. Creates a template in the caller's tenant from a portable
  // document: a new id and new block ids, the caller as owner, no uses and
  // no ratings. 400 unsupported_template_version for another version.
  Result<EntryTemplate> Import(const identity::Principal& caller, const std::string& document_json) const;

 private:
  Result<EntryTemplate> Insert(const identity::Principal& caller, TemplateInput input, const std::string& action,
                               boost::json::object details) const;

  storage::Database& db_;
  const Clock& clock_;
  const identity::AuditRecorder& audit_;
};

}  // namespace credence::kb
