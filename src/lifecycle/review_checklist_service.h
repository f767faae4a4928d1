#pragma once
// Review checklists of a tenant: named lists of items a reviewer goes
// through; tenant-wide, or specific to one hub. Expiry templates refer to
// them (checklistId).
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/principal.h"

namespace credence::storage {
class Database;
}

namespace credence::lifecycle {

inline constexpr size_t kMaxChecklistNameLength = 200;
inline constexpr size_t kMaxChecklistItems = 100;
inline constexpr size_t kMaxChecklistItemLength = 500;

struct ChecklistItem {
  std::string id;  // assigned by the server
  std::string text;
  bool required = true;
};

struct ReviewChecklist {
  std::string id;
  std::string name;
  std::optional<std::string> hub_id;  // none: tenant-wide
  std::vector<ChecklistItem> items;
  TimeMs created_at = 0;
  TimeMs updated_at = 0;
};

struct ChecklistItemInput {
  std::optional<std::string> id;  // on update: keeps the item's id
  std::string text;
  bool required = true;
};

struct ReviewChecklistInput {
  std::string name;
  std::optional<std::string> hub_id;
  std::vector<ChecklistItemInput> items;
};

class ReviewChecklistService {
 public:
  ReviewChecklistService(storage::Database& db, const Clock& clock) : db_(db), clock_(clock) {}

  // Any signed-in user. With a hub id: that hub's checklists and the
  // tenant-wide ones; without: every checklist. By name, then id.
  Result<std::vector<ReviewChecklist>> List(const identity::Principal& caller,
                                            const std::optional<std::string>& hub_id) const;

  // Global admins only. name 1..200 (trimmed); hubId a hub of the tenant
  // (400 otherwise); 1..100 items of 1..500 characters. Item ids are new
  // UUIDs on create; on update an item sent with the id of one of the
  // checklist's items keeps it (an unknown id is a 400), others get new ids.
  Result<ReviewChecklist> Create(const identity::Principal& caller, const ReviewChecklistInput& input) const;
  Result<ReviewChecklist> Update(const identity::Principal& caller, const std::string& id,
                                 const ReviewChecklistInput& input) const;
  // Global admins only. 409 checklist_in_use when an expiry template refers to it.
  Status Delete(const identity::Principal& caller, const std::string& id) const;

 private:
  storage::Database& db_;
  const Clock& clock_;
};

}  // namespace credence::lifecycle
