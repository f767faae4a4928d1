#include "support/seed.h"

#include "core/ids.h"
#include "storage/session.h"

namespace credence::test {
namespace {

constexpr storage::GlobalQuery kInsertTenant{"test_seed.insert_tenant",
                                             "INSERT INTO tenants (id, name, slug, created_at) VALUES ($1, $2, $3, 0)"};
constexpr storage::GlobalQuery kInsertUser{
    "test_seed.insert_user", "INSERT INTO users (id, email, display_name, created_at) VALUES ($1, $2, $3, 0)"};
constexpr storage::GlobalQuery kInsertMember{
    "test_seed.insert_member",
    "INSERT INTO tenant_members (tenant_id, user_id, role, is_active, joined_at) VALUES ($1, $2, 'Owner', 1, 0)"};

}  // namespace

identity::Principal SeedTenant(storage::Database& db, const std::string& slug, bool with_owner) {
  identity::Principal p;
  p.tenant_id = NewId();
  p.user_id = NewId();
  p.role = identity::TenantRole::kOwner;
  storage::Session session(db);
  session.Run(kInsertTenant, {p.tenant_id, "Tenant " + slug, slug + "-" + p.tenant_id.substr(24)});
  if (with_owner) {
    session.Run(kInsertUser, {p.user_id, p.user_id + "@example.com", "Admin " + slug});
    session.Run(kInsertMember, {p.tenant_id, p.user_id});
  }
  return p;
}

}  // namespace credence::test
