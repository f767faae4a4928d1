#pragma once
#include <vector>

#include "storage/migrations.h"

namespace credence::platform {

// Migrations 700-799: the audit log (700), tenant configuration (701).
const std::vector<storage::Migration>& Migrations();

}  // namespace credence::platform
