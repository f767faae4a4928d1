#include "connectors/credential_store.h"

#include "connectors/credential.h"
#include "storage/database.h"
#include "storage/query.h"
#include "storage/session.h"

namespace credence::connectors {
namespace {

// Across tenants: the operator's command, like the background jobs' queries.
constexpr storage::GlobalQuery kSealed{
    "connectors.sealed_credentials",
    "SELECT tenant_id, id, credential_sealed FROM connectors WHERE credential_sealed IS NOT NULL"
    " ORDER BY tenant_id, id"};
constexpr storage::TenantQuery kReseal{
    "connectors.reseal_credential",
    "UPDATE connectors SET credential_sealed = $3 WHERE tenant_id = $1 AND id = $2 AND credential_sealed = $4"};

}  // namespace

ResealSummary ResealCredentials(storage::Database& db, const SecretBox& secrets) {
  ResealSummary summary;
  storage::Session session(db, storage::TxMode::kWrite);
  const auto rows = session.Run(kSealed);
  for (const auto& r : rows) {
    const std::string tenant_id = r.Text(0), id = r.Text(1), sealed = r.Text(2);
    auto plain = secrets.Open(sealed, CredentialSealContext(tenant_id, id));
    if (!plain) {
      summary.failed.push_back(tenant_id + "/" + id);
      continue;
    }
    storage::TenantSession tenant(session, tenant_id);
    // Guarded by the old value: a credential an admin replaced meanwhile stays.
    summary.resealed += tenant.Run(kReseal, {id, secrets.Seal(*plain, CredentialSealContext(tenant_id, id)), sealed}).affected();
  }
  session.Commit();
  return summary;
}

std::set<std::string> CredentialKeyIds(storage::Database& db) {
  std::set<std::string> ids;
  storage::Session session(db, storage::TxMode::kRead);
  for (const auto& r : session.Run(kSealed)) ids.insert(SecretBox::KeyIdOf(r.Text(2)));
  return ids;
}

}  // namespace credence::connectors
