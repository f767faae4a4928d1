#pragma once
// Hubs: collaborative workspaces holding entries.
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/principal.h"
#include "kb/access.h"
#include "kb/action_guard.h"
#include "kb/model.h"

namespace credence::storage {
class Database;
}

namespace credence::kb {

struct NewHub {
  std::string key;
  std::string name;
  int default_expiry_days = 0;
  std::optional<std::string> category_id;
  std::vector<std::string> tag_ids;
  std::optional<std::string> preview_image;
  std::optional<std::string> default_org_role;
  std::optional<std::string> default_expiry_template_id;
};

struct HubUpdate {
  std::string name;
  int default_expiry_days = 0;
  std::optional<std::string> preview_image;
  std::optional<std::string> default_org_role;
  std::optional<std::string> default_expiry_template_id;
};

struct HubPermissions {
  AccessLevel level = AccessLevel::kNone;
  bool is_global_admin = false;
};

class HubService {
 public:
  // `guards` are asked before Hub.Delete changes anything.
  HubService(storage::Database& db, const Clock& clock, const ActionGuards& guards = kNoGuards)
      : db_(db), clock_(clock), guards_(guards) {}

  std::vector<Hub> List(const identity::Principal& caller) const;
  Result<Hub> Get(const identity::Principal& caller, const std::string& key) const;
  Result<HubPermissions> Permissions(const identity::Principal& caller, const std::string& key) const;
  // Global admin; the creator owns the hub. 409 hub_key_taken.
  Result<Hub> Create(const identity::Principal& caller, const NewHub& hub) const;
  // Hub Admin.
  Result<Hub> Update(const identity::Principal& caller, const std::string& key, const HubUpdate& update) const;
  // The owner or a global admin. Entries, blocks, translations, memberships
  // and permissions go with it, in one transaction.
  Status Delete(const identity::Principal& caller, const std::string& key) const;
  // Hub Admin; the new owner must be an active user of the tenant.
  Result<Hub> TransferOwnership(const identity::Principal& caller, const std::string& key,
                                const std::string& new_owner_id) const;

 private:
  storage::Database& db_;
  const Clock& clock_;
  const ActionGuards& guards_;
};

}  // namespace credence::kb
