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
// docs/apps.md). Unset fields inherit. As a request, every field may be
// null, which is the same as leaving it out (disclaimerText: null clears).
Schema PolicyOverrideSchema(Schema::Use use = Schema::Use::kResponse);

}  // namespace credence::http
