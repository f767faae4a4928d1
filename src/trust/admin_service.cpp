#include "trust/admin_service.h"

namespace credence::trust {}  // namespace credence::trust
