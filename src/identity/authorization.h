#pragma once
// The one authorization helper every handler calls. Tenant-level checks
// today; hub and entry roles join here with the knowledge base, so "who may
// do what" is answered in one place.
#include "core/result.h"
#include "identity/principal.h"

namespace credence::identity {

// A global admin of the tenant (TenantRole Owner). Machine credentials never
// are (403 machine_credentials_not_allowed, as RequireUser).
Status RequireGlobalAdmin(const Principal& principal);

// A signed-in user. A machine credential gets 403 with its own code,
// machine_credentials_not_allowed, so an integrator can tell "wrong kind of
// credential" from "your role does not allow this" (forbidden).
Status RequireUser(const Principal& principal);

// Roles on a hub or an entry, in ascending order (PermissionLevel). The
// knowledge base computes the caller's level from hub memberships (user and
// group), entry permissions (user and group), ownership and global admin;
// this decides what a level allows.
enum class AccessLevel { kNone = 0, kViewer = 1, kEditor = 2, kAdmin = 3 };

std::string_view AccessLevelName(AccessLevel level);  // "Viewer", ...; "None" for kNone
std::optional<AccessLevel> ParseAccessLevel(std::string_view name);

// Ok when `have` reaches `needed`. A caller who cannot even view the
// resource gets 404 (its existence is not revealed); one who can view it but
// needs more gets 403. `what` names the resource in the message ("hub").
Status RequireLevel(AccessLevel have, AccessLevel needed, std::string_view what);

}  // namespace credence::identity
