#include "app/dev_seed.h"

#include "core/logging.h"
#include "identity/tenant_service.h"

namespace credence::app {

void SeedDevelopmentData(const identity::TenantService& tenants) {
  const identity::Tenant acme = tenants.EnsureDevTenant("Acme Corporation", "acme");
  LogLine(LogLevel::kInfo, "development tenant ready").Str("slug", acme.slug).Str("tenantId", acme.id);
}

}  // namespace credence::app
