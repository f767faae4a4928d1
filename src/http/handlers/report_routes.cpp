#include "http/handlers/routes.h"
#include "http/router.h"
#include "reports/report_service.h"

namespace credence::http {

void AddReportRoutes(Router& /*router*/, const Services& /*services*/) {}

}  // namespace credence::http
