#pragma once
// SCIM error answers (RFC 7644 section 3.12): what /scim/v2/ answers instead
// of problem+json, because Okta and Entra ID parse this shape:
//   {"schemas": ["urn:ietf:params:scim:api:messages:2.0:Error"],
//    "status": "409", "scimType": "uniqueness", "detail": "..."}
// served as application/scim+json.
#include <string_view>

#include "core/error.h"
#include "http/request.h"
#include "http/schema.h"

namespace credence::http {

inline constexpr char kScimContentType[] = "application/scim+json";

// A domain error as a SCIM error: the scimType is the error's code when it
// is one (identity/scim/*), else derived from the status (400 invalidValue,
// malformed JSON invalidSyntax, 409 uniqueness); `preconditionFailed` is 412.
HttpResponse ScimErrorFor(const Error& error);

// Rewrites a problem+json answer (the dispatcher's refusals: credentials,
// rate limits, a failing store) as a SCIM error, keeping its status and
// headers. Other answers are left alone.
void ProblemToScimError(HttpResponse& response);

// The error body, for the routes' documentation.
Schema ScimErrorSchema();

}  // namespace credence::http
