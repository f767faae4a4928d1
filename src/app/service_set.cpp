#include "app/service_set.h"

#include "storage/database.h"

namespace credence::app {

ServiceSet::ServiceSet(storage::Database& db, const Clock& clock, const ServiceSetOptions& options)
    : audit(db, clock),
      tenants(db, clock, audit, options.dev),
      users(db, audit),
      groups(db, clock, audit),
      invitations(db, clock, audit),
      hubs(db, clock),
      entries(db, clock),
      translations(db, clock),
      memberships(db, clock, audit),
      expiry_templates(db, clock),
      review_checklists(db, clock),
      expiry(db, clock),
      reviews(db, clock),
      notifications(db, clock),
      dashboards(db, clock),
      channels(db, clock),
      scheduler(db, clock, options.node_id),
      outbox(db, clock, options.delivery),
      api_keys(db, clock, audit,
               options.signing_key.empty() ? identity::LoadOrCreateSigningKey(db, clock) : options.signing_key,
               options.token_ttl_seconds),
      trust(db, clock),
      trust_admin(db, clock, audit),
      apps(db, clock, audit, api_keys, options.app_key_max_days),
      reports(db, clock),
      services_{db,           tenants,      users,           groups,       invitations, hubs,
                entries,      translations, metrics_,        options.dev,  options.version,
                memberships,  expiry_templates, review_checklists, expiry, reviews,
                notifications, dashboards,  channels,        scheduler,    outbox,      options.test_clock,
                api_keys,     trust,       trust_admin,  apps,        reports,
                audit} {}

}  // namespace credence::app
