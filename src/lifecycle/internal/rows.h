#pragma once
// Row mapping for the template column list in queries.h.
#include "lifecycle/expiry_template_service.h"
#include "storage/rows.h"

namespace credence::lifecycle::internal {

ExpiryTemplate TemplateFromRow(const storage::Row& row);

}  // namespace credence::lifecycle::internal
