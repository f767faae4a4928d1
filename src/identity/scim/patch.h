#pragma once
// SCIM 2.0 PATCH (RFC 7644 section 3.5.2) applied to a resource's JSON, as
// the identity providers send it:
//   Okta:  {"op":"replace","value":{"active":false}}  (no path, value object)
//   Entra: {"op":"Replace","path":"active","value":"False"}  (capitalised op,
//          booleans as strings), paths like name.givenName and
//          emails[type eq "work"].value, and value objects keyed by paths
//          ({"op":"Add","value":{"name.givenName":"Jo"}}).
//
// The applier works on the resource's full SCIM representation and knows
// nothing of storage: the caller reads the resource, applies the operations,
// then validates and saves the result exactly as it would a PUT, so PATCH
// and PUT share one set of rules.
//
// Errors carry the SCIM scimType as Error::code: invalidSyntax (not a PatchOp
// body, unknown op), invalidPath, invalidValue, noTarget.
#include <boost/json.hpp>

#include "core/result.h"

namespace credence::identity::scim {

inline constexpr std::string_view kPatchOpSchema = "urn:ietf:params:scim:api:messages:2.0:PatchOp";

// Attributes whose values are booleans: Entra sends them as "True"/"False"
// strings, which are read as booleans here (any other string is invalidValue).
bool IsBooleanAttribute(std::string_view lowercase_name);

// Applies `body`'s Operations to `resource` in order. On error `resource`
// may be partly changed; callers discard it.
Status ApplyPatch(boost::json::object& resource, const boost::json::value& body);

}  // namespace credence::identity::scim
