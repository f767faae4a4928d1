// Connected documents: external documents known by connector key and
// external id, registered here until connectors sync them
// (docs/trust-admin.md, "Connected documents").
#include "trust/connected_documents.h"
#include "core/ids.h"
#include "core/json_text.h"
#include "core/text.h"
#include "identity/authorization.h"
#include "storage/session.h"
#include "trust/source_id.h"

namespace credence::trust {
namespace {

using storage::TenantQuery;

#define CREDENCE_TRUST_DOCUMENT_COLUMNS                                                                     \
  "id, connector_key, external_id, url, title, content_hash, content_updated_at, last_synced_at, owner_id," \
  " last_reviewed_at, last_review_type, status, version, created_at, updated_at"

constexpr TenantQuery kDocumentById{"trust_admin.document_by_id",
                                    "SELECT " CREDENCE_TRUST_DOCUMENT_COLUMNS
                                    " FROM connected_documents WHERE tenant_id = $1 AND id = $2"};
constexpr TenantQuery kDocumentByKey{
    "trust_admin.document_by_key",
    "SELECT " CREDENCE_TRUST_DOCUMENT_COLUMNS
    " FROM connected_documents WHERE tenant_id = $1 AND connector_key = $2 AND external_id = $3"};
// $3: ["external id", ...]. SQLite looks each id up in the unique index; on
// PostgreSQL the ids drive a join into it.
constexpr TenantQuery kDocumentsByKeys{
    "trust_admin.documents_by_keys",
    "SELECT " CREDENCE_TRUST_DOCUMENT_COLUMNS
    " FROM connected_documents WHERE tenant_id = $1 AND connector_key = $2"
    " AND external_id IN (SELECT value FROM json_each($3))",
    "SELECT " CREDENCE_TRUST_DOCUMENT_COLUMNS
    " FROM json_array_elements_text(CAST($3 AS JSON)) AS j(v) JOIN connected_documents"
    " ON tenant_id = $1 AND connector_key = $2 AND external_id = j.v"};
// The same order on both backends: PostgreSQL's default collation may follow
// the locale, SQLite's compares bytes.
constexpr TenantQuery kListDocuments{
    "trust_admin.list_documents",
    "SELECT " CREDENCE_TRUST_DOCUMENT_COLUMNS
    " FROM connected_documents WHERE tenant_id = $1"
    " AND ($2 IS NULL OR connector_key = $2) ORDER BY connector_key, external_id LIMIT $3",
    "SELECT " CREDENCE_TRUST_DOCUMENT_COLUMNS
    " FROM connected_documents WHERE tenant_id = $1"
    " AND (CAST($2 AS TEXT) IS NULL OR connector_key = $2) ORDER BY connector_key COLLATE \"C\","
    " external_id COLLATE \"C\" LIMIT $3"};

// Registering is an insert that yields to an existing row, then an update:
// two registrations of a new document at once leave one row (the second
// updates it) on both backends.
constexpr TenantQuery kInsertDocument{
    "trust_admin.insert_document",
    "INSERT INTO connected_documents (tenant_id, id, connector_key, external_id, url, title, content_hash,"
    " content_updated_at, last_synced_at, owner_id, last_reviewed_at, last_review_type, status, version,"
    " created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 1, $14, $14)"
    " ON CONFLICT (tenant_id, connector_key, external_id) DO NOTHING RETURNING " CREDENCE_TRUST_DOCUMENT_COLUMNS};
// The version compares with the row as it was (SET expressions read the old
// values on both backends), in the statement, so concurrent syncs count
// each change once.
constexpr TenantQuery kUpdateDocument{
    "trust_admin.update_document",
    "UPDATE connected_documents SET version = version + CASE WHEN COALESCE(content_hash, '')"
    " <> COALESCE(CAST($6 AS TEXT), '') OR content_updated_at <> $7 THEN 1 ELSE 0 END, url = $4, title = $5,"
    " content_hash = $6, content_updated_at = $7, last_synced_at = $8, owner_id = $9, last_reviewed_at = $10,"
    " last_review_type = $11, status = $12, updated_at = $13"
    " WHERE tenant_id = $1 AND connector_key = $2 AND external_id = $3"};
constexpr TenantQuery kMarkRemoved{
    "trust_admin.mark_document_removed",
    "UPDATE connected_documents SET status = 'Removed', last_synced_at = $4, updated_at = $4"
    " WHERE tenant_id = $1 AND connector_key = $2 AND external_id = $3 AND status <> 'Removed'"};
constexpr TenantQuery kDeleteDocument{"trust_admin.delete_document",
                                      "DELETE FROM connected_documents WHERE tenant_id = $1 AND id = $2"};
constexpr TenantQuery kDeleteDocumentPolicy{
    "trust_admin.delete_document_policy",
    "DELETE FROM trust_policies WHERE tenant_id = $1 AND scope = 'entry' AND target_id = $2"};

// Evaluation resolves a URL to one document; a second document with the
// same URL would make that choice arbitrary.
constexpr TenantQuery kUrlTaken{"trust_admin.document_url_taken",
                                "SELECT 1 FROM connected_documents WHERE tenant_id = $1 AND url = $2"
                                " AND NOT (connector_key = $3 AND external_id = $4)"};
// By the partial unique index on (tenant_id, url) of migration 501 on both
// backends (an equality implies the index's url IS NOT NULL).
constexpr TenantQuery kUrlHolders{
    "trust_admin.document_url_holders",
    "SELECT url, connector_key, external_id FROM connected_documents WHERE tenant_id = $1"
    " AND url IN (SELECT value FROM json_each($2))",
    "SELECT url, connector_key, external_id FROM json_array_elements_text(CAST($2 AS JSON)) AS j(v)"
    " JOIN connected_documents ON tenant_id = $1 AND url = j.v"};
// Active or not: a document whose owner left is what owner_inactive reports.
constexpr TenantQuery kIsMember{"trust_admin.is_member",
                                "SELECT 1 FROM tenant_members WHERE tenant_id = $1 AND user_id = $2"};

ConnectedDocument DocumentFromRow(const storage::Row& r) {
  ConnectedDocument d;
  d.id = r.Text(0);
  d.connector_key = r.Text(1);
  d.external_id = r.Text(2);
  d.url = r.OptText(3);
  d.title = r.Text(4);
  d.content_hash = r.OptText(5);
  d.content_updated_at = r.Int(6);
  d.last_synced_at = r.Int(7);
  d.owner_id = r.OptText(8);
  d.last_reviewed_at = r.OptInt(9);
  d.last_review_type = r.OptText(10);
  d.status = r.Text(11);
  d.version = r.Int(12);
  d.created_at = r.Int(13);
  d.updated_at = r.Int(14);
  return d;
}

Error DocumentNotFound() { return Error::NotFound("Connected document not found."); }

}  // namespace

Status ValidateConnectedDocument(ConnectedDocumentInput& in, bool allow_removed) {
  std::vector<FieldError> errors;
  if (!IsConnectorKey(in.connector_key))
    errors.push_back({"connectorKey",
                      "must be 1 to 64 of a-z, 0-9, _ and -, starting with a letter or digit, and "
                      "not entry, http or https"});
  const size_t external_length = Utf8Length(in.external_id);
  if (external_length == 0 || external_length > kMaxExternalIdLength)
    errors.push_back({"externalId", "must be 1 to " + std::to_string(kMaxExternalIdLength) + " characters"});
  if (in.url && !IsSourceUrl(*in.url))
    errors.push_back({"url", "must be an http or https URL of at most " + std::to_string(kMaxUrlLength) +
                                 " characters, without white space"});
  in.title = Trim(in.title);
  if (in.title.empty())
    errors.push_back({"title", "must not be blank"});
  else if (Utf8Length(in.title) > kMaxDocumentTitleLength)
    errors.push_back({"title", "must be at most " + std::to_string(kMaxDocumentTitleLength) + " characters"});
  if (in.content_hash && (in.content_hash->empty() || Utf8Length(*in.content_hash) > kMaxContentHashLength))
    errors.push_back({"contentHash", "must be 1 to " + std::to_string(kMaxContentHashLength) + " characters"});
  if (in.owner_id) {
    if (IsUuid(*in.owner_id))
      in.owner_id = CanonicalUuid(*in.owner_id);
    else
      errors.push_back({"ownerId", "must be a UUID"});
  }
  if (in.last_review_type) {
    if (StrengthOfReviewType(*in.last_review_type) == ReviewStrength::kNone)
      errors.push_back({"lastReviewType", "must be one of QuickReview, FullReview, Attestation"});
    else if (!in.last_reviewed_at)
      errors.push_back({"lastReviewType", "needs lastReviewedAt"});
  }
  if (in.status != kDocumentPublished && in.status != kDocumentDraft &&
      !(allow_removed && in.status == kDocumentRemoved))
    errors.push_back({"status", "must be Published or Draft"});
  if (!errors.empty()) return Error::Validation(std::move(errors));
  return Ok();
}

Result<DocumentUpsert> UpsertConnectedDocument(storage::TenantSession& tenant, const ConnectedDocumentInput& in,
                                               TimeMs now, UpsertChecks checked) {
  const TimeMs synced = in.last_synced_at.value_or(now);
  if (in.owner_id && !checked.owner_is_member && tenant.Run(kIsMember, {*in.owner_id}).empty())
    return Error::Validation({{"ownerId", "is not a member of this tenant"}});
  if (in.url && !checked.url_free && !tenant.Run(kUrlTaken, {*in.url, in.connector_key, in.external_id}).empty())
    return Error::Conflict("url_taken", "Another connected document of the tenant has this URL.");
  DocumentUpsert out;
  try {
    // A new document comes back from the insert itself: one statement, not
    // a second to read it (a first sync writes thousands).
    auto inserted = tenant.Run(kInsertDocument, {NewId(), in.connector_key, in.external_id, in.url, in.title,
                                                 in.content_hash, in.content_updated_at, synced, in.owner_id,
                                                 in.last_reviewed_at, in.last_review_type, in.status, now});
    if (!inserted.empty()) {
      out.document = DocumentFromRow(inserted.front());
      out.created = out.version_changed = true;
      return out;
    }
  } catch (const storage::StorageError& e) {
    // A concurrent writer took the URL between the check and the write
    // (PostgreSQL); the unique index of migration 501 decides.
    if (e.kind() == storage::StorageError::Kind::kUniqueViolation)
      return Error::Conflict("url_taken", "Another connected document of the tenant has this URL.");
    throw;
  }
  int64_t version_before = 0;
  auto before = tenant.Run(kDocumentByKey, {in.connector_key, in.external_id});
  if (!before.empty()) version_before = before.front().Int(12);
  try {
    tenant.Run(kUpdateDocument,
               {in.connector_key, in.external_id, in.url, in.title, in.content_hash, in.content_updated_at, synced,
                in.owner_id, in.last_reviewed_at, in.last_review_type, in.status, now});
  } catch (const storage::StorageError& e) {
    if (e.kind() == storage::StorageError::Kind::kUniqueViolation)
      return Error::Conflict("url_taken", "Another connected document of the tenant has this URL.");
    throw;
  }
  auto rows = tenant.Run(kDocumentByKey, {in.connector_key, in.external_id});
  if (rows.empty()) return Error::Internal("The connected document vanished while it was written.");
  out.document = DocumentFromRow(rows.front());
  out.version_changed = out.document.version != version_before;
  return out;
}

std::optional<ConnectedDocument> FindConnectedDocument(storage::TenantSession& tenant, const std::string& connector_key,
                                                       const std::string& external_id) {
  auto rows = tenant.Run(kDocumentByKey, {connector_key, external_id});
  if (rows.empty()) return std::nullopt;
  return DocumentFromRow(rows.front());
}

std::vector<ConnectedDocument> FindConnectedDocuments(storage::TenantSession& tenant, const std::string& connector_key,
                                                      const std::vector<std::string>& external_ids) {
  std::vector<ConnectedDocument> out;
  if (external_ids.empty()) return out;
  for (const auto& r : tenant.Run(kDocumentsByKeys, {connector_key, StringListToJson(external_ids)}))
    out.push_back(DocumentFromRow(r));
  return out;
}

std::unordered_map<std::string, UrlHolder> FindUrlHolders(storage::TenantSession& tenant,
                                                          const std::vector<std::string>& urls) {
  std::unordered_map<std::string, UrlHolder> out;
  if (urls.empty()) return out;
  for (const auto& r : tenant.Run(kUrlHolders, {StringListToJson(urls)}))
    out.insert_or_assign(r.Text(0), UrlHolder{r.Text(1), r.Text(2)});
  return out;
}

bool MarkConnectedDocumentRemoved(storage::TenantSession& tenant, const std::string& connector_key,
                                  const std::string& external_id, TimeMs now) {
  return tenant.Run(kMarkRemoved, {connector_key, external_id, now}).affected() > 0;
}

Result<RegisteredDocument> TrustAdminService::RegisterDocument(const identity::Principal& caller,
                                                               const ConnectedDocumentInput& request) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  ConnectedDocumentInput in = request;
  CR_TRY(ValidateConnectedDocument(in));
  const TimeMs now = clock_.Now();

  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  CR_TRY_ASSIGN(DocumentUpsert written, UpsertConnectedDocument(tenant, in, now));
  RegisteredDocument out{std::move(written.document), written.created};
  audit_.Record(tenant, identity::AuditOf(caller, out.created ? "document.registered" : "document.updated",
                                          {"document", out.document.id},
                                          {{"connectorKey", out.document.connector_key},
                                           {"externalId", out.document.external_id},
                                           {"title", out.document.title}}));
  session.Commit();
  return out;
}

Result<std::vector<ConnectedDocument>> TrustAdminService::ListDocuments(
    const identity::Principal& caller, const std::optional<std::string>& connector_key) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  if (connector_key && !IsConnectorKey(*connector_key))
    return Error::Validation({{"connectorKey", "is not a connector key"}});
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  std::vector<ConnectedDocument> out;
  for (const auto& r : tenant.Run(kListDocuments, {connector_key, static_cast<int64_t>(kMaxConnectedDocumentsListed)}))
    out.push_back(DocumentFromRow(r));
  return out;
}

Result<ConnectedDocument> TrustAdminService::GetDocument(const identity::Principal& caller,
                                                         const std::string& id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_);
  storage::TenantSession tenant(session, caller.tenant_id);
  auto rows = tenant.Run(kDocumentById, {id});
  if (rows.empty()) return DocumentNotFound();
  return DocumentFromRow(rows.front());
}

Status TrustAdminService::DeleteDocument(const identity::Principal& caller, const std::string& id) const {
  CR_TRY(identity::RequireGlobalAdmin(caller));
  storage::Session session(db_, storage::TxMode::kWrite);
  storage::TenantSession tenant(session, caller.tenant_id);
  if (tenant.Run(kDeleteDocument, {id}).affected() == 0) return DocumentNotFound();
  // A later document gets a new id, so nothing would read these rows again;
  // removed so the tenant's settings list only what exists.
  tenant.Run(kDeleteDocumentPolicy, {id});
  DeleteFacts(tenant, SourceKind::kConnected, id);
  audit_.Record(tenant, identity::AuditOf(caller, "document.deleted", {"document", id}));
  session.Commit();
  return Ok();
}

}  // namespace credence::trust
