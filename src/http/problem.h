#pragma once
// The one place where a domain Error becomes an HTTP status and an RFC 9457
// problem+json body (decisions.md section 3).
#include <string_view>

#include "core/error.h"
#include "http/request.h"
#include "http/route.h"

namespace credence::http {

int StatusFor(ErrorKind kind);

// `instance` is the request path; `request_id` lets a client quote the
// failing request to an operator.
HttpResponse ProblemResponse(const Error& error, std::string_view instance, std::string_view request_id);

// The problem response for a handler's request.
inline HttpResponse Problem(const RequestContext& ctx, const Error& error) {
  return ProblemResponse(error, ctx.request.path(), ctx.request_id);
}

}  // namespace credence::http
