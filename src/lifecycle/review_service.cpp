#include "lifecycle/review_service.h"

namespace credence::lifecycle {}  // namespace credence::lifecycle
