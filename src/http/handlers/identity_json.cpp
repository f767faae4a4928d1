#include "http/handlers/identity_json.h"

#include <boost/json/value.hpp>

namespace credence::http {
namespace json = boost::json;

json::object UserJson(const identity::UserProfile& u) {
  const bool has_tenant = !u.tenant_id.empty();
  return {{"id", u.id},
          {"email", u.email},
          {"displayName", u.display_name},
          {"tenantId", has_tenant ? json::value(u.tenant_id) : json::value(nullptr)},
          {"tenantRole", has_tenant ? json::value(identity::TenantRoleName(u.role)) : json::value(nullptr)},
          {"isGlobalAdmin", has_tenant && u.role == identity::TenantRole::kOwner},
          {"preferredLanguage", u.preferred_language ? json::value(*u.preferred_language) : json::value(nullptr)}};
}

Schema SessionCookieRequested() {
  return Schema::Boolean().Describe(
      "true (the web client): set the session in the HttpOnly browser session cookie and answer no token; "
      "the request must carry the X-Credence-CSRF header");
}

}  // namespace credence::http
