#pragma once
// Domain errors: what went wrong, in words a client may see. Only http/ maps
// an ErrorKind to a status code and a problem+json body (http/problem.h).
#include <string>
#include <utility>
#include <vector>

namespace credence {

enum class ErrorKind {
  kInvalidArgument,   // 400
  kUnauthenticated,   // 401
  kPermissionDenied,  // 403
  kNotFound,          // 404 (also for other tenants' resources)
  kMethodNotAllowed,  // 405
  kConflict,          // 409
  kGone,              // 410: moved out for good (an archived record)
  kPayloadTooLarge,   // 413
  kGuardDenied,       // 422
  kRateLimited,       // 429
  kUpstreamFailed,    // 502: a service we depend on (a sign-in provider) failed
  kUnavailable,       // 503
  kInternal,          // 500
};

struct FieldError {
  std::string field;
  std::string message;
};

struct Error {
  ErrorKind kind = ErrorKind::kInternal;
  std::string code;    // stable snake_case identifier, e.g. "validation_failed"
  std::string detail;  // human-readable, safe to show to the client
  std::vector<FieldError> fields;
  // Extension members as key -> already-serialized JSON value (e.g. guard
  // metadata, the scope an insufficient_scope error needs).
  std::vector<std::pair<std::string, std::string>> extensions;

  static Error InvalidArgument(std::string code, std::string detail,
                               std::vector<FieldError> fields = {});
  static Error Validation(std::vector<FieldError> fields);
  static Error Unauthenticated(std::string code, std::string detail);
  static Error PermissionDenied(std::string detail);
  static Error NotFound(std::string detail);
  static Error Conflict(std::string code, std::string detail);
  static Error Internal(std::string detail);

  Error&& With(std::string key, std::string json_value) && {
    extensions.emplace_back(std::move(key), std::move(json_value));
    return std::move(*this);
  }
  // The value of an extension member, or nullptr.
  const std::string* Extension(std::string_view key) const;
};

}  // namespace credence
