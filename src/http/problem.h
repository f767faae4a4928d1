#pragma once
// The one place where a domain Error becomes an HTTP status and an RFC 9457
// problem+json body (decisions.md section 3).
#include <string_view>

#include "core/error.h"
#include "http/language.h"
#include "http/request.h"
#include "http/route.h"

namespace credence::http {

int StatusFor(ErrorKind kind);

// `instance` is the request path; `request_id` lets a client quote the
// failing request to an operator. The title, and the detail when it is one of
// the fixed texts, are in `language` (one of http/language.h's
// kTextLanguages), which Content-Language names; `type` and `code` are the
// same in every language.
HttpResponse ProblemResponse(const Error& error, std::string_view instance, std::string_view request_id,
                             std::string_view language = kTextLanguages[0]);

// The problem response for a handler's request, in the caller's language.
inline HttpResponse Problem(const RequestContext& ctx, const Error& error) {
  return ProblemResponse(error, ctx.request.path(), ctx.request_id, TextLanguage(ctx));
}

}  // namespace credence::http
