#include "identity/principal.h"

namespace credence::identity {

std::string_view TenantRoleName(TenantRole role) {
  switch (role) {
    case TenantRole::kOwner: return "Owner";
    case TenantRole::kMember: return "Member";
    case TenantRole::kGuest: return "Guest";
  }
  return "Guest";
}

std::optional<TenantRole> ParseTenantRole(std::string_view name) {
  if (name == "Owner") return TenantRole::kOwner;
  if (name == "Member") return TenantRole::kMember;
  if (name == "Guest") return TenantRole::kGuest;
  return std::nullopt;
}

}  // namespace credence::identity
