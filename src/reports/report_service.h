#pragma once
// Compliance reports (docs/reports.md): seven reports over the decision
// ledger, usage records and the registry, each one table of typed columns
// and rows, run on indexed queries and maintained aggregates.
#include "core/clock.h"

namespace credence::storage {
class Database;
}

namespace credence::reports {

class ReportService {
 public:
  ReportService(storage::Database& db, const Clock& clock) : db_(db), clock_(clock) {}

 private:
  storage::Database& db_;
  const Clock& clock_;
};

}  // namespace credence::reports
