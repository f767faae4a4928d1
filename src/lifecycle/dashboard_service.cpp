#include "lifecycle/dashboard_service.h"

namespace credence::lifecycle {}  // namespace credence::lifecycle
