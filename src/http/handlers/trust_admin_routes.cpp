#include "http/handlers/routes.h"
#include "http/router.h"

namespace credence::http {

void AddTrustAdminRoutes(Router&, const Services&) {}

}  // namespace credence::http
