#pragma once

namespace credence::identity {
class TenantService;
}

namespace credence::app {

// Development mode: the demo tenant `acme` with its four personas (and, as
// modules arrive, demo content). Idempotent across restarts.
void SeedDevelopmentData(const identity::TenantService& tenants);

}  // namespace credence::app
