#pragma once
// Wiring: builds the long-lived components once (store, services, router,
// server) in dependency order and runs the server.
#include "core/config.h"

namespace credence::app {

// Runs `credence serve` to completion. Returns the process exit code.
int Serve(const Config& config);

}  // namespace credence::app
