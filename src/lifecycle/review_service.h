#pragma once
// Reviews and renewals of an entry's expiry: review submissions (which may
// renew, depending on the expiry template), review history, renewal
// eligibility with machine-readable blockers, renewals (PUT and POST),
// bulk renewal, and pausing and resuming expiry. docs/lifecycle.md.
#include "core/clock.h"

namespace credence::storage {
class Database;
}

namespace credence::lifecycle {

class ReviewService {
 public:
  ReviewService(storage::Database& db, const Clock& clock) : db_(db), clock_(clock) {}

 private:
  storage::Database& db_;
  const Clock& clock_;
};

}  // namespace credence::lifecycle
