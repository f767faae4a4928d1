#pragma once
#include <vector>

#include "storage/migrations.h"

namespace credence::connectors {

// Tables of the connectors module, in migration order (700 and up).
const std::vector<storage::Migration>& Migrations();

}  // namespace credence::connectors
