#pragma once
// Every long-lived domain service, built once over one store and one clock.
// The server and the tests that need the whole route table (OpenAPI) build
// it the same way.
#include <memory>
#include <string>

#include "analytics/analytics_service.h"
#include "connectors/connector_service.h"
#include "connectors/sync_engine.h"
#include "core/clock.h"
#include "http/handlers/routes.h"
#include "http/metrics.h"
#include "identity/api_key_service.h"
#include "identity/group_service.h"
#include "identity/invitation_service.h"
#include "identity/scim/scim_service.h"
#include "identity/session_service.h"
#include "identity/sign_in_service.h"
#include "identity/tenant_service.h"
#include "identity/user_service.h"
#include "integrity/chain_heads.h"
#include "integrity/merkle_log.h"
#include "kb/entry_service.h"
#include "kb/hub_service.h"
#include "kb/membership_service.h"
#include "kb/template_service.h"
#include "kb/translation_service.h"
#include "mcp/server.h"
#include "lifecycle/dashboard_service.h"
#include "lifecycle/expiry_service.h"
#include "lifecycle/expiry_template_service.h"
#include "lifecycle/notification_service.h"
#include "lifecycle/review_checklist_service.h"
#include "lifecycle/review_service.h"
#include "lifecycle/scheduler.h"
#include "notify/channel_service.h"
#include "notify/outbox.h"
#include "notify/webhook_service.h"
#include "platform/audit_log.h"
#include "retention/archiver.h"
#include "retention/retention_service.h"
#include "plugins/guard_pipeline.h"
#include "plugins/plugin_service.h"
#include "plugins/approvals.h"
#include "plugins/content_rules.h"
#include "plugins/custom_guards.h"
#include "plugins/event_bus.h"
#include "plugins/shipped_plugins.h"
#include "platform/block_heuristics.h"
#include "platform/glossaries.h"
#include "platform/languages.h"
#include "platform/style_rules.h"
#include "platform/taxonomy.h"
#include "compliance/app_records.h"
#include "reports/report_service.h"
#include "translation/document_translation.h"
#include "translation/jobs.h"
#include "translation/translator.h"
#include "trust/admin_service.h"
#include "trust/what_if.h"
#include "trust/app_registry.h"
#include "trust/content_scanning.h"
#include "trust/receipt_service.h"
#include "trust/trust_service.h"

namespace credence::storage {
class Database;
}

namespace credence::app {

struct ServiceSetOptions {
  bool dev = false;
  std::string version;
  std::string node_id;  // names this process in job leases
  notify::DeliverySettings delivery;
  SettableClock* test_clock = nullptr;  // --test-clock: `clock` is this one
  // The shared access-token signing key; empty: read (or created) from the
  // store, as the server does at start-up.
  std::string signing_key;
  int64_t token_ttl_seconds = identity::kDefaultTokenTtlSeconds;
  int64_t app_key_max_days = trust::kDefaultAppKeyMaxDays;
  // Sign-in (docs/sign-in.md).
  std::vector<identity::oidc::ProviderConfig> oidc_providers;
  std::string public_url = "http://127.0.0.1:8080";
  identity::SessionPolicy sessions;
  int64_t tenant_creations_per_day = 3;
  // Invitation lifetime and the sign-in link of invitation emails (sign-in
  // fills public_url and providers from --public-url and --oidc-config).
  identity::InvitationSettings invitations;
  // The key that signs chain heads (loaded from its file by the server);
  // null: a fresh one in memory (tests).
  std::shared_ptr<const integrity::SigningKey> chain_key;
  // Connector syncs (docs/connectors.md): mirrors under data_dir; node_id
  // is filled from node_id above.
  connectors::SyncOptions connector_sync;
  // Where git connectors may read (local repositories, the data dir).
  connectors::RepositoryPolicy repositories;
  // DocumentRead analytics events (docs/analytics.md).
  bool record_reads = true;
  // Machine-translation providers (docs/machine-translation.md).
  translation::ProviderConfig machine_translation;
  // Where records past retention are archived (docs/retention.md); empty:
  // nothing is archived or deleted.
  std::string archive_dir;
  // Origins besides the public URL's whose requests /mcp takes
  // (--mcp-allowed-origins, docs/agents.md).
  std::vector<std::string> mcp_allowed_origins;
  // How often checkpoints are signed (the chain heads' interval): what a
  // receipt not covered yet says to wait.
  int64_t checkpoint_interval_seconds = 60;
};

class ServiceSet {
 public:
  ServiceSet(storage::Database& db, const Clock& clock, const ServiceSetOptions& options);
  ~ServiceSet();
  ServiceSet(const ServiceSet&) = delete;
  ServiceSet& operator=(const ServiceSet&) = delete;

  // First: the services below record their actions in it.
  platform::AuditLog audit;
  // Second: the services below emit their events through it (identity::EventSink).
  notify::WebhookService webhooks;
  // What HTTP handlers see.
  const http::Services& services() const { return services_; }
  http::Metrics& metrics() { return metrics_; }

  // Third: kb's guarded actions ask the guards of the tenant's enabled plugins.
  plugins::Registry plugin_registry;
  plugins::GuardPipeline guards;
  plugins::PluginService plugins;
  plugins::ApprovalService approvals;
  plugins::CustomGuardService custom_guards;
  plugins::ContentRulesService content_rules;
  // Events reach the webhooks and, after commit, the enabled plugins' handlers.
  plugins::EventBus events;
  // In front of the events for the entries: queues the AlwaysTranslate
  // machine-translation jobs inside the action's transaction.
  translation::TriggeringEvents translation_triggers;

  identity::TenantService tenants;
  identity::UserService users;
  identity::GroupService groups;
  identity::InvitationService invitations;
  // Before the knowledge base: entry saves are scanned through it.
  trust::ContentScanning scanning;
  kb::HubService hubs;
  // Before the entries, which tell it of reads and edits; destroyed after
  // them, writing the buffered reads.
  analytics::AnalyticsService analytics;
  kb::EntryService entries;
  kb::TranslationService translations;
  kb::MembershipService memberships;
  lifecycle::ExpiryTemplateService expiry_templates;
  lifecycle::ReviewChecklistService review_checklists;
  lifecycle::ExpiryService expiry;
  lifecycle::ReviewService reviews;
  lifecycle::NotificationService notifications;
  lifecycle::DashboardService dashboards;
  notify::ChannelService channels;
  lifecycle::ExpiryScheduler scheduler;
  notify::OutboxWorker outbox;
  identity::ApiKeyService api_keys;
  // The signed heads of every hash chain (the ledger; the audit log joins
  // with its own ChainSource).
  integrity::ChainHeads chain_heads;
  // Each tenant's ledger as a Merkle tree, with signed checkpoints, built
  // in the background beside the heads (docs/receipts.md).
  integrity::MerkleLogs merkle_logs;
  trust::TrustService trust;
  trust::ReceiptService receipts;
  trust::TrustAdminService trust_admin;
  trust::AppRegistry apps;
  reports::ReportService reports;
  identity::SessionService sessions;
  identity::SignInService sign_in;
  connectors::ConnectorService connectors;
  connectors::ConnectorSyncer connector_syncer;
  // Tenant configuration (docs/configuration.md).
  platform::LanguageService languages;
  platform::TaxonomyService taxonomy;
  platform::BlockHeuristicService block_heuristics;
  platform::StyleRuleService style_rules;
  platform::GlossaryService glossaries;
  kb::TemplateService templates;
  translation::TranslatorSet translators;
  translation::MachineTranslationService machine_translation;
  translation::TranslationJobs translation_jobs;
  // Retention settings and archives (docs/retention.md); the archiver only
  // with an archive directory.
  retention::RetentionService retention;
  std::unique_ptr<retention::Archiver> archiver;
  // AI Act record-keeping exports (docs/ai-act.md).
  compliance::AppRecordsExporter app_records;
  // Policy what-if over the recorded decisions (docs/what-if.md).
  trust::WhatIfService what_if;
  // SCIM 2.0 provisioning (docs/scim.md).
  identity::ScimService scim;
  // The MCP server (docs/agents.md), over the trust plane and the entries.
  mcp::McpServer mcp;

 private:
  http::Metrics metrics_;
  http::Services services_;
};

}  // namespace credence::app
