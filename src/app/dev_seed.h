#pragma once

namespace credence::identity {
class TenantService;
class GroupService;
}
namespace credence::kb {
class HubService;
class EntryService;
class TranslationService;
class MembershipService;
}

namespace credence::app {

struct DevSeedServices {
  const identity::TenantService& tenants;
  const identity::GroupService& groups;
  const kb::HubService& hubs;
  const kb::EntryService& entries;
  const kb::TranslationService& translations;
  const kb::MembershipService& memberships;
};

// Development mode: the demo tenant `acme` with its four personas, two hubs
// with entries in English, Spanish translations (one of them stale), and
// hub memberships for every persona. Idempotent across restarts: content is
// seeded once, when the tenant has no `handbook` hub yet.
void SeedDevelopmentData(const DevSeedServices& services);

}  // namespace credence::app
