#pragma once
#include <vector>

#include "storage/migrations.h"

namespace credence::plugins {

// Migrations 1500-1599: tenant plugin installations (1500),
// approval-workflow's approvals (1501),
// tenant guard scripts and admission hooks (1502), hub rules (1503).
const std::vector<storage::Migration>& Migrations();

}  // namespace credence::plugins
