#pragma once
// Writing connected documents inside a caller's write transaction: the
// registration of PUT /trust-admin/connected-documents and connector syncs
// (docs/connectors.md) share these, so a synced document is stored, versioned
// and resolved exactly as a registered one.
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/clock.h"
#include "core/result.h"
#include "trust/admin_service.h"

namespace credence::storage {
class TenantSession;
}

namespace credence::trust {

// The rules that need no database (docs/trust-admin.md, "Connected
// documents"); trims the title and canonicalizes the owner id. With
// `allow_removed`, status may also be Removed (connectors).
Status ValidateConnectedDocument(ConnectedDocumentInput& in, bool allow_removed = false);

struct DocumentUpsert {
  ConnectedDocument document;  // as stored after the write
  bool created = false;
  bool version_changed = false;  // created, or the content hash or contentUpdatedAt changed
};

// Inserts or replaces the document named by (connector_key, external_id)
// in `tenant`, a write transaction: insert-or-nothing, then update, so two
// writers of a new document leave one row. The version goes up when the
// content hash or content_updated_at changes (compared in the statement).
// `in` must have passed ValidateConnectedDocument. Errors: 400 ownerId when
// the owner is not a member; 409 url_taken when another document of the
// tenant has the URL (checked before writing, so the transaction stays
// usable on PostgreSQL). `synced_at` defaults to `now`.
//
// `checked` says what the caller has already made sure of in this
// transaction (a sync checks a whole batch in one statement, FindUrlHolders):
// those checks are skipped.
struct UpsertChecks {
  bool owner_is_member = false;
  bool url_free = false;
};
Result<DocumentUpsert> UpsertConnectedDocument(storage::TenantSession& tenant, const ConnectedDocumentInput& in,
                                               TimeMs now, UpsertChecks checked = {});

// The document holding each of these URLs, in one read; URLs no document
// holds are left out.
struct UrlHolder {
  std::string connector_key;
  std::string external_id;
};
std::unordered_map<std::string, UrlHolder> FindUrlHolders(storage::TenantSession& tenant,
                                                          const std::vector<std::string>& urls);

// The document by key, if any.
std::optional<ConnectedDocument> FindConnectedDocument(storage::TenantSession& tenant, const std::string& connector_key,
                                                       const std::string& external_id);

// The documents of `connector_key` among `external_ids`, in one read (a
// sync's batch reads its documents ahead instead of one at a time); ids
// without a document are left out. In no particular order.
std::vector<ConnectedDocument> FindConnectedDocuments(storage::TenantSession& tenant, const std::string& connector_key,
                                                      const std::vector<std::string>& external_ids);

// Marks the document Removed (it keeps resolving and is blocked by
// source_removed); version and content are kept. False when there is no
// such document or it was already removed.
bool MarkConnectedDocumentRemoved(storage::TenantSession& tenant, const std::string& connector_key,
                                  const std::string& external_id, TimeMs now);

}  // namespace credence::trust
