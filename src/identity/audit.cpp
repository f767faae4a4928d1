#include "identity/audit.h"

#include <stdexcept>

namespace credence::identity {

std::string_view AuditOutcomeName(AuditOutcome outcome) {
  switch (outcome) {
    case AuditOutcome::kSuccess: return "success";
    case AuditOutcome::kFailure: return "failure";
    case AuditOutcome::kDenied: return "denied";
  }
  return "success";
}

std::optional<AuditOutcome> ParseAuditOutcome(std::string_view name) {
  if (name == "success") return AuditOutcome::kSuccess;
  if (name == "failure") return AuditOutcome::kFailure;
  if (name == "denied") return AuditOutcome::kDenied;
  return std::nullopt;
}

AuditActor ActorOf(const Principal& p) {
  if (p.is_user()) return {"user", p.user_id, p.email.empty() ? p.display_name : p.email};
  return {"key", p.key_id, p.client_id};
}

AuditActor SystemActor(std::string label) { return {"system", "", std::move(label)}; }

AuditEvent AuditOf(const Principal& caller, std::string action, AuditTarget target, boost::json::object details) {
  AuditEvent e;
  e.actor = ActorOf(caller);
  e.action = std::move(action);
  e.target = std::move(target);
  e.request = caller.request;
  e.details = std::move(details);
  return e;
}

bool IsAuditActionName(std::string_view action) {
  if (action.empty() || action.size() > 100) return false;
  int segments = 0;
  bool at_start = true;
  for (char c : action) {
    if (c == '.') {
      if (at_start) return false;
      at_start = true;
      continue;
    }
    const bool letter = c >= 'a' && c <= 'z';
    const bool digit_or_underscore = (c >= '0' && c <= '9') || c == '_';
    if (at_start) {
      if (!letter) return false;
      ++segments;
      at_start = false;
    } else if (!letter && !digit_or_underscore) {
      return false;
    }
  }
  return !at_start && segments >= 2;
}

}  // namespace credence::identity
