#pragma once
// The connectors' administration (/trust-admin/connectors: tenant admins
// on a signed-in session; every change audited) and the push API
// (/api/connectors/{key}/documents: a tenant API key with the scope
// connector:push bound to that connector). docs/connectors.md.
//
// Thread-safe: no state besides the references it is built with.
#include <optional>
#include <string>
#include <vector>

#include <memory>

#include "connectors/connector.h"
#include "connectors/credential.h"
#include "connectors/secret_box.h"
#include "connectors/settings.h"
#include "connectors/sync_waker.h"
#include "core/clock.h"
#include "core/result.h"
#include "identity/audit.h"
#include "identity/principal.h"

namespace credence::storage {
class Database;
class TenantSession;
}  // namespace credence::storage
namespace credence::trust {
class ContentScanning;
struct ConnectedDocument;
}  // namespace credence::trust

namespace credence::connectors {

struct PushedDocument {
  std::string document_id;
  std::string source_id;
  WriteOutcome outcome = WriteOutcome::kAdded;
  int64_t version = 1;
  std::string content_hash;
  TimeMs content_updated_at = 0;
};

// A connector's credential, opened (the sync engine's; never answered).
// Error when it has none or it does not open (its key is not in the file).
Result<Credential> OpenCredential(const SecretBox& secrets, const std::string& tenant_id, const Connector& c);

class ConnectorService {
 public:
  // `scanning` may be null (not wired): documents are then not scanned.
  // `secrets` seals credentials; null: a connector cannot be given one (400).
  ConnectorService(storage::Database& db, const Clock& clock, const identity::AuditRecorder& audit,
                   const trust::ContentScanning* scanning, RepositoryPolicy repositories = {},
                   std::shared_ptr<const SecretBox> secrets = nullptr);

  // Create: 201. key 1..64 of a-z 0-9 _ - (as connected documents' keys),
  // unique in the tenant (409 connector_key_taken); kind git | web | push;
  // name 1..200 (default: the key); settings by kind (settings.h);
  // scheduleMinutes 1..525600 or null (manual only; push: always null).
  // A scheduled connector's first run is due at once.
  Result<ConnectorView> Create(const identity::Principal& caller, const ConnectorInput& input) const;
  Result<std::vector<ConnectorView>> List(const identity::Principal& caller) const;
  Result<ConnectorView> Get(const identity::Principal& caller, const std::string& id) const;
  // Replaces name, settings and schedule; key and kind cannot change (400).
  // The credential: absent keeps the stored one (400 when it no longer fits
  // the settings), null removes it, an object replaces it.
  // New git url or branch: the next sync starts over (a full listing; the
  // content hashes keep unchanged documents' versions).
  Result<ConnectorView> Update(const identity::Principal& caller, const std::string& id,
                               const ConnectorInput& input) const;
  // Its live documents become Removed (they resolve and are blocked with
  // source_removed); its runs and its record of documents go.
  Status Delete(const identity::Principal& caller, const std::string& id) const;

  // Queues a run now (202), or answers the run already queued or running,
  // then wakes the waker (if set) so that this node starts it at once.
  // Push connectors have nothing to sync (409 connector_not_syncable).
  Result<Run> SyncNow(const identity::Principal& caller, const std::string& id) const;
  // Newest first, at most kMaxRunsListed, without their document errors.
  Result<std::vector<Run>> ListRuns(const identity::Principal& caller, const std::string& id) const;
  // With its document errors (at most kMaxRunErrorsListed).
  Result<Run> GetRun(const identity::Principal& caller, const std::string& id, const std::string& run_id) const;

  // The push API. 404 when the tenant has no connector `key`; 403
  // connector_not_bound when the key is not bound to it; 409
  // connector_not_push for other kinds. `doc.text` is scanned and hashed,
  // never stored.
  Result<PushedDocument> Push(const identity::Principal& caller, const std::string& key,
                              const SourceDocument& doc) const;
  // Marks it Removed. 404 when the connector does not know it (or removed it).
  Status RemovePushed(const identity::Principal& caller, const std::string& key, const std::string& external_id) const;

  // For the api keys (identity::ApiKeyService::SetConnectorCheck): whether
  // `id` is a connector of the session's tenant.
  static bool Exists(storage::TenantSession& tenant, const std::string& id);

  // Set once at start-up, before requests are served, and cleared (null)
  // only after the server has stopped; null (the default, and in development
  // mode with the background jobs off): sync-now only queues.
  void SetSyncWaker(SyncWaker* waker) { waker_ = waker; }

 private:
  Result<Connector> FindForPush(storage::TenantSession& tenant, const identity::Principal& caller,
                                const std::string& key) const;
  // The credential `in` gives (nullopt: none given, or null, or invalid:
  // then `errors` says why), for a connector with these stored settings.
  std::optional<Credential> CheckCredential(const ConnectorInput& in, const std::string& settings,
                                            std::vector<FieldError>& errors) const;
  void SealInto(Connector& c, const std::string& tenant_id, const Credential& credential) const;

  storage::Database& db_;
  const Clock& clock_;
  const identity::AuditRecorder& audit_;
  const trust::ContentScanning* scanning_;
  RepositoryPolicy repositories_;
  std::shared_ptr<const SecretBox> secrets_;
  SyncWaker* waker_ = nullptr;
};

}  // namespace credence::connectors
