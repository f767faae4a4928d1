#pragma once
// Archives as answers name them (docs/retention.md): one archive file's
// listing, and what an answer over an archived window adds. Shared by the
// HTTP routes and the exports that refuse such windows.
#include <boost/json/object.hpp>

#include "retention/retention_service.h"

namespace credence::retention {

// As GET /trust-admin/retention/archives lists it.
boost::json::object ArchiveJson(const ArchiveInfo& archive);
// {before, archives}.
boost::json::object ArchivedWindowJson(const RetentionService::ArchivedWindow& window);

}  // namespace credence::retention
