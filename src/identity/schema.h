#pragma once
#include <vector>

#include "storage/migrations.h"

namespace credence::identity {

// Tables of the identity module, in migration order.
const std::vector<storage::Migration>& Migrations();

}  // namespace credence::identity
