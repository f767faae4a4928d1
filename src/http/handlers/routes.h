#pragma once
// Route registration per module. Handlers are thin: decode and validate,
// call a domain service with the caller, encode the result or map the error.
#include <memory>
#include <string>
#include <vector>

namespace credence::storage {
class Database;
}
namespace credence::identity {
class TenantService;
class UserService;
class GroupService;
class InvitationService;
class ApiKeyService;
class SessionService;
class SignInService;
class ScimService;
}  // namespace credence::identity
namespace credence::kb {
class HubService;
class EntryService;
class TranslationService;
}  // namespace credence::kb

namespace credence::kb {
class MembershipService;
class TemplateService;
}
namespace credence::translation {
class MachineTranslationService;
class TranslationJobs;
}  // namespace credence::translation
namespace credence::lifecycle {
class ExpiryTemplateService;
class ReviewChecklistService;
class ExpiryService;
class ReviewService;
class NotificationService;
class DashboardService;
class ExpiryScheduler;
}  // namespace credence::lifecycle
namespace credence::notify {
class ChannelService;
class OutboxWorker;
class WebhookService;
}  // namespace credence::notify
namespace credence {
class SettableClock;
}
namespace credence::trust {
class TrustService;
class TrustAdminService;
class ReceiptService;
class AppRegistry;
class ContentScanning;
class WhatIfService;
}  // namespace credence::trust
namespace credence::reports {
class ReportService;
}
namespace credence::integrity {
class ChainHeads;
class MerkleLogs;
}  // namespace credence::integrity
namespace credence::platform {
class AuditLog;
class LanguageService;
class TaxonomyService;
class BlockHeuristicService;
class StyleRuleService;
class GlossaryService;
}  // namespace credence::platform
namespace credence::compliance {
class AppRecordsExporter;
}  // namespace credence::compliance

namespace credence::retention {
class RetentionService;
class Archiver;
}  // namespace credence::retention
namespace credence::analytics {
class AnalyticsService;
}
namespace credence::plugins {
class PluginService;
class GuardPipeline;
class ApprovalService;
class CustomGuardService;
class ContentRulesService;
class EventBus;
}  // namespace credence::plugins
namespace credence::connectors {
class ConnectorService;
class ConnectorSyncer;
}  // namespace credence::connectors
namespace credence::mcp {
class McpServer;
}

namespace credence::http {

class Metrics;
class Router;

// Where the MCP endpoint is and whom it answers (docs/agents.md).
struct McpEndpoint {
  // The server's externally visible base (--public-url): the endpoint is
  // <public_url>/mcp, which is also its resource indicator (RFC 8707).
  std::string public_url;
  // Origins, besides the public URL's own, whose requests are taken
  // (--mcp-allowed-origins); a request from another Origin is 403.
  std::vector<std::string> allowed_origins;
};

// The long-lived services handlers call; built once by app/.
struct Services {
  storage::Database& db;
  const identity::TenantService& tenants;
  const identity::UserService& users;
  const identity::GroupService& groups;
  const identity::InvitationService& invitations;
  const kb::HubService& hubs;
  const kb::EntryService& entries;
  const kb::TranslationService& translations;
  Metrics& metrics;
  bool dev_mode;
  std::string version;
  const kb::MembershipService& memberships;
  const lifecycle::ExpiryTemplateService& expiry_templates;
  const lifecycle::ReviewChecklistService& review_checklists;
  const lifecycle::ExpiryService& expiry;
  const lifecycle::ReviewService& reviews;
  const lifecycle::NotificationService& notifications;
  const lifecycle::DashboardService& dashboards;
  const notify::ChannelService& channels;
  // Background jobs, which development mode can also run on demand.
  const lifecycle::ExpiryScheduler& scheduler;
  const notify::OutboxWorker& outbox;
  // Set only with --dev --test-clock.
  SettableClock* test_clock;
  const identity::ApiKeyService& api_keys;
  const trust::TrustService& trust;
  const trust::TrustAdminService& trust_admin;
  const trust::AppRegistry& apps;
  const reports::ReportService& reports;
  const identity::SessionService& sessions;
  const identity::SignInService& sign_in;
  // Signed chain heads and the public keys that sign them.
  const integrity::ChainHeads& chain_heads;
  const platform::AuditLog& audit;
  // Content scanning: settings, findings (docs/scanning.md).
  const trust::ContentScanning& scanning;
  // Connectors (docs/connectors.md) and their syncs.
  const connectors::ConnectorService& connectors;
  const connectors::ConnectorSyncer& connector_syncer;
  // Webhooks (docs/webhooks.md).
  const notify::WebhookService& webhooks;
  // Tenant configuration (docs/configuration.md).
  const platform::LanguageService& languages;
  const platform::TaxonomyService& taxonomy;
  const platform::BlockHeuristicService& block_heuristics;
  const platform::StyleRuleService& style_rules;
  const platform::GlossaryService& glossaries;
  // Entry templates (docs/templates.md).
  const kb::TemplateService& templates;
  // Reading analytics (docs/analytics.md).
  const analytics::AnalyticsService& analytics;
  // Plugins (docs/plugins.md): installations, settings, the guard pipeline.
  const plugins::PluginService& plugins;
  const plugins::GuardPipeline& guards;
  const plugins::ApprovalService& approvals;
  const plugins::CustomGuardService& custom_guards;
  const plugins::ContentRulesService& content_rules;
  const plugins::EventBus& event_bus;
  // Machine translation (docs/machine-translation.md).
  const translation::MachineTranslationService& machine_translation;
  // Its triggers' queue (POST /dev/jobs/run runs a pass).
  const translation::TranslationJobs& translation_jobs;
  // Retention settings and archives (docs/retention.md); the archiver is
  // null when the server has no archive directory.
  const retention::RetentionService& retention;
  const retention::Archiver* archiver;
  // The MCP server (docs/agents.md).
  const mcp::McpServer& mcp;
  McpEndpoint mcp_endpoint;
  // Each tenant's ledger as a Merkle log with signed checkpoints, and the
  // receipts and proofs read from it (docs/receipts.md).
  const integrity::MerkleLogs& merkle_logs;
  const trust::ReceiptService& receipts;
  // AI Act record-keeping exports (docs/ai-act.md).
  const compliance::AppRecordsExporter& app_records;
  // Policy what-if over the recorded decisions (docs/what-if.md).
  const trust::WhatIfService& what_if;
  // SCIM 2.0 provisioning (docs/scim.md).
  const identity::ScimService& scim;
};

struct WebhookDoc;

// Sign-in with OpenID Connect, sessions, tenant selection (docs/sign-in.md).
void AddSignInRoutes(Router& router, const Services& services);

// Hubs; entries, translations and search.
void AddHubRoutes(Router& router, const Services& services);
void AddEntryRoutes(Router& router, const Services& services);

// Every route of the service, and /openapi.json generated from them.
std::unique_ptr<Router> BuildRouter(const Services& services);

// /healthz, /readyz, /metrics, /openapi.json. The document in `openapi` is
// filled in after every route has been added.
using OpenApiHolder = std::shared_ptr<std::shared_ptr<const std::string>>;
void AddSystemRoutes(Router& router, const Services& services, const OpenApiHolder& openapi);
// Sign-in, tenants, the signed-in user.
void AddIdentityRoutes(Router& router, const Services& services);
// Groups and their members; invitations.
void AddGroupRoutes(Router& router, const Services& services);
// Hub memberships and entry permissions.
void AddMembershipRoutes(Router& router, const Services& services);
// Expiry templates and review checklists; entries' expiry.
void AddLifecycleRoutes(Router& router, const Services& services);
// Reviews, review history, renewal eligibility, renewals (also bulk), pause
// and resume.
void AddReviewRoutes(Router& router, const Services& services);
// Expiry dashboards; the user's expiry notifications.
void AddDashboardRoutes(Router& router, const Services& services);
// Notification channels (/api/notification-channels and /notification-channels).
void AddChannelRoutes(Router& router, const Services& services);
// Tenant API keys (/apikeys and /api/apikeys), the OAuth 2.0 token endpoint
// (/connect/token) and GET /api/trust/whoami (docs/credentials.md).
void AddCredentialRoutes(Router& router, const Services& services);
// The trust endpoints (/api/trust/...) and ledger verification.
void AddTrustRoutes(Router& router, const Services& services);
// Decision receipts, the tenants' decision logs, their checkpoints and
// consistency proofs (/api/trust/decisions/{id}/receipt, /api/trust/log...).
void AddReceiptRoutes(Router& router, const Services& services);
// Trust administration (/trust-admin/...): policies, context vocabulary,
// sensitivity facts, connected documents, source links.
void AddTrustAdminRoutes(Router& router, const Services& services);
// The AI application registry and app-bound keys (/trust-admin/apps/...,
// docs/apps.md).
void AddAppRoutes(Router& router, const Services& services);
// An app's EU AI Act record-keeping export (/trust-admin/apps/{id}/records,
// docs/ai-act.md).
void AddAppRecordsRoutes(Router& router, const Services& services);
// Policy what-if (/trust-admin/what-if, docs/what-if.md).
void AddWhatIfRoutes(Router& router, const Services& services);
// Connectors (/trust-admin/connectors/...) and the push API
// (/api/connectors/{key}/documents), docs/connectors.md.
void AddConnectorRoutes(Router& router, const Services& services);
// Compliance reports (/trust-admin/reports/..., docs/reports.md).
void AddReportRoutes(Router& router, const Services& services);
// The audit log (/admin/audit and /api/admin/audit, docs/audit.md).
void AddAuditRoutes(Router& router, const Services& services);
// Content scanning: the setting, rescans, findings (docs/scanning.md).
void AddScanningRoutes(Router& router, const Services& services);
// Webhooks (/webhooks..., docs/webhooks.md).
void AddWebhookRoutes(Router& router, const Services& services);
// The event catalog as /openapi.json's `webhooks` section.
std::vector<WebhookDoc> WebhookEventDocs();
// SCIM 2.0 provisioning at /scim/v2/ (docs/scim.md).
void AddScimRoutes(Router& router, const Services& services);
// Tenant configuration (docs/configuration.md): languages, categories and
// tags (and the category and tags of hubs and entries), block-type
// heuristics, style rules, glossaries.
void AddConfigurationRoutes(Router& router, const Services& services);
// Entry templates (/api/templates..., docs/templates.md).
void AddTemplateRoutes(Router& router, const Services& services);
// Reading analytics of entries (/api/analytics/..., docs/analytics.md).
void AddAnalyticsRoutes(Router& router, const Services& services);
// Retention settings and archives (/trust-admin/retention, docs/retention.md).
void AddRetentionRoutes(Router& router, const Services& services);
// Plugins (docs/plugins.md): manifests, tenant installations and settings,
// plugin routes (content rules).
void AddPluginRoutes(Router& router, const Services& services);
// Development mode: the test clock and running background jobs on demand.
void AddDevRoutes(Router& router, const Services& services);
// The MCP endpoint (/mcp) and the OAuth metadata MCP clients discover it
// by: protected resource metadata (RFC 9728), authorization server
// metadata (RFC 8414), docs/agents.md.
void AddMcpRoutes(Router& router, const Services& services);
// <public_url>/mcp: the endpoint's URL and resource indicator.
std::string McpResource(const McpEndpoint& endpoint);

}  // namespace credence::http
