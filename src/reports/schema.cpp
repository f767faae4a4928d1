#include "reports/schema.h"

namespace credence::reports {

const std::vector<storage::Migration>& Migrations() {
  static const std::vector<storage::Migration> kMigrations = {};
  return kMigrations;
}

}  // namespace credence::reports
