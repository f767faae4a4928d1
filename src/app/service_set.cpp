#include "app/service_set.h"

#include <stdexcept>

#include "scanning/scanner.h"
#include "trust/scanning_events.h"
#include "storage/database.h"

namespace credence::app {
namespace {

std::shared_ptr<const scanning::Scanner> CompiledScanner() {
  auto scanner = scanning::Scanner::Create();
  if (!scanner) throw std::runtime_error("the content scanner's rules do not compile: " + scanner.error().detail);
  return *scanner;
}

}  // namespace

ServiceSet::ServiceSet(storage::Database& db, const Clock& clock, const ServiceSetOptions& options)
    : audit(db, clock),
      webhooks(db, clock, audit, options.delivery.outbound),
      plugin_registry(plugins::ShippedRegistry({clock, options.delivery.outbound, options.dev})),
      guards(plugin_registry, clock),
      plugins(db, clock, audit, plugin_registry),
      approvals(db, clock, audit),
      custom_guards(db, clock, audit, options.delivery.outbound),
      content_rules(db, clock, audit, plugin_registry),
      events(db, plugin_registry, webhooks),
      translation_triggers(clock, events),
      tenants(db, clock, audit, options.dev, options.tenant_creations_per_day),
      users(db, clock, audit),
      groups(db, clock, audit),
      invitations(db, clock, audit, options.invitations, notify::InvitationEmailsThroughOutbox()),
      scanning(db, clock, audit, CompiledScanner()),
      hubs(db, clock, guards),
      analytics(db, clock, audit, options.record_reads),
      entries(db, clock, scanning, translation_triggers, guards, analytics, &audit),
      translations(db, clock, scanning, events, guards, analytics),
      memberships(db, clock, audit),
      expiry_templates(db, clock),
      review_checklists(db, clock),
      expiry(db, clock),
      reviews(db, clock, events, guards),
      notifications(db, clock),
      dashboards(db, clock),
      channels(db, clock, options.delivery.outbound),
      scheduler(db, clock, options.node_id, events),
      outbox(db, clock, options.delivery, &audit),
      api_keys(db, clock, audit,
               options.signing_key.empty() ? identity::LoadOrCreateSigningKey(db, clock) : options.signing_key,
               options.token_ttl_seconds, events),
      chain_heads(db, clock,
                  options.chain_key ? options.chain_key
                                    : std::make_shared<const integrity::SigningKey>(integrity::SigningKey::Generate()),
                  {trust::LedgerChain(), platform::AuditChain()}),
      merkle_logs(db, clock, chain_heads, integrity::OriginPrefixOf(options.public_url), {trust::LedgerLeaves()}),
      trust(db, clock, &chain_heads, events),
      receipts(db, merkle_logs, options.checkpoint_interval_seconds),
      trust_admin(db, clock, audit),
      apps(db, clock, audit, api_keys, options.app_key_max_days),
      reports(db, clock),
      sessions(db, clock, audit, options.sessions),
      sign_in(db, clock, sessions, audit, options.oidc_providers, options.public_url),
      connectors(db, clock, audit, &scanning, options.repositories, options.connector_sync.secrets),
      connector_syncer(db, clock, &scanning, [&options] {
        ::credence::connectors::SyncOptions o = options.connector_sync;
        if (o.node_id.empty()) o.node_id = options.node_id;
        return o;
      }()),
      languages(db, clock, audit),
      taxonomy(db, clock, audit),
      block_heuristics(db, clock, audit),
      style_rules(db, clock, audit),
      glossaries(db, clock, audit),
      templates(db, clock, audit),
      translators(options.machine_translation),
      machine_translation(translations, block_heuristics, glossaries, languages, translators),
      translation_jobs(db, clock, machine_translation, options.machine_translation.jobs_per_tenant),
      retention(db, clock, audit, !options.archive_dir.empty()),
      archiver(options.archive_dir.empty()
                   ? nullptr
                   : std::make_unique<retention::Archiver>(db, clock, chain_heads, audit, options.archive_dir,
                                                          &merkle_logs)),
      app_records(db, clock, apps, merkle_logs, retention, options.checkpoint_interval_seconds),
      what_if(db, clock),
      scim(db, clock, audit),
      mcp(trust, entries, mcp::ServerInfo{.version = options.version}),
      services_{db,
                tenants,
                users,
                groups,
                invitations,
                hubs,
                entries,
                translations,
                metrics_,
                options.dev,
                options.version,
                memberships,
                expiry_templates,
                review_checklists,
                expiry,
                reviews,
                notifications,
                dashboards,
                channels,
                scheduler,
                outbox,
                options.test_clock,
                api_keys,
                trust,
                trust_admin,
                apps,
                reports,
                sessions,
                sign_in,
                chain_heads,
                audit,
                scanning,
                connectors,
                connector_syncer,
                webhooks,

                languages,
                taxonomy,
                block_heuristics,
                style_rules,
                glossaries,
                templates,
                analytics,
                plugins,
                guards,
                approvals,
                custom_guards,
                content_rules,
                events,
                machine_translation,
                translation_jobs,
                retention,
                archiver.get(),
                mcp,
                http::McpEndpoint{options.public_url, options.mcp_allowed_origins},
                merkle_logs,
                receipts,
                app_records,
                what_if,
                scim} {
  audit.SetChainHeads(&chain_heads);
  // Tokens may be bound to the MCP endpoint (RFC 8707, docs/agents.md).
  api_keys.AcceptResources({http::McpResource(services_.mcp_endpoint)});
  // A key with connector:push names a connector of its tenant.
  api_keys.SetConnectorCheck(&::credence::connectors::ConnectorService::Exists);
  trust::SetScanningEventSink(&events);
  connector_syncer.SetEvents(&events);
  entries.SetReadTrigger([&db, &clock](const identity::Principal& caller, const std::string& entry_id,
                                       const std::string& language) {
    return translation::QueueOnDemand(db, clock, caller, entry_id, language);
  });
  groups.SetGroupDeletedHook(&kb::MembershipService::ForgetGroup);
  scim.SetGroupDeletedHook(&kb::MembershipService::ForgetGroup);
  // Sign-in accepts the person's invitations and joins the tenants whose
  // domain admits them, inside its own transaction.
  sign_in.SetJoinTenantsHook([this](storage::Session& tx, const std::string& user_id, const std::string& email,
                                    const identity::RequestMeta& request) {
    auto joined = invitations.JoinOnSignIn(tx, user_id, email, request);
    if (!joined) throw std::runtime_error("joining tenants at sign-in failed: " + joined.error().detail);
  });
}

ServiceSet::~ServiceSet() { trust::SetScanningEventSink(nullptr); }

}  // namespace credence::app
