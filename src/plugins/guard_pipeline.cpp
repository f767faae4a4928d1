#include "plugins/guard_pipeline.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <set>
#include <stdexcept>
#include <thread>
#include <unordered_map>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "core/logging.h"
#include "core/outside_transaction.h"
#include "core/text.h"
#include "kb/document.h"
#include "plugins/admission/admission_hook.h"
#include "plugins/approvals.h"
#include "plugins/content_rules.h"
#include "plugins/custom_guards.h"
#include "reports/entry_activity.h"
#include "storage/database.h"
#include "telemetry/span.h"
#include "trust/entry_usage.h"

namespace credence::plugins {
namespace json = boost::json;
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

std::string_view StringProperty(const kb::GuardContext& c, std::string_view key) {
  if (const auto* v = c.properties.if_contains(key); v && v->is_string()) return v->as_string();
  return {};
}

std::vector<std::string> Strings(const json::object& settings, std::string_view key) {
  std::vector<std::string> out;
  if (const auto* v = settings.if_contains(key); v && v->is_array())
    for (const auto& s : v->as_array())
      if (s.is_string()) out.emplace_back(s.as_string());
  return out;
}

int64_t Integer(const json::object& settings, std::string_view key) {
  if (const auto* v = settings.if_contains(key); v && v->is_int64()) return v->as_int64();
  return 0;
}

kb::GuardDenial Deny(std::string code, std::string message, json::object metadata) {
  return {"", std::move(code), std::move(message), std::move(metadata)};
}

// dev-faults: deny, throw or overrun, as its settings say.
std::optional<kb::GuardDenial> DevFaultsGuard(const GuardView& view, const kb::GuardContext& context,
                                              int64_t time_limit_ms) {
  std::string mode;
  if (const auto* v = view.settings.if_contains("mode"); v && v->is_string()) mode = v->as_string();
  if (mode == "deny") return Deny("dev_fault_deny", "dev-faults denies " + context.action + ".", {{"mode", mode}});
  if (mode == "throw") throw std::runtime_error("dev-faults: a guard that throws");
  if (mode == "slow") {
    std::this_thread::sleep_for(std::chrono::milliseconds(time_limit_ms + 50));
    return Deny("dev_fault_slow", "a verdict after the time limit", {});
  }
  return std::nullopt;
}

// safe-delete: an entry AI applications used within `days` (usage records
// naming it, or evaluations of it by a registered app in the ledger's
// rollup) needs confirmed=true and a reason.
std::optional<kb::GuardDenial> SafeDeleteGuard(storage::TenantSession& tx, const json::object& settings,
                                               const kb::GuardContext& context, TimeMs now) {
  int64_t days = 30;
  if (const auto* v = settings.if_contains("days"); v && v->is_int64()) days = v->as_int64();
  const TimeMs since = now - days * 24 * 60 * 60 * 1000;
  const auto usage = trust::RecentEntryUsage(tx, context.entity_id, since);
  const auto evaluated = reports::AppEvaluationsOf(tx, context.entity_id, since);
  if (usage.usage_count == 0 && evaluated.evaluations == 0) return std::nullopt;
  const auto* confirmed = context.properties.if_contains("confirmed");
  const auto reason = Trim(StringProperty(context, "reason"));
  if (confirmed && confirmed->is_bool() && confirmed->as_bool() && !reason.empty()) return std::nullopt;
  std::set<std::string> app_ids(usage.app_ids.begin(), usage.app_ids.end());
  app_ids.insert(evaluated.app_ids.begin(), evaluated.app_ids.end());
  json::array apps;
  for (const auto& a : app_ids) apps.push_back(json::string(a));
  return Deny(
      "entry_used_by_ai",
      "AI applications used this entry in the last " + std::to_string(days) +
          " days; confirm the delete with a reason.",
      {{"usageCount", usage.usage_count},
       {"appEvaluations", evaluated.evaluations},
       {"appIds", std::move(apps)},
       {"days", days},
       {"confirmationRequired", true}});
}

}  // namespace

std::optional<kb::GuardDenial> ContentRulesGuard(const GuardView& view, const kb::GuardContext& context) {
  const std::string title(StringProperty(context, "title"));
  std::vector<std::string> headings;  // lowercased heading texts
  std::string text = title;
  boost::system::error_code ec;
  const json::value doc = json::parse(StringProperty(context, "content"), ec);
  if (!ec && doc.is_object())
    if (const auto* nodes = doc.as_object().if_contains("content"); nodes && nodes->is_array())
      for (const auto& node : nodes->as_array()) {
        const std::string node_text = kb::NodeText(json::serialize(node));
        text += "\n" + node_text;
        if (node.is_object())
          if (const auto* type = node.as_object().if_contains("type");
              type && type->is_string() && type->as_string() == "heading")
            headings.push_back(Lower(Trim(node_text)));
      }

  if (const int64_t max = Integer(view.settings, "maxTitleLength"); max > 0) {
    const auto n = static_cast<int64_t>(Utf8Length(title));
    if (n > max)
      return Deny(
          "title_too_long",
          "The title has " + std::to_string(n) + " characters; at most " + std::to_string(max) + " are allowed.",
          {{"length", n}, {"maxTitleLength", max}});
  }
  if (const int64_t max = Integer(view.settings, "maxTextLength"); max > 0) {
    const auto n = static_cast<int64_t>(Utf8Length(text));
    if (n > max)
      return Deny(
          "text_too_long",
          "The entry has " + std::to_string(n) + " characters; at most " + std::to_string(max) + " are allowed.",
          {{"length", n}, {"maxTextLength", max}});
  }
  const std::string lower = Lower(text);
  json::array found;
  for (const auto& term : Strings(view.settings, "forbiddenTerms"))
    if (lower.find(Lower(term)) != std::string::npos) found.push_back(json::string(term));
  if (!found.empty())
    return Deny("forbidden_term", "The entry uses a forbidden term: " + std::string(found.front().as_string()) + ".",
                {{"terms", found}});
  json::array missing;
  for (const auto& h : Strings(view.settings, "requiredHeadings"))
    if (std::find(headings.begin(), headings.end(), Lower(Trim(h))) == headings.end())
      missing.push_back(json::string(h));
  if (!missing.empty())
    return Deny("required_heading_missing",
                "The entry lacks a required heading: " + std::string(missing.front().as_string()) + ".",
                {{"headings", missing}});
  return std::nullopt;
}

std::optional<kb::GuardDenial> GuardPipeline::Check(storage::TenantSession& tx, const kb::GuardContext& context) const {
  telemetry::Span span("plugins guards");
  if (span.recording()) span.SetString("credence.guard.action", context.action);
  const auto installations = ReadInstallations(tx, /*enabled_only=*/true);
  if (installations.empty()) return std::nullopt;
  std::string context_json;  // built once, for scripts and hooks
  auto context_text = [&]() -> const std::string& {
    if (context_json.empty())
      context_json = json::serialize(json::object{{"action", context.action},
                                                  {"tenantId", context.tenant_id},
                                                  {"userId", context.user_id},
                                                  {"entityId", context.entity_id},
                                                  {"properties", context.properties}});
    return context_json;
  };
  for (const auto& manifest : registry_.All()) {
    auto inst = std::find_if(installations.begin(), installations.end(),
                             [&](const Installation& i) { return i.plugin_id == manifest.id; });
    if (inst == installations.end()) continue;
    const bool bound = std::any_of(manifest.guards.begin(), manifest.guards.end(), [&](const GuardBinding& g) {
      return g.action.empty() || g.action == context.action;
    });
    if (!bound) continue;
    // Tenant-supplied guards report their own failures (each script, each hook).
    if (manifest.id == "script-guards" || manifest.id == "admission-hooks") {
      auto denial = manifest.id == "script-guards" ? RunScripts(tx, inst->settings, context, context_text())
                                                   : RunHooks(tx, context, context_text());
      if (denial) {
        denial->plugin_id = manifest.id;
        if (span.recording()) span.SetString("credence.guard.denied_by", manifest.id);
        return denial;
      }
      continue;
    }
    const GuardView view{inst->settings};
    const auto started = std::chrono::steady_clock::now();
    std::optional<kb::GuardDenial> verdict;
    try {
      if (manifest.id == "content-rules") {
        // The hub's enabled rules tighten the tenant's.
        const auto* hub_id = context.properties.if_contains("hubId");
        auto hub_rules =
            hub_id && hub_id->is_string() ? EnabledHubRules(tx, std::string(hub_id->as_string())) : std::nullopt;
        const json::object rules = hub_rules ? MergeRules(inst->settings, *hub_rules) : inst->settings;
        verdict = ContentRulesGuard(GuardView{rules}, context);
        if (!verdict) verdict = ContentRulesStoredChecks(tx, rules, context);
      } else if (manifest.id == "safe-delete")
        verdict = SafeDeleteGuard(tx, view.settings, context, clock_.Now());
      else if (manifest.id == "approval-workflow")
        verdict = ApprovalGuard(tx, view.settings, context);
      else if (manifest.id == "dev-faults")
        verdict = DevFaultsGuard(view, context, time_limit_ms_);
    } catch (const storage::StorageError&) {
      throw;  // the store failed, not the guard: the action fails as any write would
    } catch (const std::exception& e) {
      RecordFailure(context.tenant_id, manifest.id, "throw", e.what());
      continue;  // a guard that throws counts as allow
    }
    const auto elapsed_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
    if (elapsed_ms > time_limit_ms_) {
      RecordFailure(context.tenant_id, manifest.id, "timeout",
                    "no verdict within " + std::to_string(time_limit_ms_) + " ms");
      continue;  // a verdict after the time limit is not used: allow
    }
    Count(manifest.id, verdict ? "deny" : "allow");
    if (verdict) {
      verdict->plugin_id = manifest.id;
      if (span.recording()) span.SetString("credence.guard.denied_by", manifest.id);
      return verdict;
    }
  }
  return std::nullopt;
}

void GuardPipeline::Count(const std::string& plugin_id, const std::string& outcome) const {
  std::lock_guard lock(mu_);
  ++counts_[{plugin_id, outcome}];
}

namespace {

json::object MetadataOf(const std::string& metadata_json) {
  boost::system::error_code ec;
  json::value v = json::parse(metadata_json, ec);
  if (!ec && v.is_object()) return std::move(v.as_object());
  return {};
}

}  // namespace

std::optional<kb::GuardDenial> GuardPipeline::RunScripts(storage::TenantSession& tx, const json::object& settings,
                                                         const kb::GuardContext& context,
                                                         const std::string& context_json) const {
  const lua::Limits limits = ScriptLimits(settings);
  for (const auto& g : EnabledCustomGuards(tx, CustomGuardKind::kScript, context.action)) {
    auto script = scripts_.Get(context.tenant_id + ":" + g.id, g.version, g.source);
    if (!script) {  // compiled at upload; only a changed engine could refuse it now
      RecordFailure(context.tenant_id, "script-guards", "runtime", "script '" + g.name + "': " + script.error().detail);
      continue;
    }
    const lua::Verdict v = lua::Evaluate(**script, context_json, limits);
    if (v.kind == lua::Verdict::Kind::kError) {
      // A script that fails or exceeds a limit counts as allow (the spec's rule).
      RecordFailure(context.tenant_id, "script-guards", v.error_kind, "script '" + g.name + "': " + v.error);
      continue;
    }
    Count("script-guards", v.kind == lua::Verdict::Kind::kDeny ? "deny" : "allow");
    if (v.kind == lua::Verdict::Kind::kDeny) {
      auto metadata = MetadataOf(v.metadata_json);
      metadata["scriptId"] = g.id;
      return kb::GuardDenial{"", v.reason_code, v.message, std::move(metadata)};
    }
  }
  return std::nullopt;
}

namespace {

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

}  // namespace

std::optional<kb::GuardDenial> GuardPipeline::RunHooks(storage::TenantSession& tx, const kb::GuardContext& context,
                                                       const std::string& context_json) const {
  auto hooks = EnabledCustomGuards(tx, CustomGuardKind::kHook, context.action);
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
  auto ask = [this, hooks = std::move(hooks), tenant_id = context.tenant_id,
              context_json]() -> std::optional<kb::GuardDenial> {
    // Asked outside the guards' span when the dispatcher runs it (after the
    // transaction was given up): a span of its own in the request's trace.
    telemetry::Span span("plugins admission hooks");
    if (span.recording()) span.SetInt("credence.guard.hooks", static_cast<int64_t>(hooks.size()));
    for (const auto& g : hooks) {
      const admission::HookVerdict v = admission::Call({g.url, g.secret, context_json, g.timeout_ms, hook_policy_});
      if (v.kind == admission::HookVerdict::Kind::kError) {
        // A hook that times out or fails counts as allow.
        RecordFailure(tenant_id, "admission-hooks", v.error.starts_with("timed out") ? "timeout" : "error",
                      "hook '" + g.name + "': " + v.error);
        continue;
      }
      Count("admission-hooks", v.kind == admission::HookVerdict::Kind::kDeny ? "deny" : "allow");
      if (v.kind == admission::HookVerdict::Kind::kDeny) {
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

void GuardPipeline::RecordFailure(const std::string& tenant_id, const std::string& plugin_id, const std::string& kind,
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
