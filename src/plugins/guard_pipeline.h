#pragma once
// The guard pipeline (docs/plugins.md): implements kb::ActionGuards. For a
// guarded action, the registered guards (plugin_module.h) of the tenant's
// enabled plugins bound to it run in registry order; the first denial
// stops the action. It knows no plugin by name: it iterates the registry.
// Guards only read through the action's transaction. A supervised guard
// that throws, or whose verdict comes after its time limit, counts as
// allow; it is logged, counted (credence_plugin_guard_failures_total in
// /metrics) and shown in the plugin's health in /plugins. Guards that
// supervise themselves (tenant scripts and hooks) report the same way
// through the pipeline's GuardReport. Thread-safe.
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "core/clock.h"
#include "kb/action_guard.h"
#include "plugins/plugin_module.h"
#include "plugins/plugin_service.h"

namespace credence::plugins {

struct GuardHealth {
  int64_t failures = 0;        // throws and overruns
  std::string last_error;      // "" when none
  TimeMs last_failure_at = 0;  // 0 when none
};

class GuardPipeline final : public kb::ActionGuards, private GuardReport {
 public:
  // `time_limit_ms`: a supervised guard's verdict arriving later is not used.
  GuardPipeline(const Registry& registry, const Clock& clock, int64_t time_limit_ms = 1000)
      : registry_(registry), clock_(clock), time_limit_ms_(time_limit_ms) {}

  std::optional<kb::GuardDenial> Check(storage::TenantSession& tx, const kb::GuardContext& context) const override;

  GuardHealth Health(const std::string& tenant_id, const std::string& plugin_id) const;
  // Prometheus text: guard evaluations and failures by plugin and kind.
  std::string RenderPrometheus() const;

 private:
  std::optional<kb::GuardDenial> Supervised(const Guard& guard, const GuardCall& call) const;
  void Failure(const std::string& tenant_id, const std::string& plugin_id, const std::string& kind,
               const std::string& error) const override;
  void Verdict(const std::string& plugin_id, bool denied) const override;

  const Registry& registry_;
  const Clock& clock_;
  const int64_t time_limit_ms_;
  mutable std::mutex mu_;
  // (tenant, plugin) -> health; guarded by mu_.
  mutable std::map<std::pair<std::string, std::string>, GuardHealth> health_;
  // (plugin, outcome) -> count, outcome allow|deny|throw|timeout (supervised
  // guards), budget|memory|runtime|bad_result (scripts), error (hooks); guarded by mu_.
  mutable std::map<std::pair<std::string, std::string>, int64_t> counts_;
};

}  // namespace credence::plugins
