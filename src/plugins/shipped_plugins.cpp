#include "plugins/shipped_plugins.h"

#include <stdexcept>
#include <string>

#include "plugins/internal/modules.h"

namespace credence::plugins {

namespace internal {

const Manifest& ShippedManifest(std::string_view id) {
  if (const Manifest* m = FindShipped(id)) return *m;
  throw std::logic_error("no shipped manifest '" + std::string(id) + "'");
}

}  // namespace internal

Registry ShippedRegistry(const ShippedOptions& options) {
  Registry registry;
  registry.Register(internal::ContentRulesModule());
  registry.Register(internal::ApprovalWorkflowModule());
  registry.Register(internal::SafeDeleteModule(options.clock));
  registry.Register(internal::ScriptGuardsModule());
  registry.Register(internal::AdmissionHooksModule(options.hook_policy));
  if (options.dev) registry.Register(internal::DevFaultsModule());
  return registry;
}

}  // namespace credence::plugins
