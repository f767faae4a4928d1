#include "app/service_set.h"

#include "storage/database.h"

namespace credence::app {

ServiceSet::ServiceSet(storage::Database& db, const Clock& clock, const ServiceSetOptions& options)
    : tenants(db, clock, options.dev),
      users(db),
      groups(db, clock),
      invitations(db, clock),
      hubs(db, clock),
      entries(db, clock),
      translations(db, clock),
      memberships(db, clock),
      expiry_templates(db, clock),
      review_checklists(db, clock),
      expiry(db, clock),
      reviews(db, clock),
      notifications(db, clock),
      dashboards(db, clock),
      channels(db, clock),
      scheduler(db, clock, options.node_id),
      outbox(db, clock, options.delivery),
      api_keys(db, clock,
               options.signing_key.empty() ? identity::LoadOrCreateSigningKey(db, clock) : options.signing_key,
               options.token_ttl_seconds),
      chain_heads(db, clock,
                  options.chain_key ? options.chain_key
                                    : std::make_shared<const integrity::SigningKey>(integrity::SigningKey::Generate()),
                  {trust::LedgerChain()}),
      trust(db, clock, &chain_heads),
      trust_admin(db, clock),
      apps(db, clock, api_keys, options.app_key_max_days),
      reports(db, clock),
      services_{db,           tenants,      users,           groups,       invitations, hubs,
                entries,      translations, metrics_,        options.dev,  options.version,
                memberships,  expiry_templates, review_checklists, expiry, reviews,
                notifications, dashboards,  channels,        scheduler,    outbox,      options.test_clock,
                api_keys,     trust,       trust_admin,  apps,        reports,
                chain_heads} {}

}  // namespace credence::app
