#include "lifecycle/notification_service.h"

namespace credence::lifecycle {}  // namespace credence::lifecycle
