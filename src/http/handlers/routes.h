#pragma once
// Route registration per module. Handlers are thin: decode and validate,
// call a domain service with the caller, encode the result or map the error.
#include <memory>
#include <string>

namespace credence::storage {
class Database;
}
namespace credence::identity {
class TenantService;
}

namespace credence::http {

class Metrics;
class Router;

// The long-lived services handlers call; built once by app/.
struct Services {
  storage::Database& db;
  const identity::TenantService& tenants;
  Metrics& metrics;
  bool dev_mode;
  std::string version;
};

// /healthz, /readyz, /metrics, /openapi.json. `openapi` is filled in after
// every route has been added.
void AddSystemRoutes(Router& router, const Services& services, std::shared_ptr<const std::string>* openapi);
// Sign-in, tenants, the signed-in user.
void AddIdentityRoutes(Router& router, const Services& services);

}  // namespace credence::http
