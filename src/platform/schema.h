#pragma once
#include <vector>

#include "storage/migrations.h"

namespace credence::platform {

// Migrations 700-799: the audit log.
const std::vector<storage::Migration>& Migrations();

}  // namespace credence::platform
