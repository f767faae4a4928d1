#pragma once
// Groups of a tenant: named sets of tenant members that hubs and entries can
// grant access to (the knowledge base reads them through GroupIdsOf).
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/audit.h"
#include "identity/principal.h"

namespace credence::storage {
class Database;
class TenantSession;
}  // namespace credence::storage

namespace credence::identity {

struct Group {
  std::string id;
  std::string name;
  std::optional<std::string> description;
  int64_t member_count = 0;  // active tenant members only
  TimeMs created_at = 0;
};

struct GroupMember {
  std::string id;  // the user's id
  std::string email;
  std::string display_name;
  TenantRole role = TenantRole::kGuest;
  TimeMs added_at = 0;
};

// The outcome of AddMember: the membership, and whether this call created it
// (false when the user already was a member: adding is idempotent).
struct GroupMembership {
  std::string group_id;
  GroupMember member;
  bool created = false;
};

inline constexpr size_t kMaxGroupNameLength = 200;

class GroupService {
 public:
  // Creating groups and changing their members are recorded in `audit`.
  GroupService(storage::Database& db, const Clock& clock, const AuditRecorder& audit)
      : db_(db), clock_(clock), audit_(audit) {}

  // Global admins only. `name` is trimmed, must be 1..200 characters and is
  // unique per tenant ignoring ASCII case (409 group_name_taken).
  Result<Group> Create(const Principal& caller, const std::string& name,
                       const std::optional<std::string>& description) const;

  // Every group of the caller's tenant with its member count, by name
  // (case-insensitively). Any signed-in user.
  Result<std::vector<Group>> List(const Principal& caller) const;

  // The active tenant members in the group, by display name. Any signed-in
  // user; 404 when the group is not in the caller's tenant.
  Result<std::vector<GroupMember>> Members(const Principal& caller, const std::string& group_id) const;

  // Global admins only. 404 when the group is not in the tenant or the user
  // is not an active member of it. Idempotent: adding a member twice answers
  // the existing membership with created == false.
  Result<GroupMembership> AddMember(const Principal& caller, const std::string& group_id,
                                    const std::string& user_id) const;

  // Global admins only. 404 when the group is not in the tenant or the user
  // is not in the group.
  Status RemoveMember(const Principal& caller, const std::string& group_id, const std::string& user_id) const;

  // Global admins only. The name as for Create (409 group_name_taken when
  // another group has it); 404 for a group not in the tenant.
  Result<Group> Update(const Principal& caller, const std::string& group_id, const std::string& name,
                       const std::optional<std::string>& description) const;

  // Global admins only; 404 for a group not in the tenant. Its members go
  // with it, and whatever other modules granted the group (hub memberships,
  // entry permissions) goes in the same transaction, through the hook.
  Status Delete(const Principal& caller, const std::string& group_id) const;
  using GroupDeletedHook = std::function<void(storage::TenantSession& tenant, const std::string& group_id)>;
  void SetGroupDeletedHook(GroupDeletedHook hook) { group_deleted_ = std::move(hook); }

 private:
  storage::Database& db_;
  const Clock& clock_;
  const AuditRecorder& audit_;
  GroupDeletedHook group_deleted_;
};

// The ids of the groups `user_id` belongs to in the session's tenant (only
// while the user is an active member of it), sorted. For access checks of
// other modules (hub memberships and entry permissions granted to groups).
std::vector<std::string> GroupIdsOf(storage::TenantSession& tenant, const std::string& user_id);

}  // namespace credence::identity
