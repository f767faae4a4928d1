// The guards of script-guards and admission-hooks (docs/plugins.md): ordinary
// registered guards that run the tenant's own code, each script or hook
// with its own limits, reporting each one's failures (which allow) and
// verdicts themselves (GuardSupervision::kSelf).
#include <string>
#include <unordered_map>
#include <utility>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "core/outside_transaction.h"
#include "plugins/admission/admission_hook.h"
#include "plugins/custom_guards.h"
#include "plugins/internal/modules.h"
#include "plugins/lua/script_cache.h"
#include "telemetry/span.h"

namespace credence::plugins {
namespace json = boost::json;
namespace {

json::object MetadataOf(const std::string& metadata_json) {
  boost::system::error_code ec;
  json::value v = json::parse(metadata_json, ec);
  if (!ec && v.is_object()) return std::move(v.as_object());
  return {};
}

// Enabled scripts bound to the action, in creation order, each in a fresh
// sandboxed state with the plugin's limits.
class ScriptGuard final : public Guard {
 public:
  std::optional<kb::GuardDenial> Check(const GuardCall& call) const override {
    const kb::GuardContext& context = call.context;
    const lua::Limits limits = ScriptLimits(call.settings);
    for (const auto& g : EnabledCustomGuards(call.tx, CustomGuardKind::kScript, context.action)) {
      auto script = scripts_.Get(context.tenant_id + ":" + g.id, g.version, g.source);
      if (!script) {  // compiled at upload; only a changed engine could refuse it now
        call.report.Failure(context.tenant_id, call.plugin_id, "runtime",
                            "script '" + g.name + "': " + script.error().detail);
        continue;
      }
      const lua::Verdict v = lua::Evaluate(**script, call.ContextJson(), limits);
      if (v.kind == lua::Verdict::Kind::kError) {
        // A script that fails or exceeds a limit counts as allow (the spec's rule).
        call.report.Failure(context.tenant_id, call.plugin_id, v.error_kind, "script '" + g.name + "': " + v.error);
        continue;
      }
      const bool denied = v.kind == lua::Verdict::Kind::kDeny;
      call.report.Verdict(call.plugin_id, denied);
      if (denied) {
        auto metadata = MetadataOf(v.metadata_json);
        metadata["scriptId"] = g.id;
        return kb::GuardDenial{"", v.reason_code, v.message, std::move(metadata)};
      }
    }
    return std::nullopt;
  }

 private:
  // Compiled tenant scripts by (tenant:id, version); thread-safe itself.
  mutable lua::ScriptCache scripts_;
};

// Hook verdicts reached outside an action's transaction, kept on the thread
// for the action's retry in the same run (core/outside_transaction.h), by
// VerdictKey.
struct PreparedVerdicts {
  uint64_t run = 0;
  std::unordered_map<std::string, std::optional<kb::GuardDenial>> by_key;
};
thread_local PreparedVerdicts prepared_hook_verdicts;

// What a verdict was asked about: the context without what only the clock
// changed between the attempts (a save's contentUpdatedAt is "now").
std::string VerdictKey(const kb::GuardContext& context) {
  json::object properties = context.properties;
  properties.erase("contentUpdatedAt");
  return json::serialize(json::object{{"action", context.action},
                                      {"tenantId", context.tenant_id},
                                      {"userId", context.user_id},
                                      {"entityId", context.entity_id},
                                      {"properties", std::move(properties)}});
}

// Enabled hooks bound to the action, in creation order, asked outside the
// action's transaction where the caller allows it.
class HookGuard final : public Guard {
 public:
  explicit HookGuard(outbound::Policy policy) : policy_(policy) {}

  std::optional<kb::GuardDenial> Check(const GuardCall& call) const override {
    const kb::GuardContext& context = call.context;
    auto hooks = EnabledCustomGuards(call.tx, CustomGuardKind::kHook, context.action);
    if (hooks.empty()) return std::nullopt;
    std::string key = VerdictKey(context);
    auto& prepared = prepared_hook_verdicts;
    if (prepared.run == CurrentWorkRun()) {
      if (auto it = prepared.by_key.find(key); it != prepared.by_key.end()) {
        auto verdict = std::move(it->second);
        prepared.by_key.erase(it);
        return verdict;
      }
    }
    // The report outlives the call (plugin_module.h); the rest is copied,
    // since the work may run after Check has returned.
    auto ask = [&report = call.report, policy = policy_, hooks = std::move(hooks), tenant_id = context.tenant_id,
                plugin_id = call.plugin_id, context_json = call.ContextJson()]() -> std::optional<kb::GuardDenial> {
      // Asked outside the guards' span when the dispatcher runs it (after the
      // transaction was given up): a span of its own in the request's trace.
      telemetry::Span span("plugins admission hooks");
      if (span.recording()) span.SetInt("credence.guard.hooks", static_cast<int64_t>(hooks.size()));
      for (const auto& g : hooks) {
        const admission::HookVerdict v = admission::Call({g.url, g.secret, context_json, g.timeout_ms, policy});
        if (v.kind == admission::HookVerdict::Kind::kError) {
          // A hook that times out or fails counts as allow.
          report.Failure(tenant_id, plugin_id, v.error.starts_with("timed out") ? "timeout" : "error",
                         "hook '" + g.name + "': " + v.error);
          continue;
        }
        const bool denied = v.kind == admission::HookVerdict::Kind::kDeny;
        report.Verdict(plugin_id, denied);
        if (denied) {
          auto metadata = MetadataOf(v.metadata_json);
          metadata["hookId"] = g.id;
          return kb::GuardDenial{"", v.reason_code, v.message, std::move(metadata)};
        }
      }
      return std::nullopt;
    };
    // The hooks answer over the network, up to their timeouts: not while the
    // action's write transaction holds the store. Where the caller allows it,
    // the transaction is given up, the hooks asked, and the action run again
    // with their verdict (which it finds above).
    if (WorkOutsideTransactionAllowed())
      throw OutsideTransaction([ask = std::move(ask), key = std::move(key)] {
        auto& prepared = prepared_hook_verdicts;
        if (prepared.run != CurrentWorkRun()) prepared = {CurrentWorkRun(), {}};
        prepared.by_key[key] = ask();
      });
    return ask();
  }

 private:
  const outbound::Policy policy_;
};

}  // namespace

PluginModule internal::ScriptGuardsModule() {
  return {.manifest = ShippedManifest("script-guards"),
          .guard = std::make_unique<ScriptGuard>(),
          .supervision = GuardSupervision::kSelf};
}

PluginModule internal::AdmissionHooksModule(outbound::Policy hook_policy) {
  return {.manifest = ShippedManifest("admission-hooks"),
          .guard = std::make_unique<HookGuard>(hook_policy),
          .supervision = GuardSupervision::kSelf};
}

}  // namespace credence::plugins
