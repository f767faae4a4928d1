#pragma once
// SCIM 2.0 provisioning (RFC 7643/7644, docs/scim.md): the Users and Groups
// an identity provider (Okta, Entra ID) creates, finds, changes and removes
// with a tenant key holding the `scim` scope. Knows nothing of HTTP: the
// routes (http/handlers/scim_routes.cpp) pass request bodies as JSON and
// turn the answers into SCIM resources.
//
// A provisioned user is a user of the tenant plus a scim_users row (what the
// provider owns); a SCIM group is a tenant group. Deactivating
// (active: false) or deleting a user ends their membership's access and
// their sessions in the tenant in the same transaction; hub memberships
// granted to groups follow group membership with no rule of their own.
// Errors carry the SCIM scimType as Error::code (invalidFilter,
// invalidValue, invalidSyntax, invalidPath, noTarget, uniqueness), or
// preconditionFailed for an If-Match that no longer matches (412).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <boost/json/value.hpp>

#include "core/clock.h"
#include "core/result.h"
#include "identity/api_key_service.h"
#include "identity/audit.h"
#include "identity/group_service.h"
#include "identity/principal.h"
#include "identity/scim/group.h"
#include "identity/scim/user.h"

namespace credence::storage {
class Database;
class TenantSession;
}  // namespace credence::storage

namespace credence::identity {

// Whether `caller` is a SCIM key: a tenant key used directly (never an
// access token) holding the scim scope.
bool IsScimKey(const Principal& caller);

struct ScimUserRecord {
  std::string id;  // the user's id
  scim::ScimUser user;
  TimeMs created_at = 0;
  TimeMs updated_at = 0;
  int64_t version = 1;
};

struct ScimGroupRecord {
  std::string id;  // the group's id
  scim::ScimGroup group;
  TimeMs created_at = 0;
  TimeMs updated_at = 0;
  int64_t version = 0;  // 0 until SCIM changes the group
};

// The weak ETag of a version: W/"3".
std::string ScimETag(int64_t version);

// A list request: the filter as sent, startIndex (1-based) and count
// (RFC 7644 3.4.2.4), already clamped by the caller to 1.. and 0..max.
struct ScimListRequest {
  std::optional<std::string> filter;
  int64_t start_index = 1;
  int64_t count = 100;
  bool with_members = true;  // groups: false for excludedAttributes=members
};

template <typename T>
struct ScimPage {
  int64_t total = 0;
  std::vector<T> items;
};

class ScimService {
 public:
  // Every change is recorded in `audit` as scim.user.* or scim.group.*
  // with the key as actor.
  ScimService(storage::Database& db, const Clock& clock, const AuditRecorder& audit)
      : db_(db), clock_(clock), audit_(audit) {}

  // What other modules granted a group goes with it (the same hook as
  // GroupService's).
  void SetGroupDeletedHook(GroupService::GroupDeletedHook hook) { group_deleted_ = std::move(hook); }

  // Every method refuses a caller that is not a SCIM key (403), and finds
  // only the key's tenant's users and groups (404 otherwise). `if_match`
  // is the If-Match header when sent.
  Result<ScimPage<ScimUserRecord>> ListUsers(const Principal& caller, const ScimListRequest& request) const;
  Result<ScimUserRecord> GetUser(const Principal& caller, const std::string& id) const;
  // A new user (or the existing person with that email, who joins the
  // tenant as a Member, or an existing member now provisioned); 409
  // uniqueness when the userName or the person is provisioned already.
  Result<ScimUserRecord> CreateUser(const Principal& caller, const boost::json::value& body) const;
  Result<ScimUserRecord> ReplaceUser(const Principal& caller, const std::string& id, const boost::json::value& body,
                                     const std::optional<std::string>& if_match) const;
  Result<ScimUserRecord> PatchUser(const Principal& caller, const std::string& id, const boost::json::value& body,
                                   const std::optional<std::string>& if_match) const;
  // Ends the user's access and sessions in the tenant and their group
  // memberships; the person and their history stay.
  Status DeleteUser(const Principal& caller, const std::string& id, const std::optional<std::string>& if_match) const;

  Result<ScimPage<ScimGroupRecord>> ListGroups(const Principal& caller, const ScimListRequest& request) const;
  Result<ScimGroupRecord> GetGroup(const Principal& caller, const std::string& id) const;
  Result<ScimGroupRecord> CreateGroup(const Principal& caller, const boost::json::value& body) const;
  Result<ScimGroupRecord> ReplaceGroup(const Principal& caller, const std::string& id, const boost::json::value& body,
                                       const std::optional<std::string>& if_match) const;
  Result<ScimGroupRecord> PatchGroup(const Principal& caller, const std::string& id, const boost::json::value& body,
                                     const std::optional<std::string>& if_match) const;
  Status DeleteGroup(const Principal& caller, const std::string& id, const std::optional<std::string>& if_match) const;

 private:
  Result<ScimUserRecord> SaveUser(storage::TenantSession& tenant, const Principal& caller, const ScimUserRecord& before,
                                  scim::ScimUser after) const;
  Result<ScimGroupRecord> SaveGroup(storage::TenantSession& tenant, const Principal& caller,
                                    const ScimGroupRecord& before, scim::ScimGroup after, bool created) const;
  // Deactivates the membership and ends the user's sessions in the tenant.
  Status EndAccess(storage::TenantSession& tenant, const std::string& user_id) const;

  storage::Database& db_;
  const Clock& clock_;
  const AuditRecorder& audit_;
  GroupService::GroupDeletedHook group_deleted_;
};

}  // namespace credence::identity
