#pragma once
// The user profile as sign-in, /users/me and dev sign-in answer it.
#include <boost/json/object.hpp>

#include "http/schema.h"
#include "identity/tenant_service.h"

namespace credence::http {

// {id, email, displayName, tenantId, tenantRole, isGlobalAdmin,
// preferredLanguage}; tenantId and tenantRole are null (and isGlobalAdmin
// false) for a session that has not selected a tenant yet.
boost::json::object UserJson(const identity::UserProfile& u);

// The sign-in requests' optional "cookie" member: true puts the session in
// the browser session cookie instead of the answer (http/session_cookie.h).
Schema SessionCookieRequested();

}  // namespace credence::http
