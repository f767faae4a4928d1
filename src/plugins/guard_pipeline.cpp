#include "plugins/guard_pipeline.h"

#include <algorithm>
#include <chrono>
#include <exception>

#include "core/logging.h"
#include "core/outside_transaction.h"
#include "storage/database.h"
#include "telemetry/span.h"

namespace credence::plugins {

std::optional<kb::GuardDenial> GuardPipeline::Check(storage::TenantSession& tx, const kb::GuardContext& context) const {
  telemetry::Span span("plugins guards");
  if (span.recording()) span.SetString("credence.guard.action", context.action);
  const auto installations = ReadInstallations(tx, /*enabled_only=*/true);
  if (installations.empty()) return std::nullopt;
  std::string context_json;  // serialized once, by the first guard that needs it
  for (const auto& module : registry_.Modules()) {
    const Manifest& manifest = module.manifest;
    auto inst = std::find_if(installations.begin(), installations.end(),
                             [&](const Installation& i) { return i.plugin_id == manifest.id; });
    if (inst == installations.end()) continue;
    const bool bound = std::any_of(manifest.guards.begin(), manifest.guards.end(), [&](const GuardBinding& g) {
      return g.action.empty() || g.action == context.action;
    });
    if (!bound) continue;
    const GuardCall call{tx, context, inst->settings, manifest.id, *this, time_limit_ms_, &context_json};
    auto denial =
        module.supervision == GuardSupervision::kSelf ? module.guard->Check(call) : Supervised(*module.guard, call);
    if (denial) {
      denial->plugin_id = manifest.id;
      if (span.recording()) span.SetString("credence.guard.denied_by", manifest.id);
      return denial;
    }
  }
  return std::nullopt;
}

std::optional<kb::GuardDenial> GuardPipeline::Supervised(const Guard& guard, const GuardCall& call) const {
  const auto started = std::chrono::steady_clock::now();
  std::optional<kb::GuardDenial> verdict;
  try {
    verdict = guard.Check(call);
  } catch (const storage::StorageError&) {
    throw;  // the store failed, not the guard: the action fails as any write would
  } catch (const OutsideTransaction&) {
    throw;  // slow work the dispatcher runs outside the transaction, not a failure
  } catch (const std::exception& e) {
    Failure(call.context.tenant_id, call.plugin_id, "throw", e.what());
    return std::nullopt;  // a guard that throws counts as allow
  }
  const auto elapsed_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
  if (elapsed_ms > time_limit_ms_) {
    Failure(call.context.tenant_id, call.plugin_id, "timeout",
            "no verdict within " + std::to_string(time_limit_ms_) + " ms");
    return std::nullopt;  // a verdict after the time limit is not used: allow
  }
  Verdict(call.plugin_id, verdict.has_value());
  return verdict;
}

void GuardPipeline::Verdict(const std::string& plugin_id, bool denied) const {
  std::lock_guard lock(mu_);
  ++counts_[{plugin_id, denied ? "deny" : "allow"}];
}

void GuardPipeline::Failure(const std::string& tenant_id, const std::string& plugin_id, const std::string& kind,
                            const std::string& error) const {
  LogLine(LogLevel::kWarn, "plugin guard failed; counted as allow")
      .Str("tenant", tenant_id)
      .Str("plugin", plugin_id)
      .Str("kind", kind)
      .Str("error", error);
  std::lock_guard lock(mu_);
  ++counts_[{plugin_id, kind}];
  auto& h = health_[{tenant_id, plugin_id}];
  ++h.failures;
  h.last_error = kind + ": " + error;
  h.last_failure_at = clock_.Now();
}

GuardHealth GuardPipeline::Health(const std::string& tenant_id, const std::string& plugin_id) const {
  std::lock_guard lock(mu_);
  auto it = health_.find({tenant_id, plugin_id});
  return it == health_.end() ? GuardHealth{} : it->second;
}

std::string GuardPipeline::RenderPrometheus() const {
  std::string out =
      "# HELP credence_plugin_guard_evaluations_total Plugin guard verdicts by plugin and outcome "
      "(allow, deny, throw, timeout; throw and timeout count as allow).\n"
      "# TYPE credence_plugin_guard_evaluations_total counter\n";
  std::lock_guard lock(mu_);
  for (const auto& [key, n] : counts_)
    out += "credence_plugin_guard_evaluations_total{plugin=\"" + key.first + "\",outcome=\"" + key.second + "\"} " +
           std::to_string(n) + "\n";
  return out;
}

}  // namespace credence::plugins
