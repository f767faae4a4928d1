#include "identity/authorization.h"

namespace credence::identity {

Status RequireGlobalAdmin(const Principal& principal) {
  if (!principal.is_global_admin())
    return Error::PermissionDenied("This action needs a global admin of the tenant (TenantRole Owner).");
  return Ok();
}

Status RequireUser(const Principal& principal) {
  if (!principal.is_user()) return Error::PermissionDenied("This endpoint needs a signed-in user.");
  return Ok();
}

}  // namespace credence::identity
