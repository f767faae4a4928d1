#pragma once
// Sign-in with OpenID Connect (decisions.md 10, docs/sign-in.md): the
// authorization code flow with PKCE (S256), state and nonce, against the
// providers the operator configured; the user found by (issuer, subject) or
// linked by verified email; their tenants; and a session.
//
//   BeginLogin    a pending login (state, nonce, verifier, the hash of a
//                 browser-binding cookie) and the provider URL to send the
//                 browser to.
//   CompleteLogin the callback: the pending login is used exactly once and
//                 must come from the same browser; the code is redeemed and
//                 the ID token verified; then the user, memberships and
//                 session are written in one transaction.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "identity/audit.h"
#include "identity/oidc/provider_client.h"
#include "identity/principal.h"
#include "identity/session_service.h"
#include "identity/tenant_service.h"

namespace credence::storage {
class Database;
class Session;
}  // namespace credence::storage

namespace credence::identity {

inline constexpr TimeMs kLoginRequestTtlMs = 10 * 60 * 1000;
// Sign-ins started within kLoginRequestTtlMs, across the installation,
// beyond which a start is refused (429): starting one needs no credential,
// and each is a row, so a flood must not grow the table without bound.
inline constexpr int64_t kMaxPendingLogins = 10'000;

struct LoginRedirect {
  std::string location;         // the provider's authorization URL
  std::string browser_binding;  // the cookie value binding the state to this browser
};

struct UserTenant {
  std::string id;
  std::string name;
  std::string slug;
  TenantRole role = TenantRole::kGuest;
};

struct SignedIn {
  std::string token;  // the session token, shown once
  TimeMs expires_at = 0;
  UserProfile user;   // tenant_id empty when no tenant is selected yet
  std::vector<UserTenant> tenants;
};

// Called inside the sign-in transaction after the user row exists: joins
// the tenants the person was invited to, or whose domain admits them.
using JoinTenantsHook = std::function<void(storage::Session& tx, const std::string& user_id,
                                           const std::string& verified_email, const RequestMeta& request)>;

class SignInService {
 public:
  // Sign-ins are recorded in `audit` (docs/audit.md): signin.succeeded in
  // each of the user's tenants (in the sign-in's transaction), or in the
  // platform chain for a user with none; signin.failed in the tenants of
  // the user the verified email belongs to, when known, else in the
  // platform chain.
  SignInService(storage::Database& db, const Clock& clock, const SessionService& sessions,
                const AuditRecorder& audit, std::vector<oidc::ProviderConfig> providers, std::string public_url);
  ~SignInService();

  void SetJoinTenantsHook(JoinTenantsHook hook) { join_tenants_ = std::move(hook); }

  // Where a browser returning from the provider is sent (the web client's
  // page that completes the sign-in with POST /auth/callback), when the
  // server serves the client; empty: the callback answers JSON.
  void ReturnBrowsersTo(std::string client_path) { browser_return_path_ = std::move(client_path); }
  const std::string& BrowserReturnPath() const { return browser_return_path_; }

  std::vector<std::string> ProviderNames() const;
  std::string RedirectUri() const { return public_url_ + "/auth/callback"; }
  // --public-url: its scheme decides whether cookies are Secure.
  const std::string& PublicUrl() const { return public_url_; }

  // 404 unknown_provider; 429 too_many_sign_ins; 502 provider_unavailable.
  Result<LoginRedirect> BeginLogin(const std::string& provider_name) const;

  // `provider_error`: the `error` parameter the provider returned instead of
  // a code (e.g. access_denied). `issuer`: the callback's `iss` parameter
  // (RFC 9207), when the provider sends one; it must name the provider the
  // login was started with (a mix-up attack otherwise). Failures: 400
  // invalid_state, login_expired, login_already_used, state_mismatch,
  // issuer_mismatch, code_rejected, provider_error;
  // 401 id_token_*; 403 email_not_verified, email_domain_not_allowed;
  // 502 provider_unavailable.
  Result<SignedIn> CompleteLogin(const std::string& code, const std::string& state,
                                 const std::string& browser_binding, const std::string& provider_error,
                                 const std::string& issuer, const RequestMeta& request) const;

  // GET /auth/tenants.
  std::vector<UserTenant> TenantsOf(const std::string& user_id) const;

 private:
  struct Attempt {
    std::string provider;
    std::optional<std::string> email;  // once the ID token verified
  };
  Result<SignedIn> Complete(const std::string& code, const std::string& state, const std::string& browser_binding,
                            const std::string& provider_error, const std::string& issuer, const RequestMeta& request,
                            Attempt& attempt) const;
  void RecordFailure(const Attempt& attempt, const Error& error, const RequestMeta& request) const;
  const oidc::ProviderClient* Find(const std::string& name) const;

  storage::Database& db_;
  const Clock& clock_;
  const SessionService& sessions_;
  const AuditRecorder& audit_;
  std::vector<std::unique_ptr<oidc::ProviderClient>> providers_;
  const std::string public_url_;
  JoinTenantsHook join_tenants_;
  std::string browser_return_path_;
};

}  // namespace credence::identity
