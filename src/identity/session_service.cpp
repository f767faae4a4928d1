#include "identity/session_service.h"

#include "core/ids.h"
#include "identity/internal/session_queries.h"
#include "identity/token_format.h"
#include "storage/session.h"

namespace credence::identity {
namespace {

// last_seen_at is written at most this often per session, so an
// authenticated GET is a read; the idle lifetime is precise to this much.
constexpr TimeMs kTouchEveryMs = 60'000;

Error InvalidSessionToken(std::string detail) { return Error::Unauthenticated("invalid_token", std::move(detail)); }

}  // namespace

bool LooksLikeSessionToken(std::string_view token) { return IsWellFormedChecksummedToken(token, kSessionTokenPrefix); }

StartedSession SessionService::Start(storage::Session& tx, const NewSession& request) const {
  const TimeMs now = clock_.Now();
  StartedSession started{NewId(), NewChecksummedToken(kSessionTokenPrefix), now + policy_.absolute_ms};
  tx.Run(internal::kInsertSession,
         {started.id, Sha256Hex(started.token), request.user_id, request.tenant_id, request.provider, now,
          started.expires_at, request.client_address, request.user_agent.substr(0, 300)});
  return started;
}

StartedSession SessionService::StartStandalone(const NewSession& request) const {
  storage::Session tx(db_, storage::TxMode::kWrite);
  StartedSession started = Start(tx, request);
  tx.Commit();
  return started;
}

Result<Principal> SessionService::Authenticate(std::string_view token) const {
  if (!LooksLikeSessionToken(token)) return InvalidSessionToken("The session token is malformed.");
  storage::Session session(db_);
  auto rows = session.Run(internal::kFindSession, {Sha256Hex(token)});
  if (rows.empty()) return InvalidSessionToken("The session is not known.");
  const auto row = rows.front();
  const TimeMs now = clock_.Now();
  if (!row.IsNull(5)) return InvalidSessionToken("The session has ended.");
  if (now >= row.Int(4)) return InvalidSessionToken("The session has expired; sign in again.");
  const TimeMs last_seen = row.Int(3);
  if (now - last_seen >= policy_.idle_ms) return InvalidSessionToken("The session was idle too long; sign in again.");

  Principal p;
  p.kind = PrincipalKind::kUser;
  p.session_id = row.Text(0);
  p.user_id = row.Text(1);
  p.email = row.Text(6);
  p.display_name = row.Text(7);
  if (auto tenant = row.OptText(2)) {
    auto role = row.OptText(8);
    if (!role) return InvalidSessionToken("The session's user is no longer a member of its tenant.");
    p.tenant_id = *tenant;
    p.role = ParseTenantRole(*role).value_or(TenantRole::kGuest);
    p.preferred_language = row.OptText(9);
  }
  p.expires_at = row.Int(4);
  if (now - last_seen >= kTouchEveryMs) session.Run(internal::kTouchSession, {p.session_id, now});
  return p;
}

void SessionService::End(const Principal& caller) const {
  storage::Session tx(db_, storage::TxMode::kWrite);
  if (tx.Run(internal::kEndSession, {caller.session_id, clock_.Now()}).affected() == 0) return;
  storage::TenantSession tenant(tx, caller.has_tenant() ? caller.tenant_id : std::string(kPlatformTenantId));
  audit_.Record(tenant, AuditOf(caller, "session.ended", {"session", caller.session_id}));
  tx.Commit();
}

Result<Principal> SessionService::SelectTenant(const Principal& caller, const std::string& tenant_id) const {
  if (caller.session_id.empty())
    return Error::PermissionDenied("Only a sign-in session selects a tenant; this credential is bound to one.");
  storage::Session tx(db_, storage::TxMode::kWrite);
  std::optional<TenantRole> role;
  for (const auto row : tx.Run(internal::kTenantsOfUser, {caller.user_id}))
    if (row.Text(0) == tenant_id) role = ParseTenantRole(row.Text(3));
  if (!role)
    return Error{ErrorKind::kNotFound, "tenant_not_found", "You are not a member of tenant " + tenant_id + ".", {}, {}};
  tx.Run(internal::kSelectSessionTenant, {caller.session_id, tenant_id});
  storage::TenantSession tenant(tx, tenant_id);
  audit_.Record(tenant, AuditOf(caller, "tenant.selected", {"tenant", tenant_id}, {{"sessionId", caller.session_id}}));
  tx.Commit();
  Principal p = caller;
  p.tenant_id = tenant_id;
  p.role = *role;
  return p;
}

int64_t SessionService::EndForUserInTenant(storage::Session& tx, const std::string& tenant_id,
                                           const std::string& user_id, TimeMs now) {
  return tx.Run(internal::kEndUserSessionsInTenant, {tenant_id, user_id, now}).affected();
}

}  // namespace credence::identity
