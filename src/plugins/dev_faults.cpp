// dev-faults (docs/plugins.md; --dev only): a plugin for tests whose guard
// denies, throws or answers after the time limit, and whose event handler
// throws, as its setting `mode` says.
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "plugins/internal/guard_support.h"
#include "plugins/internal/modules.h"

namespace credence::plugins {
namespace json = boost::json;
namespace {

std::string Mode(const json::object& settings) {
  if (const auto* v = settings.if_contains("mode"); v && v->is_string()) return std::string(v->as_string());
  return {};
}

Manifest DevFaultsManifest() {
  return Manifest{
      .id = "dev-faults",
      .name = "Guard faults (development only)",
      .version = "1.0.0",
      .description = "For tests: its guard denies, throws or overruns its time as its settings say.",
      .category = "development",
      .has_settings = true,
      .has_endpoints = false,
      .ui_contributions = {{"tenant.admin.settings", "DevFaultsSettings"}},
      .dependencies = {},
      .settings = {{"mode", SettingField::Type::kString, "allow, deny, throw or slow", 1, 10}},
      .guards = {{""}},
      .events = {"entry.published"},
      .routes = {},
      .translations = {{"es", "Fallos de guarda (solo desarrollo)",
                        "Para pruebas: su guarda deniega, lanza un error o excede su tiempo según digan sus ajustes."}},
  };
}

}  // namespace

PluginModule internal::DevFaultsModule() {
  return {
      .manifest = DevFaultsManifest(),
      .guard = GuardOf([](const GuardCall& call) -> std::optional<kb::GuardDenial> {
        const std::string mode = Mode(call.settings);
        if (mode == "deny")
          return Deny("dev_fault_deny", "dev-faults denies " + call.context.action + ".", {{"mode", mode}});
        if (mode == "throw") throw std::runtime_error("dev-faults: a guard that throws");
        if (mode == "slow") {
          std::this_thread::sleep_for(std::chrono::milliseconds(call.time_limit_ms + 50));
          return Deny("dev_fault_slow", "a verdict after the time limit", {});
        }
        return std::nullopt;
      }),
      .on_event = [](storage::TenantSession&, const json::object& settings, const std::string&, const json::object&) {
        if (Mode(settings) == "throw") throw std::runtime_error("dev-faults: an event handler that throws");
      }};
}

}  // namespace credence::plugins
