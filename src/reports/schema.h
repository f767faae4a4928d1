#pragma once
#include <vector>

#include "storage/migrations.h"

namespace credence::reports {

// Migrations 600-699: the reports' maintained aggregates.
const std::vector<storage::Migration>& Migrations();

}  // namespace credence::reports
