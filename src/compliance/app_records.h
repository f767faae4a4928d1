#pragma once
// EU AI Act record-keeping exports (docs/ai-act.md): everything Credence
// holds about one AI application over one period, in one document that
// proves itself: a cover (the app, its risk level, its owner, the period,
// counts, the retention in force), every decision of the app with its
// frozen evidence, the usage records the app logged, the human oversight
// around them (reviews and renewals of the entries its decisions used; the
// audit log's policy, sensitivity, context, approval, app and app-key
// changes), in time order, and last the signed checkpoint of the tenant's
// Merkle log that covers the last decision, so a receipt of any listed
// decision (docs/receipts.md) checks against it.
//
// Read in one read transaction, so the lines and the checkpoint are one
// snapshot. A window that reaches archived records is refused with the
// archives named (docs/retention.md): never a silently partial file.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.h"
#include "core/date_window.h"
#include "core/result.h"
#include "identity/principal.h"

namespace credence::storage {
class Database;
}
namespace credence::integrity {
class MerkleLogs;
}
namespace credence::retention {
class RetentionService;
}
namespace credence::trust {
class AppRegistry;
}

namespace credence::compliance {

inline constexpr char kAppRecordsFormat[] = "credence-app-records/1";
// An export is built in memory: a window holding more decisions (or more
// usage records) than this is refused with 400 naming `from`, asking for a
// shorter one. At ~2 KB a decision line, 100,000 is ~200 MB of answer.
inline constexpr int64_t kMaxExportedDecisions = 100'000;

struct AppRecordsLine {
  TimeMs at = 0;
  std::string type;  // evidence | decision | usage | oversight
  std::string id;    // the evidence's hash; the decision's, usage record's, review's, renewal's or audit entry's id
  std::optional<std::string> decision_id;  // usage: the decision it reports on
  std::string json;                        // the whole line as one JSON object (its "type" first)
};

struct AppRecords {
  std::string app_id;
  DateWindow window;
  TimeMs generated_at = 0;
  std::string cover_json;                      // {"type":"cover",...}
  std::vector<AppRecordsLine> lines;           // oldest first
  std::optional<std::string> checkpoint_json;  // {"type":"checkpoint",...}; none before the log has one
};

class AppRecordsExporter {
 public:
  // `retry_after_seconds`: what an export whose last decision no checkpoint
  // covers yet tells the caller to wait (the checkpoint interval).
  AppRecordsExporter(storage::Database& db, const Clock& clock, const trust::AppRegistry& apps,
                     const integrity::MerkleLogs& logs, const retention::RetentionService& retention,
                     int64_t retry_after_seconds)
      : db_(db),
        clock_(clock),
        apps_(apps),
        logs_(logs),
        retention_(retention),
        retry_after_seconds_(retry_after_seconds) {}

  // Tenant admins (403 otherwise); archived apps too. 404 for an unknown
  // app or another tenant's. 400 naming from/to for a bad window
  // (ParseDateWindow), naming `from` for one holding more than
  // kMaxExportedDecisions. 409 window_archived (with `archived`: before,
  // archives) when records of the window were archived; 409
  // records_not_ready (with retryAfter) when no checkpoint covers the
  // window's last decision yet.
  Result<AppRecords> Export(const identity::Principal& caller, const std::string& app_id,
                            const std::optional<std::string>& from, const std::optional<std::string>& to) const;

 private:
  storage::Database& db_;
  const Clock& clock_;
  const trust::AppRegistry& apps_;
  const integrity::MerkleLogs& logs_;
  const retention::RetentionService& retention_;
  int64_t retry_after_seconds_;
};

}  // namespace credence::compliance
