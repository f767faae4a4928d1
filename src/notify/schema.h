#pragma once
// Migrations of the notify module (400-499).
#include <vector>

#include "storage/migrations.h"

namespace credence::notify {

const std::vector<storage::Migration>& Migrations();

}  // namespace credence::notify
