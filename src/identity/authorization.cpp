#include "identity/authorization.h"

#include <cctype>
#include <string>

namespace credence::identity {

Status RequireGlobalAdmin(const Principal& principal) {
  CR_TRY(RequireUser(principal));
  if (!principal.is_global_admin())
    return Error::PermissionDenied("This action needs a global admin of the tenant (TenantRole Owner).");
  return Ok();
}

std::string_view AccessLevelName(AccessLevel level) {
  switch (level) {
    case AccessLevel::kNone: return "None";
    case AccessLevel::kViewer: return "Viewer";
    case AccessLevel::kEditor: return "Editor";
    case AccessLevel::kAdmin: return "Admin";
  }
  return "None";
}

std::optional<AccessLevel> ParseAccessLevel(std::string_view name) {
  if (name == "Viewer") return AccessLevel::kViewer;
  if (name == "Editor") return AccessLevel::kEditor;
  if (name == "Admin") return AccessLevel::kAdmin;
  return std::nullopt;
}

Status RequireLevel(AccessLevel have, AccessLevel needed, std::string_view what) {
  if (have == AccessLevel::kNone) return Error::NotFound(std::string(1, static_cast<char>(std::toupper(what[0]))) +
                                                         std::string(what.substr(1)) + " not found.");
  if (have < needed)
    return Error::PermissionDenied("This action needs the " + std::string(AccessLevelName(needed)) + " role on the " +
                                   std::string(what) + "; you have " + std::string(AccessLevelName(have)) + ".");
  return Ok();
}

Status RequireUser(const Principal& principal) {
  if (!principal.is_user()) {
    Error e = Error::PermissionDenied(
        "This endpoint needs a signed-in user; machine credentials (API keys and their access tokens) are not "
        "accepted here.");
    e.code = "machine_credentials_not_allowed";
    return e;
  }
  return Ok();
}

}  // namespace credence::identity
