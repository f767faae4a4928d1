#include "connectors/internal/documents.h"

#include "core/ids.h"
#include "core/json_text.h"
#include "storage/session.h"
#include "trust/connected_documents.h"
#include "trust/content_scanning.h"

namespace credence::connectors::internal {
namespace {

using storage::TenantQuery;

constexpr TenantQuery kFindKnown{
    "connectors.find_known",
    "SELECT document_id, source_version, etag, last_modified, content_hash, removed FROM connector_documents"
    " WHERE tenant_id = $1 AND connector_id = $2 AND external_id = $3"};

constexpr TenantQuery kUpsertKnown{
    "connectors.upsert_known",
    "INSERT INTO connector_documents (tenant_id, connector_id, external_id, document_id, source_version, etag,"
    " last_modified, content_hash, removed, last_seen_run, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0,"
    " $9, $10) ON CONFLICT (tenant_id, connector_id, external_id) DO UPDATE SET document_id = excluded.document_id,"
    " source_version = excluded.source_version, etag = excluded.etag, last_modified = excluded.last_modified,"
    " content_hash = excluded.content_hash, removed = 0, last_seen_run = excluded.last_seen_run,"
    " updated_at = excluded.updated_at"};

// kUpsertKnown for a batch: rows as a JSON array of objects
// {e: external id, d: document id, v: source version, t: etag,
// m: last modified, h: content hash}, each external id once.
constexpr TenantQuery kUpsertKnownBatch{
    "connectors.upsert_known_batch",
    "INSERT INTO connector_documents (tenant_id, connector_id, external_id, document_id, source_version, etag,"
    " last_modified, content_hash, removed, last_seen_run, updated_at) SELECT $1, $2, json_extract(value, '$.e'),"
    " json_extract(value, '$.d'), json_extract(value, '$.v'), json_extract(value, '$.t'),"
    " json_extract(value, '$.m'), json_extract(value, '$.h'), 0, $3, $4 FROM json_each($5) WHERE true"
    " ON CONFLICT (tenant_id, connector_id, external_id) DO UPDATE SET document_id = excluded.document_id,"
    " source_version = excluded.source_version, etag = excluded.etag, last_modified = excluded.last_modified,"
    " content_hash = excluded.content_hash, removed = 0, last_seen_run = excluded.last_seen_run,"
    " updated_at = excluded.updated_at",
    "INSERT INTO connector_documents (tenant_id, connector_id, external_id, document_id, source_version, etag,"
    " last_modified, content_hash, removed, last_seen_run, updated_at) SELECT $1, $2, j.e, j.d, j.v, j.t, j.m,"
    " j.h, 0, $3, $4 FROM json_to_recordset(CAST($5 AS JSON)) AS j(e TEXT, d TEXT, v TEXT, t TEXT, m TEXT, h TEXT)"
    " ON CONFLICT (tenant_id, connector_id, external_id) DO UPDATE SET document_id = excluded.document_id,"
    " source_version = excluded.source_version, etag = excluded.etag, last_modified = excluded.last_modified,"
    " content_hash = excluded.content_hash, removed = 0, last_seen_run = excluded.last_seen_run,"
    " updated_at = excluded.updated_at"};

constexpr TenantQuery kMarkSeen{
    "connectors.mark_seen",
    "UPDATE connector_documents SET last_seen_run = $4, etag = COALESCE(CAST($5 AS TEXT), etag),"
    " last_modified = COALESCE(CAST($6 AS TEXT), last_modified)"
    " WHERE tenant_id = $1 AND connector_id = $2 AND external_id = $3"};

constexpr TenantQuery kMarkKnownRemoved{
    "connectors.mark_known_removed",
    "UPDATE connector_documents SET removed = 1, updated_at = $4"
    " WHERE tenant_id = $1 AND connector_id = $2 AND external_id = $3 AND removed = 0"};

// Tenant members by email (active or not: a document whose owner left is
// what owner_inactive reports).
constexpr TenantQuery kMemberByEmail{
    "connectors.member_by_email",
    "SELECT m.user_id FROM tenant_members m JOIN users u ON u.id = m.user_id"
    " WHERE m.tenant_id = $1 AND LOWER(u.email) = LOWER($2) ORDER BY m.user_id LIMIT 1"};

std::optional<std::string> MemberByEmail(WriteContext& ctx, const std::optional<std::string>& email) {
  if (!email || email->empty()) return std::nullopt;
  if (auto known = ctx.owner_by_email.find(*email); known != ctx.owner_by_email.end()) return known->second;
  auto rows = ctx.tx.Run(kMemberByEmail, {*email});
  std::optional<std::string> owner;
  if (!rows.empty()) owner = rows.front().Text(0);
  ctx.owner_by_email.emplace(*email, owner);
  return owner;
}

void WriteKnown(WriteContext& ctx, WriteContext::KnownRow row) {
  if (!ctx.defer_known) {
    ctx.tx.Run(kUpsertKnown, {ctx.connector.id, row.external_id, row.document_id, row.source_version, row.etag,
                              row.last_modified, row.content_hash, ctx.run_id, ctx.now});
    return;
  }
  // Two rows for one id would make PostgreSQL's ON CONFLICT refuse the
  // statement; the later write is the one that stands.
  if (auto at = ctx.pending_known_index.find(row.external_id); at != ctx.pending_known_index.end()) {
    ctx.pending_known[at->second] = std::move(row);
    return;
  }
  ctx.pending_known_index.emplace(row.external_id, ctx.pending_known.size());
  ctx.pending_known.push_back(std::move(row));
}

}  // namespace

std::optional<KnownDocument> FindKnown(storage::TenantSession& tx, const std::string& connector_id,
                                       const std::string& external_id) {
  auto rows = tx.Run(kFindKnown, {connector_id, external_id});
  if (rows.empty()) return std::nullopt;
  const auto& r = rows.front();
  return KnownDocument{r.Text(0), r.OptText(1), r.OptText(2), r.OptText(3), r.OptText(4), r.Bool(5)};
}

void ReadAhead(WriteContext& ctx, const std::vector<std::string>& external_ids, const std::vector<std::string>& urls) {
  for (const auto& id : external_ids) ctx.read_ahead.emplace(id, std::nullopt);
  for (auto& d : trust::FindConnectedDocuments(ctx.tx, ctx.connector.key, external_ids)) {
    const std::string id = d.external_id;
    ctx.read_ahead[id] = std::move(d);
  }
  std::vector<std::string> unread;
  for (const auto& url : urls)
    if (ctx.urls_read_ahead.insert(url).second) unread.push_back(url);
  for (auto& [url, holder] : trust::FindUrlHolders(ctx.tx, unread)) ctx.url_holders.insert_or_assign(url, holder);
}

void FlushKnown(WriteContext& ctx) {
  if (ctx.pending_known.empty()) return;
  std::string rows = "[";
  const auto member = [&rows](const char* name, const std::optional<std::string>& value) {
    rows += name;
    if (value)
      AppendJsonString(rows, *value);
    else
      rows += "null";
  };
  for (const auto& r : ctx.pending_known) {
    if (rows.size() > 1) rows.push_back(',');
    member("{\"e\":", r.external_id);
    member(",\"d\":", r.document_id);
    member(",\"v\":", r.source_version);
    member(",\"t\":", r.etag);
    member(",\"m\":", r.last_modified);
    member(",\"h\":", r.content_hash);
    rows.push_back('}');
  }
  rows.push_back(']');
  ctx.tx.Run(kUpsertKnownBatch, {ctx.connector.id, ctx.run_id, ctx.now, rows});
  ctx.pending_known.clear();
  ctx.pending_known_index.clear();
}

Result<WriteOutcome> WriteDocument(WriteContext& ctx, const SourceDocument& doc) {
  const std::string hash = Sha256Hex(doc.text);
  std::optional<trust::ConnectedDocument> existing;
  if (auto ahead = ctx.read_ahead.find(doc.external_id); ahead != ctx.read_ahead.end()) {
    existing = std::move(ahead->second);
    ctx.read_ahead.erase(ahead);  // the same id again in the batch reads what this write leaves
  } else {
    existing = trust::FindConnectedDocument(ctx.tx, ctx.connector.key, doc.external_id);
  }

  trust::ConnectedDocumentInput in;
  in.connector_key = ctx.connector.key;
  in.external_id = doc.external_id;
  in.url = doc.url;
  in.title = doc.title;
  in.content_hash = hash;
  in.owner_id = MemberByEmail(ctx, doc.owner_email);
  in.last_reviewed_at = doc.reviewed_at;
  in.last_review_type = doc.reviewed_at ? doc.review_type : std::nullopt;
  in.status = trust::kDocumentPublished;
  in.last_synced_at = ctx.now;
  const bool came_back = existing && existing->status == trust::kDocumentRemoved;
  const bool content_changed = !existing || existing->content_hash != hash || came_back;
  in.content_updated_at = content_changed ? doc.modified_at.value_or(ctx.now) : existing->content_updated_at;
  CR_TRY(trust::ValidateConnectedDocument(in));

  WriteOutcome outcome = !existing || came_back ? WriteOutcome::kAdded
                         : content_changed      ? WriteOutcome::kChanged
                                                : WriteOutcome::kUnchanged;
  // Nothing to write when every field is as stored: no version, no cache
  // generation, no scan.
  const bool same = existing && !content_changed && existing->url == in.url && existing->title == in.title &&
                    existing->owner_id == in.owner_id && existing->last_reviewed_at == in.last_reviewed_at &&
                    existing->last_review_type == in.last_review_type && existing->status == in.status;
  std::string document_id = existing ? existing->id : "";
  bool created = false;
  if (!same) {
    trust::UpsertChecks checked;
    checked.owner_is_member = in.owner_id.has_value();  // found among the members just now
    if (in.url && ctx.urls_read_ahead.count(*in.url)) {
      if (auto h = ctx.url_holders.find(*in.url);
          h != ctx.url_holders.end() &&
          (h->second.connector_key != ctx.connector.key || h->second.external_id != doc.external_id))
        return Error::Conflict("url_taken", "Another connected document of the tenant has this URL.");
      checked.url_free = true;
    }
    CR_TRY_ASSIGN(trust::DocumentUpsert written, trust::UpsertConnectedDocument(ctx.tx, in, ctx.now, checked));
    document_id = written.document.id;
    created = written.created;
    if (existing && existing->url && existing->url != in.url) ctx.url_holders.erase(*existing->url);
    if (in.url) {
      ctx.url_holders.insert_or_assign(*in.url, trust::UrlHolder{ctx.connector.key, doc.external_id});
      ctx.urls_read_ahead.insert(*in.url);
    }
  }
  WriteKnown(ctx, {doc.external_id, document_id, hash, doc.source_version, doc.etag, doc.last_modified});
  if (content_changed && ctx.scanning != nullptr)
    ctx.scanning->ScanConnectedDocument(ctx.tx, document_id, doc.text, ctx.now, &ctx.scan_batch, created);
  return outcome;
}

bool RemoveDocument(WriteContext& ctx, const std::string& external_id) {
  FlushKnown(ctx);
  auto known = FindKnown(ctx.tx, ctx.connector.id, external_id);
  if (!known || known->removed) return false;
  ctx.tx.Run(kMarkKnownRemoved, {ctx.connector.id, external_id, ctx.now});
  trust::MarkConnectedDocumentRemoved(ctx.tx, ctx.connector.key, external_id, ctx.now);
  if (ctx.scanning != nullptr) ctx.scanning->ForgetConnectedDocument(ctx.tx, known->document_id, ctx.now);
  return true;
}

void MarkSeen(WriteContext& ctx, const std::string& external_id, const std::optional<std::string>& etag,
              const std::optional<std::string>& last_modified) {
  FlushKnown(ctx);
  ctx.tx.Run(kMarkSeen, {ctx.connector.id, external_id, ctx.run_id, etag, last_modified});
}

}  // namespace credence::connectors::internal
