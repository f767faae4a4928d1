#pragma once
// SCIM 2.0 filters and PATCH paths (RFC 7644 sections 3.4.2.2 and 3.5.2):
// the subset identity providers send. Okta and Entra ID look users and groups
// up with one comparison (`userName eq "x"`, `externalId eq "x"`,
// `displayName eq "x"`) and address multi-valued attributes in PATCH paths
// with one value filter (`emails[type eq "work"].value`). Logical operators
// and grouping are refused with scimType invalidFilter rather than half
// supported, so a client never gets a silently wrong answer.
//
// Pure: no storage, no HTTP. Errors carry the SCIM scimType as Error::code
// ("invalidFilter", "invalidPath"), which the routes put in the error body.
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "core/result.h"

namespace boost::json {
class value;
}

namespace credence::identity::scim {

enum class CompareOp { kEq, kNe, kCo, kSw, kEw, kGt, kGe, kLt, kLe, kPr };

// A comparison value: a JSON string, boolean, number (kept as its text) or null.
struct CompareValue {
  enum class Kind { kString, kBoolean, kNumber, kNull } kind = Kind::kNull;
  std::string text;      // kString: the unescaped string; kNumber: the literal
  bool boolean = false;  // kBoolean
};

struct Filter {
  // Attribute names are case-insensitive (RFC 7643 section 2.1), so they are
  // kept lowercased: "username", "name.givenname", "emails.value". A schema
  // URN prefix ("urn:ietf:params:scim:schemas:core:2.0:User:userName") is
  // stripped.
  std::string attribute;
  CompareOp op = CompareOp::kEq;
  CompareValue value;  // unset (kNull) for kPr
};

// Parses `attrPath op value` or `attrPath pr`. Anything else, including
// `and`/`or`/`not` and parentheses, is an invalidFilter error.
Result<Filter> ParseFilter(std::string_view text);

// A PATCH operation's path: `attr`, `attr.sub`, `attr[filter]` or
// `attr[filter].sub` (attribute names lowercased as in Filter).
struct PatchPath {
  std::string attribute;         // "active", "name", "emails"
  std::optional<Filter> filter;  // `type eq "work"` in emails[type eq "work"]
  std::string sub_attribute;     // "givenname", "value"; empty if none
};

// Parses a PATCH path; an error has code "invalidPath".
Result<PatchPath> ParsePatchPath(std::string_view text);

// Whether `candidate` matches `value` under `op`, comparing strings
// case-insensitively unless `case_exact` (RFC 7643 caseExact).
bool MatchesString(CompareOp op, std::string_view candidate, const CompareValue& value, bool case_exact);

// Whether a resource's JSON (or an element of a multi-valued attribute)
// matches `filter`: the attribute path is followed case-insensitively,
// through arrays ("emails.value" matches any email); strings compare
// case-insensitively except `id` and `externalId` (RFC 7643 caseExact),
// booleans with eq and ne.
bool MatchesJson(const boost::json::value& resource, const Filter& filter);

}  // namespace credence::identity::scim
