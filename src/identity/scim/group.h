#pragma once
// The SCIM Group resource (RFC 7643 section 4.2) and its PATCH, as Okta's
// group push and Entra ID's group provisioning send them. Pure: the service
// that maps a ScimGroup onto a tenant group and its members owns storage.
//
// Members are users, named by their SCIM id (`value`); `display` is read
// from storage when answering, never taken from a request.
#include <optional>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "core/result.h"

namespace credence::identity::scim {

inline constexpr char kGroupSchema[] = "urn:ietf:params:scim:schemas:core:2.0:Group";

struct ScimGroupMember {
  std::string value;    // the user's SCIM id
  std::string display;  // answered only
};

struct ScimGroup {
  std::string display_name;
  std::optional<std::string> external_id;
  std::vector<ScimGroupMember> members;  // no repeats, in the order given
};

// Reads a POST or PUT body. Errors are InvalidArgument with the scimType as
// code: invalidSyntax for a body that is not a Group, invalidValue for a bad
// attribute.
Result<ScimGroup> ParseGroup(const boost::json::value& body);

// Applies a PatchOp body to `group`. Member operations are read in every
// form the IdPs send: Okta's `add` with a value array and `remove` with
// path `members[value eq "id"]`, Entra's `Add`/`Remove` with path `members`
// and a value array (remove those, not all), `replace` of the member set;
// other attributes go through the generic ApplyPatch. Removing a member
// that is not there is not an error (both IdPs retry removals).
Status ApplyGroupPatch(ScimGroup& group, const boost::json::value& body);

struct ScimMeta;
boost::json::object GroupToJson(const ScimGroup& group, const ScimMeta& meta, bool with_members = true);

}  // namespace credence::identity::scim
