#pragma once
// What a backend plugin registers with its manifest (docs/plugins.md,
// "Writing a backend plugin"): its action guard and its event handler. The
// guard pipeline and the event bus only iterate the registry's modules, in
// registry order, and call what each registered; neither knows a plugin by
// name, so a new plugin is a new module and one Register call. A plugin's
// routes are registered the same way by plugin id in http
// (http/handlers/plugin_routes.cpp), since http sits above plugins.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include <boost/json/object.hpp>

#include "kb/action_guard.h"
#include "plugins/manifest.h"

namespace credence::storage {
class TenantSession;
}

namespace credence::plugins {

// Where guards report failures and verdicts for /plugins' health and
// /metrics (the pipeline). Thread-safe, and lives as long as the server, so
// work handed outside the transaction may keep a reference.
class GuardReport {
 public:
  virtual ~GuardReport() = default;
  // A failure that counts as allow; `kind` is the metric's outcome label
  // (e.g. throw, timeout, runtime, budget, error).
  virtual void Failure(const std::string& tenant_id, const std::string& plugin_id, const std::string& kind,
                       const std::string& error) const = 0;
  virtual void Verdict(const std::string& plugin_id, bool denied) const = 0;
};

// One guard asked about one action, for one tenant's installation.
struct GuardCall {
  storage::TenantSession& tx;  // the action's write transaction: read only
  const kb::GuardContext& context;
  const boost::json::object& settings;  // the plugin's settings in the tenant
  const std::string& plugin_id;
  const GuardReport& report;
  // A supervised guard's verdict arriving later is not used.
  int64_t time_limit_ms = 0;
  // The context as tenant code receives it ({action, tenantId, userId,
  // entityId, properties}), serialized once per action on first use, since
  // an entry's content can be large and most guards never need it.
  const std::string& ContextJson() const;
  std::string* context_json_cache = nullptr;
};

class Guard {
 public:
  virtual ~Guard() = default;
  // The denial (its plugin_id is filled in by the pipeline), or nullopt to
  // allow. Throws only what storage throws and, where the caller allows it,
  // OutsideTransaction (core/outside_transaction.h) for slow work.
  virtual std::optional<kb::GuardDenial> Check(const GuardCall& call) const = 0;
};

enum class GuardSupervision {
  // The pipeline catches what the guard throws and drops a verdict after
  // the time limit (both count as allow and are reported), and counts
  // the verdict: built-in guards, one verdict per call.
  kPipeline,
  // The guard runs many units of tenant code (scripts, hooks), each with
  // its own limits, and reports each unit's failures and verdicts itself.
  kSelf,
};

// An event handler: `tx` is a write transaction of its own, committed when
// it returns; `settings` are the plugin's in the tenant. Throwing logs and
// counts an error; the action that emitted the event stays committed.
using EventHandler = std::function<void(storage::TenantSession& tx, const boost::json::object& settings,
                                        const std::string& type, const boost::json::object& data)>;

// A plugin as the server runs it. `guard` is required exactly when the
// manifest declares guards, `on_event` exactly when it declares events
// (called for those types only); Registry::Register checks both.
struct PluginModule {
  Manifest manifest;
  std::unique_ptr<const Guard> guard;
  GuardSupervision supervision = GuardSupervision::kPipeline;
  EventHandler on_event;
};

// A guard from a function of the call, for guards without state of their own.
std::unique_ptr<const Guard> GuardOf(std::function<std::optional<kb::GuardDenial>(const GuardCall&)> check);

}  // namespace credence::plugins
