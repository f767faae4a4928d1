#pragma once
// JSON shapes of the trust plane shared by several route files.
#include <string>
#include <vector>

#include "http/schema.h"

namespace credence::http {

// Public, Internal, Confidential, Restricted.
const std::vector<std::string>& SensitivityNames();
// 0..3650 days.
Schema Days();
// The policy model of the trust plane: a partial override, as at every
// policy level and as an app's default policy (docs/trust-admin.md,
// docs/apps.md). Unset fields inherit.
Schema PolicyOverrideSchema();

}  // namespace credence::http
