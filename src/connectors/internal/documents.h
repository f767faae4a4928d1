#pragma once
// Writing one document of a connector, in the caller's write transaction:
// the connected document (trust/connected_documents.h), the connector's own
// record of it (connector_documents) and the content scan. Shared by syncs
// and pushes, so both store, version and scan alike.
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "connectors/connector.h"
#include "core/result.h"
#include "trust/connected_documents.h"
#include "trust/content_scanning.h"

namespace credence::storage {
class TenantSession;
}

namespace credence::connectors::internal {

struct WriteContext {
  storage::TenantSession& tx;
  const Connector& connector;
  const trust::ContentScanning* scanning;  // null: not wired (docs/connectors.md)
  TimeMs now = 0;
  std::optional<std::string> run_id;  // the sync writing, if any
  // Connected documents read ahead for the transaction's writes (ReadAhead),
  // by external id; nullopt: read ahead and not there. Each is used once.
  std::unordered_map<std::string, std::optional<trust::ConnectedDocument>> read_ahead;
  trust::ScanBatch scan_batch;  // the scans of this transaction
  // Who holds each URL read ahead, kept current by the writes; a URL not in
  // `urls_read_ahead` is checked by the write itself.
  std::unordered_map<std::string, trust::UrlHolder> url_holders;
  std::unordered_set<std::string> urls_read_ahead;
  // Owners looked up by email in this transaction (a repository names a few
  // owners on thousands of files).
  std::unordered_map<std::string, std::optional<std::string>> owner_by_email;
  // With defer_known, the connector's records of written documents are kept
  // here and written by FlushKnown in one statement; the caller must call it
  // before committing. Reads of those records (RemoveDocument, MarkSeen)
  // flush first.
  bool defer_known = false;
  struct KnownRow {
    std::string external_id, document_id, content_hash;
    std::optional<std::string> source_version, etag, last_modified;
  };
  std::vector<KnownRow> pending_known;
  std::unordered_map<std::string, size_t> pending_known_index;  // by external id: a later write replaces
};

// Reads, in one statement each, the connected documents of these external
// ids and the holders of these URLs, for the WriteDocument calls that follow
// in the same transaction (a sync's batch): on PostgreSQL every statement is
// a round trip, and a first sync writes thousands of documents.
void ReadAhead(WriteContext& ctx, const std::vector<std::string>& external_ids,
               const std::vector<std::string>& urls = {});

// Writes the connector's records that defer_known kept (none: no statement).
void FlushKnown(WriteContext& ctx);

struct KnownDocument {
  std::string document_id;
  std::optional<std::string> source_version, etag, last_modified, content_hash;
  bool removed = false;
};

std::optional<KnownDocument> FindKnown(storage::TenantSession& tx, const std::string& connector_id,
                                       const std::string& external_id);

// Adds or updates the document. The content hash (SHA-256 of the text)
// decides the version: a different hash (or a removed document coming back)
// moves content_updated_at to `doc.modified_at` (default now) and bumps the
// version; otherwise the stored content_updated_at is kept, and a document
// whose every field is unchanged is not written at all. Errors (a document
// that cannot be stored: url_taken, a validation error) leave nothing
// written for it.
Result<WriteOutcome> WriteDocument(WriteContext& ctx, const SourceDocument& doc);

// Marks it Removed (connected_documents) and forgets its findings. False
// when the connector did not know it or it was removed already.
bool RemoveDocument(WriteContext& ctx, const std::string& external_id);

// Remembers that the run saw the document unchanged (web: the validators
// may have moved).
void MarkSeen(WriteContext& ctx, const std::string& external_id, const std::optional<std::string>& etag,
              const std::optional<std::string>& last_modified);

}  // namespace credence::connectors::internal
