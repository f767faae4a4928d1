#pragma once
#include <vector>

#include "storage/migrations.h"

namespace credence::analytics {

// Tables of the analytics module, in migration order (1600 and up).
const std::vector<storage::Migration>& Migrations();

}  // namespace credence::analytics
