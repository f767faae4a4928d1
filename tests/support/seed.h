#pragma once
// Rows a unit test needs before a domain service can act for someone.
#include <string>

#include "identity/principal.h"

namespace credence::storage {
class Database;
}

namespace credence::test {

// A tenant (its slug made unique from `slug`) and, with `with_owner`, its
// owner: a user with an active Owner membership. Returns the owner as a
// signed-in principal (with fresh ids when there is no owner row).
identity::Principal SeedTenant(storage::Database& db, const std::string& slug, bool with_owner = true);

}  // namespace credence::test
