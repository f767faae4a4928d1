#pragma once
#include <vector>

#include "storage/migrations.h"

namespace credence::integrity {

// Migrations 800-899: the chain-signing public keys, the signed heads, the
// archive boundaries, the Merkle logs.
const std::vector<storage::Migration>& Migrations();

}  // namespace credence::integrity
