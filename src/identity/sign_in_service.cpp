#include "identity/sign_in_service.h"

#include <openssl/sha.h>

#include "core/ids.h"
#include "core/text.h"
#include "identity/internal/queries.h"
#include "identity/internal/session_queries.h"
#include "storage/session.h"

namespace credence::identity {
namespace {

Error Bad(const char* code, std::string detail) { return Error::InvalidArgument(code, std::move(detail)); }

std::string RandomToken() { return Base64UrlEncode(SecureRandomBytes(32)); }

// RFC 7636 4.2: BASE64URL(SHA256(ASCII(code_verifier))).
std::string S256(const std::string& verifier) {
  unsigned char digest[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(verifier.data()), verifier.size(), digest);
  return Base64UrlEncode(std::string_view(reinterpret_cast<const char*>(digest), sizeof digest));
}

std::string DomainOf(const std::string& email) {
  const auto at = email.rfind('@');
  return at == std::string::npos ? std::string() : email.substr(at + 1);
}

}  // namespace

SignInService::SignInService(storage::Database& db, const Clock& clock, const SessionService& sessions,
                             const AuditRecorder& audit, std::vector<oidc::ProviderConfig> providers,
                             std::string public_url)
    : db_(db), clock_(clock), sessions_(sessions), audit_(audit), public_url_(std::move(public_url)) {
  for (auto& p : providers) providers_.push_back(std::make_unique<oidc::ProviderClient>(std::move(p)));
}

SignInService::~SignInService() = default;

std::vector<std::string> SignInService::ProviderNames() const {
  std::vector<std::string> out;
  for (const auto& p : providers_) out.push_back(p->config().name);
  return out;
}

const oidc::ProviderClient* SignInService::Find(const std::string& name) const {
  for (const auto& p : providers_)
    if (p->config().name == name) return p.get();
  return nullptr;
}

Result<LoginRedirect> SignInService::BeginLogin(const std::string& provider_name) const {
  const oidc::ProviderClient* provider = Find(provider_name);
  if (provider == nullptr)
    return Error{ErrorKind::kNotFound, "unknown_provider", "No sign-in provider is named '" + provider_name + "'.",
                 {}, {}};
  const std::string state = RandomToken(), nonce = RandomToken(), verifier = RandomToken();
  LoginRedirect out;
  out.browser_binding = RandomToken();
  CR_TRY_ASSIGN(out.location, provider->AuthorizationUrl(RedirectUri(), state, nonce, S256(verifier)));
  const TimeMs now = clock_.Now();
  storage::Session tx(db_, storage::TxMode::kWrite);
  // Pending logins older than a day are of no use to anyone.
  tx.Run(internal::kForgetOldLoginRequests, {static_cast<int64_t>(now - 24LL * 3600 * 1000)});
  if (tx.Run(internal::kCountRecentLoginRequests, {static_cast<int64_t>(now - kLoginRequestTtlMs)}).front().Int(0) >=
      kMaxPendingLogins)
    return Error{ErrorKind::kRateLimited, "too_many_sign_ins", "Too many sign-ins are under way; retry shortly.", {}, {}}
        .With("retryAfter", "\"60\"");
  tx.Run(internal::kInsertLoginRequest,
         {state, Sha256Hex(out.browser_binding), provider_name, nonce, verifier, now});
  tx.Commit();
  return out;
}

Result<SignedIn> SignInService::CompleteLogin(const std::string& code, const std::string& state,
                                              const std::string& browser_binding, const std::string& provider_error,
                                              const std::string& issuer, const RequestMeta& request) const {
  Attempt attempt;
  auto result = Complete(code, state, browser_binding, provider_error, issuer, request, attempt);
  if (!result) RecordFailure(attempt, result.error(), request);
  return result;
}

void SignInService::RecordFailure(const Attempt& attempt, const Error& error, const RequestMeta& request) const {
  AuditEvent event;
  event.actor = attempt.email ? AuditActor{"user", "", *attempt.email} : SystemActor("anonymous");
  event.action = "signin.failed";
  event.target = {"provider", attempt.provider};
  event.outcome = AuditOutcome::kFailure;
  event.request = request;
  event.details = {{"code", error.code}};
  if (!attempt.provider.empty()) event.details["provider"] = attempt.provider;
  // The tenants of the person the verified email belongs to see the
  // attempt; an attempt that names nobody goes to the platform chain.
  std::vector<std::string> tenants;
  if (attempt.email) {
    storage::Session session(db_);
    auto user = session.Run(internal::kFindUserByEmail, {*attempt.email});
    if (!user.empty()) {
      event.actor.id = user.front().Text(0);
      for (const auto row : session.Run(internal::kTenantsOfUser, {event.actor.id})) tenants.push_back(row.Text(0));
    }
  }
  if (tenants.empty()) tenants.push_back(kPlatformTenantId);
  for (const auto& tenant : tenants) audit_.RecordAlone(tenant, event);
}

Result<SignedIn> SignInService::Complete(const std::string& code, const std::string& state,
                                         const std::string& browser_binding, const std::string& provider_error,
                                         const std::string& issuer, const RequestMeta& request,
                                         Attempt& attempt) const {
  if (state.empty()) return Bad("invalid_state", "The callback carries no state.");
  const TimeMs now = clock_.Now();
  std::string provider_name, nonce, verifier;
  {
    storage::Session tx(db_, storage::TxMode::kWrite);
    auto rows = tx.Run(internal::kFindLoginRequest, {state});
    if (rows.empty()) return Bad("invalid_state", "The state is not one of a sign-in this service started.");
    const auto row = rows.front();
    provider_name = row.Text(1);
    attempt.provider = provider_name;
    if (!row.IsNull(5)) return Bad("login_already_used", "This sign-in was completed already; start a new one.");
    if (browser_binding.empty() || Sha256Hex(browser_binding) != row.Text(0))
      return Bad("state_mismatch", "The sign-in was started in another browser (the state cookie does not match).");
    if (now - row.Int(4) >= kLoginRequestTtlMs) return Bad("login_expired", "The sign-in took too long; start again.");
    // Used once, whatever happens next: a replayed callback is refused.
    if (tx.Run(internal::kUseLoginRequest, {state, now}).affected() == 0)
      return Bad("login_already_used", "This sign-in was completed already; start a new one.");
    tx.Commit();
    nonce = row.Text(2);
    verifier = row.Text(3);
  }
  if (!provider_error.empty())
    return Bad("provider_error", "The provider did not sign you in: " + provider_error.substr(0, 200) + ".");
  if (code.empty()) return Bad("invalid_code", "The callback carries no code.");
  const oidc::ProviderClient* provider = Find(provider_name);
  if (provider == nullptr)
    return Error{ErrorKind::kNotFound, "unknown_provider", "The provider '" + provider_name + "' is no longer configured.",
                 {}, {}};
  if (!issuer.empty() && issuer != provider->config().issuer)
    return Bad("issuer_mismatch", "The callback comes from another issuer than the provider this sign-in started with.");
  CR_TRY_ASSIGN(oidc::IdTokenClaims claims, provider->Redeem(code, verifier, RedirectUri(), nonce, now));

  const std::string email = NameKey(claims.email.value_or(""));
  if (!email.empty() && claims.email_verified) attempt.email = email;
  if (email.empty() || !claims.email_verified)
    return Error{ErrorKind::kPermissionDenied, "email_not_verified",
                 "The provider did not vouch for your email address; Credence links accounts by verified email.",
                 {}, {}};
  const auto& allowed = provider->config().allowed_domains;
  if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), DomainOf(email)) == allowed.end())
    return Error{ErrorKind::kPermissionDenied, "email_domain_not_allowed",
                 "Accounts of " + DomainOf(email) + " may not sign in with '" + provider_name + "'.", {}, {}};

  storage::Session tx(db_, storage::TxMode::kWrite);
  std::string user_id;
  std::string display_name = claims.name.value_or(claims.preferred_username.value_or(email));
  if (auto rows = tx.Run(internal::kFindIdentity, {claims.issuer, claims.subject}); !rows.empty()) {
    user_id = rows.front().Text(0);
    tx.Run(internal::kTouchIdentity, {claims.issuer, claims.subject, now, email});
    auto user = tx.Run(internal::kFindUser, {user_id});
    if (!user.empty()) display_name = user.front().Text(1);
  } else {
    // First sign-in with this identity: link it to the user with this
    // verified email (created by an operator, an invitation's earlier
    // acceptance, or another provider), or create the user.
    if (auto by_email = tx.Run(internal::kFindUserByEmail, {email}); !by_email.empty()) {
      user_id = by_email.front().Text(0);
      display_name = by_email.front().Text(1);
    } else {
      user_id = NewId();
      tx.Run(internal::kInsertUser, {user_id, email, display_name, now});
    }
    tx.Run(internal::kInsertIdentity, {claims.issuer, claims.subject, user_id, email, now});
  }
  if (join_tenants_) join_tenants_(tx, user_id, email, request);

  SignedIn out;
  for (const auto row : tx.Run(internal::kTenantsOfUser, {user_id}))
    out.tenants.push_back({row.Text(0), row.Text(1), row.Text(2), ParseTenantRole(row.Text(3)).value_or(TenantRole::kGuest)});

  NewSession new_session{user_id, std::nullopt, provider_name, request.client_address, request.user_agent};
  out.user.id = user_id;
  out.user.email = email;
  out.user.display_name = display_name;
  if (out.tenants.size() == 1) {
    new_session.tenant_id = out.tenants.front().id;
    out.user.tenant_id = out.tenants.front().id;
    out.user.role = out.tenants.front().role;
    storage::TenantSession tenant(tx, out.user.tenant_id);
    if (auto m = tenant.Run(internal::kFindActiveMember, {user_id}); !m.empty())
      out.user.preferred_language = m.front().OptText(3);
  }
  StartedSession session = sessions_.Start(tx, new_session);
  out.token = session.token;
  out.expires_at = session.expires_at;

  AuditEvent event;
  event.actor = {"user", user_id, email};
  event.action = "signin.succeeded";
  event.target = {"session", session.id};
  event.request = request;
  event.details = {{"provider", provider_name}};
  for (const auto& t : out.tenants) {
    storage::TenantSession tenant(tx, t.id);
    audit_.Record(tenant, event);
  }
  tx.Commit();
  // A person with no tenant yet: the platform chain, once the sign-in is in.
  if (out.tenants.empty()) audit_.RecordAlone(kPlatformTenantId, event);
  return out;
}

std::vector<UserTenant> SignInService::TenantsOf(const std::string& user_id) const {
  storage::Session session(db_);
  std::vector<UserTenant> out;
  for (const auto row : session.Run(internal::kTenantsOfUser, {user_id}))
    out.push_back({row.Text(0), row.Text(1), row.Text(2), ParseTenantRole(row.Text(3)).value_or(TenantRole::kGuest)});
  return out;
}

}  // namespace credence::identity
