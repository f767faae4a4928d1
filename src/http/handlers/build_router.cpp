#include "http/handlers/routes.h"
#include "http/openapi.h"
#include "http/router.h"

namespace credence::http {

std::unique_ptr<Router> BuildRouter(const Services& services) {
  auto router = std::make_unique<Router>();
  // The /openapi.json handler holds this and reads the document, which
  // exists only once every route has been added.
  auto openapi = std::make_shared<std::shared_ptr<const std::string>>(std::make_shared<const std::string>());
  AddSystemRoutes(*router, services, openapi);
  AddIdentityRoutes(*router, services);
  AddSignInRoutes(*router, services);
  AddGroupRoutes(*router, services);
  AddHubRoutes(*router, services);
  AddEntryRoutes(*router, services);
  AddMembershipRoutes(*router, services);
  AddLifecycleRoutes(*router, services);
  AddReviewRoutes(*router, services);
  AddDashboardRoutes(*router, services);
  AddChannelRoutes(*router, services);
  AddCredentialRoutes(*router, services);
  AddTrustRoutes(*router, services);
  AddReceiptRoutes(*router, services);
  AddTrustAdminRoutes(*router, services);
  AddScanningRoutes(*router, services);
  AddAppRoutes(*router, services);
  AddAppRecordsRoutes(*router, services);
  AddWhatIfRoutes(*router, services);
  AddConnectorRoutes(*router, services);
  AddReportRoutes(*router, services);
  AddAuditRoutes(*router, services);
  AddWebhookRoutes(*router, services);
  AddConfigurationRoutes(*router, services);
  AddTemplateRoutes(*router, services);
  AddAnalyticsRoutes(*router, services);
  AddRetentionRoutes(*router, services);
  AddPluginRoutes(*router, services);
  AddDevRoutes(*router, services);
  AddMcpRoutes(*router, services);
  AddScimRoutes(*router, services);
  *openapi = std::make_shared<const std::string>(BuildOpenApiDocument(*router, services.version, WebhookEventDocs()));
  return router;
}

}  // namespace credence::http
