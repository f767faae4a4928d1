#pragma once
// The documents of one run, written in batches (sync_engine.h): each batch
// is one write transaction with the documents, the run's counters and
// checkpoint, and the renewal of the connector's lease. A lost lease
// throws LeaseLost (the batch is rolled back; whoever holds the lease now
// carries on).
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "connectors/connector.h"
#include "connectors/internal/documents.h"

namespace credence::storage {
class Database;
}
namespace credence {
class Clock;
}

namespace credence::connectors::internal {

struct LeaseLost : std::runtime_error {
  LeaseLost() : std::runtime_error("the connector's lease was lost") {}
};

struct RunScope {
  std::string tenant_id;
  Connector connector;
  std::string run_id;
  std::string holder;
  int64_t lease_ms = 0;
  int64_t batch_size = 200;
  int64_t batch_pause_ms = 0;
};

class RunWriter {
 public:
  RunWriter(storage::Database& db, const Clock& clock, const trust::ContentScanning* scanning, RunScope scope);

  // `position`: where the run is in its order once this is committed (the
  // checkpoint); empty when the kind has none.
  void Upsert(SourceDocument doc, const std::string& position = {});
  void Unchanged(const std::string& external_id, const std::string& position = {}, bool mark_seen = false,
                 std::optional<std::string> etag = std::nullopt,
                 std::optional<std::string> last_modified = std::nullopt);
  void Remove(const std::string& external_id, const std::string& position = {});
  void Fail(const std::string& external_id, const std::string& message, const std::string& position = {});
  // Commits what is pending (also when nothing is: the lease is renewed).
  void Flush();
  // Records what the run syncs to and from (git commits), at once: a
  // resumed run continues with the same ones.
  void SetTarget(const std::string& target, const std::optional<std::string>& base);

  // Outside any batch: what the connector knows of its documents.
  std::optional<KnownDocument> Known(const std::string& external_id) const;
  struct KnownEntry {
    std::string external_id;
    std::optional<std::string> source_version;
    bool removed = false;
    std::optional<std::string> last_seen_run;
  };
  std::vector<KnownEntry> AllKnown() const;

  const RunScope& scope() const { return scope_; }

 private:
  enum class OpKind { kUpsert, kUnchanged, kRemove, kFail };
  struct Op {
    OpKind kind;
    SourceDocument doc;  // kUpsert; doc.external_id names the document for every kind
    std::string message;
    bool mark_seen = false;
  };
  void Add(Op op, const std::string& position);

  storage::Database& db_;
  const Clock& clock_;
  const trust::ContentScanning* scanning_;
  RunScope scope_;
  std::vector<Op> pending_;
  size_t pending_bytes_ = 0;
  std::string position_;
};

}  // namespace credence::connectors::internal
