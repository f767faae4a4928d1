#pragma once
// The guard pipeline (docs/plugins.md): implements kb::ActionGuards. For a
// guarded action, the guards of the tenant's enabled plugins bound to it run
// in registry order; the first denial stops the action. Built-in guards are
// pure functions of the context and the plugin's settings (their read-only
// view): they cannot write. A guard that throws, or whose verdict comes
// after its time limit, counts as allow; it is logged, counted
// (credence_plugin_guard_failures_total in /metrics) and shown in the
// plugin's health in /plugins. Thread-safe.
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>

#include "core/clock.h"
#include "kb/action_guard.h"
#include "outbound/outbound.h"
#include "plugins/lua/script_cache.h"
#include "plugins/plugin_service.h"

namespace credence::plugins {

// What a built-in guard sees besides the context: its plugin's settings.
struct GuardView {
  const boost::json::object& settings;
};

struct GuardHealth {
  int64_t failures = 0;        // throws and overruns
  std::string last_error;      // "" when none
  TimeMs last_failure_at = 0;  // 0 when none
};

class GuardPipeline final : public kb::ActionGuards {
 public:
  // `time_limit_ms`: a built-in guard's verdict arriving later is not used.
  // `hook_policy`: which addresses admission hooks may reach (decisions.md 11).
  GuardPipeline(const Registry& registry, const Clock& clock, outbound::Policy hook_policy = {},
                int64_t time_limit_ms = 1000)
      : registry_(registry), clock_(clock), hook_policy_(hook_policy), time_limit_ms_(time_limit_ms) {}

  std::optional<kb::GuardDenial> Check(storage::TenantSession& tx, const kb::GuardContext& context) const override;

  GuardHealth Health(const std::string& tenant_id, const std::string& plugin_id) const;
  // Prometheus text: guard evaluations and failures by plugin and kind.
  std::string RenderPrometheus() const;

 private:
  void RecordFailure(const std::string& tenant_id, const std::string& plugin_id, const std::string& kind,
                     const std::string& error) const;
  std::optional<kb::GuardDenial> RunScripts(storage::TenantSession& tx, const boost::json::object& settings,
                                            const kb::GuardContext& context, const std::string& context_json) const;
  std::optional<kb::GuardDenial> RunHooks(storage::TenantSession& tx, const kb::GuardContext& context,
                                          const std::string& context_json) const;
  void Count(const std::string& plugin_id, const std::string& outcome) const;

  const Registry& registry_;
  const Clock& clock_;
  const outbound::Policy hook_policy_;
  const int64_t time_limit_ms_;
  // Compiled tenant scripts by (tenant:id, version); thread-safe itself.
  mutable lua::ScriptCache scripts_;
  mutable std::mutex mu_;
  // (tenant, plugin) -> health; guarded by mu_.
  mutable std::map<std::pair<std::string, std::string>, GuardHealth> health_;
  // (plugin, outcome) -> count, outcome allow|deny|throw|timeout (built-in
  // guards), budget|memory|runtime|bad_result (scripts), error (hooks); guarded by mu_.
  mutable std::map<std::pair<std::string, std::string>, int64_t> counts_;
};

// The content-rules guard, pure (exposed for unit tests): the entry's
// title and text (properties title and content, a ProseMirror document)
// against the settings' requiredHeadings, forbiddenTerms, maxTitleLength,
// maxTextLength.
std::optional<kb::GuardDenial> ContentRulesGuard(const GuardView& view, const kb::GuardContext& context);

}  // namespace credence::plugins
