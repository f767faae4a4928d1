#include "identity/scim/scim_service.h"

#include <boost/json.hpp>

#include <algorithm>
#include <set>
#include <utility>

#include "core/ids.h"
#include "core/json_parse.h"
#include "core/text.h"
#include "identity/internal/queries.h"
#include "identity/internal/scim_queries.h"
#include "identity/internal/session_queries.h"
#include "identity/scim/filter.h"
#include "identity/scim/patch.h"
#include "identity/session_service.h"
#include "storage/session.h"

namespace credence::identity {
namespace {

namespace json = boost::json;
using scim::ScimGroup;
using scim::ScimUser;

Error ScimUserNotFound() { return Error::NotFound("User not found."); }
Error ScimGroupNotFound() { return Error::NotFound("Group not found."); }
Error ScimUniqueness(std::string detail) { return Error::Conflict("uniqueness", std::move(detail)); }
Error ScimInvalidValue(std::string detail) { return Error::InvalidArgument("invalidValue", std::move(detail)); }

Status RequireScimKey(const Principal& caller) {
  if (!IsScimKey(caller))
    return Error::PermissionDenied("Only a SCIM key (a tenant key with the scope scim) may provision.");
  return Ok();
}

Status CheckScimIfMatch(const std::optional<std::string>& if_match, int64_t version) {
  if (!if_match || *if_match == "*") return Ok();
  const std::string current = ScimETag(version);
  // A list of tags, any of which may match; strong and weak compare alike.
  for (std::string_view rest = *if_match; !rest.empty();) {
    const size_t comma = rest.find(',');
    std::string tag = Trim(rest.substr(0, comma));
    if (tag == current || "W/" + tag == current) return Ok();
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
  }
  return Error::Conflict("preconditionFailed", "The resource has changed: its version is " + current + ".");
}

// What scim_users.resource keeps: the representation without id and meta.
std::string StoredScimResource(const ScimUser& user) {
  json::object o = scim::UserToJson(user, {});
  o.erase("id");
  o.erase("meta");
  return json::serialize(o);
}

// The columns of CREDENCE_SCIM_USER_COLUMNS.
ScimUserRecord ScimUserFromRow(const storage::Row& r) {
  ScimUserRecord rec;
  rec.id = r.Text(0);
  boost::system::error_code ec;
  const json::value stored = ParseJson(r.TextView(1), ec);
  // Written by StoredScimResource, so it parses; a row that does not is
  // answered with what the columns say.
  if (auto parsed = scim::ParseUser(stored); !ec && parsed) rec.user = std::move(*parsed);
  rec.user.active = r.Int(2) != 0;
  rec.created_at = r.Int(3);
  rec.updated_at = r.Int(4);
  rec.version = r.Int(5);
  return rec;
}

// The columns of CREDENCE_SCIM_GROUP_SELECT; members read separately.
ScimGroupRecord ScimGroupFromRow(const storage::Row& r) {
  ScimGroupRecord rec;
  rec.id = r.Text(0);
  rec.group.display_name = r.Text(1);
  rec.created_at = r.Int(2);
  rec.group.external_id = r.OptText(3);
  rec.updated_at = r.OptInt(4).value_or(rec.created_at);
  rec.version = r.OptInt(5).value_or(0);
  return rec;
}

void ReadScimMembers(storage::TenantSession& tenant, ScimGroupRecord& rec) {
  for (const auto& row : tenant.Run(internal::kScimGroupMembers, {rec.id}))
    rec.group.members.push_back({row.Text(0), row.Text(1)});
}

Result<scim::Filter> ParseOptionalScimFilter(const std::optional<std::string>& text) {
  if (!text) return scim::Filter{"", scim::CompareOp::kPr, {}};
  return scim::ParseFilter(*text);
}

bool IsScimStringEq(const scim::Filter& f, std::string_view attribute) {
  return f.attribute == attribute && f.op == scim::CompareOp::kEq && f.value.kind == scim::CompareValue::Kind::kString;
}

template <typename T>
ScimPage<T> ScimPageOf(std::vector<T> all, const ScimListRequest& request) {
  ScimPage<T> page;
  page.total = static_cast<int64_t>(all.size());
  const auto first = std::min<int64_t>(request.start_index - 1, page.total);
  const auto last = std::min<int64_t>(first + request.count, page.total);
  for (auto i = first; i < last; ++i) page.items.push_back(std::move(all[static_cast<size_t>(i)]));
  return page;
}

json::array ScimJsonIds(const std::vector<std::string>& ids) {
  json::array out;
  for (const auto& id : ids) out.emplace_back(id);
  return out;
}

// The last active Owner keeps the tenant administrable: the provider cannot
// deactivate or delete them.
Status CheckNotLastScimOwner(storage::TenantSession& tenant, const std::string& user_id) {
  auto state = tenant.Run(internal::kScimMemberState, {user_id});
  if (state.empty() || state.front().Text(0) != "Owner" || state.front().Int(1) == 0) return Ok();
  if (tenant.Run(internal::kCountActiveOwners).front().Int(0) <= 1)
    return ScimInvalidValue("The last Owner of the tenant cannot be deactivated or deleted.");
  return Ok();
}

// Finds the resource `id` with `find` in a write transaction of the
// caller's tenant, holds it to If-Match, runs `change(tenant, before)` and
// commits when that succeeds: what every PUT, PATCH and DELETE shares.
template <typename Record, typename Change>
auto ChangeScimResource(storage::Database& db, const Principal& caller, const storage::TenantQuery& find,
                        const std::string& id, const std::optional<std::string>& if_match, Error (*not_found)(),
                        Record (*from_row)(const storage::Row&), Change&& change)
    -> decltype(change(std::declval<storage::TenantSession&>(), std::declval<const Record&>())) {
  CR_TRY(RequireScimKey(caller));
  storage::Session session(db, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto rows = tenant.Run(find, {id});
  if (rows.empty()) return not_found();
  const Record before = from_row(rows.front());
  CR_TRY(CheckScimIfMatch(if_match, before.version));
  auto out = change(tenant, before);
  if (out) session.Commit();
  return out;
}

}  // namespace

bool IsScimKey(const Principal& caller) {
  return !caller.is_user() && !caller.access_token && caller.has_tenant() && caller.HasScope(kScimScope);
}

std::string ScimETag(int64_t version) { return "W/\"" + std::to_string(version) + "\""; }

// --- Users ---

Status ScimService::EndAccess(storage::TenantSession& tenant, const std::string& user_id) const {
  CR_TRY(CheckNotLastScimOwner(tenant, user_id));
  const TimeMs now = clock_.Now();
  tenant.Run(internal::kDeactivateMember, {user_id, now, std::nullopt});
  SessionService::EndForUserInTenant(tenant.session(), tenant.tenant_id(), user_id, now);
  return Ok();
}

Result<ScimPage<ScimUserRecord>> ScimService::ListUsers(const Principal& caller, const ScimListRequest& request) const {
  CR_TRY(RequireScimKey(caller));
  CR_TRY_ASSIGN(const scim::Filter filter, ParseOptionalScimFilter(request.filter));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  std::vector<ScimUserRecord> all;
  if (!request.filter) {
    // Pages straight from the table: an IdP's full import reads them all.
    ScimPage<ScimUserRecord> page;
    page.total = tenant.Run(internal::kScimCountUsers).front().Int(0);
    for (const auto& row : tenant.Run(internal::kScimListUsersPage, {request.count, request.start_index - 1}))
      page.items.push_back(ScimUserFromRow(row));
    return page;
  }
  // The IdPs' lookups (userName, externalId) are indexed; any other filter
  // is matched against each representation.
  if (IsScimStringEq(filter, "username")) {
    for (const auto& row : tenant.Run(internal::kScimFindUserByNameKey, {NameKey(filter.value.text)}))
      all.push_back(ScimUserFromRow(row));
  } else if (IsScimStringEq(filter, "externalid")) {
    for (const auto& row : tenant.Run(internal::kScimFindUsersByExternalId, {filter.value.text}))
      all.push_back(ScimUserFromRow(row));
  } else {
    for (const auto& row : tenant.Run(internal::kScimListUsers)) {
      ScimUserRecord rec = ScimUserFromRow(row);
      if (scim::MatchesJson(scim::UserToJson(rec.user, {.id = rec.id}), filter)) all.push_back(std::move(rec));
    }
  }
  return ScimPageOf(std::move(all), request);
}

Result<ScimUserRecord> ScimService::GetUser(const Principal& caller, const std::string& id) const {
  CR_TRY(RequireScimKey(caller));
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto rows = tenant.Run(internal::kScimFindUser, {id});
  if (rows.empty()) return ScimUserNotFound();
  return ScimUserFromRow(rows.front());
}

Result<ScimUserRecord> ScimService::CreateUser(const Principal& caller, const json::value& body) const {
  CR_TRY(RequireScimKey(caller));
  CR_TRY_ASSIGN(ScimUser user, scim::ParseUser(body));
  const auto email = user.SignInEmail();
  if (!email)
    return Error::InvalidArgument("invalidValue",
                                  "Invalid User: an email (emails, or a userName that is one) is required.",
                                  {{"emails", "is required when userName is not an email address"}});
  const TimeMs now = clock_.Now();
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  // Checked first: on PostgreSQL a failed insert would abort the transaction.
  if (!tenant.Run(internal::kScimFindUserByNameKey, {NameKey(user.user_name)}).empty())
    return ScimUniqueness("A user with the userName '" + user.user_name + "' is provisioned already.");

  // Users are people across tenants: one who exists already (by email)
  // joins this tenant rather than getting a second account.
  std::string user_id;
  if (auto existing = session.Run(internal::kFindUserByEmail, {AsciiLower(*email)}); !existing.empty()) {
    user_id = existing.front().Text(0);
    if (!tenant.Run(internal::kScimFindUser, {user_id}).empty())
      return ScimUniqueness("The person with the email '" + *email +
                            "' is provisioned already under another userName.");
  } else {
    user_id = NewId();
    session.Run(internal::kInsertUser, {user_id, *email, user.DisplayNameOrDefault(), now});
  }
  auto state = tenant.Run(internal::kScimMemberState, {user_id});
  if (state.empty()) {
    tenant.Run(internal::kInsertMember, {user_id, "Member", std::nullopt, now});
  } else if (state.front().Int(1) == 0 && user.active) {
    tenant.Run(internal::kScimReactivateMember, {user_id});
  }
  const bool member_active = state.empty() || state.front().Int(1) != 0 || user.active;
  if (!user.active && member_active) CR_TRY(EndAccess(tenant, user_id));
  try {
    tenant.Run(internal::kScimInsertUser, {user_id, user.user_name, NameKey(user.user_name), user.external_id,
                                           user.active, StoredScimResource(user), now});
  } catch (const storage::StorageError& e) {
    // A concurrent create of the same userName won the race.
    if (e.kind() == storage::StorageError::Kind::kUniqueViolation)
      return ScimUniqueness("A user with the userName '" + user.user_name + "' is provisioned already.");
    throw;
  }
  audit_.Record(tenant, AuditOf(caller, "scim.user.created", {"user", user_id},
                                {{"userName", user.user_name}, {"email", *email}, {"active", user.active}}));
  session.Commit();
  return ScimUserRecord{user_id, std::move(user), now, now, 1};
}

Result<ScimUserRecord> ScimService::SaveUser(storage::TenantSession& tenant, const Principal& caller,
                                             const ScimUserRecord& before, ScimUser after) const {
  const std::string key = NameKey(after.user_name);
  for (const auto& row : tenant.Run(internal::kScimFindUserByNameKey, {key}))
    if (row.Text(0) != before.id)
      return ScimUniqueness("A user with the userName '" + after.user_name + "' is provisioned already.");
  std::string action = "scim.user.updated";
  if (before.user.active && !after.active) {
    CR_TRY(EndAccess(tenant, before.id));
    action = "scim.user.deactivated";
  } else if (!before.user.active && after.active) {
    tenant.Run(internal::kScimReactivateMember, {before.id});
    action = "scim.user.reactivated";
  }
  const TimeMs now = clock_.Now();
  tenant.Run(internal::kScimUpdateUser,
             {before.id, after.user_name, key, after.external_id, after.active, StoredScimResource(after), now});
  json::object details{{"userName", after.user_name}, {"active", after.active}};
  if (after.user_name != before.user.user_name) details["previousUserName"] = before.user.user_name;
  audit_.Record(tenant, AuditOf(caller, std::move(action), {"user", before.id}, std::move(details)));
  return ScimUserRecord{before.id, std::move(after), before.created_at, now, before.version + 1};
}

Result<ScimUserRecord> ScimService::ReplaceUser(const Principal& caller, const std::string& id, const json::value& body,
                                                const std::optional<std::string>& if_match) const {
  CR_TRY_ASSIGN(ScimUser after, scim::ParseUser(body));
  return ChangeScimResource(db_, caller, internal::kScimFindUser, id, if_match, &ScimUserNotFound, &ScimUserFromRow,
                            [&](storage::TenantSession& tenant, const ScimUserRecord& before) {
                              return SaveUser(tenant, caller, before, std::move(after));
                            });
}

Result<ScimUserRecord> ScimService::PatchUser(const Principal& caller, const std::string& id, const json::value& body,
                                              const std::optional<std::string>& if_match) const {
  return ChangeScimResource(
      db_, caller, internal::kScimFindUser, id, if_match, &ScimUserNotFound, &ScimUserFromRow,
      [&](storage::TenantSession& tenant, const ScimUserRecord& before) -> Result<ScimUserRecord> {
        // PATCH is a PUT in disguise: the operations change the full
        // representation, which is then read exactly as a PUT body.
        json::object resource = scim::UserToJson(before.user, {.id = before.id});
        CR_TRY(scim::ApplyPatch(resource, body));
        CR_TRY_ASSIGN(ScimUser after, scim::ParseUser(resource));
        return SaveUser(tenant, caller, before, std::move(after));
      });
}

Status ScimService::DeleteUser(const Principal& caller, const std::string& id,
                               const std::optional<std::string>& if_match) const {
  return ChangeScimResource(db_, caller, internal::kScimFindUser, id, if_match, &ScimUserNotFound, &ScimUserFromRow,
                            [&](storage::TenantSession& tenant, const ScimUserRecord& before) -> Status {
                              CR_TRY(EndAccess(tenant, id));
                              tenant.Run(internal::kScimDeleteUserGroupMemberships, {id});
                              tenant.Run(internal::kScimDeleteUser, {id});
                              audit_.Record(tenant, AuditOf(caller, "scim.user.deleted", {"user", id},
                                                            {{"userName", before.user.user_name}}));
                              return Ok();
                            });
}

// --- Groups ---

Result<ScimPage<ScimGroupRecord>> ScimService::ListGroups(const Principal& caller,
                                                          const ScimListRequest& request) const {
  CR_TRY(RequireScimKey(caller));
  CR_TRY_ASSIGN(const scim::Filter filter, ParseOptionalScimFilter(request.filter));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  std::vector<ScimGroupRecord> all;
  if (request.filter && IsScimStringEq(filter, "displayname")) {
    for (const auto& row : tenant.Run(internal::kScimFindGroupByNameKey, {NameKey(filter.value.text)}))
      all.push_back(ScimGroupFromRow(row));
  } else if (request.filter && IsScimStringEq(filter, "externalid")) {
    for (const auto& row : tenant.Run(internal::kScimFindGroupsByExternalId, {filter.value.text}))
      all.push_back(ScimGroupFromRow(row));
  } else {
    for (const auto& row : tenant.Run(internal::kScimListGroups)) all.push_back(ScimGroupFromRow(row));
  }
  // Filters on members ("members.value eq ...") need them read first.
  const bool filter_on_members = request.filter && filter.attribute.starts_with("members");
  if (request.filter && !IsScimStringEq(filter, "displayname") && !IsScimStringEq(filter, "externalid")) {
    std::erase_if(all, [&](ScimGroupRecord& rec) {
      if (filter_on_members) ReadScimMembers(tenant, rec);
      return !scim::MatchesJson(scim::GroupToJson(rec.group, {.id = rec.id}), filter);
    });
  }
  ScimPage<ScimGroupRecord> page = ScimPageOf(std::move(all), request);
  for (auto& rec : page.items) {
    if (!request.with_members)
      rec.group.members.clear();
    else if (!filter_on_members)
      ReadScimMembers(tenant, rec);
  }
  return page;
}

Result<ScimGroupRecord> ScimService::GetGroup(const Principal& caller, const std::string& id) const {
  CR_TRY(RequireScimKey(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto rows = tenant.Run(internal::kScimFindGroup, {id});
  if (rows.empty()) return ScimGroupNotFound();
  ScimGroupRecord rec = ScimGroupFromRow(rows.front());
  ReadScimMembers(tenant, rec);
  return rec;
}

Result<ScimGroupRecord> ScimService::CreateGroup(const Principal& caller, const json::value& body) const {
  CR_TRY(RequireScimKey(caller));
  CR_TRY_ASSIGN(ScimGroup group, scim::ParseGroup(body));
  const TimeMs now = clock_.Now();
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  const std::string key = NameKey(group.display_name);
  if (!tenant.Run(internal::kFindGroupByNameKey, {key}).empty())
    return ScimUniqueness("A group named '" + group.display_name + "' exists already.");
  ScimGroupRecord created;
  created.id = NewId();
  created.created_at = now;
  tenant.Run(internal::kInsertGroup, {created.id, group.display_name, key, std::nullopt, now});
  // The new group as SaveGroup sees it: empty, without a SCIM row yet.
  created.group.display_name = group.display_name;
  CR_TRY_ASSIGN(ScimGroupRecord saved, SaveGroup(tenant, caller, created, std::move(group), /*created=*/true));
  audit_.Record(tenant, AuditOf(caller, "scim.group.created", {"group", saved.id},
                                {{"displayName", saved.group.display_name},
                                 {"memberCount", static_cast<int64_t>(saved.group.members.size())}}));
  session.Commit();
  return saved;
}

// Writes `after` over `before` (the group's row, its SCIM row and its
// member set) and answers the group as stored; records scim.group.updated
// unless `created` (the caller records the creation).
Result<ScimGroupRecord> ScimService::SaveGroup(storage::TenantSession& tenant, const Principal& caller,
                                               const ScimGroupRecord& before, ScimGroup after, bool created) const {
  const TimeMs now = clock_.Now();
  if (after.display_name != before.group.display_name) {
    const std::string key = NameKey(after.display_name);
    for (const auto& row : tenant.Run(internal::kFindGroupByNameKey, {key}))
      if (row.Text(0) != before.id) return ScimUniqueness("A group named '" + after.display_name + "' exists already.");
    tenant.Run(internal::kScimRenameGroup, {before.id, after.display_name, key});
  }
  std::set<std::string> old_ids, new_ids;
  for (const auto& m : before.group.members) old_ids.insert(m.value);
  for (const auto& m : after.members) new_ids.insert(m.value);
  std::vector<std::string> added, removed;
  for (const auto& id : new_ids) {
    if (old_ids.contains(id)) continue;
    // Only users of this tenant (another tenant's user is not found here).
    if (tenant.Run(internal::kScimMemberState, {id}).empty())
      return ScimInvalidValue("The member '" + id + "' is not a user of this tenant.");
    tenant.Run(internal::kInsertGroupMember, {before.id, id, now});
    added.push_back(id);
  }
  for (const auto& id : old_ids) {
    if (new_ids.contains(id)) continue;
    tenant.Run(internal::kDeleteGroupMember, {before.id, id});
    removed.push_back(id);
  }
  tenant.Run(internal::kScimUpsertGroup, {before.id, after.external_id, now});
  if (!created) {
    json::object details{
        {"displayName", after.display_name}, {"added", ScimJsonIds(added)}, {"removed", ScimJsonIds(removed)}};
    if (after.display_name != before.group.display_name) details["previousDisplayName"] = before.group.display_name;
    audit_.Record(tenant, AuditOf(caller, "scim.group.updated", {"group", before.id}, std::move(details)));
  }
  auto rows = tenant.Run(internal::kScimFindGroup, {before.id});
  ScimGroupRecord saved = ScimGroupFromRow(rows.front());
  ReadScimMembers(tenant, saved);
  return saved;
}

Result<ScimGroupRecord> ScimService::ReplaceGroup(const Principal& caller, const std::string& id,
                                                  const json::value& body,
                                                  const std::optional<std::string>& if_match) const {
  CR_TRY_ASSIGN(ScimGroup after, scim::ParseGroup(body));
  return ChangeScimResource(db_, caller, internal::kScimFindGroup, id, if_match, &ScimGroupNotFound, &ScimGroupFromRow,
                            [&](storage::TenantSession& tenant, const ScimGroupRecord& found) {
                              ScimGroupRecord before = found;
                              ReadScimMembers(tenant, before);
                              return SaveGroup(tenant, caller, before, std::move(after), /*created=*/false);
                            });
}

Result<ScimGroupRecord> ScimService::PatchGroup(const Principal& caller, const std::string& id, const json::value& body,
                                                const std::optional<std::string>& if_match) const {
  return ChangeScimResource(
      db_, caller, internal::kScimFindGroup, id, if_match, &ScimGroupNotFound, &ScimGroupFromRow,
      [&](storage::TenantSession& tenant, const ScimGroupRecord& found) -> Result<ScimGroupRecord> {
        ScimGroupRecord before = found;
        ReadScimMembers(tenant, before);
        ScimGroup after = before.group;
        CR_TRY(scim::ApplyGroupPatch(after, body));
        return SaveGroup(tenant, caller, before, std::move(after), /*created=*/false);
      });
}

Status ScimService::DeleteGroup(const Principal& caller, const std::string& id,
                                const std::optional<std::string>& if_match) const {
  return ChangeScimResource(db_, caller, internal::kScimFindGroup, id, if_match, &ScimGroupNotFound, &ScimGroupFromRow,
                            [&](storage::TenantSession& tenant, const ScimGroupRecord& before) {
                              if (group_deleted_) group_deleted_(tenant, id);
                              tenant.Run(internal::kDeleteGroup, {id});
                              audit_.Record(tenant, AuditOf(caller, "scim.group.deleted", {"group", id},
                                                            {{"displayName", before.group.display_name}}));
                              return Ok();
                            });
}

}  // namespace credence::identity
