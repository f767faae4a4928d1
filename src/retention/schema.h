#pragma once
#include <vector>

#include "storage/migrations.h"

namespace credence::retention {

// Migrations 1700-1799: retention settings and the archives written.
const std::vector<storage::Migration>& Migrations();

}  // namespace credence::retention
