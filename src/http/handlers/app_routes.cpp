#include "http/handlers/routes.h"
#include "http/router.h"
#include "trust/app_registry.h"

namespace credence::http {

void AddAppRoutes(Router& /*router*/, const Services& /*services*/) {}

}  // namespace credence::http
