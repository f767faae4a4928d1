#pragma once
// Compliance reports (docs/reports.md): seven reports over the decision
// ledger, usage records and the registry, each one table of typed columns
// and rows, run on indexed queries and maintained aggregates (rollup.h).
// Every run first folds what the ledger and the usage queue hold for the
// tenant, so a report includes every decision and usage record committed
// before it started.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/clock.h"
#include "core/date_window.h"
#include "core/result.h"
#include "identity/principal.h"
#include "reports/rollup.h"

namespace credence::storage {
class Database;
}

namespace credence::reports {

enum class ColumnType {
  kString,
  kInteger,
  kNumber,     // a decimal fraction
  kBoolean,
  kTimestamp,  // RFC 3339 UTC in JSON and CSV; held as epoch ms in a Cell
};
std::string_view ColumnTypeName(ColumnType type);

struct Column {
  std::string name;
  ColumnType type;
};

// One cell; std::monostate is null. Timestamps are int64_t epoch ms.
using Cell = std::variant<std::monostate, std::string, int64_t, double, bool>;
using ReportRow = std::vector<Cell>;

struct ReportInfo {
  std::string key;
  std::string title;
  std::string description;  // the question it answers
  std::vector<Column> columns;
};

// The seven reports, in the order GET /trust-admin/reports lists them.
const std::vector<ReportInfo>& Catalog();

// A report's title and description in `language` (a primary language tag:
// "es" has its own; any other answers English, the catalog's).
struct ReportText {
  std::string_view title;
  std::string_view description;
};
ReportText LocalizedText(const ReportInfo& info, std::string_view language);
const ReportInfo* FindReport(std::string_view key);

struct ReportParams {
  std::optional<std::string> from;    // "YYYY-MM-DD" (UTC), inclusive
  std::optional<std::string> to;      // "YYYY-MM-DD" (UTC), inclusive
  std::optional<std::string> app_id;  // an app of the tenant
};

struct Report {
  const ReportInfo* info = nullptr;
  DateWindow window;
  std::optional<std::string> app_id;
  TimeMs generated_at = 0;
  std::vector<ReportRow> rows;
};

class ReportService {
 public:
  ReportService(storage::Database& db, const Clock& clock) : db_(db), clock_(clock), rollup_(db, clock) {}

  // Needs a global admin of the tenant (403). Unknown key: 404. Bad from/to:
  // 400 naming the field (core/date_window.h). appId not a UUID: 400 naming
  // appId; not an app of the tenant: 404.
  Result<Report> Run(const identity::Principal& caller, std::string_view key, const ReportParams& params) const;

  // Folds every tenant's new decisions and usage (the background job and
  // POST /dev/jobs/run).
  RollupStats RunRollup() const { return rollup_.RunOnce(); }

 private:
  storage::Database& db_;
  const Clock& clock_;
  Rollup rollup_;
};

}  // namespace credence::reports
