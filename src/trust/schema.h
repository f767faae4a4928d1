#pragma once
#include <vector>

#include "storage/migrations.h"

namespace credence::trust {

// Tables of the trust module, in migration order (500 and up).
const std::vector<storage::Migration>& Migrations();

}  // namespace credence::trust
