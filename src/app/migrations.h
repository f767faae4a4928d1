#pragma once
#include <vector>

#include "storage/migrations.h"

namespace credence::app {

// Every module's migrations, in version order.
std::vector<storage::Migration> AllMigrations();

}  // namespace credence::app
