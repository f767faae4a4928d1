#include "plugins/custom_guards.h"

#include <algorithm>
#include <chrono>

#include <boost/json/serialize.hpp>

#include "core/ids.h"
#include "core/text.h"
#include "identity/authorization.h"
#include "notify/webhook.h"
#include "plugins/admission/admission_hook.h"
#include "plugins/internal/queries.h"
#include "plugins/manifest.h"
#include "plugins/plugin_service.h"
#include "storage/session.h"

namespace credence::plugins {
namespace json = boost::json;
namespace {

CustomGuard CustomGuardsFromRow(const storage::Row& r) {
  CustomGuard g;
  g.id = r.Text(0);
  g.kind = r.Text(1) == "hook" ? CustomGuardKind::kHook : CustomGuardKind::kScript;
  g.name = r.Text(2);
  g.action = r.Text(3);
  g.is_enabled = r.Bool(4);
  g.source = r.Text(5);
  g.version = r.Int(6);
  g.url = r.Text(7);
  g.secret = r.Text(8);
  g.timeout_ms = r.Int(9);
  g.created_at = r.Int(10);
  g.updated_at = r.Int(11);
  return g;
}

Status RequireEnabled(storage::TenantSession& tx, CustomGuardKind kind) {
  for (const auto& i : ReadInstallations(tx, true))
    if (i.plugin_id == CustomGuardPlugin(kind)) return Ok();
  return Error{ErrorKind::kNotFound,
               "plugin_not_enabled",
               "The " + std::string(CustomGuardPlugin(kind)) + " plugin is not installed and enabled in this tenant.",
               {},
               {}};
}

Error NotFound(CustomGuardKind kind) {
  return Error::NotFound(kind == CustomGuardKind::kScript ? "Guard script not found." : "Admission hook not found.");
}

Status CheckCommon(const std::string& name, const std::string& action) {
  std::vector<FieldError> errors;
  if (Trim(name).empty()) errors.push_back({"name", "must not be blank"});
  if (Utf8Length(name) > kMaxCustomGuardName) errors.push_back({"name", "must be at most 100 characters"});
  if (!action.empty() && std::find(GuardedActions().begin(), GuardedActions().end(), action) == GuardedActions().end())
    errors.push_back({"action",
                      "must be a guarded action (Entry.Publish, Entry.Delete, Entry.Renew, "
                      "Translation.MarkUpToDate, Hub.Delete) or absent"});
  if (!errors.empty()) return Error::Validation(std::move(errors));
  return Ok();
}

std::string AuditPrefix(CustomGuardKind kind) {
  return kind == CustomGuardKind::kScript ? "plugin.guard_script_" : "plugin.admission_hook_";
}

int64_t SettingOr(const json::object& settings, std::string_view key, int64_t fallback) {
  if (const auto* v = settings.if_contains(key); v && v->is_int64()) return v->as_int64();
  return fallback;
}

}  // namespace

std::string_view CustomGuardKindName(CustomGuardKind kind) {
  return kind == CustomGuardKind::kScript ? "script" : "hook";
}
std::string_view CustomGuardPlugin(CustomGuardKind kind) {
  return kind == CustomGuardKind::kScript ? "script-guards" : "admission-hooks";
}

lua::Limits ScriptLimits(const json::object& settings) {
  lua::Limits limits;
  limits.instruction_budget = SettingOr(settings, "instructionBudget", limits.instruction_budget);
  limits.memory_bytes =
      static_cast<size_t>(SettingOr(settings, "memoryBytes", static_cast<int64_t>(limits.memory_bytes)));
  limits.timeout_ms = SettingOr(settings, "timeoutMs", limits.timeout_ms);
  return limits;
}

std::vector<CustomGuard> EnabledCustomGuards(storage::TenantSession& tx, CustomGuardKind kind,
                                             const std::string& action) {
  std::vector<CustomGuard> out;
  for (const auto& row : tx.Run(internal::kEnabledCustomGuards, {CustomGuardKindName(kind), action}))
    out.push_back(CustomGuardsFromRow(row));
  return out;
}

Result<std::vector<CustomGuard>> CustomGuardService::List(const identity::Principal& caller,
                                                          CustomGuardKind kind) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kRead);
  storage::TenantSession tx(session, caller.tenant_id);
  CR_TRY(RequireEnabled(tx, kind));
  std::vector<CustomGuard> out;
  for (const auto& row : tx.Run(internal::kCustomGuardsOfKind, {CustomGuardKindName(kind)}))
    out.push_back(CustomGuardsFromRow(row));
  return out;
}

Result<CustomGuard> CustomGuardService::CreateScript(const identity::Principal& caller,
                                                     const ScriptInput& input) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  CR_TRY(CheckCommon(input.name, input.action));
  CR_TRY(lua::Compile(input.source, Trim(input.name)));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tx(session, caller.tenant_id);
  CR_TRY(RequireEnabled(tx, CustomGuardKind::kScript));
  CustomGuard g;
  g.id = NewId();
  g.kind = CustomGuardKind::kScript;
  g.name = Trim(input.name);
  g.action = input.action;
  g.source = input.source;
  g.created_at = g.updated_at = clock_.Now();
  tx.Run(internal::kInsertCustomGuard, {g.id, "script", g.name, g.action, g.source, "", "", 0, g.created_at});
  audit_.Record(tx, identity::AuditOf(caller, "plugin.guard_script_created", {"guard_script", g.id},
                                      {{"name", g.name}, {"action", g.action}}));
  session.Commit();
  return g;
}

Result<CustomGuard> CustomGuardService::UpdateScript(const identity::Principal& caller, const std::string& id,
                                                     const ScriptInput& input) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  CR_TRY(CheckCommon(input.name, input.action));
  CR_TRY(lua::Compile(input.source, Trim(input.name)));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tx(session, caller.tenant_id);
  CR_TRY(RequireEnabled(tx, CustomGuardKind::kScript));
  const TimeMs now = clock_.Now();
  if (tx.Run(internal::kUpdateScript, {id, Trim(input.name), input.action, input.source, now}).affected() == 0)
    return NotFound(CustomGuardKind::kScript);
  auto g = CustomGuardsFromRow(tx.Run(internal::kCustomGuardById, {"script", id}).front());
  audit_.Record(
      tx, identity::AuditOf(caller, "plugin.guard_script_updated", {"guard_script", id}, {{"version", g.version}}));
  session.Commit();
  return g;
}

Result<CustomGuard> CustomGuardService::CreateHook(const identity::Principal& caller, const HookInput& input) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  CR_TRY(CheckCommon(input.name, input.action));
  if (input.timeout_ms < 1 || input.timeout_ms > kMaxHookTimeoutMs)
    return Error::Validation({{"timeoutMs", "must be between 1 and " + std::to_string(kMaxHookTimeoutMs)}});
  CR_TRY(admission::ValidateHookUrl(input.url, hook_policy_, "url"));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tx(session, caller.tenant_id);
  CR_TRY(RequireEnabled(tx, CustomGuardKind::kHook));
  CustomGuard g;
  g.id = NewId();
  g.kind = CustomGuardKind::kHook;
  g.name = Trim(input.name);
  g.action = input.action;
  g.url = input.url;
  g.secret = notify::NewWebhookSecret();
  g.timeout_ms = input.timeout_ms;
  g.created_at = g.updated_at = clock_.Now();
  tx.Run(internal::kInsertCustomGuard,
         {g.id, "hook", g.name, g.action, "", g.url, g.secret, g.timeout_ms, g.created_at});
  audit_.Record(tx, identity::AuditOf(caller, "plugin.admission_hook_created", {"admission_hook", g.id},
                                      {{"name", g.name}, {"action", g.action}, {"url", g.url}}));
  session.Commit();
  return g;
}

Result<CustomGuard> CustomGuardService::SetEnabled(const identity::Principal& caller, CustomGuardKind kind,
                                                   const std::string& id, bool enabled) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tx(session, caller.tenant_id);
  CR_TRY(RequireEnabled(tx, kind));
  if (tx.Run(internal::kSetCustomGuardEnabled, {CustomGuardKindName(kind), id, enabled, clock_.Now()}).affected() == 0)
    return NotFound(kind);
  auto g = CustomGuardsFromRow(tx.Run(internal::kCustomGuardById, {CustomGuardKindName(kind), id}).front());
  const std::string target = kind == CustomGuardKind::kScript ? "guard_script" : "admission_hook";
  audit_.Record(tx, identity::AuditOf(caller, AuditPrefix(kind) + (enabled ? "enabled" : "disabled"), {target, id}));
  session.Commit();
  return g;
}

Status CustomGuardService::Delete(const identity::Principal& caller, CustomGuardKind kind,
                                  const std::string& id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tx(session, caller.tenant_id);
  CR_TRY(RequireEnabled(tx, kind));
  if (tx.Run(internal::kDeleteCustomGuard, {CustomGuardKindName(kind), id}).affected() == 0) return NotFound(kind);
  const std::string target = kind == CustomGuardKind::kScript ? "guard_script" : "admission_hook";
  audit_.Record(tx, identity::AuditOf(caller, AuditPrefix(kind) + "deleted", {target, id}));
  session.Commit();
  return Ok();
}

Result<ScriptTestResult> CustomGuardService::TestScript(const identity::Principal& caller, const std::string& id,
                                                        const json::object& context) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  CustomGuard g;
  json::object settings;
  {
    storage::Session session(db_, storage::TxMode::kRead);
    storage::TenantSession tx(session, caller.tenant_id);
    CR_TRY(RequireEnabled(tx, CustomGuardKind::kScript));
    auto rows = tx.Run(internal::kCustomGuardById, {"script", id});
    if (rows.empty()) return NotFound(CustomGuardKind::kScript);
    g = CustomGuardsFromRow(rows.front());
    for (const auto& i : ReadInstallations(tx, true))
      if (i.plugin_id == "script-guards") settings = i.settings;
  }
  CR_TRY_ASSIGN(auto script, lua::Compile(g.source, g.name));
  json::object ctx = context;
  ctx["tenantId"] = caller.tenant_id;
  ctx["userId"] = caller.user_id;
  if (!ctx.contains("properties")) ctx["properties"] = json::object{};
  const auto started = std::chrono::steady_clock::now();
  ScriptTestResult out{lua::Evaluate(*script, json::serialize(ctx), ScriptLimits(settings)), 0};
  out.duration_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started).count();
  return out;
}

}  // namespace credence::plugins
