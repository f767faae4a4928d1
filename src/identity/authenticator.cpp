#include "identity/authenticator.h"

#include <algorithm>
#include <cctype>

#include "core/ids.h"
#include "identity/access_token.h"
#include "identity/api_key_service.h"
#include "identity/internal/queries.h"
#include "identity/session_service.h"
#include "identity/token_format.h"
#include "storage/session.h"

namespace credence::identity {
namespace {

constexpr std::string_view kDevTokenPrefix = "dev-token-";

Error InvalidToken(std::string detail) { return Error::Unauthenticated("invalid_token", std::move(detail)); }

}  // namespace

Result<std::optional<Principal>> Authenticator::Authenticate(const Credentials& credentials) const {
  std::string_view token;
  if (!credentials.authorization.empty()) {
    std::string_view header = credentials.authorization;
    // The scheme is case-insensitive (RFC 9110 11.1).
    auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
    const bool bearer = header.size() > 7 && header[6] == ' ' &&
                        std::equal(header.begin(), header.begin() + 6, "bearer", [&](char a, char b) { return lower(a) == b; });
    if (!bearer) return InvalidToken("The Authorization header must use the Bearer scheme.");
    token = header.substr(7);
    while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  } else if (!credentials.api_key.empty()) {
    token = credentials.api_key;
  } else if (!credentials.session_cookie.empty()) {
    // Only sessions live in the cookie: a development token or a machine
    // key put there by hand is refused rather than made a browser session.
    if (sessions_ == nullptr || !credentials.session_cookie.starts_with(kSessionTokenPrefix))
      return InvalidToken("The session cookie does not hold a session; sign in again.");
    CR_TRY_ASSIGN(Principal principal, sessions_->Authenticate(credentials.session_cookie));
    return std::optional<Principal>(std::move(principal));
  } else {
    return std::optional<Principal>();
  }
  if (token.empty()) return InvalidToken("The bearer token is empty.");
  if (token.rfind(kDevTokenPrefix, 0) == 0) {
    CR_TRY_ASSIGN(Principal principal, AuthenticateDevToken(token));
    return std::optional<Principal>(std::move(principal));
  }
  if (sessions_ != nullptr && token.starts_with(kSessionTokenPrefix)) {
    CR_TRY_ASSIGN(Principal principal, sessions_->Authenticate(token));
    return std::optional<Principal>(std::move(principal));
  }
  if (api_keys_ != nullptr && token.starts_with(kSecretPrefix)) {
    CR_TRY_ASSIGN(Principal principal, api_keys_->AuthenticateKey(token));
    return std::optional<Principal>(std::move(principal));
  }
  if (api_keys_ != nullptr && AccessTokenSigner::LooksLikeJwt(token)) {
    CR_TRY_ASSIGN(Principal principal, api_keys_->AuthenticateAccessToken(token));
    return std::optional<Principal>(std::move(principal));
  }
  return InvalidToken("The token is not recognized.");
}

Result<Principal> Authenticator::AuthenticateDevToken(std::string_view token) const {
  if (!dev_mode_) return InvalidToken("Development tokens are accepted only in development mode.");
  token.remove_prefix(kDevTokenPrefix.size());
  const auto colon = token.find(':');
  if (colon == std::string_view::npos) return InvalidToken("Malformed development token.");
  const std::string_view tenant_id = token.substr(0, colon), user_id = token.substr(colon + 1);
  if (!IsUuid(tenant_id) || !IsUuid(user_id)) return InvalidToken("Malformed development token.");

  storage::Session session(db_);
  storage::TenantSession tenant(session, CanonicalUuid(tenant_id));
  const std::string user = CanonicalUuid(user_id);
  auto rows = tenant.Run(internal::kFindActiveMember, {user});
  if (rows.empty()) return InvalidToken("The token's user is not a member of its tenant.");
  const auto row = rows.front();
  Principal p;
  p.kind = PrincipalKind::kUser;
  p.tenant_id = tenant.tenant_id();
  p.user_id = user;
  p.role = ParseTenantRole(row.Text(0)).value_or(TenantRole::kGuest);
  p.email = row.Text(1);
  p.display_name = row.Text(2);
  p.preferred_language = row.OptText(3);
  return p;
}

}  // namespace credence::identity
