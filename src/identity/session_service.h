#pragma once
// Sign-in sessions of people (docs/sign-in.md). A session token is opaque:
//
//   "crd_ss_" + 32 random base62 characters + 6 base62 characters of the
//   CRC-32 of the random part
//
// the same shape as API key secrets (token_format.h), so secret scanners
// recognize a leaked one and a mistyped one is refused without a lookup.
// Only its SHA-256 is stored. A session belongs to a user; it is scoped to
// one tenant once one is selected (decisions.md 10). It ends on logout, after
// an idle time, at an absolute lifetime, when the user is removed from the
// selected tenant (at once: every request checks the membership), or when
// an admin removes the user (EndForUserInTenant).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/clock.h"
#include "core/result.h"
#include "identity/audit.h"
#include "identity/principal.h"

namespace credence::storage {
class Database;
class Session;
}  // namespace credence::storage

namespace credence::identity {

inline constexpr std::string_view kSessionTokenPrefix = "crd_ss_";

struct SessionPolicy {
  int64_t idle_ms = 12LL * 3600 * 1000;
  int64_t absolute_ms = 7LL * 24 * 3600 * 1000;
};

struct NewSession {
  std::string user_id;
  std::optional<std::string> tenant_id;  // selected at once when the user has exactly one tenant
  std::string provider;                  // the configured provider name, or "dev"
  std::string client_address;
  std::string user_agent;
};

struct StartedSession {
  std::string id;
  std::string token;  // shown once
  TimeMs expires_at = 0;
};

bool LooksLikeSessionToken(std::string_view token);

class SessionService {
 public:
  // Logouts and tenant selections are recorded in `audit`.
  SessionService(storage::Database& db, const Clock& clock, const AuditRecorder& audit, SessionPolicy policy)
      : db_(db), clock_(clock), audit_(audit), policy_(policy) {}

  const SessionPolicy& policy() const { return policy_; }

  // Inside the caller's transaction (sign-in writes the user, memberships
  // and the session together).
  StartedSession Start(storage::Session& tx, const NewSession& request) const;
  // The same in a transaction of its own (development sign-in).
  StartedSession StartStandalone(const NewSession& request) const;

  // The principal of a live session: a user of the selected tenant, or a
  // user with no tenant (empty tenant_id) before selection. invalid_token
  // for an unknown, ended, idle or expired session, or one whose tenant the
  // user no longer belongs to. Touches last_seen_at at most once a minute.
  Result<Principal> Authenticate(std::string_view token) const;

  // Ends the caller's session at once (idempotent); recorded as session.ended in
  // its tenant, or in the platform chain before one was selected.
  void End(const Principal& caller) const;

  // Scopes the session to `tenant_id`: 404 tenant_not_found unless the user
  // is an active member (another tenant's existence is not revealed).
  Result<Principal> SelectTenant(const Principal& caller, const std::string& tenant_id) const;

  // Ends every session of `user_id` scoped to the tenant of `tx`'s caller
  // (user removal); returns how many.
  static int64_t EndForUserInTenant(storage::Session& tx, const std::string& tenant_id, const std::string& user_id,
                                    TimeMs now);

 private:
  storage::Database& db_;
  const Clock& clock_;
  const AuditRecorder& audit_;
  const SessionPolicy policy_;
};

}  // namespace credence::identity
