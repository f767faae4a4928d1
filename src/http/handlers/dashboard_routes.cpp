#include "http/handlers/routes.h"
#include "http/router.h"

namespace credence::http {

void AddDashboardRoutes(Router&, const Services&) {}

}  // namespace credence::http
