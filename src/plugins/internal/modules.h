#pragma once
// Each shipped plugin's module (plugin_module.h), defined beside the
// plugin's own code; ShippedRegistry registers them.
#include "core/clock.h"
#include "outbound/outbound.h"
#include "plugins/plugin_module.h"

namespace credence::plugins::internal {

PluginModule ContentRulesModule();
PluginModule ApprovalWorkflowModule();
PluginModule SafeDeleteModule(const Clock& clock);
PluginModule ScriptGuardsModule();
PluginModule AdmissionHooksModule(outbound::Policy hook_policy);
PluginModule DevFaultsModule();

// The manifest Credence ships under `id` (manifest.cpp's list).
const Manifest& ShippedManifest(std::string_view id);

}  // namespace credence::plugins::internal
