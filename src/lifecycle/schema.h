#pragma once
#include <vector>

#include "storage/migrations.h"

namespace credence::lifecycle {

// Tables of the lifecycle module, in migration order (300 and up).
const std::vector<storage::Migration>& Migrations();

}  // namespace credence::lifecycle
