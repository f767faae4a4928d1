#pragma once
// Tenant-supplied guards (docs/plugins.md): script-guards' Lua scripts and
// admission-hooks' HTTP admission hooks. Both are configuration of their
// plugin, managed by global admins through the plugin's routes, and act only
// while the plugin is installed and enabled in the tenant (404
// plugin_not_enabled otherwise). Scripts are compiled at upload (a syntax
// error is 400 naming source) and run by the guard pipeline in the Lua
// sandbox with the plugin's limits (plugins/lua); hooks are called by it
// (plugins/admission). Audited.
#include <optional>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "core/clock.h"
#include "core/result.h"
#include "identity/audit.h"
#include "identity/principal.h"
#include "outbound/outbound.h"
#include "plugins/lua/lua_guard.h"

namespace credence::storage {
class Database;
class TenantSession;
class Row;
}  // namespace credence::storage

namespace credence::plugins {

enum class CustomGuardKind { kScript, kHook };
std::string_view CustomGuardKindName(CustomGuardKind kind);  // script | hook
std::string_view CustomGuardPlugin(CustomGuardKind kind);    // script-guards | admission-hooks

inline constexpr size_t kMaxCustomGuardName = 100;
inline constexpr int64_t kDefaultHookTimeoutMs = 1000;
inline constexpr int64_t kMaxHookTimeoutMs = 5000;

struct CustomGuard {
  std::string id;
  CustomGuardKind kind = CustomGuardKind::kScript;
  std::string name;
  std::string action;  // "" for every guarded action
  bool is_enabled = true;
  std::string source;  // scripts
  int64_t version = 1;
  std::string url;     // hooks
  std::string secret;  // hooks: whsec_..., shown once at creation
  int64_t timeout_ms = 0;
  TimeMs created_at = 0;
  TimeMs updated_at = 0;
};

struct ScriptInput {
  std::string name;
  std::string action;
  std::string source;
};

struct HookInput {
  std::string name;
  std::string action;
  std::string url;
  int64_t timeout_ms = kDefaultHookTimeoutMs;
};

// The limits a script runs with: script-guards' settings instructionBudget,
// memoryBytes and timeoutMs, else the engine's defaults.
lua::Limits ScriptLimits(const boost::json::object& settings);

// The enabled guards of `kind` of `tx`'s tenant bound to `action` or to every action.
std::vector<CustomGuard> EnabledCustomGuards(storage::TenantSession& tx, CustomGuardKind kind,
                                             const std::string& action);

struct ScriptTestResult {
  lua::Verdict verdict;
  int64_t duration_ms = 0;
};

class CustomGuardService {
 public:
  CustomGuardService(storage::Database& db, const Clock& clock, const identity::AuditRecorder& audit,
                     outbound::Policy hook_policy)
      : db_(db), clock_(clock), audit_(audit), hook_policy_(hook_policy) {}

  // Global admins.
  Result<std::vector<CustomGuard>> List(const identity::Principal& caller, CustomGuardKind kind) const;
  Result<CustomGuard> CreateScript(const identity::Principal& caller, const ScriptInput& input) const;
  // A new version: recompiled; the pipeline's cache keys on it.
  Result<CustomGuard> UpdateScript(const identity::Principal& caller, const std::string& id,
                                   const ScriptInput& input) const;
  // The secret is in the answer only here.
  Result<CustomGuard> CreateHook(const identity::Principal& caller, const HookInput& input) const;
  Result<CustomGuard> SetEnabled(const identity::Principal& caller, CustomGuardKind kind, const std::string& id,
                                 bool enabled) const;
  Status Delete(const identity::Principal& caller, CustomGuardKind kind, const std::string& id) const;
  // A dry run: the script on `context` ({action, tenantId, userId,
  // entityId, properties}; tenantId and userId are the caller's) with the
  // plugin's limits. Nothing is recorded.
  Result<ScriptTestResult> TestScript(const identity::Principal& caller, const std::string& id,
                                      const boost::json::object& context) const;

 private:
  storage::Database& db_;
  const Clock& clock_;
  const identity::AuditRecorder& audit_;
  const outbound::Policy hook_policy_;
};

}  // namespace credence::plugins
