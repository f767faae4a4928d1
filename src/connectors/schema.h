#pragma once
#include <vector>

#include "storage/migrations.h"

namespace credence::connectors {

// Tables of the connectors module, in migration order (900 and up; platform has 700, integrity 800).
const std::vector<storage::Migration>& Migrations();

}  // namespace credence::connectors
