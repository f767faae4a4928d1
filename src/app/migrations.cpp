#include "app/migrations.h"

#include "analytics/schema.h"
#include "connectors/schema.h"
#include "identity/schema.h"
#include "integrity/schema.h"
#include "kb/schema.h"
#include "lifecycle/schema.h"
#include "notify/schema.h"
#include "platform/schema.h"
#include "plugins/schema.h"
#include "reports/schema.h"
#include "retention/schema.h"
#include "trust/schema.h"

namespace credence::app {

std::vector<storage::Migration> AllMigrations() {
  // The storage module's own tables come first (storage/migrations.h).
  std::vector<storage::Migration> all(storage::Migrations().begin(), storage::Migrations().end());
  for (const auto* module : {&identity::Migrations(), &kb::Migrations(), &lifecycle::Migrations(),
                             &notify::Migrations(), &trust::Migrations(), &reports::Migrations(),
                             &platform::Migrations(), &integrity::Migrations(),
                             &connectors::Migrations(), &plugins::Migrations(), &analytics::Migrations(), &retention::Migrations()})
    all.insert(all.end(), module->begin(), module->end());
  return all;
}

}  // namespace credence::app
