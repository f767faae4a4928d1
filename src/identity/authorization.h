#pragma once
// The one authorization helper every handler calls. Tenant-level checks
// today; hub and entry roles join here with the knowledge base, so "who may
// do what" is answered in one place.
#include "core/result.h"
#include "identity/principal.h"

namespace credence::identity {

// A global admin of the tenant (TenantRole Owner). Machine credentials never are.
Status RequireGlobalAdmin(const Principal& principal);

// A signed-in user (not a machine credential).
Status RequireUser(const Principal& principal);

}  // namespace credence::identity
