#include "notify/schema.h"

namespace credence::notify {

const std::vector<storage::Migration>& Migrations() {
  static const std::vector<storage::Migration> kMigrations = {};
  return kMigrations;
}

}  // namespace credence::notify
