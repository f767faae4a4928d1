#pragma once
// The SCIM User resource (RFC 7643 section 4.1) as Credence supports it:
// the attributes Okta's and Entra ID's default mappings send, read from and
// written to JSON. Pure: the service that maps a ScimUser onto a Credence
// user and tenant membership sits above this and owns storage.
//
// Supported: userName (required), externalId, name.givenName,
// name.familyName, name.formatted, displayName, emails (value, type,
// primary), active. Other attributes in a request are ignored, as RFC 7644
// section 3.3 allows for attributes the provider does not support.
#include <optional>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "core/result.h"

namespace credence::identity::scim {

inline constexpr char kUserSchema[] = "urn:ietf:params:scim:schemas:core:2.0:User";

struct ScimEmail {
  std::string value;
  std::string type;  // "work", "home", ... or empty
  bool primary = false;
};

struct ScimUser {
  std::string user_name;
  std::optional<std::string> external_id;
  std::optional<std::string> given_name;
  std::optional<std::string> family_name;
  std::optional<std::string> formatted_name;
  std::optional<std::string> display_name;
  std::vector<ScimEmail> emails;
  bool active = true;  // RFC 7643: a user without "active" is active

  // The address Credence signs the user in with: the primary email, else the
  // first, else userName when it looks like an address (Okta's default
  // userName is the email); nullopt otherwise.
  std::optional<std::string> SignInEmail() const;
  // displayName, else "given family", else userName.
  std::string DisplayNameOrDefault() const;
};

// Reads a POST or PUT body (or a PATCHed representation). Errors are
// InvalidArgument with the scimType as code: invalidSyntax for a body that
// is not a User, invalidValue for a bad attribute (each named in fields).
Result<ScimUser> ParseUser(const boost::json::value& body);

// The representation answered for a user: schemas, id, the attributes, and
// meta (resourceType, created, lastModified as RFC 3339, location, version
// when given).
struct ScimMeta {
  std::string id;
  std::string created;        // RFC 3339
  std::string last_modified;  // RFC 3339
  std::string location;       // absolute URL of the resource
  std::string version;        // a weak ETag (W/"...") or empty
};
boost::json::object UserToJson(const ScimUser& user, const ScimMeta& meta);

// The `meta` attribute of any resource: resourceType, created,
// lastModified, location, and version when given.
boost::json::object MetaToJson(std::string_view resource_type, const ScimMeta& meta);

}  // namespace credence::identity::scim
