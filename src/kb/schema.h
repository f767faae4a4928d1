#pragma once
#include <vector>

#include "storage/migrations.h"

namespace credence::kb {

// Tables of the knowledge base, in migration order.
const std::vector<storage::Migration>& Migrations();

}  // namespace credence::kb
