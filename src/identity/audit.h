#pragma once
// The audit log as the domain services see it (docs/audit.md): an event
// (who did what to which resource, with what outcome, from where) and the
// interface that records it in the caller's own write transaction.
//
// Why an interface here: the services that perform administrative actions
// live in identity, kb and trust, and the audit log's storage (the table,
// its hash chain, reading and verification) belongs to platform, which sits
// above identity. identity cannot include platform, so identity declares
// what it needs (AuditRecorder) and platform::AuditLog implements it; app/
// hands the one AuditLog to every service (docs/architecture.md).
#include <optional>
#include <string>
#include <string_view>

#include <boost/json/object.hpp>

#include "identity/principal.h"

namespace credence::storage {
class TenantSession;
}

namespace credence::identity {

// Events that belong to no tenant (a sign-in that failed before any user or
// tenant was known) are chained under this id: the platform chain.
inline constexpr char kPlatformTenantId[] = "00000000-0000-0000-0000-000000000000";

enum class AuditOutcome { kSuccess, kFailure, kDenied };
std::string_view AuditOutcomeName(AuditOutcome outcome);  // success | failure | denied
std::optional<AuditOutcome> ParseAuditOutcome(std::string_view name);

// Who acted. `type` is user (id: the user id, label: the email, else the
// display name), key (id: the API key id, label: its client id) or system
// (id empty, label: the job, e.g. "dev-seed").
struct AuditActor {
  std::string type;
  std::string id;
  std::string label;
};
AuditActor ActorOf(const Principal& principal);
AuditActor SystemActor(std::string label);

// What was acted on: a type (apikey, app, appkey, group, user, invitation,
// hub, hubmembership, entrypermission, template, policy, sensitivity, document,
// tenant, route) and its id.
struct AuditTarget {
  std::string type;
  std::string id;
};

struct AuditEvent {
  AuditActor actor;
  std::string action;  // dotted lowercase, e.g. apikey.created (IsAuditActionName)
  AuditTarget target;
  AuditOutcome outcome = AuditOutcome::kSuccess;
  RequestMeta request;
  // A small object of facts about the action; never a secret.
  boost::json::object details;
};

// The event of `caller` doing `action` on `target`: actor and request
// metadata taken from the principal.
AuditEvent AuditOf(const Principal& caller, std::string action, AuditTarget target,
                   boost::json::object details = {});

// Two or more lowercase segments [a-z][a-z0-9_]*, joined by dots.
bool IsAuditActionName(std::string_view action);

class AuditRecorder {
 public:
  virtual ~AuditRecorder() = default;

  // Appends `event` to the chain of `tx`'s tenant inside `tx`, which must be
  // a write transaction (storage::TxMode::kWrite) that the caller commits:
  // the entry exists if and only if the action does. Call it last, just
  // before Commit (it takes the tenant's chain head lock, held to the end of
  // the transaction). Throws storage::StorageError like any statement, and
  // std::invalid_argument for a malformed action name.
  virtual void Record(storage::TenantSession& tx, const AuditEvent& event) const = 0;

  // Appends `event` to `tenant_id`'s chain in a transaction of its own,
  // committed before it returns: for events that have no action transaction
  // to join (a refused request, a failed sign-in; kPlatformTenantId when no
  // tenant is known).
  virtual void RecordAlone(const std::string& tenant_id, const AuditEvent& event) const = 0;
};

}  // namespace credence::identity
