#pragma once
// The plugins Credence ships, registered with their guards and event
// handlers (docs/plugins.md, "Shipped plugins"), built once by app's
// service_set.
#include "core/clock.h"
#include "outbound/outbound.h"
#include "plugins/plugin_service.h"

namespace credence::plugins {

struct ShippedOptions {
  const Clock& clock;
  // Which addresses admission hooks may reach (decisions.md 11).
  outbound::Policy hook_policy;
  // Adds dev-faults, the fault-injection plugin tests use (--dev only).
  bool dev = false;
};

// In the order the guards run: content-rules, approval-workflow,
// safe-delete, script-guards, admission-hooks (then dev-faults).
Registry ShippedRegistry(const ShippedOptions& options);

}  // namespace credence::plugins
