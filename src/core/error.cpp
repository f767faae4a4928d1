#include "core/error.h"

namespace credence {

Error Error::InvalidArgument(std::string code, std::string detail, std::vector<FieldError> fields) {
  return Error{ErrorKind::kInvalidArgument, std::move(code), std::move(detail), std::move(fields), {}};
}

Error Error::Validation(std::vector<FieldError> fields) {
  return InvalidArgument("validation_failed", "The request body failed validation.", std::move(fields));
}

Error Error::Unauthenticated(std::string code, std::string detail) {
  return Error{ErrorKind::kUnauthenticated, std::move(code), std::move(detail), {}, {}};
}

Error Error::PermissionDenied(std::string detail) {
  return Error{ErrorKind::kPermissionDenied, "forbidden", std::move(detail), {}, {}};
}

Error Error::NotFound(std::string detail) {
  return Error{ErrorKind::kNotFound, "not_found", std::move(detail), {}, {}};
}

Error Error::Conflict(std::string code, std::string detail) {
  return Error{ErrorKind::kConflict, std::move(code), std::move(detail), {}, {}};
}

Error Error::Internal(std::string detail) {
  return Error{ErrorKind::kInternal, "internal_error", std::move(detail), {}, {}};
}

const std::string* Error::Extension(std::string_view key) const {
  for (const auto& [k, v] : extensions)
    if (k == key) return &v;
  return nullptr;
}

}  // namespace credence
