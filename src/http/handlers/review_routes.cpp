#include "http/handlers/routes.h"
#include "http/router.h"

namespace credence::http {

void AddReviewRoutes(Router&, const Services&) {}

}  // namespace credence::http
