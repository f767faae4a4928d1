#pragma once
// Plugin action guards as the services that perform guarded actions see them
// (docs/plugins.md): before a guarded action (Entry.Publish, Entry.Delete,
// Entry.Renew, Translation.MarkUpToDate, Hub.Delete) changes anything, its
// service asks the guards inside its own write transaction; the first denial
// stops the action, which then changes nothing (the service returns the
// denial as a 422 guard_denied error and rolls back).
//
// Why an interface here, like ContentObserver (content_observer.h): the
// guarded actions live in kb and lifecycle, the plugins that guard them sit
// above (plugins -> kb). kb declares what the services need,
// plugins::GuardPipeline implements it, app/service_set hands it to them.
#include <optional>
#include <string>

#include <boost/json/object.hpp>

#include "core/error.h"

namespace credence::storage {
class TenantSession;
}

namespace credence::kb {

// What a guard is told (knowledge-base.md, "Plugin action guards").
struct GuardContext {
  std::string action;  // e.g. "Entry.Publish"
  std::string tenant_id;
  std::string user_id;             // empty for a machine caller
  std::string entity_id;           // the entry's or hub's id
  boost::json::object properties;  // action-specific facts (e.g. hubKey, language, confirmed)
};

// A guard's denial: reasonCode, message and metadata, and which plugin denied.
struct GuardDenial {
  std::string plugin_id;
  std::string reason_code;
  std::string message;
  boost::json::object metadata;
};

class ActionGuards {
 public:
  virtual ~ActionGuards() = default;
  // Runs the guards of `tx`'s tenant's enabled plugins bound to
  // `context.action` (or to every action) in order; the first denial, or
  // nullopt when all allow. `tx` is the action's write transaction; guards
  // only read through it. A guard that throws or runs out of time counts as
  // allow (and is reported by the implementation). Throws only what storage
  // throws.
  virtual std::optional<GuardDenial> Check(storage::TenantSession& tx, const GuardContext& context) const = 0;
};

// Guards nothing: for tools and tests that build a service alone.
class NoGuards final : public ActionGuards {
 public:
  std::optional<GuardDenial> Check(storage::TenantSession&, const GuardContext&) const override { return std::nullopt; }
};
inline const NoGuards kNoGuards{};

// The 422 guard_denied error carrying reasonCode, message, metadata and
// pluginId as problem extensions (decisions.md 3).
Error GuardDeniedError(const GuardDenial& denial);

}  // namespace credence::kb
