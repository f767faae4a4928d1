#pragma once
#include <vector>

#include "storage/migrations.h"

namespace credence::integrity {

// Migrations 800-899: the chain-signing public keys and the signed heads.
const std::vector<storage::Migration>& Migrations();

}  // namespace credence::integrity
